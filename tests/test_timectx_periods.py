"""Finance periods and forward-looking expressions, relative to now = Tue 2024-10-15 20:00 UTC
(Q4 2024 is the current quarter; the last completed one is Q3, 2024-07-01 … 2024-09-30)."""

from datetime import datetime, timezone

import pytest

from finsearch.plan.timectx import resolve

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)

PERIODS = [
    # trailing quarters: completed ones, as "last quarter" is the one before this
    ("NVDA revenue over the last four quarters", "2023-10-01", "2024-09-30"),
    ("AAPL last 2 quarters", "2024-04-01", "2024-09-30"),
    ("past 4 quarters revenue", "2023-10-01", "2024-09-30"),
    ("MSFT trailing four quarters", "2023-10-01", "2024-09-30"),
    ("近四个季度营收", "2023-10-01", "2024-09-30"),
    ("过去两个季度的利润", "2024-04-01", "2024-09-30"),
    ("最近4个季度", "2023-10-01", "2024-09-30"),
    # trailing twelve months: up to today
    ("NVDA TTM revenue", "2023-10-01", "2024-09-30"),        # the last four reported quarters
    ("AAPL trailing twelve months EPS", "2023-10-15", "2024-10-15"),
    ("LTM EBITDA", "2023-10-01", "2024-09-30"),
    ("trailing 12-month free cash flow", "2023-10-15", "2024-10-15"),
    ("过去十二个月", "2023-10-15", "2024-10-15"),
    ("近12个月的营收", "2023-10-15", "2024-10-15"),
    # sessions and trading days (weekdays: no market known)
    ("over the past 5 sessions", "2024-10-09", "2024-10-15"),   # 15, 14, 11, 10, 9
    ("TSLA last 3 trading sessions", "2024-10-11", "2024-10-15"),
    ("最近5个交易日", "2024-10-09", "2024-10-15"),
    ("过去五个交易日", "2024-10-09", "2024-10-15"),
    # halves and first quarters of a year
    ("上半年业绩", "2024-01-01", "2024-06-30"),
    ("今年上半年", "2024-01-01", "2024-06-30"),
    ("H1 2024", "2024-01-01", "2024-06-30"),
    ("1H24 margins", "2024-01-01", "2024-06-30"),
    ("今年前三季度营收", "2024-01-01", "2024-09-30"),
    ("前三季度净利润", "2024-01-01", "2024-09-30"),
    ("2024年前三季度", "2024-01-01", "2024-09-30"),
    ("去年前三季度", "2023-01-01", "2023-09-30"),
    ("前两季度", "2024-01-01", "2024-06-30"),
    ("first three quarters of 2024", "2024-01-01", "2024-09-30"),
    ("revenue in the first nine months", "2024-01-01", "2024-09-30"),
    ("9M24 revenue", "2024-01-01", "2024-09-30"),
    ("first six months of 2023", "2023-01-01", "2023-06-30"),
    # quarters written in shorthand
    ("Q3'24 results", "2024-07-01", "2024-09-30"),
    ("Q3 '24", "2024-07-01", "2024-09-30"),
    # fiscal and calendar years (the calendar year stands in for the fiscal one)
    ("this fiscal year", "2024-01-01", "2024-10-15"),
    ("fiscal year to date", "2024-01-01", "2024-10-15"),
    ("last fiscal year", "2023-01-01", "2023-12-31"),
    ("本财年", "2024-01-01", "2024-10-15"),
    ("上一财年营收", "2023-01-01", "2023-12-31"),
    # to date, since, half a year
    ("NVDA YTD", "2024-01-01", "2024-10-15"),
    ("AAPL MTD", "2024-10-01", "2024-10-15"),
    ("since January", "2024-01-01", "2024-10-15"),
    ("since the beginning of the year", "2024-01-01", "2024-10-15"),
    ("过去一年", "2023-10-15", "2024-10-15"),
    ("近半年", "2024-04-15", "2024-10-15"),
    ("最近半年走势", "2024-04-15", "2024-10-15"),
    ("半年来", "2024-04-15", "2024-10-15"),
    ("over the past half year", "2024-04-15", "2024-10-15"),
    ("本周", "2024-10-14", "2024-10-15"),
    ("上周五", "2024-10-11", "2024-10-11"),
    ("上一季度", "2024-07-01", "2024-09-30"),
]


@pytest.mark.parametrize(("question", "start", "end"), PERIODS, ids=[c[0] for c in PERIODS])
def test_periods(question, start, end):
    ctx = resolve(question, NOW)
    assert (ctx.start.isoformat(), ctx.end.isoformat()) == (start, end)
    assert ctx.explicit and not ctx.forward and ctx.anchor is None


