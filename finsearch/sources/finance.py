"""The finance sources, backed by yfinance (Yahoo Finance): one adapter, nine sources.

    YahooFinance().fetch(source, args) → [evidence dict, …]   (the Evidence contract)

This module holds the adapter, the failure handling and symbol_search; quote and
price_history are built in `prices.py`, the company fundamentals (financials, earnings,
analyst, profile, holders, dividends) in `fundamentals.py`.

yfinance fails in many shapes: it raises (curl_cffi errors, its own YFRateLimitError,
KeyError from `fast_info`), or it logs and hands back None, {} or an empty frame. Each
call runs through `resilience.call` with `classify` below, so:

- rate limits, timeouts and 5xx answers are retried, then end as `Unreachable`;
- DNS / connection failures end as `Unreachable` at once (retrying will not help);
- everything else — other exceptions, None, empty or junk answers — ends as `NoData`
  with a reason ("no price history for XYZ between … and …"), never a traceback and
  never a half-filled payload.

A retry builds a fresh `yf.Ticker`: yfinance memoises a failed fetch on the Ticker
(`.info` stays None once it failed), so retrying on the same object would return nothing.
"""

from __future__ import annotations

import dataclasses
import tempfile
import threading
import weakref
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote as url_quote
from urllib.parse import quote_plus

from ..errors import NoData, SourceError
from . import resilience
from .frames import text, utc_iso
from .resilience import NETWORK, RATE, SERVER, TIMEOUT, Upstream

PUBLISHER = "Yahoo Finance"
QUOTE_URL = "https://finance.yahoo.com/quote/{}"
DEFAULT_UPSTREAM = Upstream(PUBLISHER, max_concurrent=4, retries=3)


# -- failures --------------------------------------------------------------------------

def classify(exc: BaseException) -> str | None:
    """yfinance / curl_cffi / requests failures → a resilience FAILURE kind (None: not a
    transport problem; the caller reports it as "no data").

    Every curl_cffi error is an OSError, JSON errors included, so the order matters.
    """
    names = {cls.__name__ for cls in type(exc).__mro__}
    if "YFRateLimitError" in names or isinstance(exc, _library_errors()["rate"]):
        return RATE
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if isinstance(status, int) and status >= 400:
        return resilience.http_status_kind(status)
    if isinstance(exc, (TimeoutError, _library_errors()["timeout"])) \
            or names & {"Timeout", "ReadTimeout", "ConnectTimeout"} or getattr(exc, "code", None) == 28:
        return TIMEOUT
    if isinstance(exc, ValueError) or any("JSON" in name for name in names):
        return None                                  # an unreadable answer, not a dead link
    if "CURRENTLY DOWN" in str(exc):                 # yfinance's "Will be right back" page
        return SERVER
    if isinstance(exc, OSError):                     # DNSError, ConnectionError, SSL, proxy
        return NETWORK
    return None


_ERRORS: dict[str, tuple[type, ...]] = {}


def _library_errors() -> dict[str, tuple[type, ...]]:
    """The libraries' own exception classes, imported on first use and only if installed."""
    if not _ERRORS:
        rate: tuple[type, ...] = ()
        timeout: tuple[type, ...] = ()
        try:
            from yfinance.exceptions import YFRateLimitError
            rate = (YFRateLimitError,)
        except Exception:  # a missing or broken install: fall back to names
            pass
        try:
            from curl_cffi.requests.exceptions import Timeout
            timeout = (Timeout,)
        except Exception:
            pass
        _ERRORS.update(rate=rate, timeout=timeout)
    return _ERRORS


# -- one call ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Request:
    """One source call as the builders see it."""
    yf: Any                   # the yfinance module, or a fake of it
    symbol: str               # upper-cased ticker ("" for symbol_search)
    args: dict
    now: datetime             # aware UTC
    timeout_s: float

    @property
    def today(self) -> date:
        return self.now.date()

    @property
    def now_iso(self) -> str:
        return utc_iso(self.now)

    @property
    def url(self) -> str:
        return QUOTE_URL.format(url_quote(self.symbol, safe=""))

    def ticker(self) -> Any:
        return self.yf.Ticker(self.symbol)

    def optional(self, read: Callable[[], Any]) -> Any:
        """`read()`, or None when it fails for any reason but the transport's; transport
        failures propagate so that resilience.call retries or reports them."""
        try:
            return read()
        except Exception as exc:  # yfinance raises anything; classify sorts it
            if classify(exc) is not None:
                raise
            return None

    def focus(self, default_days: int) -> tuple[date, date]:
        """[start, end] from the args; end defaults to today, start to `default_days` before end."""
        try:
            end = date.fromisoformat(self.args["end"]) if self.args.get("end") else self.today
            start = date.fromisoformat(self.args["start"]) if self.args.get("start") \
                else end - timedelta(days=default_days)
        except (TypeError, ValueError) as exc:
            raise SourceError(f"bad date in {self.args!r}: use YYYY-MM-DD") from exc
        return (start, end) if start <= end else (end, start)

    def no_data(self, reason: str | None = None) -> NoData:
        subject = self.symbol or repr(str(self.args.get("query") or ""))
        return NoData(reason or f"no data for {subject} from {PUBLISHER}")


