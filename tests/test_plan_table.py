"""The heuristic pre-planner on a table of English and Chinese questions: tickers, dates
and the sources planned. now = Tue 2024-10-15 20:00 UTC."""

import pytest

from finsearch.graph import SearchGraph
from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan
from tests.conftest import NOW

T = "2024-10-15"
# (question, tickers, (start, end), sources that must be planned)
TABLE = [
    ("Why did NVDA fall last week?", ["NVDA"], ("2024-10-07", "2024-10-13"), {"price_history", "news", "web_search"}),
    ("Why did Tesla stock drop yesterday?", ["TSLA"], ("2024-10-14", "2024-10-14"),
     {"price_history", "news", "web_search"}),
    ("What happened to AMD on Monday?", ["AMD"], ("2024-10-14", "2024-10-14"), {"price_history", "news"}),
    ("Compare AAPL and MSFT year to date", ["AAPL", "MSFT"], ("2024-01-01", T), {"price_history", "quote"}),
    ("Apple vs Microsoft performance in Q3 2024", ["AAPL", "MSFT"], ("2024-07-01", "2024-09-30"),
     {"price_history"}),
    ("How has the S&P 500 performed this year?", ["^GSPC"], ("2024-01-01", T), {"price_history", "quote"}),
    ("Show me a chart of bitcoin over the past 3 months", ["BTC-USD"], ("2024-07-15", T), {"price_history"}),
    ("What's the latest news on Tesla?", ["TSLA"], (T, T), {"news"}),
    ("Any news about Nvidia today?", ["NVDA"], (T, T), {"news"}),
    ("What was Apple's revenue last quarter?", ["AAPL"], ("2024-07-01", "2024-09-30"),
     {"financials", "earnings"}),
    ("NVIDIA earnings in Q2 2024", ["NVDA"], ("2024-04-01", "2024-06-30"), {"financials", "earnings"}),
    ("Microsoft net income in fiscal year 2023", ["MSFT"], ("2023-01-01", "2023-12-31"), {"financials"}),
    ("What is the analyst price target for AMZN?", ["AMZN"], (T, T), {"analyst", "quote"}),
    ("Did analysts upgrade Meta recently?", ["META"], ("2024-10-08", T), {"analyst"}),
    ("Who are the largest holders of PLTR?", ["PLTR"], (T, T), {"holders"}),
    ("What is Coca-Cola's dividend yield?", ["KO"], (T, T), {"dividends", "quote"}),
    ("What is the market cap of Nvidia?", ["NVDA"], (T, T), {"quote", "profile"}),
    ("What is Apple's P/E ratio?", ["AAPL"], (T, T), {"quote", "profile"}),
    ("What does Palantir do?", ["PLTR"], (T, T), {"profile"}),
    ("How is $PLTR doing?", ["PLTR"], (T, T), {"price_history", "quote"}),
    ("Gold price this week", ["GC=F"], ("2024-10-14", T), {"price_history", "quote"}),
    ("Why did oil prices fall last week?", ["CL=F"], ("2024-10-07", "2024-10-13"), {"price_history", "news"}),
    ("What is the 10-year Treasury yield now?", ["^TNX"], (T, T), {"price_history", "quote"}),
    ("How has the euro moved against the dollar in the past month?", ["EURUSD=X"], ("2024-09-15", T),
     {"price_history"}),
    ("Compare NVDA, AMD and INTC over the last 6 months", ["NVDA", "AMD", "INTC"], ("2024-04-15", T),
     {"price_history"}),
    # a market as a whole is read as its benchmark index (finsearch.plan.market_wide)
    ("What moved markets today?", ["^GSPC"], (T, T), {"price_history", "news", "web_search"}),
    ("How will the Fed decision affect stocks?", [], (T, T), {"news", "web_search"}),
    ("Why did Rocket Lab jump?", [], (T, T), {"symbol_search", "news"}),
    ("Why did XYZQ fall?", ["XYZQ"], (T, T), {"price_history", "news"}),
    ("BRK-B dividends since 2020", ["BRK-B"], ("2020-01-01", T), {"dividends"}),
    # A company's own documents: SEC filings for a US listing
    ("What risks did Apple list in its latest 10-K?", ["AAPL"], (T, T), {"sec_section"}),
    ("Show me Apple's latest SEC filings", ["AAPL"], (T, T), {"sec_filings"}),
    ("Tesla 8-K filings this month", ["TSLA"], ("2024-10-01", T), {"sec_filings"}),
    ("Moutai top 10 shareholders", ["600519.SS"], (T, T), {"cn_top_holders"}),
    # Chinese
    ("贵州茅台的十大股东和最新公告", ["600519.SS"], (T, T), {"cn_top_holders", "cn_announcements", "news"}),
    ("贵州茅台主营业务是什么", ["600519.SS"], (T, T), {"cn_business", "profile"}),
    ("比亚迪业绩预告", ["002594.SZ"], (T, T), {"cn_announcements", "news"}),
    ("宁德时代最新公告", ["300750.SZ"], (T, T), {"cn_announcements"}),
    ("贵州茅台分红", ["600519.SS"], (T, T), {"cn_dividends", "dividends", "quote"}),
    ("贵州茅台的机构盈利预测和分析师评级", ["600519.SS"], (T, T), {"cn_profit_forecast", "analyst"}),
    ("贵州茅台2023年年报净利润", ["600519.SS"], ("2023-01-01", "2023-12-31"), {"cn_financial_abstract", "financials"}),
    ("苹果最新10-K里的风险因素", ["AAPL"], (T, T), {"sec_section"}),
    ("贵州茅台最近一个月表现如何？", ["600519.SS"], ("2024-09-15", T), {"price_history", "quote"}),
    ("英伟达上周为什么下跌？", ["NVDA"], ("2024-10-07", "2024-10-13"), {"price_history", "news", "web_search"}),
    ("腾讯控股今年以来的走势", ["0700.HK"], ("2024-01-01", T), {"price_history"}),
    ("比亚迪2024年第二季度营收是多少？", ["002594.SZ"], ("2024-04-01", "2024-06-30"), {"financials", "earnings"}),
    ("阿里巴巴最新消息", ["BABA"], (T, T), {"news"}),
    ("宁德时代的分析师目标价", ["300750.SZ"], (T, T), {"analyst"}),
    ("恒生指数近三个月走势", ["^HSI"], ("2024-07-15", T), {"price_history"}),
    ("上证指数国庆节后表现", ["000001.SS"], ("2024-10-08", T), {"price_history"}),
    ("比特币昨天为什么大涨？", ["BTC-USD"], ("2024-10-14", "2024-10-14"), {"price_history", "news"}),
    ("美元兑人民币过去一周走势", ["CNY=X"], ("2024-10-08", T), {"price_history"}),
    ("苹果和微软今年以来谁涨得多？", ["AAPL", "MSFT"], ("2024-01-01", T), {"price_history"}),
    ("茅台的股息率是多少", ["600519.SS"], (T, T), {"dividends"}),
    ("小米集团的市值", ["1810.HK"], (T, T), {"quote"}),
    ("今天A股发生了什么？", ["000001.SS"], (T, T), {"price_history", "news"}),
]


