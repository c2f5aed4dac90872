"""Yahoo chart answers for the real yfinance code: a stand-in for the HTTP session that
`yfinance.data.YfData` holds (only its `get` is replaced, so yfinance's own request,
parsing, timezone and cleaning code all run), and chart bodies in Yahoo's shape.

A small local harness for the interval and trading-day tests; the general one (every
endpoint, failures on demand) is tests/yahoo_harness.py on the yahoo branch.

The bodies are shaped like the recorded 1-minute chart in
fixtures/recorded/node-yahoo-finance2/chart-AAPL-2025-02-01-to-2025-02-02-includePrePost-false-interval-1m.json
(the same meta keys, `tradingPeriods` as Yahoo sends it for intraday requests without
pre/post market); the bars themselves are written out by each test.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlparse

RECORDED = Path(__file__).resolve().parent / "fixtures" / "recorded"      # provenance: PROVENANCE.md there
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


class Response:
    """What yfinance reads of a curl_cffi response."""

    def __init__(self, body, status: int = 200, url: str = ""):
        self.status_code = status
        self.text = body if isinstance(body, str) else json.dumps(body)
        self.url = url
        self.headers: dict = {}

    def json(self):
        return json.loads(self.text)

    def raise_for_status(self):
        if self.status_code >= 400:
            raise RuntimeError(f"HTTP {self.status_code}")


@dataclass
class ChartServer:
    """Serves one chart body per symbol; records every chart request's parameters."""
    bodies: dict[str, dict]
    requests: list[dict] = field(default_factory=list)

    def get(self, url: str, params: dict | None = None, timeout=None, **_kw) -> Response:
        parsed = urlparse(url)
        if "getcrumb" in parsed.path:
            return Response("crumb", url=url)
        if "/v8/finance/chart/" not in parsed.path:
            return Response("", url=url)                   # fc.yahoo.com: the cookie step
        symbol = parsed.path.rsplit("/", 1)[-1]
        query = {k: v[0] for k, v in parse_qs(parsed.query).items()} | dict(params or {})
        query.pop("crumb", None)
        if symbol not in self.bodies:
            return Response({"chart": {"result": None, "error": {
                "code": "Not Found", "description": "No data found, symbol may be delisted"}}}, 404, url)
        self.requests.append({"symbol": symbol, **query})
        return Response(self.bodies[symbol], url=url)

    def chart_requests(self) -> list[dict]:
        """The history requests (the timezone lookup, range=1d, left out)."""
        return [r for r in self.requests if "period1" in r]


def serve(monkeypatch, bodies: dict[str, dict]) -> ChartServer:
    """Route yfinance's session `get` to a ChartServer; yfinance's request cache starts empty."""
    from yfinance.data import YfData

    server = ChartServer(bodies)
    data = YfData()
    monkeypatch.setattr(data._session, "get", server.get)
    YfData.cache_get.cache_clear()
    return server
