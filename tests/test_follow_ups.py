"""Follow-up turns read against the previous one: a fragment with a new instrument keeps the
period and intents, a fragment with a new period keeps the instruments and intents, a new
full question keeps its own. now = Tue 2024-10-15 20:00 UTC."""

from __future__ import annotations

import pytest

from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan
from tests.conftest import NOW

WEEK = ("2024-10-07", "2024-10-13")
SEPTEMBER = ("2024-09-01", "2024-09-30")


def follow(first: str, then: str):
    return analyse(then, NOW, analyse(first, NOW))


def period(a) -> tuple[str, str]:
    return a.time_context.start.isoformat(), a.time_context.end.isoformat()


@pytest.mark.parametrize("then, ticker", [
    ("and MSFT?", "MSFT"), ("and msft?", "MSFT"), ("what about AMD", "AMD"), ("what about amd?", "AMD"),
    ("How about Tesla?", "TSLA"), ("same for Apple", "AAPL"), ("and Microsoft?", "MSFT"),
])
def test_a_fragment_with_a_new_instrument_keeps_the_period_and_the_why(then, ticker):
    a = follow("Why did NVDA fall last week?", then)
    assert a.tickers == [ticker] and period(a) == WEEK and "why" in a.intents
    assert set(a.inherited) == {"time", "intents"}
    nodes = heuristic_plan(a, NOW)
    assert {n.source for n in nodes} >= {"price_history", "news", "web_search"}
    assert all(n.args.get("ticker") in (ticker, None) for n in nodes)


@pytest.mark.parametrize("then, ticker", [
    ("那腾讯呢？", "0700.HK"), ("腾讯呢？", "0700.HK"), ("换成特斯拉", "TSLA"), ("那苹果呢", "AAPL"),
    ("改成茅台", "600519.SS"),
])
def test_a_chinese_fragment_with_a_new_instrument_keeps_the_period_and_the_why(then, ticker):
    a = follow("英伟达上周为什么下跌？", then)
    assert a.tickers == [ticker] and period(a) == WEEK and "why" in a.intents


@pytest.mark.parametrize("first, then, expected", [
    ("Why did NVDA fall last week?", "how about last month?", SEPTEMBER),
    ("Why did NVDA fall last week?", "and in Q2?", ("2024-04-01", "2024-06-30")),
    ("Why did NVDA fall last week?", "what about in September?", SEPTEMBER),
    ("英伟达上周为什么下跌？", "那上个月呢", SEPTEMBER),
    ("英伟达上周为什么下跌？", "那二季度呢？", ("2024-04-01", "2024-06-30")),
])
def test_a_fragment_with_a_new_period_keeps_the_instruments_and_intents(first, then, expected):
    a = follow(first, then)
    assert a.tickers == ["NVDA"] and period(a) == expected and "why" in a.intents
    assert set(a.inherited) == {"entities", "intents"}


def test_a_comparison_follow_up_keeps_both_instruments_and_the_comparison():
    a = follow("Compare AAPL and MSFT year to date", "what about last month?")
    assert a.tickers == ["AAPL", "MSFT"] and period(a) == SEPTEMBER and "compare" in a.intents


@pytest.mark.parametrize("then", ["also add GOOGL", "plus GOOGL?", "加上谷歌"])
def test_a_follow_up_that_adds_an_instrument_keeps_the_others(then):
    a = follow("Compare AAPL and MSFT year to date", then)
    assert a.tickers == ["AAPL", "MSFT", "GOOGL"] and period(a) == ("2024-01-01", "2024-10-15")


@pytest.mark.parametrize("then", ["What's the latest news on Tesla?", "特斯拉最新消息", "Who owns Tesla?"])
def test_a_new_full_question_keeps_its_own_period(then):
    a = follow("Why did NVDA fall last week?", then)
    assert a.tickers == ["TSLA"] and "time" not in a.inherited and not a.time_context.explicit
    assert "why" not in a.intents


def test_a_follow_up_that_names_its_own_intent_keeps_the_instrument_and_period():
    a = follow("Why did NVDA fall last week?", "and the news?")
    assert a.tickers == ["NVDA"] and period(a) == WEEK and a.intents == {"news"}


def test_the_buying_note_comes_with_the_inherited_intent():
    a = follow("Should I buy NVDA?", "and AMD?")
    assert a.tickers == ["AMD"] and "advice" in a.intents
    assert any("investment advice" in note for note in a.notes)


@pytest.mark.parametrize(("first", "then", "tickers"), [
    ("aapl ytd", "compare with msft", ["AAPL", "MSFT"]), ("nvda this week", "vs amd?", ["NVDA", "AMD"]),
    ("腾讯今年", "和阿里比呢", ["0700.HK", "BABA"]),
])
def test_a_follow_up_that_compares_with_another_keeps_the_first_and_its_period(first, then, tickers):
    a, before = follow(first, then), analyse(first, NOW)
    assert a.tickers == tickers and period(a) == period(before)


