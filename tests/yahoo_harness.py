"""Recorded Yahoo: the real yfinance code running on recorded Yahoo Finance bodies.

Only the session that `yfinance.data.YfData` holds is patched (its `get` and `post`, the two
calls yfinance sends every request through, cookie and crumb steps included), so everything
above it — yfinance's cookie/crumb dance, its retries, its parsers, and our adapters — runs
as it does in production. Requests are routed by URL path to the recordings in
`tests/fixtures/yahoo/` (see PROVENANCE.md there); on demand an endpoint fails the way
curl_cffi and Yahoo fail: a DNS error or a timeout raised as curl_cffi raises them (at once,
or — "hang" — after waiting out the request's timeout), or a
response with status 401 "Invalid Crumb", 429, 500, 502 or 503, malformed JSON, or an empty
body. Every request is logged, so tests can count them.

What no project recorded is answered with bodies written out here in Yahoo's shape, and
named as such: the "not found" answers for an unknown symbol, the cookie and crumb steps,
and the earnings calendar page (HTML).
"""

from __future__ import annotations

import dataclasses
import http.cookiejar
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, urlsplit

from curl_cffi.const import CurlECode
from curl_cffi.requests import Headers, Response, Session
from curl_cffi.requests.exceptions import DNSError, Timeout
from yfinance._http import cookie_jar

RECORDED = Path(__file__).resolve().parent / "fixtures" / "yahoo"
HANG_CAP_S = 5.0               # a hung request never sleeps longer than this in a test
CRUMB = "haT3oykhHqZ"          # the crumb in node-yahoo-finance2's recorded request URLs

Endpoint = Literal["cookie", "consent", "crumb", "chart", "quote", "quoteSummary", "timeseries", "search",
                   "earnings_page", "other"]
DATA_ENDPOINTS = ("chart", "quote", "quoteSummary", "timeseries", "search", "earnings_page", "other")
Fault = Literal["dns", "timeout", "hang", "crumb", "429", "500", "502", "503", "malformed", "empty"]
FAULTS: tuple[Fault, ...] = ("dns", "timeout", "crumb", "429", "500", "502", "503", "malformed", "empty")

# Yahoo's own error bodies (as its API sends them; not from a recording).
INVALID_CRUMB = {"finance": {"result": None, "error": {"code": "Unauthorized", "description": "Invalid Crumb"}}}
SERVER_ERROR = {"finance": {"result": None, "error": {"code": "internal-error", "description": "Internal error"}}}
CHART_NOT_FOUND = {"chart": {"result": None, "error": {"code": "Not Found",
                                                       "description": "No data found, symbol may be delisted"}}}
EARNINGS_PAGE_WITHOUT_TABLE = "<html><head><title>Earnings Calendar</title></head><body><p>No results</p></body></html>"


def _body(folder: str, name: str) -> dict:
    raw = json.loads((RECORDED / folder / name).read_text())
    return raw["response"]["bodyJson"] if "response" in raw else raw


def _timeseries_pool() -> dict[str, dict]:
    """Every recorded fundamentals-timeseries entry of AAPL, by its type ("annualTotalRevenue")."""
    pool = {}
    for path in sorted((RECORDED / "node-yahoo-finance2").glob("fundamentalsTimeSeries-AAPL-*.json")):
        for entry in _body("node-yahoo-finance2", path.name)["timeseries"]["result"]:
            pool[entry["meta"]["type"][0]] = entry
    return pool


@dataclasses.dataclass(frozen=True)
class Sent:
    """One request yfinance made."""
    method: str
    url: str
    params: dict
    endpoint: Endpoint
    timeout: float | None


@dataclasses.dataclass
class _Failure:
    fault: Fault
    on: tuple[Endpoint, ...]
    left: int | None                # None: every time


def endpoint_of(url: str) -> Endpoint:
    parts = urlsplit(url)
    host, path = parts.hostname or "", parts.path
    if host == "fc.yahoo.com":
        return "cookie"
    if host.endswith(("guce.yahoo.com", "consent.yahoo.com")):
        return "consent"
    if path.endswith("/v1/test/getcrumb"):
        return "crumb"
    for prefix, name in (("/v8/finance/chart/", "chart"), ("/v7/finance/quote", "quote"),
                         ("/v10/finance/quoteSummary/", "quoteSummary"),
                         ("/ws/fundamentals-timeseries/v1/finance/timeseries/", "timeseries"),
                         ("/v1/finance/search", "search"), ("/calendar/earnings", "earnings_page")):
        if path.startswith(prefix):
            return name
    return "other"


