"""What the reader is told about names with no ticker, in both languages."""

from datetime import datetime, timezone

from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan

NOW = datetime(2024, 10, 15, 20, tzinfo=timezone.utc)


def test_an_unlisted_company_is_said_to_be_unlisted():
    a = analyse("the company behind ChatGPT", NOW)
    assert a.notes == ("OpenAI is not a listed company: it has no share price; "
                       "news and web results about it are used instead.",)
    assert a.tickers == []
    zh = analyse("OpenAI最新估值多少？", NOW)
    assert zh.notes == ("OpenAI不是上市公司，没有股价可查；改为搜索相关新闻和网页。",)


def test_a_rate_with_no_symbol_is_searched_in_the_news():
    a = analyse("LPR降息了吗", NOW)
    assert a.notes == ("Loan Prime Rate (LPR)没有可查询行情的市场代码；改为搜索相关新闻和网页。",)
    nodes = heuristic_plan(a, NOW)
    assert sorted(n.source for n in nodes) == ["news", "web_search"]     # no ticker looked up, none invented
    assert [n.args["query"] for n in nodes] == ["Loan Prime Rate (LPR)", "LPR降息了吗"]


def test_a_private_company_is_not_looked_up_as_a_ticker():
    a = analyse("How is OpenAI doing?", NOW)
    assert sorted(n.source for n in heuristic_plan(a, NOW)) == ["news", "web_search"]


def test_listed_names_bring_no_note():
    assert analyse("How is the iPhone maker doing?", NOW).notes == ()