@pytest.mark.parametrize(("question", "tickers", "span", "sources"), TABLE, ids=[t[0] for t in TABLE])
def test_plan(question, tickers, span, sources):
    analysis = analyse(question, NOW)
    assert analysis.tickers == tickers
    tc = analysis.time_context
    assert (tc.start.isoformat(), tc.end.isoformat()) == span
    nodes = heuristic_plan(analysis, NOW)
    graph = SearchGraph.build(question, tc, nodes)          # the plan is valid
    planned = {n.source for n in graph}
    assert sources <= planned, f"missing {sources - planned}"
    planned_tickers = {n.args.get("ticker") for n in graph if n.args.get("ticker")}
    assert set(tickers) <= planned_tickers
    assert len(graph) <= 12


def test_table_is_large_enough():
    assert len(TABLE) >= 40


def test_why_question_makes_news_depend_on_price_history():
    analysis = analyse("Why did NVDA fall last week?", NOW)
    graph = SearchGraph.build(analysis.question, analysis.time_context, heuristic_plan(analysis, NOW))
    history = next(n for n in graph if n.source == "price_history")
    dependents = {n.source for n in graph.children(history.id)}
    assert {"news", "web_search"} <= dependents
    assert graph.depth() == 2


def test_many_tickers_keep_every_ticker_within_the_node_limit():
    question = "Why did NVDA, AMD, INTC, AAPL, MSFT, GOOGL and META fall last week?"
    analysis = analyse(question, NOW)
    graph = SearchGraph.build(question, analysis.time_context, heuristic_plan(analysis, NOW))
    assert len(graph) <= 12
    assert {n.args["ticker"] for n in graph if n.source == "price_history"} == set(analysis.tickers)


def test_plan_args_use_the_questions_language():
    analysis = analyse("阿里巴巴最新消息", NOW)
    news = next(n for n in heuristic_plan(analysis, NOW) if n.source == "news")
    assert news.args["lang"] == "zh" and "阿里巴巴" in news.sub_query