def response(status: int, body: bytes | str | dict, url: str, content_type: str = "application/json") -> Response:
    """A curl_cffi Response as `Session.get` returns it."""
    r = Response()
    r.status_code, r.url = status, url
    r.ok = status < 400
    r.reason = {200: "OK", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
                500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}.get(status, "")
    if isinstance(body, dict):
        body = json.dumps(body)
    r.content = body.encode() if isinstance(body, str) else body
    r.headers = Headers({"content-type": content_type})
    return r


class RecordedYahoo:
    """Yahoo Finance as the recordings saw it, behind a fresh yfinance singleton.

    `fail(fault, on=…, times=…)` makes endpoints fail; `sent` lists every request;
    `count(endpoint…)` counts them."""

    def __init__(self, cache_dir: Path):
        import yfinance
        from yfinance import base, cache
        from yfinance.data import SingletonMeta, YfData

        # yfinance's process-wide state: the singleton (session, cookie, crumb, strategy),
        # its lru cache, the sqlite caches (timezones, cookies) and a module counter.
        SingletonMeta._instances.pop(YfData, None)
        YfData.cache_get.cache_clear()
        base._tz_info_fetch_ctr = 0
        cache._TzCacheManager._tz_cache = None
        cache._CookieCacheManager._Cookie_cache = None
        yfinance.set_tz_cache_location(str(cache_dir))

        self.sent: list[Sent] = []
        self._failures: list[_Failure] = []
        self.quotes = {"AAPL": _body("yfinance-rs", "quote_v7_AAPL.json")}
        self.charts = {"AAPL": _body("yfinance-rs", "history_chart_AAPL.json")}
        self.summaries = {"AAPL": _body("node-yahoo-finance2", "quoteSummary-all-AAPL.json")}
        self.searches = {"apple": _body("yfinance-rs", "search_v1_apple.json")}
        self.timeseries = {"AAPL": _timeseries_pool()}
        self.no_quote = _body("yfinance-rs", "quote_v7_GS2C.json")       # Yahoo's v7 answer for a symbol it lacks

        session = Session(impersonate="chrome")
        session.get = lambda url, **kw: self._send("GET", url, kw)
        session.post = lambda url, **kw: self._send("POST", url, kw)
        self.session = session
        self.data = YfData(session=session)

    # -- what a test controls ------------------------------------------------------------
    def fail(self, fault: Fault, on: Endpoint | tuple[Endpoint, ...] | None = None,
             times: int | None = None) -> RecordedYahoo:
        """From now on, `fault` answers requests to `on` (default: every data endpoint; for
        DNS errors and timeouts, every host), `times` times or for good."""
        if on is None:
            on = tuple(DATA_ENDPOINTS) + (("cookie", "consent", "crumb") if fault in ("dns", "timeout", "hang") else ())
        self._failures.append(_Failure(fault, (on,) if isinstance(on, str) else tuple(on), times))
        return self

    def heal(self) -> None:
        self._failures.clear()

    def count(self, *endpoints: Endpoint) -> int:
        return sum(1 for s in self.sent if not endpoints or s.endpoint in endpoints)

    # -- the boundary ----------------------------------------------------------------------
    def _send(self, method: str, url: str, kwargs: dict) -> Response:
        params = {k: v for k, v in (kwargs.get("params") or {}).items()}
        query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
        endpoint = endpoint_of(url)
        self.sent.append(Sent(method, url, {**query, **params}, endpoint, kwargs.get("timeout")))
        fault = self._fault_for(endpoint)
        if fault == "hang":                   # a server that never answers: curl gives up at the timeout
            time.sleep(min(float(kwargs.get("timeout") or 30), HANG_CAP_S))
            fault = "timeout"
        if fault is not None:
            return self._failed(fault, url, endpoint)
        return self._recorded(endpoint, url, {**query, **{k: str(v) for k, v in params.items()}})

    def _fault_for(self, endpoint: Endpoint) -> Fault | None:
        for failure in self._failures:
            if endpoint in failure.on and failure.left != 0:
                if failure.left is not None:
                    failure.left -= 1
                return failure.fault
        return None

    def _failed(self, fault: Fault, url: str, endpoint: Endpoint) -> Response:
        host = urlsplit(url).hostname
        if fault == "dns":
            raise DNSError(f"Failed to perform, curl: (6) Could not resolve host: {host}. See "
                           "https://curl.se/libcurl/c/libcurl-errors.html first for more details.",
                           CurlECode.COULDNT_RESOLVE_HOST)
        if fault == "timeout":
            raise Timeout("Failed to perform, curl: (28) Operation timed out after 10002 milliseconds with 0 bytes "
                          "received. See https://curl.se/libcurl/c/libcurl-errors.html first for more details.",
                          CurlECode.OPERATION_TIMEDOUT)
        if fault == "crumb":
            return response(401, INVALID_CRUMB, url)
        if fault == "429":
            return response(429, "Too Many Requests\r\n", url, "text/plain")
        if fault == "500":
            return response(500, SERVER_ERROR, url)
        if fault in ("502", "503"):
            return response(int(fault), f"<html><body><h1>{fault} Service Unavailable</h1></body></html>", url,
                            "text/html")
        if fault == "empty":
            return response(200, b"", url)
        good = self._recorded(endpoint, url, {})          # malformed: the recorded body cut in half
        return response(200, good.content[: len(good.content) // 2], url)

    def _recorded(self, endpoint: Endpoint, url: str, params: dict) -> Response:
        route: dict[str, Callable[[str, dict], Response]] = {
            "cookie": self._cookie,
            "consent": lambda u, p: response(200, "<html><body></body></html>", u, "text/html"),
            "crumb": lambda u, p: response(200, CRUMB, u, "text/plain"),
            "chart": self._chart, "quote": self._quote, "quoteSummary": self._summary,
            "timeseries": self._timeseries, "search": self._search,
            "earnings_page": lambda u, p: response(200, EARNINGS_PAGE_WITHOUT_TABLE, u, "text/html"),
        }
        return route.get(endpoint, lambda u, p: response(404, "", u, "text/html"))(url, params)

    def _cookie(self, url: str, params: dict) -> Response:
        """fc.yahoo.com answers 404 and sets the A3 cookie, which yfinance keeps and reuses."""
        expires = int(time.time()) + 365 * 86400
        cookie_jar(self.session).set_cookie(http.cookiejar.Cookie(
            0, "A3", "d=AQABBFAKE&S=AQAAAFAKE", None, False, ".yahoo.com", True, True, "/", True, True,
            expires, False, None, None, {}))
        return response(404, "", url, "text/html")

    @staticmethod
    def _symbol(url: str) -> str:
        return urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1].upper()

    def _chart(self, url: str, params: dict) -> Response:
        body = self.charts.get(self._symbol(url))
        if body is None:
            return response(404, CHART_NOT_FOUND, url)
        return response(200, _window(body, params.get("period1"), params.get("period2")), url)

    def _quote(self, url: str, params: dict) -> Response:
        symbol = str(params.get("symbols", "")).upper()
        return response(200, self.quotes.get(symbol, self.no_quote), url)

    def _summary(self, url: str, params: dict) -> Response:
        symbol = self._symbol(url)
        body = self.summaries.get(symbol)
        if body is None:
            return response(404, {"quoteSummary": {"result": None, "error": {
                "code": "Not Found", "description": f"Quote not found for symbol: {symbol}"}}}, url)
        wanted = str(params.get("modules", "")).split(",")
        modules = {k: v for k, v in body["quoteSummary"]["result"][0].items() if k in wanted}
        return response(200, {"quoteSummary": {"result": [modules], "error": None}}, url)

    def _timeseries(self, url: str, params: dict) -> Response:
        pool = self.timeseries.get(self._symbol(url), {})
        types = str(params.get("type", "")).split(",")
        found = [pool[t] for t in types if t in pool]
        return response(200, {"timeseries": {"result": found, "error": None}}, url)

    def _search(self, url: str, params: dict) -> Response:
        body = self.searches.get(str(params.get("q", "")).lower())
        if body is None:
            body = {"explains": [], "count": 0, "quotes": [], "news": [], "nav": [], "lists": [],
                    "researchReports": [], "screenerFieldResults": [], "totalTime": 12}
        return response(200, body, url)


def _window(body: dict, period1: str | None, period2: str | None) -> dict:
    """A recorded chart cut to [period1, period2), as Yahoo cuts what it serves."""
    if not period1 or not period2:
        return body
    lo, hi = int(period1), int(period2)
    body = json.loads(json.dumps(body))
    result = body["chart"]["result"][0]
    if "timestamp" not in result:          # Yahoo leaves it out when a range has no bars
        return body
    keep = [i for i, t in enumerate(result["timestamp"]) if lo <= t < hi]
    result["timestamp"] = [result["timestamp"][i] for i in keep]
    for block in result["indicators"]["quote"] + result["indicators"].get("adjclose", []):
        for key, values in block.items():
            block[key] = [values[i] for i in keep]
    for kind, events in result.get("events", {}).items():
        result["events"][kind] = {k: v for k, v in events.items() if lo <= int(k) < hi}
    return body
