"""Suggested follow-ups (issue 29 item 14): three questions under a finished answer, in its
language, each about what the question did not ask yet, each read by the question reader as the
instruments and intent it was written for, whether asked alone or as the next turn."""

from __future__ import annotations

import pytest

from finsearch import pipeline
from finsearch.answer.follow_ups import FollowUp, choose, follow_ups
from finsearch.plan.alias_table import alias_table
from finsearch.plan.analysis import analyse, language_of
from finsearch.reference.peers import RIVALS
from tests.conftest import NOW

# Questions people type, in both languages: one instrument, several, an index, a commodity, a coin.
QUESTIONS = (
    "Why did NVDA fall last week?", "How did nvidia do this month", "Compare AAPL and MSFT year to date",
    "What's the latest news on Tesla?", "should I buy nvidia", "What's Apple's P/E",
    "How is the S&P 500 doing this week", "What's the price of gold?", "How did Alphabet do this month",
    "Compare NVDA, AAPL and MSFT over the past year", "Tesla earnings next quarter",
    "贵州茅台最近一个月表现如何？", "英伟达最近一周为什么下跌？", "苹果和微软今年以来对比", "比特币最近走势",
    "腾讯最近三个月的表现", "老黄最近一个月表现如何", "分析师怎么看贵州茅台？",
)


def suggested(question: str, returns: dict[str, float] | None = None) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(f.kind, f.question, f.tickers) for f in choose(analyse(question, NOW), NOW, returns)]


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_suggestion_reads_as_its_instruments_and_intent_alone_and_as_the_next_turn(question):
    asked = analyse(question, NOW)
    shown = choose(asked, NOW, {t: -2.5 for t in asked.tickers})
    assert len(shown) == 3, shown
    for follow_up in shown:
        for prior in (None, asked):
            read = analyse(follow_up.question, NOW, prior=prior)
            assert set(read.tickers) == set(follow_up.tickers), (follow_up, read.tickers)
            assert follow_up.intent in read.intents, (follow_up, read.intents)
            assert read.inherited == (), (follow_up, read.inherited)     # it stands on its own
        assert language_of(follow_up.question) == asked.language, follow_up


@pytest.mark.parametrize("question", QUESTIONS)
def test_nothing_already_asked_is_suggested(question):
    asked = analyse(question, NOW)
    kinds = [f.kind for f in choose(asked, NOW, {t: 1.0 for t in asked.tickers})]
    assert len(set(kinds)) == len(kinds)
    if "why" in asked.intents:
        assert "why" not in kinds
    if asked.intents & {"compare", "peers"} or len(asked.tickers) > 1:
        assert "rival" not in kinds
    if asked.intents & {"analyst", "advice"}:
        assert "analysts" not in kinds
    if "news" in asked.intents:
        assert "news" not in kinds


def test_a_single_price_question_gets_its_rival_why_and_analysts_in_english():
    assert suggested("How did nvidia do this month", {"NVDA": -3.1}) == [
        ("rival", "Compare NVIDIA and AMD this month", ("NVDA", "AMD")),
        ("why", "Why did NVIDIA fall this month?", ("NVDA",)),
        ("analysts", "What do analysts say about NVIDIA?", ("NVDA",)),
    ]


def test_a_why_question_gets_no_why_but_a_longer_period():
    assert suggested("Why did NVDA fall last week?") == [
        ("rival", "Compare NVIDIA and AMD last week", ("NVDA", "AMD")),
        ("analysts", "What do analysts say about NVIDIA?", ("NVDA",)),
        ("longer", "How has NVIDIA done over the past 6 months?", ("NVDA",)),
    ]


def test_a_chinese_question_gets_chinese_suggestions_in_its_own_words():
    assert suggested("贵州茅台最近一个月表现如何？", {"600519.SS": 7.27}) == [
        ("rival", "贵州茅台和五粮液最近一个月走势对比", ("600519.SS", "000858.SZ")),
        ("why", "贵州茅台最近一个月为什么上涨？", ("600519.SS",)),
        ("analysts", "分析师怎么看贵州茅台？", ("600519.SS",)),
    ]
    assert suggested("老黄最近一个月表现如何")[0] == ("rival", "英伟达和超威半导体最近一个月走势对比", ("NVDA", "AMD"))


def test_a_comparison_asks_why_the_bigger_mover_moved():
    assert suggested("Compare AAPL and MSFT year to date", {"AAPL": 12.0, "MSFT": -15.5}) == [
        ("why", "Why did Microsoft fall year to date?", ("MSFT",)),
        ("analysts", "What do analysts say about Apple and Microsoft?", ("AAPL", "MSFT")),
        ("longer", "Compare Apple and Microsoft over the past year", ("AAPL", "MSFT")),
    ]
    assert suggested("苹果和微软今年以来对比", {"AAPL": 20.0, "MSFT": 3.0})[0] == \
        ("why", "苹果今年以来为什么上涨？", ("AAPL",))
    # Without the prices it cannot say which moved more, so it does not ask.
    assert "why" not in [kind for kind, _, _ in suggested("Compare AAPL and MSFT year to date")]


def test_an_index_or_commodity_gets_no_analysts_or_quarterly_results():
    for question in ("How is the S&P 500 doing this week", "What's the price of gold?", "比特币最近走势"):
        kinds = [kind for kind, _, _ in suggested(question)]
        assert kinds == ["rival", "why", "longer"], (question, kinds)


def test_a_question_with_no_period_is_asked_why_it_moved_recently():
    assert ("why", "Why did Tesla move recently?", ("TSLA",)) in suggested("What's the latest news on Tesla?")


def test_no_instrument_no_suggestions():
    assert suggested("how is zorblax doing") == []
    assert suggested("what is inflation") == []


def test_a_follow_up_knows_its_intent():
    assert FollowUp("What do analysts say about NVIDIA?", "analysts", ("NVDA",)).intent == "analyst"


def test_every_rival_is_an_instrument_of_the_same_kind_the_table_knows():
    table = alias_table().by_ticker
    for ticker, rival in RIVALS.items():
        assert ticker in table and rival in table and rival != ticker, (ticker, rival)
        assert table[ticker].kind == table[rival].kind, (ticker, rival)


def test_a_finished_run_suggests_from_its_own_prices(demo_settings):
    """On the sample pack: NVIDIA fell in the week before 2024-10-15, so the why asks why it fell;
    a click's question is answered about NVIDIA."""
    result = pipeline.ask("How did NVDA do last week?", settings=demo_settings)
    shown = follow_ups(result)
    assert [f.question for f in shown] == ["Compare NVIDIA and AMD last week", "Why did NVIDIA fall last week?",
                                           "What do analysts say about NVIDIA?"]
    answered = pipeline.ask(shown[1].question, settings=demo_settings)
    assert answered.analysis.tickers == ["NVDA"] and "why" in answered.analysis.intents
