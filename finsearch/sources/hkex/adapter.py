"""Hong Kong companies' exchange filings from HKEXnews (披露易), the exchange's own public title search, over httpx

    HkexNews().fetch(source, args) → [evidence dict, …]   (the Evidence contract)

No library wraps it (akshare 1.19.5 has no HKEXnews function; the PyPI packages that do are
scrapers into databases), and it needs no key: two GETs a call, the ones the site's own search
page sends. First the stock lookup turns the code into HKEXnews' own stock id (remembered for a
day per process: ids do not change), then the title search lists the stock's documents of the
period, newest first (`builders`). Each answer is read bounded (`upstream.bounded`) and strictly
(`wire`): a block (403) is Refused, 429 / 5xx are retried and then RateLimited / Unreachable, a
page of another shape is Unreachable with that reason, an unknown code is UnknownSymbol.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone

import httpx

from ...catalogue import CATALOGUE, HK_RE, load
from ...errors import SourceError, UnknownSymbol
from ...settings import Settings
from ..upstream import resilience
from ..upstream.bounded import read_bounded
from ..upstream.http import USER_AGENT
from .wire import HKEXNEWS, ORIGIN, Stock, check_status, classify, stock_from_lookup

LOOKUP_PATH = "/search/prefix.do"
SEARCH_PATH = "/search/titleSearchServlet.do"
SEARCH_PAGE = ORIGIN + "/search/titlesearch.xhtml"
# A hundred rows of the title search are some 60 KB; the lookup a few hundred bytes.
MAX_RESPONSE_BYTES = 4 * 2**20
STOCK_IDS_FRESH_S = 86400
_stocks_lock = threading.Lock()
_stocks: dict[str, tuple[float, Stock]] = {}          # code → (looked up at, stock)


@dataclasses.dataclass(frozen=True)
class Request:
    """One call as a builder sees it."""
    get: Callable[[str, dict[str, str]], bytes]     # get(path, params): bounded, raises on 4xx/5xx
    stock: Stock
    ticker: str
    args: dict
    now: datetime


def hk_code(ticker: str) -> str:
    """"0700.HK" → "00700", the five-digit code HKEXnews writes; SourceError for anything else."""
    m = HK_RE.match(ticker.strip().upper())
    if m is None:
        raise SourceError(f"{ticker or 'this'} is not a Hong Kong ticker (0700.HK)")
    return m.group(1).rjust(5, "0")


def forget_stock_ids() -> None:
    """Drop the remembered stock ids (tests: each starts from an empty process)."""
    with _stocks_lock:
        _stocks.clear()


class HkexNews:
    """The Adapter for the HKEXnews sources (see hub.Adapter). `site` is where requests go
    (the tests' loopback server); links always point at HKEXnews itself."""

    def __init__(self, site: str = ORIGIN, clock: Callable[[], datetime] | None = None, timeout_s: float = 15.0):
        self.site = site.rstrip("/")
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.timeout_s = timeout_s

    @classmethod
    def from_settings(cls, settings: Settings) -> HkexNews:
        return cls(clock=settings.clock)

    def fetch(self, source: str, args: dict) -> list[dict]:
        spec = CATALOGUE.get(source)
        if spec is None or spec.builder is None or load(spec.adapter) is not HkexNews:
            raise SourceError(f"{HKEXNEWS.name} does not serve the {source} source")
        build: Callable[[Request], list[dict]] = load(spec.builder)
        ticker = str((args or {}).get("ticker") or "").strip().upper()
        code, now = hk_code(ticker), self.clock()
        deadline = time.monotonic() + resilience.time_left(self.timeout_s)

        def attempt() -> list[dict]:
            headers = {"User-Agent": USER_AGENT, "Referer": SEARCH_PAGE, "X-Requested-With": "XMLHttpRequest",
                       "Accept": "application/json, text/javascript, */*; q=0.01"}
            with httpx.Client(base_url=self.site, headers=headers, follow_redirects=True) as client:
                get = self._getter(client, deadline)
                return build(Request(get, self._stock(get, code), ticker, dict(args or {}), now))

        return resilience.call(HKEXNEWS, attempt, classify)

    def _getter(self, client: httpx.Client, deadline: float) -> Callable[[str, dict[str, str]], bytes]:
        def get(path: str, params: dict[str, str]) -> bytes:
            what = "stock lookup" if path == LOOKUP_PATH else "title search"
            left = max(0.5, deadline - time.monotonic())
            with client.stream("GET", path, params=params,
                               timeout=httpx.Timeout(left, connect=min(left, 5.0))) as response:
                check_status(response.status_code, what)
                return read_bounded(response, HKEXNEWS.name, f"{ORIGIN}{path}", MAX_RESPONSE_BYTES, deadline + left)
        return get

    def _stock(self, get: Callable[[str, dict[str, str]], bytes], code: str) -> Stock:
        with _stocks_lock:
            known = _stocks.get(code)
        if known is not None and time.monotonic() - known[0] < STOCK_IDS_FRESH_S:
            return known[1]
        # lang=EN in capitals: in lower case the lookup answers an empty callback().
        text = get(LOOKUP_PATH, {"callback": "callback", "lang": "EN", "type": "A", "name": code, "market": "SEHK"})
        stock = stock_from_lookup(text.decode("utf-8", errors="replace"), code)
        if stock is None:
            raise UnknownSymbol(f"{HKEXNEWS.name} lists no stock with the code {code} on the Main Board")
        with _stocks_lock:
            _stocks[code] = (time.monotonic(), stock)
        return stock