AHEAD = [
    # next quarter from 2024-10-15 is Q1 2025 (it used to read "下一季度" as Q1 2024)
    ("下一季度营收预期", "2025-01-01", "2025-03-31"),
    ("下季度", "2025-01-01", "2025-03-31"),
    ("下个季度的指引", "2025-01-01", "2025-03-31"),
    ("AAPL guidance for next quarter", "2025-01-01", "2025-03-31"),
    ("next quarter's outlook", "2025-01-01", "2025-03-31"),
    ("the coming quarter", "2025-01-01", "2025-03-31"),
    ("next week", "2024-10-21", "2024-10-27"),
    ("下周", "2024-10-21", "2024-10-27"),
    ("下周一", "2024-10-21", "2024-10-21"),
    ("next month", "2024-11-01", "2024-11-30"),
    ("下个月", "2024-11-01", "2024-11-30"),
    ("MSFT outlook for next year", "2025-01-01", "2025-12-31"),
    ("明年", "2025-01-01", "2025-12-31"),
    ("明年上半年", "2025-01-01", "2025-06-30"),
    ("tomorrow's market", "2024-10-16", "2024-10-16"),
    ("明天", "2024-10-16", "2024-10-16"),
    ("NVDA over the next 3 months", "2024-10-15", "2025-01-15"),
    ("bitcoin in the coming weeks", "2024-10-15", "2024-11-05"),
    ("未来三个月", "2024-10-15", "2025-01-15"),
    ("接下来一周", "2024-10-15", "2024-10-22"),
    ("未来几天", "2024-10-15", "2024-10-18"),
    ("FY25 guidance", "2025-01-01", "2025-12-31"),
]


@pytest.mark.parametrize(("question", "start", "end"), AHEAD, ids=[c[0] for c in AHEAD])
def test_forward_looking(question, start, end):
    ctx = resolve(question, NOW)
    assert (ctx.start.isoformat(), ctx.end.isoformat(), ctx.forward) == (start, end, True)


@pytest.mark.parametrize("question", ["Q4 revenue", "H2", "this quarter so far", "下半年"])
def test_periods_that_began_are_not_forward(question):
    assert not resolve(question, NOW).forward


def test_a_year_number_is_not_a_count_of_years():
    # "2024年前" used to be read as "2024 years ago" and raise ValueError out of the analysis.
    ctx = resolve("2024年前的茅台", NOW)
    assert (ctx.start.isoformat(), ctx.end.isoformat()) == ("2024-01-01", "2024-12-31")
    for question in ("过去3000年", "未来9999年", "3000年前"):
        assert not resolve(question, NOW).explicit


@pytest.mark.parametrize(("question", "start", "end"), [
    ("宁王三季报", "2024-07-01", "2024-09-30"),            # Q3 has ended: this year's
    ("比亚迪一季报营收", "2024-01-01", "2024-03-31"),
    ("腾讯中报", "2024-01-01", "2024-06-30"),
    ("贵州茅台年报", "2023-01-01", "2023-12-31"),          # the last full year
    ("茅台2022年年报", "2022-01-01", "2022-12-31"),
    ("s&p 500 since the fed rate cut in september", "2024-09-18", "2024-10-15"),
    ("nvda since the fed cut in march 2020", "2020-03-15", "2024-10-15"),
])
def test_report_names_and_events_dated_after_the_event(question, start, end):
    tc = resolve(question, NOW)
    assert (tc.start.isoformat(), tc.end.isoformat()) == (start, end)


@pytest.mark.parametrize(("question", "start", "end"), [
    ("今年四季度苹果", "2024-10-01", "2024-12-31"),      # a quarter of a year named relative to now
    ("去年四季度营收", "2023-10-01", "2023-12-31"),
    ("明年一季度", "2025-01-01", "2025-03-31"),
    ("最近一季度营收", "2024-07-01", "2024-09-30"),       # as "past quarter": the last completed one
    ("近一个季度", "2024-07-01", "2024-09-30"),
    ("这一季度", "2024-10-01", "2024-10-15"),             # this quarter, not the first
    ("since the start of september", "2024-09-01", "2024-10-15"),
    ("十一以来上证指数", "2024-10-08", "2024-10-15"),    # 十一 next to a holiday word is National Day
    ("十一长假后", "2024-10-08", "2024-10-15"),
    ("nvda 1 year chart", "2023-10-15", "2024-10-15"),  # the span a chart or a return is over
    ("spy 6 month return", "2024-04-15", "2024-10-15"),
])
def test_quarters_of_named_years_since_phrases_and_chart_spans(question, start, end):
    tc = resolve(question, NOW)
    assert (tc.start.isoformat(), tc.end.isoformat()) == (start, end)


@pytest.mark.parametrize("question", ["第十一个月的数据", "nvda 52 week high"])
def test_eleven_and_a_52_week_range_name_no_period(question):
    assert not resolve(question, NOW).explicit
