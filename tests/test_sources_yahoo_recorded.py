"""The finance sources on the real yfinance code and recorded Yahoo bodies (tests/yahoo_harness.py):
each source's evidence with values read off the recordings by hand; every failure Yahoo and
curl_cffi produce (DNS error, timeout, 401 "Invalid Crumb", 429, 500, 502, 503, malformed JSON,
empty body) ending as Unreachable with a reason a person can read, retried where that can help,
within a bounded number of requests; an unknown ticker failing fast; and nothing failed or
stale served afterwards by yfinance's own cache."""

from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest

from finsearch.errors import NoData, RateLimited, Unreachable
from finsearch.sources.yahoo.adapter import YahooFinance
from tests.yahoo_harness import DATA_ENDPOINTS, FAULTS, RecordedYahoo

NOW = datetime(2025, 10, 30, 20, 0, tzinfo=timezone.utc)      # the day after the chart recording ends
EARNINGS_NOW = datetime(2025, 2, 10, tzinfo=timezone.utc)       # when quoteSummary-all-AAPL was recorded
ARGS = {
    "quote": {"ticker": "AAPL"},
    "price_history": {"ticker": "AAPL", "start": "2025-10-13", "end": "2025-10-24", "interval": "1d"},
    "financials": {"ticker": "AAPL", "statement": "all", "freq": "annual"},
    "earnings": {"ticker": "AAPL"},
    "analyst": {"ticker": "AAPL"},
    "profile": {"ticker": "AAPL"},
    "holders": {"ticker": "AAPL"},
    "dividends": {"ticker": "AAPL", "start": "2025-05-01", "end": "2025-10-29"},
    "symbol_search": {"query": "Apple"},
}
# pandas 3.1 deprecates the inplace= calls inside yfinance 1.7's parsers; as errors they would be
# swallowed inside yfinance and change what it returns (pinning pandas is tracked separately).
pytestmark = pytest.mark.filterwarnings("ignore::pandas.errors.Pandas4Warning")

TICKER_SOURCES = [source for source in ARGS if source != "symbol_search"]


@pytest.fixture(autouse=True)
def _instant_backoff(no_waiting):
    """Retries here never sleep."""


@pytest.fixture
def yahoo(tmp_path) -> RecordedYahoo:
    return RecordedYahoo(tmp_path / "yfinance")


@pytest.fixture
def finance(tmp_path) -> YahooFinance:
    return YahooFinance(clock=lambda: NOW, cache_dir=tmp_path / "yfinance")


@pytest.fixture
def earnings_finance(tmp_path) -> YahooFinance:
    """The calendar recording's next report (2025-04-30) is still ahead on this day."""
    return YahooFinance(clock=lambda: EARNINGS_NOW, cache_dir=tmp_path / "yfinance")


def adapter_for(source, finance, earnings_finance) -> YahooFinance:
    return earnings_finance if source == "earnings" else finance


def only(items):
    assert len(items) == 1
    return items[0]


# -- each source on its recording ----------------------------------------------------------

def test_quote(yahoo, finance):
    raw = only(finance.fetch("quote", ARGS["quote"]))
    # history_chart_AAPL: last close 269.70001220703125 on 2025-10-29, the bar before 269.0,
    # that day's low/high 267.11/271.41, 52-week range (meta) 169.21–271.41.
    assert raw["data"] == {"ticker": "AAPL", "currency": "USD", "last": 269.7, "previous_close": 269.0,
                           "change_pct": 0.26, "day_low": 267.11, "day_high": 271.41, "year_low": 169.21,
                           "year_high": 271.41, "market_cap": 4002453389312.0, "as_of": "2025-10-30T20:00:00Z"}


def test_price_history_daily_bars(yahoo, finance):
    raw = only(finance.fetch("price_history", ARGS["price_history"]))
    data = raw["data"]
    assert data["interval"] == "1d" and data["currency"] == "USD"
    rows = {row[0]: row for row in data["rows"]}
    # history_chart_AAPL, timestamp 1761312600 (2025-10-24 09:30 New York)
    assert rows["2025-10-24"] == ["2025-10-24", 261.19, 264.13, 259.18, 262.82, 38253700]
    assert data["stats"]["start_date"] == "2025-10-10" and data["stats"]["start_close"] == 245.27
    assert data["stats"]["end_close"] == 262.82 and data["stats"]["trading_days"] == 10


