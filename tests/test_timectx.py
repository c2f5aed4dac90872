"""Time expressions → absolute [start, end], relative to now = Tue 2024-10-15 20:00 UTC."""

from datetime import date, datetime, timezone

import pytest

from finsearch.plan.timectx import resolve
from finsearch.timecontext import TimeContext

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)

CASES = [
    # relative days and weeks
    ("How is NVDA doing today?", "2024-10-15", "2024-10-15"),
    ("What happened to AAPL yesterday?", "2024-10-14", "2024-10-14"),
    ("TSLA the day before yesterday", "2024-10-13", "2024-10-13"),
    ("How did MSFT do this week?", "2024-10-14", "2024-10-15"),
    ("Why did NVDA fall last week?", "2024-10-07", "2024-10-13"),
    ("AMD over the past week", "2024-10-08", "2024-10-15"),
    ("NVDA in the past 5 days", "2024-10-10", "2024-10-15"),
    ("AAPL over the past two weeks", "2024-10-01", "2024-10-15"),
    ("Tesla past 3 months", "2024-07-15", "2024-10-15"),
    ("S&P 500 over the last 30 days", "2024-09-15", "2024-10-15"),
    ("bitcoin in the past year", "2023-10-15", "2024-10-15"),
    ("gold over the past 2 years", "2022-10-15", "2024-10-15"),
    ("NVDA last 10 trading days", "2024-10-02", "2024-10-15"),     # ten sessions, today the last
    ("news in the past 24 hours", "2024-10-14", "2024-10-15"),
    ("AAPL 3 days ago", "2024-10-12", "2024-10-12"),
    ("MSFT a week ago", "2024-10-08", "2024-10-08"),
    ("What moved META recently?", "2024-10-08", "2024-10-15"),
    # months
    ("How did AAPL do last month?", "2024-09-01", "2024-09-30"),
    ("NVDA this month", "2024-10-01", "2024-10-15"),
    ("AAPL month to date", "2024-10-01", "2024-10-15"),
    ("What happened to Tesla in August 2024?", "2024-08-01", "2024-08-31"),
    ("NVDA in September", "2024-09-01", "2024-09-30"),
    ("AAPL in December", "2023-12-01", "2023-12-31"),
    ("Oil in May", "2024-05-01", "2024-05-31"),
    ("Sept 2023 performance", "2023-09-01", "2023-09-30"),
    ("late September", "2024-09-21", "2024-09-30"),
    ("early September 2023", "2023-09-01", "2023-09-10"),
    ("mid-August", "2024-08-11", "2024-08-20"),
    ("end of March 2024", "2024-03-21", "2024-03-31"),
    # years
    ("Compare AAPL and MSFT year to date", "2024-01-01", "2024-10-15"),
    ("NVDA YTD", "2024-01-01", "2024-10-15"),
    ("How has gold done this year?", "2024-01-01", "2024-10-15"),
    ("Tesla last year", "2023-01-01", "2023-12-31"),
    ("Apple revenue in 2022", "2022-01-01", "2022-12-31"),
    ("NVDA 2023 revenue", "2023-01-01", "2023-12-31"),
    ("fiscal year 2023", "2023-01-01", "2023-12-31"),
    ("MSFT FY24 results", "2024-01-01", "2024-12-31"),
    # quarters and halves
    ("NVDA earnings in Q2 2024", "2024-04-01", "2024-06-30"),
    ("AAPL 2024 Q1", "2024-01-01", "2024-03-31"),
    ("3Q24 results", "2024-07-01", "2024-09-30"),
    ("the third quarter of 2023", "2023-07-01", "2023-09-30"),
    ("Q4 revenue", "2024-10-01", "2024-12-31"),
    ("last quarter earnings", "2024-07-01", "2024-09-30"),
    ("this quarter so far", "2024-10-01", "2024-10-15"),
    ("H1 2024", "2024-01-01", "2024-06-30"),
    ("first half of 2023", "2023-01-01", "2023-06-30"),
    ("H2", "2024-07-01", "2024-12-31"),
    # explicit dates
    ("What happened on October 1, 2024?", "2024-10-01", "2024-10-01"),
    ("NVDA on 2024-10-01", "2024-10-01", "2024-10-01"),
    ("AAPL 10/1/2024", "2024-10-01", "2024-10-01"),
    ("TSLA on Oct 11", "2024-10-11", "2024-10-11"),
    ("1 October 2024", "2024-10-01", "2024-10-01"),
    ("since October 1", "2024-10-01", "2024-10-15"),
    ("from Sep 1 to Oct 1", "2024-09-01", "2024-10-01"),
    # weekdays
    ("Why did NVDA drop on Monday?", "2024-10-14", "2024-10-14"),
    ("What happened last Friday?", "2024-10-11", "2024-10-11"),
    ("AAPL on Tuesday", "2024-10-15", "2024-10-15"),
    ("Wednesday's rally", "2024-10-09", "2024-10-09"),
    # Chinese
    ("英伟达今天表现如何", "2024-10-15", "2024-10-15"),
    ("茅台昨天为什么跌", "2024-10-14", "2024-10-14"),
    ("腾讯本周走势", "2024-10-14", "2024-10-15"),
    ("比亚迪上周表现", "2024-10-07", "2024-10-13"),
    ("贵州茅台最近一个月表现如何？", "2024-09-15", "2024-10-15"),
    ("宁德时代近三个月走势", "2024-07-15", "2024-10-15"),
    ("阿里巴巴过去一周的新闻", "2024-10-08", "2024-10-15"),
    ("恒生指数今年以来涨了多少", "2024-01-01", "2024-10-15"),
    ("苹果去年的营收", "2023-01-01", "2023-12-31"),
    ("英伟达2024年第二季度财报", "2024-04-01", "2024-06-30"),
    ("茅台9月份表现", "2024-09-01", "2024-09-30"),
    ("10月1日发生了什么", "2024-10-01", "2024-10-01"),
    ("国庆节后A股走势", "2024-10-08", "2024-10-15"),
    ("上证指数近30天", "2024-09-15", "2024-10-15"),
    ("2024年上半年业绩", "2024-01-01", "2024-06-30"),
    ("2024年8月比特币", "2024-08-01", "2024-08-31"),
    ("9月下旬的反弹", "2024-09-21", "2024-09-30"),
    ("上周五美股为什么大跌", "2024-10-11", "2024-10-11"),
    ("上个月的表现", "2024-09-01", "2024-09-30"),
    ("上季度财报", "2024-07-01", "2024-09-30"),
    ("2024年10月8日", "2024-10-08", "2024-10-08"),
    ("近两周", "2024-10-01", "2024-10-15"),
    ("自9月以来", "2024-09-01", "2024-10-15"),
]


