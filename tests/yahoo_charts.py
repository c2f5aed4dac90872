"""Intraday chart bodies in Yahoo's shape, for tests/yahoo_harness.py's RecordedYahoo to
serve to the real yfinance code (no project recorded intraday bars for Sydney or Tokyo).

The bodies are shaped like the recorded 1-minute chart in
fixtures/yahoo/node-yahoo-finance2/chart-AAPL-2025-02-01-to-2025-02-02-includePrePost-false-interval-1m.json
(the same meta keys, `tradingPeriods` as Yahoo sends it for intraday requests without
pre/post market); the bars themselves are written out by each test.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

RECORDED = Path(__file__).resolve().parent / "fixtures" / "yahoo"      # provenance: PROVENANCE.md there
RECORDED_1M = RECORDED / "node-yahoo-finance2" / \
    "chart-AAPL-2025-02-01-to-2025-02-02-includePrePost-false-interval-1m.json"


def recorded_1m() -> dict:
    """The recorded exchange: {"request": {"url", …}, "response": {"status", "bodyJson", …}}."""
    return json.loads(RECORDED_1M.read_text())


@dataclass(frozen=True)
class Bar:
    start: int                  # epoch seconds (UTC), the bar's opening time
    open: float
    high: float
    low: float
    close: float
    volume: int


@dataclass(frozen=True)
class Exchange:
    symbol: str
    timezone: str               # exchangeTimezoneName
    abbreviation: str           # meta "timezone", e.g. "AEDT"
    gmtoffset: int              # seconds east of UTC on the recorded days
    exchange: str               # exchangeName
    currency: str


def chart_body(market: Exchange, granularity: str, bars: list[Bar],
               sessions: list[tuple[int, int]]) -> dict:
    """A /v8/finance/chart body: meta like the recording's, one regular trading period per
    session (start, end epoch seconds), the bars' timestamps and quote columns."""
    period = [{"timezone": market.abbreviation, "start": s, "end": e, "gmtoffset": market.gmtoffset}
              for s, e in sessions]
    last = sessions[-1] if sessions else (0, 0)
    meta = {
        "currency": market.currency, "symbol": market.symbol, "exchangeName": market.exchange,
        "fullExchangeName": market.exchange, "instrumentType": "EQUITY", "firstTradeDate": 345479400,
        "regularMarketTime": last[1], "hasPrePostMarketData": False, "gmtoffset": market.gmtoffset,
        "timezone": market.abbreviation, "exchangeTimezoneName": market.timezone,
        "regularMarketPrice": bars[-1].close if bars else None, "chartPreviousClose": bars[0].open if bars else None,
        "priceHint": 2, "scale": 3,
        "currentTradingPeriod": {name: {"timezone": market.abbreviation, "start": last[0], "end": last[1],
                                        "gmtoffset": market.gmtoffset} for name in ("pre", "regular", "post")},
        "dataGranularity": granularity, "range": "",
        "validRanges": ["1d", "5d", "1mo", "3mo", "6mo", "1y", "2y", "5y", "10y", "ytd", "max"],
    }
    if sessions:
        meta["tradingPeriods"] = [[p] for p in period]
    result: dict = {"meta": meta, "indicators": {"quote": [{}]}}
    if bars:
        result["timestamp"] = [b.start for b in bars]
        result["indicators"] = {"quote": [{
            "open": [b.open for b in bars], "high": [b.high for b in bars], "low": [b.low for b in bars],
            "close": [b.close for b in bars], "volume": [b.volume for b in bars]}]}
    return {"chart": {"result": [result], "error": None}}