def test_a_range_without_bars_is_no_data_without_retrying(yahoo, finance):
    args = {"ticker": "AAPL", "start": "2025-01-06", "end": "2025-01-10", "interval": "1d"}   # before the recording
    with pytest.raises(NoData, match=r"^no price history for AAPL between 2025-01-06 and 2025-01-10$"):
        finance.fetch("price_history", args)
    assert yahoo.count("chart") == 2                  # the timezone lookup and the bars, once each


def test_financials_annual(yahoo, finance):
    items = finance.fetch("financials", ARGS["financials"])
    assert [i["data"]["period_label"] for i in items] == ["FY2024", "FY2023", "FY2022"]
    # fundamentalsTimeSeries-AAPL-*-annual, asOfDate 2024-09-30
    assert items[0]["data"]["lines"] == {
        "revenue": 391035000000.0, "gross_profit": 180683000000.0, "operating_income": 123216000000.0,
        "net_income": 93736000000.0, "eps": 6.08, "total_assets": 364980000000.0,
        "total_liabilities": 308030000000.0, "equity": 56950000000.0, "cash": 29943000000.0,
        "debt": 106629000000.0, "operating_cash_flow": 118254000000.0, "free_cash_flow": 108807000000.0}


def test_earnings_next_date_from_the_calendar_is_a_day(yahoo, earnings_finance):
    # quoteSummary calendarEvents.earnings.earningsDate[0] = 1746010740 (2025-04-30); the
    # earnings page (HTML, never recorded) answers without a table.
    assert only(earnings_finance.fetch("earnings", ARGS["earnings"]))["data"] == {
        "ticker": "AAPL", "next_date": "2025-04-30", "history": []}


def test_analyst(yahoo, finance):
    data = only(finance.fetch("analyst", ARGS["analyst"]))["data"]
    # quoteSummary financialData targets, recommendationTrend "0m", upgradeDowngradeHistory[0]
    assert data["targets"] == {"low": 197.0, "mean": 252.2258, "median": 257.5, "high": 325.0, "current": 245.55}
    assert data["recommendations"] == {"strong_buy": 7, "buy": 21, "hold": 14, "sell": 2, "strong_sell": 2}
    assert data["changes"][0] == {"date": "2025-01-31", "firm": "Citigroup", "action": "maintain",
                                  "from": "Buy", "to": "Buy"}


def test_profile_dividend_yield_in_percent_from_v7(yahoo, finance):
    data = only(finance.fetch("profile", ARGS["profile"]))["data"]
    assert (data["name"], data["sector"], data["employees"]) == ("Apple Inc.", "Technology", 150000)
    assert data["ratios"]["dividend_yield"] == 0.39          # quote_v7_AAPL: dividendYield 0.39 (percent)
    assert data["ratios"]["profit_margin"] == 24.3           # financialData.profitMargins 0.24295


def test_profile_dividend_yield_when_v7_lacks_the_symbol(yahoo, finance):
    yahoo.quotes.clear()                                    # v7 answers as it did for GS2C: no result
    data = only(finance.fetch("profile", ARGS["profile"]))["data"]
    assert data["ratios"]["dividend_yield"] == 0.41          # summaryDetail.dividendYield 0.0041 (a fraction)


def test_holders(yahoo, finance):
    data = only(finance.fetch("holders", ARGS["holders"]))["data"]
    # majorHoldersBreakdown; institutionOwnership.ownershipList[0]
    assert data["major"] == {"insiders_pct": 2.29, "institutions_pct": 62.71, "institutions_count": 6956}
    assert data["institutional"][0] == {"holder": "Vanguard Group Inc", "shares": 1395785512, "pct": 9.29,
                                        "value": 342735136731, "date": "2024-12-31"}


def test_dividends(yahoo, finance):
    data = only(finance.fetch("dividends", ARGS["dividends"]))["data"]
    # chart events.dividends: 1747056600 and 1754919000, 0.26 each
    assert data["dividends"] == [{"date": "2025-05-12", "amount": 0.26}, {"date": "2025-08-11", "amount": 0.26}]
    assert data["trailing_annual"] == 0.52 and data["currency"] == "USD"


def test_symbol_search(yahoo, finance):
    matches = only(finance.fetch("symbol_search", ARGS["symbol_search"]))["data"]["matches"]
    assert [m["symbol"] for m in matches] == ["AAPL", "APLE", "AAPL.VI", "APC.F", "AAPL.BA", "AAPI", "APC.DE"]
    assert matches[0] == {"symbol": "AAPL", "name": "Apple Inc.", "exchange": "NASDAQ", "type": "Equity"}