@pytest.mark.parametrize(("question", "start", "end"), CASES, ids=[c[0] for c in CASES])
def test_time_expressions(question, start, end):
    ctx = resolve(question, NOW)
    assert (ctx.start.isoformat(), ctx.end.isoformat()) == (start, end)
    assert ctx.explicit


@pytest.mark.parametrize("question", [
    "What's the latest news on Tesla?",
    "Why did NVDA fall?",
    "What is the 10-year Treasury yield?",
    "Is NVDA near its 52-week high?",
    "Stocks may fall if rates rise",
    "Compare the S&P 500 and Nasdaq",
    "贵州茅台的市值是多少",
])
def test_no_time_expression_means_today(question):
    ctx = resolve(question, NOW)
    assert ctx == TimeContext(date(2024, 10, 15), date(2024, 10, 15), "today", explicit=False)


def test_several_expressions_give_their_union():
    ctx = resolve("NVDA Q2 2024 vs Q2 2023", NOW)
    assert (ctx.start, ctx.end) == (date(2023, 4, 1), date(2024, 6, 30))


def test_relative_to_injected_now():
    ctx = resolve("last week", datetime(2025, 1, 2, 9, 0, tzinfo=timezone.utc))
    assert (ctx.start, ctx.end) == (date(2024, 12, 23), date(2024, 12, 29))


def test_table_is_large_enough():
    assert len(CASES) >= 60
