"""The finance sources (yfinance) on a fake yfinance module shaped like 1.7's answers:
payload shapes, interval choice, stats, clean JSON, and every failure shape yfinance has
— empty frames, None, junk dicts, KeyError, DNSError, rate limits — ending as NoData or
Unreachable with a reason a person can read."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, datetime, timezone
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from curl_cffi.requests.exceptions import DNSError, HTTPError, Timeout
from yfinance.exceptions import YFRateLimitError

from finsearch.answer import facts as answer_facts
from finsearch.catalogue import CATALOGUE, load
from finsearch.errors import NoData, SourceError, Unreachable
from finsearch.evidence import Evidence
from finsearch.sources.hub import DataHub
from finsearch.sources.upstream.resilience import NETWORK, RATE, SERVER, TIMEOUT
from finsearch.sources.yahoo import price_stats
from finsearch.sources.yahoo.adapter import YahooFinance
from finsearch.sources.yahoo.financials import LINES, period_label, period_start
from finsearch.sources.yahoo.fundamentals import split_ratio
from finsearch.sources.yahoo.prices import plan_bars
from finsearch.sources.yahoo.request import classify
from tests.conftest import NOW
from tests.fake_yfinance import NY, Company, FakeYF, apple, daily_bars, empty_history

CONTRACT_KEYS = {"title", "url", "publisher", "published", "period", "snippet", "data"}
PERIOD_SOURCES = {"price_history", "financials", "dividends"}
ARGS = {
    "quote": {"ticker": "AAPL"},
    "price_history": {"ticker": "AAPL", "start": "2024-10-07", "end": "2024-10-13"},
    "financials": {"ticker": "AAPL", "statement": "all", "freq": "annual"},
    "earnings": {"ticker": "AAPL"},
    "analyst": {"ticker": "AAPL"},
    "profile": {"ticker": "AAPL"},
    "holders": {"ticker": "AAPL"},
    "dividends": {"ticker": "AAPL", "start": "2023-10-15", "end": "2024-10-15"},
    "symbol_search": {"query": "Apple"},
}


@pytest.fixture(autouse=True)
def _instant_backoff(no_waiting):
    """Retries here never sleep."""


def adapter(yf=None, tmp_path=None, **kw) -> YahooFinance:
    return YahooFinance(yf=yf or FakeYF(), clock=lambda: NOW, cache_dir=tmp_path, **kw)


def fetch(source, args=None, yf=None):
    return adapter(yf).fetch(source, dict(ARGS[source] if args is None else args))


def only(items):
    assert len(items) == 1
    return items[0]


def dns_error():
    return DNSError("Failed to perform, curl: (6) Could not resolve host: query2.finance.yahoo.com. "
                    "See https://curl.se/libcurl/c/libcurl-errors.html first for more details.", 6)


# -- every source: the contract ---------------------------------------------------------

def test_the_catalogue_sends_these_nine_sources_to_yahoo_finance():
    assert [source for source, spec in CATALOGUE.items() if load(spec.adapter) is YahooFinance] == list(ARGS)


@pytest.mark.parametrize("source", ARGS)
def test_every_source_returns_strict_json_in_the_evidence_shape(source):
    items = fetch(source)
    assert items
    for raw in items:
        assert set(raw) == CONTRACT_KEYS
        json.dumps(raw, allow_nan=False)                     # no NaN, numpy or Timestamp anywhere
        assert raw["publisher"] == "Yahoo Finance"
        assert raw["title"] and raw["snippet"] and "\n" not in raw["snippet"]
        assert (raw["period"] is not None) == (source in PERIOD_SOURCES)
        if source not in ("symbol_search",):
            assert raw["data"]["ticker"] == "AAPL"


@pytest.mark.parametrize("source", ARGS)
def test_items_pass_the_sanitiser_unchanged_in_meaning(source):
    for raw in fetch(source):
        evidence = Evidence.from_untrusted(raw, source=source, kind="finance")
        assert evidence.title == raw["title"]
        assert evidence.url == raw["url"]
        assert evidence.published == raw["published"]
        assert evidence.period == raw["period"]
        assert evidence.snippet == raw["snippet"]
        assert evidence.data == raw["data"]


@pytest.mark.parametrize("source", sorted(answer_facts.WRITERS))
def test_answer_writers_find_figures_in_the_payloads(source):
    items = fetch(source)
    evidence = Evidence.from_untrusted(items[0], source=source, kind="finance")
    sentences = answer_facts.WRITERS[source](evidence, 1, {"AAPL": "Apple"}, "en")
    assert sentences and all("[1]" in s for s in sentences)
    assert not any("n/a" in s for s in sentences), sentences


def test_price_history_feeds_the_answer_writer():
    evidence = Evidence.from_untrusted(fetch("price_history")[0], source="price_history", kind="finance")
    sentences = answer_facts.price_history(evidence, 1, {"AAPL": "Apple"}, "en", "last week")
    assert sentences[0].startswith("Apple (AAPL) ")


def test_items_of_one_call_keep_distinct_ids_through_the_hub(settings):
    hub = DataHub(settings, adapters={"financials": adapter()})
    result = hub.call("financials", {"ticker": "AAPL", "statement": "income", "freq": "quarterly"})
    assert [e.data["period_label"] for e in result.evidence] == [
        "Q3 2024 (quarter ending 2024-09-30)", "Q2 2024 (quarter ending 2024-06-30)",
        "Q1 2024 (quarter ending 2024-03-31)", "Q4 2023 (quarter ending 2023-12-31)"]


def test_importing_the_adapter_does_not_load_yfinance_or_pandas():
    code = ("import sys, finsearch.sources.yahoo.adapter, finsearch.sources.yahoo.prices,"
            " finsearch.sources.yahoo.financials, finsearch.sources.yahoo.fundamentals;"
            "print(sorted(m for m in ('yfinance', 'pandas', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- price history --------------------------------------------------------------------------

def test_daily_history_with_chart_context_and_stats_for_the_focus():
    yf = FakeYF()
    raw = only(fetch("price_history", yf=yf))
    data = raw["data"]
    assert raw["period"] == {"start": "2024-10-07", "end": "2024-10-13"}
    assert raw["title"] == "AAPL daily prices 2024-10-07 to 2024-10-13"
    assert raw["url"] is None and raw["published"] is None
    assert data["interval"] == "1d" and data["currency"] == "USD"
    assert data["columns"] == ["date", "open", "high", "low", "close", "volume"]
    call = next(kw for _, method, kw in yf.calls if method == "history")
    assert call == {"interval": "1d", "start": "2024-08-23", "end": "2024-10-14", "auto_adjust": False,
                    "timeout": 10.0}
    rows = data["rows"]
    assert rows[0][0] == "2024-08-23" and rows[-1][0] == "2024-10-11"     # end+1 is exclusive
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    for row in rows:
        assert isinstance(row[0], str) and len(row[0]) == 10
        assert all(type(v) is float and v == round(v, 4) for v in row[1:5])
        assert type(row[5]) is int
    stats = data["stats"]
    assert stats == price_stats.compute(rows, date(2024, 10, 7), date(2024, 10, 13))
    assert stats["start_date"] == "2024-10-04" and stats["end_date"] == "2024-10-11"
    assert stats["trading_days"] == 5
    assert f"{stats['return_pct']:+.2f}%" in raw["snippet"]


def test_daily_dates_are_the_exchange_calendar_day():
    tokyo = Company(daily=daily_bars("2024-09-02", "2024-10-15", tz="Asia/Tokyo"), currency="JPY", tz="Asia/Tokyo")
    yf = FakeYF({"7203.T": tokyo})
    data = only(fetch("price_history", {"ticker": "7203.T", "start": "2024-10-01", "end": "2024-10-11"},
                      yf=yf))["data"]
    # Tokyo midnight is the previous day in UTC; the row must still say the trading day.
    assert data["interval"] == "1d" and data["currency"] == "JPY"
    assert data["rows"][-1][0] == "2024-10-11"


def test_a_short_recent_focus_gets_30_minute_bars_from_the_previous_session():
    yf = FakeYF()
    raw = only(fetch("price_history", {"ticker": "AAPL", "start": "2024-10-14", "end": "2024-10-15"}, yf=yf))
    data = raw["data"]
    assert data["interval"] == "30m"
    call = next(kw for _, method, kw in yf.calls if method == "history")
    assert (call["start"], call["end"], call["interval"]) == ("2024-10-10", "2024-10-16", "30m")
    assert data["rows"][0][0] == "2024-10-10T13:30:00Z"                    # 09:30 New York, in UTC
    assert all(r[0].endswith("Z") for r in data["rows"])
    stats = data["stats"]
    assert stats["start_date"] == "2024-10-11"                               # the previous close
    assert (stats["end_date"], stats["trading_days"]) == ("2024-10-15", 2)
    assert "30m bar prices" in raw["title"]


@pytest.mark.parametrize("start,end,interval,expected", [
    ("2024-10-14", "2024-10-15", None, ("30m", date(2024, 10, 10), date(2024, 10, 16))),
    ("2024-10-09", "2024-10-13", None, ("30m", date(2024, 10, 5), date(2024, 10, 14))),     # 5 days
    ("2024-10-08", "2024-10-13", None, ("1d", date(2024, 8, 24), date(2024, 10, 14))),     # 6 days
    ("2024-08-19", "2024-08-20", None, ("30m", date(2024, 8, 17), date(2024, 8, 21))),     # clamped to 59 days
    ("2024-08-01", "2024-08-02", None, ("1d", date(2024, 6, 17), date(2024, 8, 3))),       # too old for 30m
    ("2024-10-01", "2024-10-15", "1h", ("1h", date(2024, 9, 27), date(2024, 10, 16))),
    ("2024-09-01", "2024-09-02", "1m", ("2m", date(2024, 8, 28), date(2024, 9, 3))),       # 1m: 30 days only
    ("2024-01-01", "2024-06-30", "1wk", ("1wk", date(2023, 11, 17), date(2024, 7, 1))),
])
def test_bar_plan(start, end, interval, expected):
    plan = plan_bars(date.fromisoformat(start), date.fromisoformat(end), date(2024, 10, 15), interval)
    assert (plan.interval, plan.start, plan.end) == expected


def test_history_defaults_to_the_last_30_days():
    raw = only(fetch("price_history", {"ticker": "aapl"}))
    assert raw["period"] == {"start": "2024-09-15", "end": "2024-10-15"}
    assert raw["data"]["ticker"] == "AAPL"


def test_nan_and_inf_in_bars_become_null_or_are_dropped():
    company = apple()
    daily = company.daily
    daily.loc[pd.Timestamp("2024-10-09").tz_localize(NY), "Close"] = np.nan       # no close: row dropped
    daily.loc[pd.Timestamp("2024-10-10").tz_localize(NY), "High"] = np.inf
    daily["Volume"] = daily["Volume"].astype("float64")
    daily.loc[pd.Timestamp("2024-10-11").tz_localize(NY), "Volume"] = np.nan
    raw = only(fetch("price_history", yf=FakeYF({"AAPL": company})))
    json.dumps(raw, allow_nan=False)
    rows = {r[0]: r for r in raw["data"]["rows"]}
    assert "2024-10-09" not in rows
    assert rows["2024-10-10"][2] is None
    assert rows["2024-10-11"][5] is None and type(rows["2024-10-08"][5]) is int


def test_no_bars_is_no_data_naming_the_period():
    with pytest.raises(NoData, match=r"^no price history for ZZZZ between 2024-10-07 and 2024-10-13$"):
        fetch("price_history", {"ticker": "ZZZZ", "start": "2024-10-07", "end": "2024-10-13"})


# -- quote ----------------------------------------------------------------------------------

def test_quote_from_fast_info():
    yf = FakeYF()
    raw = only(fetch("quote", yf=yf))
    data, fast = raw["data"], yf.companies["AAPL"].fast
    assert list(data) == ["ticker", "currency", "last", "previous_close", "change_pct", "day_low", "day_high",
                          "year_low", "year_high", "market_cap", "as_of"]
    assert data["last"] == round(fast["last_price"], 4)
    assert data["change_pct"] == round((fast["last_price"] / fast["regular_market_previous_close"] - 1) * 100, 2)
    assert data["as_of"] == raw["published"] == "2024-10-15T20:00:00Z"
    assert raw["url"] == "https://finance.yahoo.com/quote/AAPL"
    assert not any(method == "info" for _, method, _ in yf.calls)           # fast_info had everything


def test_quote_falls_back_to_info_when_fast_info_raises_key_error():
    company = apple()
    company.fast = {"currency": KeyError("currency"), "last_price": KeyError("currentTradingPeriod"),
                    "regular_market_previous_close": TypeError("argument of type 'NoneType' is not iterable")}
    data = only(fetch("quote", yf=FakeYF({"AAPL": company})))["data"]
    assert (data["last"], data["previous_close"], data["currency"]) == (233.85, 231.3, "USD")
    assert data["year_high"] == 237.23 and data["market_cap"] == 3535000000000


@pytest.mark.parametrize("info", [None, {}, {"trailingPegRatio": None}, {"regularMarketPrice": float("nan")}])
def test_quote_without_a_price_is_no_data(info):
    company = Company(info=info, fast={"last_price": KeyError("currentTradingPeriod")})
    with pytest.raises(NoData, match=r"^no data for MSFT from Yahoo Finance$"):
        fetch("quote", {"ticker": "MSFT"}, yf=FakeYF({"MSFT": company}))


# -- financials -----------------------------------------------------------------------------

def test_annual_financials_one_item_per_year_merging_all_statements():
    items = fetch("financials")
    assert [i["data"]["period_label"] for i in items] == ["FY2024", "FY2023", "FY2022", "FY2021"]
    latest = items[0]
    assert latest["period"] == {"start": "2023-10-01", "end": "2024-09-30"}
    assert latest["published"] is None and latest["url"] is None
    data = latest["data"]
    assert {k: data[k] for k in ("ticker", "currency", "freq", "statement")} == {
        "ticker": "AAPL", "currency": "USD", "freq": "annual", "statement": "all"}
    assert data["lines"] == {
        "revenue": 391.035e9, "gross_profit": 180.683e9, "operating_income": 123.216e9, "net_income": 93.736e9,
        "eps": 6.08, "total_assets": 364.98e9, "total_liabilities": 308.03e9, "equity": 56.95e9,
        "cash": 29.943e9, "debt": 106.629e9, "operating_cash_flow": 118.254e9, "free_cash_flow": 108.807e9}


def test_quarterly_income_statement_leaves_other_lines_empty():
    items = fetch("financials", {"ticker": "AAPL", "statement": "income", "freq": "quarterly"})
    assert len(items) == 4
    first = items[0]
    assert first["data"]["period_label"] == "Q3 2024 (quarter ending 2024-09-30)"
    assert first["period"] == {"start": "2024-07-01", "end": "2024-09-30"}
    assert first["data"]["lines"]["revenue"] == 94.93e9
    assert first["data"]["lines"]["total_assets"] is None and first["data"]["lines"]["free_cash_flow"] is None
    assert first["title"] == "AAPL income statement Q3 2024 (quarter ending 2024-09-30)"


def test_ttm_pairs_trailing_flows_with_the_latest_balance_sheet():
    yf = FakeYF()
    raw = only(fetch("financials", {"ticker": "AAPL", "statement": "all", "freq": "ttm"}, yf=yf))
    data = raw["data"]
    assert data["freq"] == "ttm" and data["period_label"] == "TTM to 2024-09-30"
    assert raw["period"] == {"start": "2023-10-01", "end": "2024-09-30"}
    assert data["lines"]["revenue"] == 391.035e9 and data["lines"]["total_assets"] == 364.98e9
    asked = {(method, kw["freq"]) for _, method, kw in yf.calls if method.startswith("get_")}
    assert asked == {("get_income_stmt", "trailing"), ("get_balance_sheet", "quarterly"),
                     ("get_cash_flow", "trailing")}


def test_missing_statements_are_no_data():
    with pytest.raises(NoData, match="no annual financials for ZZZZ"):
        fetch("financials", {"ticker": "ZZZZ"})


def test_line_labels_are_yfinance_row_labels():
    from yfinance import const, utils

    labels = {
        "income": utils.camel2title(const.fundamentals_keys["financials"], sep=" ",
                                    acronyms=["EBIT", "EBITDA", "EPS", "NI"]),
        "balance": utils.camel2title(const.fundamentals_keys["balance-sheet"], sep=" ", acronyms=["PPE"]),
        "cashflow": utils.camel2title(const.fundamentals_keys["cash-flow"], sep=" ", acronyms=["PPE"]),
    }
    for line, (statement, candidates) in LINES.items():
        assert set(candidates) <= set(labels[statement]), line


@pytest.mark.parametrize("end,freq,label,start", [
    (date(2024, 9, 28), "annual", "FY2024", date(2023, 9, 29)),
    (date(2024, 9, 28), "quarterly", "Q3 2024 (quarter ending 2024-09-28)", date(2024, 6, 29)),
    (date(2025, 1, 26), "quarterly", "Q4 2024 (quarter ending 2025-01-26)", date(2024, 10, 27)),
    (date(2024, 5, 31), "quarterly", "Q2 2024 (quarter ending 2024-05-31)", date(2024, 3, 1)),
    (date(2024, 6, 30), "quarterly", "Q2 2024 (quarter ending 2024-06-30)", date(2024, 4, 1)),
    (date(2024, 3, 31), "annual", "FY2024", date(2023, 4, 1)),
    (date(2024, 2, 29), "annual", "FY2024", date(2023, 3, 1)),
    (date(2024, 9, 30), "ttm", "TTM to 2024-09-30", date(2023, 10, 1)),
])
def test_period_labels_and_starts(end, freq, label, start):
    assert (period_label(end, freq), period_start(end, freq)) == (label, start)


# -- earnings, analyst, profile, holders -----------------------------------------------------

def test_earnings_history_most_recent_first_and_the_next_date():
    raw = only(fetch("earnings"))
    data = raw["data"]
    assert data["next_date"] == "2024-10-31"                  # the day, as from the calendar
    history = data["history"]
    assert len(history) == 8
    assert history[0] == {"date": "2024-08-01T20:00:00Z", "eps_estimate": 1.35, "eps_reported": 1.4,
                          "surprise_pct": 3.45}
    assert [h["date"] for h in history] == sorted((h["date"] for h in history), reverse=True)
    assert history[3]["surprise_pct"] == round((1.46 - 1.39) / 1.39 * 100, 2)       # computed when missing
    assert raw["published"] == "2024-08-01T20:00:00Z"


def test_earnings_without_the_dates_page_uses_the_calendar():
    company = apple()
    company.earnings = None                                  # yfinance: "No earnings dates found"
    data = only(fetch("earnings", yf=FakeYF({"AAPL": company})))["data"]
    assert data == {"ticker": "AAPL", "next_date": "2024-10-31", "history": []}


def test_analyst_targets_current_ratings_and_recent_changes():
    data = only(fetch("analyst"))["data"]
    assert data["currency"] == "USD"
    assert data["targets"] == {"low": 183.86, "mean": 243.86, "median": 245.0, "high": 300.0, "current": 233.85}
    assert data["recommendations"] == {"strong_buy": 8, "buy": 24, "hold": 12, "sell": 1, "strong_sell": 2}
    changes = data["changes"]
    assert len(changes) == 10
    assert changes[0] == {"date": "2024-10-11", "firm": "Jefferies", "action": "downgrade", "from": "Buy",
                          "to": "Hold"}
    assert {c["action"] for c in changes} <= {"upgrade", "downgrade", "maintain", "initiate", "reiterate"}


def test_analyst_with_nothing_is_no_data():
    with pytest.raises(NoData, match="no analyst coverage for ZZZZ"):
        fetch("analyst", {"ticker": "ZZZZ"})


def test_profile_with_ratios_in_percent():
    raw = only(fetch("profile"))
    data = raw["data"]
    assert (data["name"], data["sector"], data["industry"], data["employees"]) == (
        "Apple Inc.", "Technology", "Consumer Electronics", 164000)
    assert data["website"] == "https://www.apple.com"
    assert data["officers"][0] == {"name": "Mr. Timothy D. Cook", "title": "CEO & Director"}
    assert len(data["officers"]) == 5
    assert data["ratios"] == {"trailing_pe": 35.41, "forward_pe": 28.07, "price_to_book": 52.27, "beta": 1.24,
                              "profit_margin": 26.44, "shares_outstanding": 15115799552.0,
                              "market_cap": 3535000000000.0, "dividend_yield": 0.43}
    assert raw["url"] == "https://finance.yahoo.com/quote/AAPL/profile"


@pytest.mark.parametrize("info", [None, {}, {"trailingPegRatio": None}, {"maxAge": 86400, "symbol": "ZZZZ"}])
def test_profile_from_an_empty_or_junk_info_is_no_data(info):
    with pytest.raises(NoData, match=r"^no data for ZZZZ from Yahoo Finance$"):
        fetch("profile", {"ticker": "ZZZZ"}, yf=FakeYF({"ZZZZ": Company(info=info)}))


def test_holders_in_percent_largest_first():
    raw = only(fetch("holders"))
    data = raw["data"]
    assert data["major"] == {"insiders_pct": 2.7, "institutions_pct": 61.93, "institutions_count": 6384}
    institutional = data["institutional"]
    assert len(institutional) == 10
    assert institutional[0] == {"holder": "Vanguard Group Inc", "shares": 1360000000, "pct": 8.98,
                                "value": 286000000000, "date": "2024-06-30"}
    assert next(h for h in institutional if h["holder"].startswith("Berkshire"))["value"] is None
    assert raw["published"] == "2024-06-30T00:00:00Z"


def test_holders_with_nothing_is_no_data():
    with pytest.raises(NoData, match="no holder data for ZZZZ"):
        fetch("holders", {"ticker": "ZZZZ"})


# -- dividends and symbol search -------------------------------------------------------------

def test_dividends_in_range_with_trailing_yield():
    raw = only(fetch("dividends"))
    data = raw["data"]
    assert raw["period"] == {"start": "2023-10-15", "end": "2024-10-15"}
    assert data["dividends"] == [{"date": "2023-11-10", "amount": 0.24}, {"date": "2024-02-09", "amount": 0.24},
                                 {"date": "2024-05-10", "amount": 0.25}, {"date": "2024-08-12", "amount": 0.25}]
    assert data["splits"] == []
    assert data["trailing_annual"] == 0.98
    close = float(apple().daily["Close"].iloc[-1])
    assert data["trailing_yield_pct"] == round(0.98 / close * 100, 2)
    assert data["currency"] == "USD"


def test_dividends_default_to_five_years_and_include_splits():
    raw = only(fetch("dividends", {"ticker": "AAPL"}))
    assert raw["period"] == {"start": "2019-10-17", "end": "2024-10-15"}
    data = raw["data"]
    assert data["splits"] == [{"date": "2020-08-31", "ratio": "4:1"}]
    assert "2019-08-09" not in {d["date"] for d in data["dividends"]}       # before the 5 years
    assert data["dividends"][0]["date"] == "2022-11-04"


def test_a_ticker_that_pays_no_dividends_says_so():
    company = Company(daily=daily_bars("2023-06-01", "2024-10-15"))
    raw = only(fetch("dividends", {"ticker": "TSLA"}, yf=FakeYF({"TSLA": company})))
    assert raw["data"]["dividends"] == [] and raw["data"]["trailing_annual"] == 0.0
    assert raw["data"]["trailing_yield_pct"] == 0.0
    assert "no dividends paid" in raw["snippet"]


def test_split_ratios():
    assert [split_ratio(f) for f in (4.0, 1.5, 0.1, 20.0)] == ["4:1", "3:2", "1:10", "20:1"]


def test_symbol_search_lists_up_to_eight_matches_without_news():
    yf = FakeYF()
    raw = only(fetch("symbol_search", yf=yf))
    matches = raw["data"]["matches"]
    assert raw["data"]["query"] == "Apple"
    assert len(matches) == 8
    assert matches[0] == {"symbol": "AAPL", "name": "Apple Inc.", "exchange": "NASDAQ", "type": "Equity"}
    assert matches[1] == {"symbol": "APC.DE", "name": "APPLE INC", "exchange": "XETRA", "type": "Equity"}
    call = next(kw for _, method, kw in yf.calls if method == "Search")
    assert call["max_results"] == 8 and call["news_count"] == 0
    assert raw["url"] == "https://finance.yahoo.com/lookup?s=Apple"


def test_symbol_search_without_matches_is_no_data():
    with pytest.raises(NoData, match="no ticker found for 'Qwzx Corp' on Yahoo Finance"):
        fetch("symbol_search", {"query": "Qwzx Corp"})


# -- failures -------------------------------------------------------------------------------

def test_dns_failure_is_unreachable_without_retrying():
    yf = FakeYF().fail("history", dns_error())
    with pytest.raises(Unreachable, match=r"^cannot reach Yahoo Finance \(is the network down\?\)$"):
        fetch("price_history", yf=yf)
    assert sum(method == "history" for _, method, _ in yf.calls) == 1


def test_rate_limits_are_retried_a_bounded_number_of_times(no_waiting):
    yf = FakeYF().fail("analyst_price_targets", YFRateLimitError())
    with pytest.raises(Unreachable, match=r"^Yahoo Finance rate-limited the request; retried 3 times$"):
        fetch("analyst", yf=yf)
    assert sum(method == "analyst_price_targets" for _, method, _ in yf.calls) == 4
    assert len(no_waiting) == 3


def test_a_retry_uses_a_fresh_ticker_and_can_succeed():
    yf = FakeYF().fail("get_earnings_dates", Timeout("Failed to perform, curl: (28) Operation timed out", 28),
                       times=2)
    raw = only(fetch("earnings", yf=yf))
    assert raw["data"]["history"]
    assert yf.tickers_made == 3                     # yfinance remembers failures on a Ticker object


def test_timeouts_and_server_errors_end_unreachable():
    timeout = Timeout("Failed to perform, curl: (28) Operation timed out after 10001 milliseconds", 28)
    with pytest.raises(Unreachable, match="did not answer in time; retried 3 times"):
        fetch("quote", yf=FakeYF().fail("fast_info", timeout))
    server = HTTPError("HTTP Error 503", 0, response=SimpleNamespace(status_code=503))
    with pytest.raises(Unreachable, match="returned a server error; retried 3 times"):
        fetch("holders", yf=FakeYF().fail("major_holders", server))


@pytest.mark.parametrize("exc", [
    KeyError("currentTradingPeriod"), TypeError("'NoneType' object is not subscriptable"),
    ValueError("Illegal argument"), HTTPError("HTTP Error 404", 0, response=SimpleNamespace(status_code=404)),
    json.JSONDecodeError("Expecting value", "", 0),
])
def test_other_exceptions_are_no_data_not_tracebacks(exc):
    yf = FakeYF().fail("history", exc)
    with pytest.raises(NoData, match=r"^no data for AAPL from Yahoo Finance$") as caught:
        fetch("price_history", yf=yf)
    assert caught.value.__cause__ is exc
    assert sum(method == "history" for _, method, _ in yf.calls) == 1


def test_search_failures():
    with pytest.raises(Unreachable, match="cannot reach Yahoo Finance"):
        fetch("symbol_search", yf=FakeYF().fail("Search", dns_error()))
    with pytest.raises(NoData, match=r"^no data for 'Apple' from Yahoo Finance$"):
        fetch("symbol_search", yf=FakeYF().fail("Search", json.JSONDecodeError("Expecting value", "", 0)))


@pytest.mark.parametrize("exc,kind", [
    (YFRateLimitError(), RATE),
    (dns_error(), NETWORK),
    (Timeout("curl: (28) Operation timed out", 28), TIMEOUT),
    (TimeoutError("timed out"), TIMEOUT),
    (ConnectionRefusedError(111, "Connection refused"), NETWORK),
    (HTTPError("HTTP Error 502", 0, response=SimpleNamespace(status_code=502)), SERVER),
    (HTTPError("HTTP Error 429", 0, response=SimpleNamespace(status_code=429)), RATE),
    (HTTPError("HTTP Error 404", 0, response=SimpleNamespace(status_code=404)), None),
    (Exception("*** YAHOO! FINANCE IS CURRENTLY DOWN! ***"), SERVER),
    (KeyError("currency"), None),
    (json.JSONDecodeError("Expecting value", "", 0), None),
])
def test_classify(exc, kind):
    assert classify(exc) == kind


def test_bad_calls_are_source_errors():
    with pytest.raises(SourceError, match="does not serve the news source"):
        adapter().fetch("news", {"ticker": "AAPL"})
    with pytest.raises(SourceError, match="quote needs a ticker"):
        adapter().fetch("quote", {})


def test_cache_location_is_set_once_per_module(tmp_path):
    yf = FakeYF()
    first = YahooFinance(yf=yf, clock=lambda: NOW, cache_dir=tmp_path / "yf")
    first.fetch("quote", {"ticker": "AAPL"})
    first.fetch("profile", {"ticker": "AAPL"})
    YahooFinance(yf=yf, clock=lambda: NOW, cache_dir=tmp_path / "other").fetch("quote", {"ticker": "AAPL"})
    assert yf.cache_locations == [str(tmp_path / "yf")]
    assert (tmp_path / "yf").is_dir()


def test_clock_defaults_to_now_in_utc():
    before = datetime.now(timezone.utc)
    raw = only(YahooFinance(yf=FakeYF()).fetch("quote", {"ticker": "AAPL"}))
    assert raw["published"] >= before.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_empty_history_frame_shape_matches_yfinance():
    from yfinance import utils

    assert list(empty_history().columns) == list(utils.empty_df().columns)
