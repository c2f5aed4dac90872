"""What the reader is told about names with no ticker, in both languages."""

from datetime import datetime, timezone

from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan

NOW = datetime(2024, 10, 15, 20, tzinfo=timezone.utc)


def test_an_unlisted_company_is_said_to_be_unlisted():
    a = analyse("the company behind ChatGPT", NOW)
    assert a.notes == ("OpenAI is not a listed company: it has no share price; the news about it is searched instead.",)
    assert a.tickers == []
    zh = analyse("OpenAI最新估值多少？", NOW)
    assert zh.notes == ("OpenAI不是上市公司，没有股价可查；改为搜索相关新闻。",)


def test_a_rate_with_no_symbol_is_searched_in_the_news():
    a = analyse("LPR降息了吗", NOW)
    assert a.notes == ("Loan Prime Rate (LPR)没有可查询行情的市场代码；改为搜索相关新闻。",)
    sources = {node.source for node in heuristic_plan(a, NOW)}
    assert "news" in sources and not {"price_history", "quote"} & sources


def test_listed_names_bring_no_note():
    assert analyse("How is the iPhone maker doing?", NOW).notes == ()
