"""The ticker rules of the heuristic planner as a table: whole plans written out for a few
questions in both languages, ranks under the node limit, and the table itself consistent.
now = Tue 2024-10-15 20:00 UTC."""

from __future__ import annotations

import pytest

from finsearch.catalogue import CATALOGUE
from finsearch.plan.analysis import analyse
from finsearch.plan.intents import INTENT_PATTERNS
from finsearch.plan.rules import EXTRA_READINGS, TICKER_RULES, heuristic_plan
from tests.conftest import NOW


def plan(question: str) -> list[tuple]:
    return [(n.id, n.source, n.sub_query, n.args, n.depends_on) for n in heuristic_plan(analyse(question, NOW), NOW)]


def test_why_did_it_fall():
    week = {"start": "2024-10-07", "end": "2024-10-13"}
    assert plan("Why did NVDA fall last week?") == [
        ("n1", "price_history", "NVIDIA (NVDA) price history 2024-10-07 → 2024-10-13", {"ticker": "NVDA", **week}, ()),
        ("n2", "news", "Why did NVIDIA (NVDA) move last week? (news)",
         {"ticker": "NVDA", "query": "NVIDIA stock", **week, "lang": "en"}, ("n1",)),
        ("n3", "web_search", "Why did NVIDIA (NVDA) move last week? (web)",
         {"query": "why did NVIDIA stock move 2024-10-07 2024-10-13", "ticker": "NVDA", **week, "lang": "en"},
         ("n1",)),
    ]


def test_why_did_it_fall_in_chinese():
    week = {"start": "2024-10-07", "end": "2024-10-13"}
    assert plan("英伟达上周为什么下跌？") == [
        ("n1", "price_history", "英伟达（NVDA） 2024-10-07 至 2024-10-13 的股价走势", {"ticker": "NVDA", **week}, ()),
        ("n2", "news", "英伟达（NVDA）上周为什么涨跌？（新闻）",
         {"ticker": "NVDA", "query": "英伟达 股票", **week, "lang": "zh"}, ("n1",)),
        ("n3", "web_search", "英伟达（NVDA）上周涨跌原因（网页）",
         {"query": "英伟达 股价 涨跌 原因 2024-10-07 2024-10-13", "ticker": "NVDA", **week, "lang": "zh"}, ("n1",)),
        ("n4", "quote", "英伟达（NVDA）最新行情", {"ticker": "NVDA"}, ()),
    ]


def test_how_is_it_doing_brings_the_period_news():
    assert plan("How is $PLTR doing?") == [
        ("n1", "price_history", "Palantir (PLTR) price history 2024-09-15 → 2024-10-15",
         {"ticker": "PLTR", "start": "2024-09-15", "end": "2024-10-15"}, ()),
        ("n2", "quote", "Palantir (PLTR) latest quote", {"ticker": "PLTR"}, ()),
        ("n3", "news", "News on Palantir (PLTR) recently", {"ticker": "PLTR", "query": "Palantir stock", "lang": "en"},
         ()),
    ]


def test_one_quote_for_several_intents_that_want_one():
    assert plan("NVDA earnings and analyst targets") == [
        ("n1", "financials", "NVIDIA (NVDA) quarterly financial statements",
         {"ticker": "NVDA", "statement": "all", "freq": "quarterly"}, ()),
        ("n2", "earnings", "NVIDIA (NVDA) earnings: estimates vs reported", {"ticker": "NVDA"}, ()),
        ("n3", "analyst", "NVIDIA (NVDA) analyst targets and ratings", {"ticker": "NVDA"}, ()),
        ("n4", "quote", "NVIDIA (NVDA) latest quote", {"ticker": "NVDA"}, ()),
    ]
    # … a dividend also asks for the payout ratio (the profile) and what the news says of the dividend
    assert plan("苹果的分红和股东") == [
        ("n1", "holders", "苹果（AAPL）主要股东", {"ticker": "AAPL"}, ()),
        ("n2", "dividends", "苹果（AAPL）分红历史", {"ticker": "AAPL"}, ()),
        ("n3", "quote", "苹果（AAPL）最新行情", {"ticker": "AAPL"}, ()),
        ("n4", "profile", "苹果（AAPL）分红率与股息率", {"ticker": "AAPL"}, ()),
        ("n5", "news", "苹果（AAPL）分红相关新闻", {"ticker": "AAPL", "query": "苹果 分红 派息", "lang": "zh"}, ()),
    ]
    assert plan("小米集团近十二个月营收")[0][2] == "小米集团（1810.HK）近十二个月财务报表"


