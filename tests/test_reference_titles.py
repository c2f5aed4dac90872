"""Reference titles of computed data follow the answer's language; news titles stay as
published. Expected titles written out by hand."""

from __future__ import annotations

from finsearch.answer.titles import reference_title
from finsearch.evidence import Evidence


def finance(source: str, data: dict, period: dict | None = None, title: str = "as the source wrote it") -> Evidence:
    raw = {"title": title, "published": "2024-10-15T20:00:00Z", "data": data}
    if period:
        raw["period"] = period
    return Evidence.from_untrusted(raw, source=source, kind="finance")


MONTH = {"start": "2024-09-15", "end": "2024-10-15"}


def test_price_history_and_quote_titles_in_both_languages():
    daily = finance("price_history", {"ticker": "600519.SS", "interval": "1d"}, MONTH,
                    title="Kweichow Moutai (600519.SS) daily prices 2024-09-15 to 2024-10-15")
    assert reference_title(daily, {"600519.SS": "贵州茅台"}, "zh") == \
        "贵州茅台（600519.SS）日线行情（2024-09-15 至 2024-10-15）"
    assert reference_title(daily, {"600519.SS": "Kweichow Moutai"}, "en") == \
        "Kweichow Moutai (600519.SS) daily prices 2024-09-15 to 2024-10-15"
    hourly = finance("price_history", {"ticker": "NVDA", "interval": "1h"}, MONTH)
    assert reference_title(hourly, {"NVDA": "英伟达"}, "zh") == "英伟达（NVDA）1h K线行情（2024-09-15 至 2024-10-15）"
    quote = finance("quote", {"ticker": "TSLA"})
    assert reference_title(quote, {"TSLA": "特斯拉"}, "zh") == "特斯拉（TSLA）最新行情"


def test_a_ticker_the_question_did_not_name_takes_the_alias_tables_name():
    quote = finance("quote", {"ticker": "AMD"})
    assert reference_title(quote, {}, "en") == "Advanced Micro Devices (AMD) quote"
    assert reference_title(finance("quote", {"ticker": "ZZZZQ"}), {}, "zh") == "ZZZZQ最新行情"


def test_statements_analysts_and_dividends():
    income = finance("financials", {"ticker": "AAPL", "statement": "income", "period_label": "FY2023"})
    assert reference_title(income, {"AAPL": "苹果"}, "zh") == "苹果（AAPL）利润表（FY2023）"
    assert reference_title(income, {"AAPL": "Apple"}, "en") == "Apple (AAPL) income statement FY2023"
    analyst = finance("analyst", {"ticker": "NVDA"})
    assert reference_title(analyst, {"NVDA": "英伟达"}, "zh") == "英伟达（NVDA）分析师评级与目标价"
    dividends = finance("dividends", {"ticker": "KO"}, {"start": "2023-10-15", "end": "2024-10-15"})
    assert reference_title(dividends, {"KO": "可口可乐"}, "zh") == \
        "可口可乐（KO）分红与拆股（2023-10-15 至 2024-10-15）"


def test_news_and_ticker_search_keep_their_own_titles():
    news = Evidence.from_untrusted({"title": "Tesla shares fall 8.8% after robotaxi event", "url": "https://e.test/1",
                                    "published": "2024-10-11T12:00:00Z"}, source="news", kind="news")
    assert reference_title(news, {"TSLA": "特斯拉"}, "zh") == "Tesla shares fall 8.8% after robotaxi event"
    search = finance("symbol_search", {"ticker": "AAPL"}, title="Ticker search: apple")
    assert reference_title(search, {"AAPL": "苹果"}, "zh") == "Ticker search: apple"