def test_a_rates_yield_is_not_a_dividend_yield():
    assert "dividend" not in analyse("what's the 10 year yield", NOW).intents
    assert "dividend" in analyse("ko dividend yield", NOW).intents


@pytest.mark.parametrize("first", ["贵州茅台最近一个月表现如何？", "Why did NVDA fall last week?"])
@pytest.mark.parametrize("then", ["how is zorblax doing", "what about zorblax?", "any news on blorptech",
                                  "how is quixelor doing this week"])
def test_a_name_nobody_knows_is_its_own_subject_never_the_previous_company(first, then):
    a = follow(first, then)
    assert a.tickers == [] and "entities" not in a.inherited and "intents" not in a.inherited
    assert a.unknown and a.notes[-1].startswith(f"I don't know “{a.unknown[0]}” as a listed company")
    assert all(n.args.get("ticker") is None for n in heuristic_plan(a, NOW))


def test_an_unknown_name_near_a_known_one_is_asked_about_with_the_nearest_names():
    a = follow("Why did NVDA fall last week?", "how is teslor doing")
    assert a.tickers == [] and a.notes[-1].startswith("I don't know “teslor” as a listed company or a symbol — "
                                                     "did you mean Tesla (TSLA)")


@pytest.mark.parametrize("then", ["how's fintech doing", "what did analysts say?", "how about last month?",
                                  "what about the crypto stocks", "any buybacks lately?"])
def test_words_newer_than_the_dictionary_or_inflected_are_no_unknown_names(then):
    assert follow("Why did NVDA fall last week?", then).unknown == ()


def test_the_answer_to_an_unknown_name_says_so_first_and_names_no_other_company(demo_settings):
    from finsearch import pipeline

    first = pipeline.ask("贵州茅台最近一个月表现如何？", settings=demo_settings, now=NOW)
    answer = pipeline.ask("how is zorblax doing", settings=demo_settings, now=NOW, prior=first.analysis)
    text = answer.answer.markdown
    assert text.startswith("I don't know “zorblax” as a listed company or a symbol.")
    # (the sample's own list of what it holds may name 600519.SS)
    assert "Moutai" not in text and "茅台" not in text and "[1]" not in text


@pytest.mark.parametrize("then, ticker", [("how's tesla stock been this month", "TSLA"),
                                          ("how's facebook stock been this month", "META"),
                                          ("tesla stock this month", "TSLA")])
def test_a_whole_question_of_its_own_does_not_take_the_previous_intents(then, ticker):
    a = follow("what did nvidia say about risks in its latest 10-k", then)
    assert a.tickers == [ticker] and "intents" not in a.inherited and not a.intents & {"filings", "risks"}
    assert "price_history" in {n.source for n in heuristic_plan(a, NOW)}


@pytest.mark.parametrize("then", ["tesla?", "and tesla?", "那特斯拉呢"])
def test_a_fragment_naming_another_company_asks_the_previous_question_of_it(then):
    a = follow("what did nvidia say about risks in its latest 10-k", then)
    assert a.tickers == ["TSLA"] and "intents" in a.inherited and "filings" in a.intents


@pytest.mark.parametrize(("question", "benchmark"), [
    ("how is the market doing", "^GSPC"), ("how did the stock market do last week", "^GSPC"),
    ("why are stocks down today", "^GSPC"), ("how did wall street do this week", "^GSPC"),
    ("股市怎么样", "000001.SS"), ("美股今天怎么样", "^GSPC"), ("港股怎么样", "^HSI")])
def test_a_question_about_the_whole_market_is_its_benchmark_never_the_previous_company(question, benchmark):
    for prior in (None, analyse("Why did NVDA fall last week?", NOW), analyse("贵州茅台最近一个月表现如何？", NOW)):
        analysis = analyse(question, NOW, prior=prior)
        assert analysis.tickers == [benchmark] and "entities" not in analysis.inherited


@pytest.mark.parametrize("question", ["what's the market cap of nvidia", "nvidia's market share",
                                      "how did NVDA do vs the market"])
def test_the_market_in_a_question_about_a_company_stays_that_companys(question):
    assert analyse(question, NOW).tickers[0] == "NVDA"


@pytest.mark.parametrize("question", ["how is the bond market", "emerging markets this year", "how is the job market"])
def test_a_market_of_something_else_is_no_stock_index(question):
    assert not {"^GSPC", "000001.SS", "^HSI"} & set(analyse(question, NOW).tickers)


def test_an_unknown_chinese_company_is_its_own_subject_not_a_slip_of_a_known_name():
    """"星河动力科技": "动力科" is no slip for 动力煤 (thermal coal), and the name is nobody's
    nickname for the previous turn's company; a real slip with its suffix still resolves."""
    for prior in (None, analyse("Why did NVDA fall last week?", NOW)):
        analysis = analyse("星河动力科技怎么样", NOW, prior=prior)
        assert [(e.name, e.ticker) for e in analysis.entities] == [("星河动力科技", None)]
    assert analyse("腾迅控股怎么样", NOW).tickers == ["0700.HK"]