def test_an_instrument_without_statements_gets_a_price_question():
    assert [(source, args["ticker"]) for _, source, _, args, _ in plan("Gold dividend and holders")] == [
        ("price_history", "GC=F"), ("quote", "GC=F"), ("news", "GC=F")]


def test_every_ticker_keeps_its_most_useful_node_first():
    nodes = plan("Compare AAPL, MSFT, GOOGL, AMZN, META, NVDA, TSLA, AMD, INTC, NFLX price")
    assert [(source, args["ticker"]) for _, source, _, args, _ in nodes] == [
        ("price_history", "AAPL"), ("quote", "AAPL"), ("price_history", "MSFT"), ("quote", "MSFT"),
        ("price_history", "GOOGL"), ("price_history", "AMZN"), ("price_history", "META"), ("price_history", "NVDA"),
        ("price_history", "TSLA"), ("price_history", "AMD"), ("price_history", "INTC"), ("price_history", "NFLX")]


def test_the_table_names_only_known_readings_and_sources():
    readings = set(INTENT_PATTERNS) | EXTRA_READINGS
    for rule in TICKER_RULES:
        assert rule.any_of and (rule.any_of | rule.none_of) <= readings, rule
        assert rule.source in CATALOGUE, rule


def test_a_rule_depends_only_on_a_node_that_is_there_whenever_it_is():
    for i, rule in enumerate(TICKER_RULES):
        for source in rule.depends_on:
            parents = [r for r in TICKER_RULES[:i] if r.source == source]
            assert any(rule.any_of <= p.any_of and not p.none_of for p in parents), rule


@pytest.mark.parametrize(("question", "sources"), [
    ("Will NVDA go up next week?", {"quote", "news", "analyst", "earnings"}),
    ("英伟达下个月走势如何？", {"quote", "news", "analyst", "earnings"}),
    ("Where will bitcoin be next month?", {"quote", "news"}),
])
def test_a_period_ahead_plans_what_exists_for_it_not_prices(question, sources):
    analysis = analyse(question, NOW)
    assert analysis.time_context.forward
    nodes = heuristic_plan(analysis, NOW)
    assert {n.source for n in nodes} == sources
    news = [n for n in nodes if n.source == "news"]
    assert all("start" not in n.args for n in news), "the latest news: the future has none yet"


# -- a company's own sources: the China-market sites for A-shares, SEC EDGAR for US listings ---------------

def test_an_a_shares_holders_and_announcements_come_from_its_own_sites():
    assert [(source, sub, args) for _, source, sub, args, _ in plan("贵州茅台的十大股东和最新公告")] == [
        ("news", "贵州茅台（600519.SS）的最新消息", {"ticker": "600519.SS", "query": "贵州茅台 股票", "lang": "zh"}),
        ("quote", "贵州茅台（600519.SS）最新行情", {"ticker": "600519.SS"}),
        ("cn_top_holders", "贵州茅台（600519.SS）十大股东", {"ticker": "600519.SS"}),
        ("cn_announcements", "贵州茅台（600519.SS）巨潮资讯公告", {"ticker": "600519.SS"})]


def test_an_a_shares_news_is_yahoos_and_the_chinese_outlets_next_to_it():
    week = {"start": "2024-10-08", "end": "2024-10-15"}
    assert [(source, sub, args) for _, source, sub, args, _ in plan("茅台最近有什么新闻")] == [
        ("news", "茅台（600519.SS）的最新消息", {"ticker": "600519.SS", "query": "茅台 股票", **week, "lang": "zh"}),
        ("quote", "茅台（600519.SS）最新行情", {"ticker": "600519.SS"}),
        ("cn_stock_news", "茅台（600519.SS）个股新闻", {"ticker": "600519.SS", **week}),
        ("cn_announcements", "茅台（600519.SS）巨潮资讯公告", {"ticker": "600519.SS", **week})]
    assert "cn_stock_news" in [source for _, source, *_ in plan("Latest news on CATL")]
    assert "cn_stock_news" not in [source for _, source, *_ in plan("Latest news on Tencent")]      # 0700.HK


