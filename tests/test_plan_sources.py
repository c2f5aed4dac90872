"""Plans that fetch what answers: for every intent and market (US, Hong Kong, A-share), the rule-based
plan includes each source family that can answer it. now = Thu 2025-04-10 08:00 UTC."""

from datetime import UTC, datetime

import pytest

from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan

NOW = datetime(2025, 4, 10, 8, 0, tzinfo=UTC)

# (intent, market, question, sources that must be planned)
TABLE = [
    # why: the prices, the day's news; an A-share's Chinese stories and its own announcements too
    ("why", "us", "Why did Adobe stock fall last week?", {"price_history", "news", "web_search"}),
    ("why", "hk", "美团为什么大涨？", {"price_history", "news", "web_search"}),
    ("why", "a_share", "五粮液为什么连续下跌？", {"price_history", "news", "cn_stock_news", "cn_announcements"}),
    ("why", "a_share", "Why did Wuliangye shares drop this week?", {"price_history", "news", "cn_stock_news",
                                                                    "cn_announcements"}),
    # how the company responded: what it said itself, and the stories that quote it
    ("response", "us", "How did Apple respond to the lawsuit?", {"news", "sec_filings"}),
    ("response", "hk", "腾讯如何回应？", {"news"}),
    ("response", "a_share", "五粮液公司对消费税传闻如何回应？", {"cn_announcements", "cn_stock_news", "news"}),
    # dividends and payout: the history, the price, the profile's payout ratio, the dividend news
    ("dividend", "us", "What is Verizon's payout ratio?", {"dividends", "quote", "profile", "news"}),
    ("dividend", "us", "Is AT&T's dividend safe?", {"dividends", "quote", "profile", "news"}),
    ("dividend", "hk", "腾讯分红率多少？", {"hk_dividends", "dividends", "quote", "profile", "news"}),
    ("dividend", "a_share", "长江电力分红率多少？", {"cn_dividends", "dividends", "quote", "profile", "news"}),
    # valuation: the ratios, the analysts; an A-share's P/E against its industry's
    ("expensive", "us", "Is Costco expensive?", {"quote", "profile", "analyst"}),
    ("valuation", "us", "What's the P/E of Costco?", {"quote", "profile"}),
    ("valuation", "hk", "腾讯估值高吗？", {"quote", "profile", "analyst"}),
    ("valuation", "a_share", "长江电力估值贵吗？", {"quote", "profile", "cn_industry_compare"}),
    ("peers", "a_share", "五粮液的估值和行业比怎么样？", {"cn_industry_compare", "quote"}),
    # comparisons: each instrument's prices and its news
    ("compare", "us", "Compare Adobe and Salesforce stock performance last week", {"price_history", "news"}),
    ("compare", "a_share", "比较贵州茅台和五粮液", {"price_history", "news"}),
    ("compare", "us", "Which is cheapest on P/E: Verizon, AT&T or T-Mobile?", {"profile", "quote"}),
    # beat or miss: the estimates and the results news
    ("surprise", "us", "Did Adobe beat estimates last quarter?", {"earnings", "news"}),
    ("surprise", "hk", "Did Meituan beat estimates last quarter?", {"earnings", "news"}),
    # guidance: the news and the estimates; an A-share's results notices
    ("guidance", "us", "What did Adobe's management say about guidance?", {"news", "earnings"}),
    ("guidance", "a_share", "五粮液业绩指引", {"news", "earnings", "cn_announcements"}),
    # analysts and the upside: targets and the price
    ("analyst", "us", "What upside do analysts see for Adobe's share price?", {"analyst", "quote"}),
    ("analyst", "hk", "美团的目标价是多少？还有多大上涨空间？", {"analyst", "quote"}),
    ("analyst", "a_share", "长江电力的目标价", {"analyst", "cn_profit_forecast", "quote"}),
    # "should I be worried": how it traded, the latest news, analysts, the next report
    ("worried", "us", "Should I be worried about Adobe?", {"price_history", "news", "analyst", "quote", "earnings"}),
    ("worried", "a_share", "五粮液要担心吗？", {"price_history", "news", "analyst", "quote"}),
    # the price now: the quote and the daily closes that tell whether the quote is fresh
    ("price", "us", "What is Verizon's stock price right now?", {"quote", "price_history"}),
]


@pytest.mark.parametrize("intent, market, question, wanted", TABLE, ids=[f"{i}-{m}-{q}" for i, m, q, _ in TABLE])
def test_the_plan_fetches_every_source_family_that_answers(intent, market, question, wanted):
    analysis = analyse(question, NOW)
    assert intent in analysis.intents, sorted(analysis.intents)
    planned = {node.source for node in heuristic_plan(analysis, NOW)}
    assert wanted <= planned, f"missing {sorted(wanted - planned)}; planned {sorted(planned)}"


def test_the_table_covers_every_market_for_the_intents_that_need_other_sources_per_market():
    markets = {(intent, market) for intent, market, _, _ in TABLE}
    for intent in ("why", "response", "dividend", "valuation", "analyst"):
        assert {(intent, m) for m in ("us", "hk", "a_share")} <= markets, intent


def test_an_upside_question_is_not_read_as_a_move():
    assert "why" not in analyse("美团的目标价是多少？还有多大上涨空间？", NOW).intents


def test_should_i_be_worried_asks_for_the_case_not_for_advice():
    intents = analyse("Should I be worried about Adobe?", NOW).intents
    assert "worried" in intents and "advice" not in intents
    assert "advice" in analyse("Should I buy Adobe?", NOW).intents