def test_every_request_carries_at_most_our_timeout(yahoo, finance):
    for source, args in ARGS.items():
        if source != "earnings":                    # nothing after NOW in this recording
            finance.fetch(source, args)
    assert yahoo.sent and all(s.timeout is not None and s.timeout <= finance.timeout_s for s in yahoo.sent)


# -- failures ------------------------------------------------------------------------------

REASONS = {
    "dns": r"^cannot reach Yahoo Finance \(is the network down\?\)$",
    "timeout": r"^Yahoo Finance did not answer in time; retried 3 times$",
    "429": r"^Yahoo Finance rate-limited the request; retried 3 times$",
    "crumb": r"^Yahoo Finance refused the request \(it did not accept the session\); retried 3 times$",
}
SERVER_ERROR = r"^Yahoo Finance returned a server error; retried 3 times$"


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("source", ARGS)
def test_a_failure_is_unreachable_with_a_reason_never_no_data(yahoo, finance, source, fault):
    yahoo.fail(fault)
    with pytest.raises(RateLimited if fault == "429" else Unreachable, match=REASONS.get(fault, SERVER_ERROR)):
        finance.fetch(source, ARGS[source])
    attempts = 1 if fault == "dns" else 4                   # DNS is not retried; the rest 3 times
    # Each attempt stops at the first failed answer (a refusal: after yfinance's own retry
    # with a new crumb), so the requests stay few: no retry storm.
    assert yahoo.count(*DATA_ENDPOINTS) <= 2 * attempts
    assert yahoo.count() <= 8 * attempts


@pytest.mark.parametrize("source", ARGS)
def test_after_a_failure_heals_the_next_call_asks_yahoo_again(yahoo, finance, earnings_finance, source):
    finance = adapter_for(source, finance, earnings_finance)
    yahoo.fail("502", times=4)                            # the first call and its three retries
    with pytest.raises(Unreachable):
        finance.fetch(source, ARGS[source])
    before = yahoo.count(*DATA_ENDPOINTS)
    assert finance.fetch(source, ARGS[source])
    assert yahoo.count(*DATA_ENDPOINTS) > before           # not the failure kept by yfinance's lru cache


def test_a_transient_failure_is_retried_and_then_answers(yahoo, finance):
    yahoo.fail("429", on="chart", times=2)
    assert only(finance.fetch("price_history", ARGS["price_history"]))["data"]["rows"]


def test_a_repeated_call_is_asked_again_not_served_by_yfinance(yahoo, finance):
    """Our cache decides freshness: yfinance's lru (Search, past-range history, earnings page,
    fundamentals) never answers a second call of ours by itself."""
    for source in ("symbol_search", "price_history", "financials"):
        finance.fetch(source, ARGS[source])
        before = yahoo.count(*DATA_ENDPOINTS)
        finance.fetch(source, ARGS[source])
        assert yahoo.count(*DATA_ENDPOINTS) > before, source


@pytest.mark.parametrize("source", [s for s in TICKER_SOURCES if s != "financials"])
def test_an_unknown_ticker_is_no_data_after_the_first_not_found(yahoo, finance, source):
    args = {**ARGS[source], "ticker": "ZZZZ"}
    with pytest.raises(NoData, match=r"^Yahoo Finance does not know the ticker ZZZZ$"):
        finance.fetch(source, args)
    # earnings reads the calendar page (HTML, no 404 for an unknown symbol) before quoteSummary
    assert yahoo.count(*DATA_ENDPOINTS) == (2 if source == "earnings" else 1)     # a quote took 43
    assert yahoo.count("cookie", "crumb") == 2


def test_unknown_ticker_financials_is_no_data(yahoo, finance):
    # Yahoo's timeseries endpoint answers 200 with nothing for a symbol it lacks.
    with pytest.raises(NoData, match=r"^no annual financials for ZZZZ from Yahoo Finance$"):
        finance.fetch("financials", {**ARGS["financials"], "ticker": "ZZZZ"})


def test_a_hung_yahoo_costs_one_budget_cookie_and_crumb_steps_included(yahoo, tmp_path):
    finance = YahooFinance(clock=lambda: NOW, cache_dir=tmp_path / "yf", timeout_s=0.6)
    yahoo.fail("hang")
    started = time.monotonic()
    with pytest.raises(Unreachable, match=REASONS["timeout"]):
        finance.fetch("quote", ARGS["quote"])
    assert time.monotonic() - started < 1.5                # yfinance alone: 30 s per request, ~25 requests
    assert all(s.timeout <= 0.6 for s in yahoo.sent)
