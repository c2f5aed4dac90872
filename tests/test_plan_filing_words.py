"""A filing asked for in any words plans the filing source (issue 32, class 5): the form or report
named in English or Chinese, with or without "latest" and next to Chinese characters, reaches
SEC EDGAR with the form meant and cninfo with the report's category; a report about a past
period is looked for in the months it was filed in; the figures come too when numbers are asked.
now = Tue 2024-10-15 20:00 UTC."""

from __future__ import annotations

import pytest

from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan
from tests.conftest import NOW


def plan(question: str) -> dict[str, dict]:
    """source → the args of its first node."""
    planned: dict[str, dict] = {}
    for node in heuristic_plan(analyse(question, NOW), NOW):
        planned.setdefault(node.source, node.args)
    return planned


@pytest.mark.parametrize("question, form", [
    ("英伟达最新的10-Q", "10-Q"), ("英伟达 10-Q", "10-Q"), ("特斯拉的10K文件", "10-K"), ("msft latest 10q", "10-Q"),
    ("the most recent annual report for nvidia", "10-K"), ("amd's last 10-K filing", "10-K"),
    ("BABA most recent 20-F", "20-F"), ("jd.com 20f", "20-F"), ("pdd's newest 6-K", "6-K"),
    ("intel 8k this week", "8-K"),
    ("meta's proxy statement", "DEF 14A"), ("netflix def 14a", "DEF 14A"),
    ("苹果最新年报", "10-K"), ("亚马逊的年度报告", "10-K"), ("英特尔最近一期季报", "10-Q"), ("谷歌一季报", "10-Q"),
    ("nvidia's quarterly filing", "10-Q"), ("reddit s-1", "S-1"), ("拼多多的招股书", "S-1"),
])
def test_a_us_listings_filing_in_any_words_plans_its_form(question, form):
    planned = plan(question)
    assert planned["sec_filings"]["form"] == form, planned


@pytest.mark.parametrize("question, category", [
    ("宁德时代半年报", "半年报"), ("五粮液最新的一季报", "一季报"), ("贵州茅台中报", "半年报"),
    ("比亚迪三季报", "三季报"),
    ("招商银行最新年报", "年报"), ("隆基绿能的年度报告", "年报"), ("中国平安半年度报告", "半年报"),
    ("万科二季报", "半年报"),       # an A-share's second quarter is in its half-year report
])
def test_an_a_shares_report_is_asked_of_cninfo_by_its_category(question, category):
    assert plan(question)["cn_announcements"]["category"] == category


def test_a_report_about_a_named_period_is_looked_for_in_the_months_it_was_filed():
    # FY2023's annual report came out in the spring of 2024.
    args = plan("比亚迪2023年年报净利润")["cn_announcements"]
    assert (args["start"], args["end"], args["category"]) == ("2023-01-01", "2024-04-29", "年报")
    args = plan("tesla's 10-K for 2023")["sec_filings"]
    assert (args["start"], args["end"]) == ("2023-01-01", "2024-04-29")


@pytest.mark.parametrize("question, source", [
    ("苹果最新年报", "sec_filings"), ("阿里巴巴年报", "sec_filings"), ("宁德时代半年报", "cn_announcements"),
    ("五粮液最新的一季报", "cn_announcements"),
])
def test_a_report_named_without_a_period_is_the_latest_one(question, source):
    # The time reader dates "年报" to the last year ended; the report asked for is the latest filed,
    # whenever the company's fiscal year ends (Alibaba's ends in March).
    args = plan(question)[source]
    assert "start" not in args and "end" not in args, args


def test_filings_of_a_period_are_the_ones_filed_in_it():
    args = plan("tsla 8-K filings this month")["sec_filings"]
    assert (args["form"], args["start"], args["end"]) == ("8-K", "2024-10-01", "2024-10-15")


@pytest.mark.parametrize("question, figures", [
    ("英伟达最新季报里的营收是多少", "financials"),
    ("what net income did apple report in its latest 10-K", "sec_facts"),
    ("比亚迪2023年年报净利润", "financials"),
])
def test_numbers_asked_of_a_filing_plan_the_figures_too(question, figures):
    planned = plan(question)
    assert figures in planned and ({"sec_filings", "cn_announcements"} & planned.keys()), planned


@pytest.mark.parametrize("question", [
    "alibaba's latest 20-F", "the latest 10-Q from microsoft", "nvidia's most recent annual report",
])
def test_latest_before_a_filing_word_asks_for_the_filing_not_the_news(question):
    assert "news" not in plan(question)


@pytest.mark.parametrize("question", [
    "is oil a proxy for inflation", "今年报了多少营收", "腾讯被集中报道的原因", "apple 10-year chart",
])
def test_words_that_only_look_like_filing_words_plan_no_filing(question):
    assert not {"sec_filings", "cn_announcements", "hk_announcements"} & plan(question).keys()


def test_when_the_annual_report_comes_plans_its_dates_not_its_figures():
    planned = plan("苹果年报什么时候出")
    assert "earnings" in planned and not {"financials", "sec_facts"} & planned.keys(), planned
