"""The finance sources, backed by yfinance (Yahoo Finance): one adapter for every source
whose spec names it, running the builder the spec names.

    YahooFinance().fetch(source, args) → [evidence dict, …]   (the Evidence contract)

This module holds the adapter and symbol_search; quote and price_history are built in
`prices.py`, financials in `financials.py`, the other company facts (earnings, analyst,
profile, holders, dividends) in `fundamentals.py`. What every builder shares — the
request, the evidence item, the failure classifier — is in `yahoo.py`.

A retry builds a fresh `yf.Ticker`: yfinance memoises a failed fetch on the Ticker
(`.info` stays None once it failed), so retrying on the same object would return nothing.
Each attempt runs inside `wire.watching`, which bounds the call's time and tells an
outage from an empty answer (yfinance itself reports both as "nothing").
"""

from __future__ import annotations

import tempfile
import threading
import time
import warnings
import weakref
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote_plus

from ...catalogue import CATALOGUE, load
from ...errors import NoData, SourceError, UnknownSymbol
from ...settings import Settings
from ..upstream import resilience
from ..upstream.resilience import Upstream
from .frames import text
from .request import PUBLISHER, Request, classify, item
from .wire import watching

DEFAULT_UPSTREAM = Upstream(PUBLISHER, max_concurrent=4, retries=3)


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

    @classmethod
    def from_settings(cls, settings: Settings) -> YahooFinance:
        return cls(cache_dir=settings.cache_dir / "yfinance")

    def fetch(self, source: str, args: dict) -> list[dict]:
        """Evidence dicts for one call, from the builder the source's spec names;
        NoData / Unreachable / SourceError with a reason."""
        spec = CATALOGUE.get(source)
        if spec is None or spec.builder is None or load(spec.adapter) is not YahooFinance:
            raise SourceError(f"{PUBLISHER} does not serve the {source} source")
        build: Callable[[Request], list[dict]] = load(spec.builder)
        args = dict(args or {})
        symbol = str(args.get("ticker") or "").strip().upper()
        ticker = spec.arg("ticker")
        if ticker is not None and ticker.required and not symbol:
            raise SourceError(f"{source} needs a ticker")
        req = Request(self._module(), symbol, args, self.clock(), self.timeout_s)
        # One budget for the whole call, retries and yfinance's cookie/crumb steps included:
        # the adapter's own limit, or less when the node has less time left.
        deadline = time.monotonic() + resilience.time_left(self.timeout_s)

        def attempt() -> list[dict]:
            with watching(req.yf, deadline) as watch:
                try:
                    return build(req)
                except Exception as exc:  # NoData, or whatever yfinance raised
                    failure = watch.failure
                    if failure is not None and failure is not exc:
                        raise failure from exc       # Yahoo failed underneath: not "no data"
                    if watch.not_found and req.symbol:
                        raise UnknownSymbol(f"{PUBLISHER} does not know the ticker {req.symbol}") from exc
                    if isinstance(exc, SourceError) or classify(exc) is not None:
                        raise                        # transport errors go on to resilience.call
                    raise req.no_data() from exc

        return resilience.call(self.upstream, attempt, classify)

    def _module(self):
        if self._yf is None:
            try:
                import yfinance
            except ImportError as exc:
                raise SourceError("the finance sources need yfinance: pip install yfinance") from exc
            # Importing yfinance turns its DeprecationWarnings on ("default" for ^yfinance), so
            # the pandas 3.1 deprecations its chart parser trips (sort_index(inplace=True))
            # would be printed on every run; they are yfinance's to fix. Only its own lines.
            warnings.filterwarnings("ignore", category=DeprecationWarning, module="^yfinance")
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
