"""Opt-in tests against the real services. Off by default (pyproject adds -m 'not live');
run them with `python -m pytest -m live tests/test_live.py`."""

from __future__ import annotations

import pytest

# -- news and web search (live) ---------------------------------------------------------------


def _skip_when_rate_limited(exc: Exception) -> None:
    if "rate-limited" in str(exc):
        pytest.skip(f"upstream rate limit, not a failure of ours: {exc}")


@pytest.mark.live
def test_live_news_for_a_ticker_and_a_query():
    from finsearch.errors import Unreachable
    from finsearch.sources.news.adapter import NewsSource

    try:
        items = NewsSource().fetch("news", {"ticker": "AAPL", "query": "Apple stock", "lang": "en"})
    except Unreachable as exc:
        _skip_when_rate_limited(exc)
        raise
    assert items, "Yahoo Finance and Google News returned nothing"
    assert all(i["title"] and (i["url"] or "").startswith(("http://", "https://")) for i in items)
    assert sum(1 for i in items if i["published"]) >= len(items) // 2, "most items carry a date"
    assert len({i["url"] for i in items}) == len(items)


@pytest.mark.live
def test_live_web_search():
    from finsearch.errors import Unreachable
    from finsearch.sources.web.adapter import WebSearch

    try:
        items = WebSearch().fetch("web_search", {"query": "Apple stock news", "lang": "en"})
    except Unreachable as exc:
        _skip_when_rate_limited(exc)
        raise
    assert items, "DuckDuckGo returned nothing"
    assert all(i["title"] and i["publisher"] for i in items)


# -- finance sources: yfinance against Yahoo Finance (live) -----------------------------------

_FINANCE_ARGS = {
    "quote": {"ticker": "AAPL"},
    "financials": {"ticker": "AAPL", "statement": "all", "freq": "annual"},
    "earnings": {"ticker": "AAPL"},
    "analyst": {"ticker": "AAPL"},
    "profile": {"ticker": "AAPL"},
    "holders": {"ticker": "AAPL"},
    "dividends": {"ticker": "AAPL"},
    "symbol_search": {"query": "Apple"},
}


def _yahoo(source: str, args: dict, tmp_path) -> list[dict]:
    """Call the real adapter; check what every finance item must satisfy."""
    import json

    from finsearch.errors import Unreachable
    from finsearch.evidence import Evidence
    from finsearch.sources.yahoo.adapter import YahooFinance

    try:
        items = YahooFinance(cache_dir=tmp_path / "yfinance").fetch(source, args)
    except Unreachable as exc:
        if "rate-limited" in str(exc):
            pytest.skip(f"Yahoo Finance rate limit, not a failure of ours: {exc}")
        raise
    assert items
    for raw in items:
        json.dumps(raw, allow_nan=False)
        assert raw["publisher"] == "Yahoo Finance" and raw["title"] and raw["snippet"]
        assert Evidence.from_untrusted(raw, source=source, kind="finance").data == raw["data"]
    return items


# yfinance's own code may warn under newer pandas; that is not what these tests check.
_yahoo_live = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")


@pytest.mark.live
@_yahoo_live
def test_live_finance_quote(tmp_path):
    data = _yahoo("quote", _FINANCE_ARGS["quote"], tmp_path)[0]["data"]
    assert data["currency"] == "USD" and data["last"] > 0 and data["previous_close"] > 0
    assert isinstance(data["change_pct"], float) and data["year_low"] <= data["year_high"]


@pytest.mark.live
@_yahoo_live
@pytest.mark.parametrize("days_back,interval", [(20, "1d"), (1, "30m")])
def test_live_finance_price_history(tmp_path, days_back, interval):
    from datetime import date, timedelta

    end = date.today()
    args = {"ticker": "AAPL", "start": (end - timedelta(days=days_back)).isoformat(), "end": end.isoformat()}
    item = _yahoo("price_history", args, tmp_path)[0]
    data = item["data"]
    assert data["interval"] == interval and data["currency"] == "USD"
    assert data["columns"] == ["date", "open", "high", "low", "close", "volume"] and data["rows"]
    assert data["stats"]["end_close"] > 0
    assert item["period"] == {"start": args["start"], "end": args["end"]}


@pytest.mark.live
@_yahoo_live
def test_live_finance_financials(tmp_path):
    items = _yahoo("financials", _FINANCE_ARGS["financials"], tmp_path)
    latest = items[0]["data"]
    assert latest["period_label"].startswith("FY") and latest["currency"] == "USD"
    assert latest["lines"]["revenue"] > 1e11 and latest["lines"]["total_assets"] > 1e11
    assert len({i["data"]["period_label"] for i in items}) == len(items)


@pytest.mark.live
@_yahoo_live
def test_live_finance_earnings(tmp_path):
    item = _yahoo("earnings", _FINANCE_ARGS["earnings"], tmp_path)[0]
    data = item["data"]
    assert data["history"] or data["next_date"]
    assert any(h["eps_reported"] is not None for h in data["history"])


@pytest.mark.live
@_yahoo_live
def test_live_finance_analyst(tmp_path):
    data = _yahoo("analyst", _FINANCE_ARGS["analyst"], tmp_path)[0]["data"]
    assert data["targets"]["mean"] > 0 and data["targets"]["low"] <= data["targets"]["high"]
    assert sum(v or 0 for v in data["recommendations"].values()) > 0


@pytest.mark.live
@_yahoo_live
def test_live_finance_profile(tmp_path):
    data = _yahoo("profile", _FINANCE_ARGS["profile"], tmp_path)[0]["data"]
    assert "Apple" in data["name"] and data["sector"] == "Technology"
    assert data["employees"] > 10_000 and data["officers"]


@pytest.mark.live
@_yahoo_live
def test_live_finance_holders(tmp_path):
    data = _yahoo("holders", _FINANCE_ARGS["holders"], tmp_path)[0]["data"]
    assert 0 < data["major"]["institutions_pct"] <= 100
    assert data["institutional"] and data["institutional"][0]["shares"] > 0


@pytest.mark.live
@_yahoo_live
def test_live_finance_dividends(tmp_path):
    item = _yahoo("dividends", _FINANCE_ARGS["dividends"], tmp_path)[0]
    data = item["data"]
    assert len(data["dividends"]) >= 16 and data["trailing_annual"] > 0     # AAPL pays quarterly
    assert data["dividends"] == sorted(data["dividends"], key=lambda d: d["date"])
    assert item["period"]["end"] >= data["dividends"][-1]["date"]


@pytest.mark.live
@_yahoo_live
def test_live_finance_symbol_search(tmp_path):
    data = _yahoo("symbol_search", _FINANCE_ARGS["symbol_search"], tmp_path)[0]["data"]
    assert "AAPL" in [m["symbol"] for m in data["matches"]]