def item(title: str, snippet: str, data: dict, *, url: str | None = None,
         published: str | None = None, period: tuple[date, date] | None = None) -> dict:
    """One evidence dict in the contract's shape."""
    return {
        "title": title, "url": url, "publisher": PUBLISHER, "published": published,
        "period": {"start": period[0].isoformat(), "end": period[1].isoformat()} if period else None,
        "snippet": snippet, "data": data,
    }


# -- symbol search -----------------------------------------------------------------------

def symbol_search(req: Request) -> list[dict]:
    query = text(req.args.get("query"), 200)
    if not query:
        raise SourceError("symbol_search needs a query")
    # Search fetches inside its constructor; news and lists are not wanted here.
    search = req.yf.Search(query, max_results=8, news_count=0, lists_count=0, include_cb=False,
                           timeout=req.timeout_s)
    quotes = req.optional(lambda: search.quotes)
    matches = []
    for found in quotes if isinstance(quotes, list) else []:
        symbol = text(found.get("symbol"), 32) if isinstance(found, dict) else None
        if not symbol:
            continue
        matches.append({
            "symbol": symbol,
            "name": text(found.get("longname"), 200) or text(found.get("shortname"), 200),
            "exchange": text(found.get("exchDisp"), 60) or text(found.get("exchange"), 60),
            "type": text(found.get("typeDisp"), 40) or text(found.get("quoteType"), 40),
        })
        if len(matches) == 8:
            break
    if not matches:
        raise NoData(f"no ticker found for {query!r} on {PUBLISHER}")
    listed = "; ".join(f"{m['symbol']} ({m['name'] or '?'}, {m['exchange'] or '?'})" for m in matches)
    return [item(f"Ticker search: {query}", f"Matches for {query!r}: {listed}",
                 {"query": query, "matches": matches},
                 url=f"https://finance.yahoo.com/lookup?s={quote_plus(query)}")]


# -- the adapter -------------------------------------------------------------------------

def _builders() -> dict[str, Callable[[Request], list[dict]]]:
    from . import fundamentals, prices

    return {"quote": prices.quote, "price_history": prices.price_history, "symbol_search": symbol_search,
            "financials": fundamentals.financials, "earnings": fundamentals.earnings,
            "analyst": fundamentals.analyst, "profile": fundamentals.profile,
            "holders": fundamentals.holders, "dividends": fundamentals.dividends}


SOURCES = ("quote", "price_history", "financials", "earnings", "analyst", "profile", "holders",
           "dividends", "symbol_search")

_CACHE_SET: weakref.WeakSet = weakref.WeakSet()   # the yfinance modules already placed (ids get reused)
_CACHE_LOCK = threading.Lock()


class YahooFinance:
    """The Adapter for every finance source (see hub.Adapter)."""

    def __init__(self, upstream: Upstream | None = None, yf=None, clock: Callable[[], datetime] | None = None,
                 cache_dir: Path | str | None = None, timeout_s: float = 10.0):
        self.upstream = upstream or DEFAULT_UPSTREAM
        self._yf = yf
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.cache_dir = Path(cache_dir) if cache_dir else Path(tempfile.gettempdir()) / "finsearch-yfinance"
        self.timeout_s = timeout_s

    def fetch(self, source: str, args: dict) -> list[dict]:
        """Evidence dicts for one call; NoData / Unreachable / SourceError with a reason."""
        build = _builders().get(source)
        if build is None:
            raise SourceError(f"{PUBLISHER} does not serve the {source} source")
        args = dict(args or {})
        symbol = str(args.get("ticker") or "").strip().upper()
        if source != "symbol_search" and not symbol:
            raise SourceError(f"{source} needs a ticker")
        req = Request(self._module(), symbol, args, self.clock(), self.timeout_s)

        def attempt() -> list[dict]:
            try:
                return build(req)
            except SourceError:
                raise
            except Exception as exc:  # transport errors go on to resilience.call
                if classify(exc) is None:
                    raise req.no_data() from exc
                raise

        return resilience.call(self.upstream, attempt, classify)

    def _module(self):
        if self._yf is None:
            try:
                import yfinance
            except ImportError as exc:
                raise SourceError("the finance sources need yfinance: pip install yfinance") from exc
            self._yf = yfinance
        self._place_cache(self._yf)
        return self._yf

    def _place_cache(self, yf) -> None:
        """Keep yfinance's timezone/cookie cache in our folder; once per process (moving it
        later closes a database another thread may be using)."""
        setter = getattr(yf, "set_tz_cache_location", None)
        with _CACHE_LOCK:
            if setter is None or yf in _CACHE_SET:
                return
            _CACHE_SET.add(yf)
            try:
                self.cache_dir.mkdir(parents=True, exist_ok=True)
                setter(str(self.cache_dir))
            except OSError:
                pass                  # yfinance falls back to its default folder