def test_against_its_industry_is_cninfos_industry_pe_for_an_a_share_and_yahoos_ratios_elsewhere():
    # "对比" and "compare" here are with the industry: no price history, no company profile.
    assert [source for _, source, *_ in plan("茅台行业对比")] == ["cn_industry_compare", "quote"]
    assert [source for _, source, *_ in plan("how does Moutai's valuation compare with its peers")] == [
        "cn_industry_compare", "quote", "profile"]
    assert [source for _, source, *_ in plan("How does Apple's P/E compare with its industry?")] == ["profile", "quote"]


def test_an_a_shares_profile_is_cninfos_next_to_its_business_and_yahoos():
    assert [source for _, source, *_ in plan("宁德时代公司简介")] == ["cn_profile", "cn_business", "profile"]


def test_a_us_companys_holders_and_dividends_stay_with_yahoo():
    assert [source for _, source, *_ in plan("Who are the largest holders of PLTR?")] == ["holders"]
    assert [source for _, source, *_ in plan("What is Coca-Cola's dividend?")] == ["dividends", "quote", "profile",
                                                                                "news"]


def test_an_a_shares_dividends_are_its_dividend_plans_and_yahoos_history_for_the_yield():
    assert [source for _, source, *_ in plan("比亚迪分红")] == ["cn_dividends", "dividends", "quote", "profile", "news"]


def test_an_a_shares_earnings_pre_announcements_are_cninfos_category():
    nodes = plan("比亚迪业绩预告")
    assert ("cn_announcements", {"ticker": "002594.SZ", "category": "业绩预告"}) in \
        [(source, args) for _, source, _, args, _ in nodes]


@pytest.mark.parametrize("question", ["比亚迪有哪些风险？", "What are the risks for BYD (002594)?", "贵州茅台风险提示"])
def test_an_a_shares_risks_are_its_risk_warnings_on_cninfo(question):
    [(source, args)] = [(source, args) for _, source, _, args, _ in plan(question)]
    assert source == "cn_announcements" and args["category"] == "风险提示"


def test_the_risks_in_a_10k_are_its_item_1a_ranked_by_the_question():
    question = "What risks did Apple list in its latest 10-K?"
    assert [(source, sub, args) for _, source, sub, args, _ in plan(question)] == [
        ("sec_section", "Apple (AAPL) risk factors in the latest 10-K",
         {"ticker": "AAPL", "form": "10-K", "item": "1A", "query": question})]


@pytest.mark.parametrize(("question", "form"), [("Tesla 8-K filings this month", "8-K"), ("Apple 10q filings", "10-Q"),
                                                ("Nvidia's latest SEC filings", None)])
def test_sec_filings_of_the_form_the_question_names(question, form):
    args = next(args for _, source, _, args, _ in plan(question) if source == "sec_filings")
    assert args.get("form") == form


def test_hong_kong_and_index_tickers_get_no_a_share_or_sec_sources():
    for question in ("腾讯前十大股东", "恒生指数公告", "上证指数有哪些风险"):
        assert not {source for _, source, *_ in plan(question)} & {"cn_top_holders", "cn_announcements",
                                                                    "sec_section", "sec_filings"}, question


@pytest.mark.parametrize(("question", "freq"), [("比亚迪2024年第二季度营收是多少？", "quarterly"),
                                                ("贵州茅台2023年年报净利润", "annual"),
                                                ("贵州茅台近十二个月利润", "report")])
def test_an_a_shares_financials_come_with_10jqkas_abstract_at_the_questions_frequency(question, freq):
    args = next(args for _, source, _, args, _ in plan(question) if source == "cn_financial_abstract")
    assert args["basis"] == freq


@pytest.mark.parametrize(("question", "freq"), [("What revenue did Apple report in its latest 10-K?", "annual"),
                                                ("Nvidia net income in its last 10-Q filing", "quarterly")])
def test_figures_asked_of_a_filing_come_from_its_xbrl(question, freq):
    args = next(args for _, source, _, args, _ in plan(question) if source == "sec_facts")
    assert args["freq"] == freq


def test_revenue_alone_stays_with_the_statements():
    assert "sec_facts" not in {source for _, source, *_ in plan("What was Apple's revenue last quarter?")}
