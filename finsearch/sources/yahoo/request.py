"""One Yahoo Finance call as the finance builders see it: the `Request`, the evidence
`item` they return, and `classify`, which sorts yfinance's failures.

yfinance fails in many shapes: it raises (curl_cffi errors, its own YFRateLimitError,
KeyError from `fast_info`), or it logs and hands back None, {} or an empty frame — for an
outage as for an unknown symbol. So each call runs inside `wire.watching`, which
judges what Yahoo really answered (a `WireFailure` when it failed), and through
`resilience.call` with `classify` below:

- rate limits, timeouts, 5xx answers, refusals ("Invalid Crumb") and unreadable answers
  are retried, then end as `Unreachable`;
- DNS / connection failures end as `Unreachable` at once (retrying will not help);
- an unknown symbol, or a genuine empty answer, ends as `NoData` with a reason ("no price
  history for XYZ between … and …"), never a traceback and never a half-filled payload.

The builders (`prices`, `financials`, `fundamentals`, `finance.symbol_search`) and the
news source's Yahoo feed import from here; nothing here imports them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import quote as url_quote

from ...errors import NoData, SourceError
from ...evidence import iso_utc
from ..upstream import resilience
from ..upstream.resilience import NETWORK, RATE, SERVER, TIMEOUT
from .wire import WireFailure

PUBLISHER = "Yahoo Finance"
QUOTE_URL = "https://finance.yahoo.com/quote/{}"


# -- failures --------------------------------------------------------------------------

def classify(exc: BaseException) -> str | None:
    """yfinance / curl_cffi / requests failures → a resilience FAILURE kind (None: not a
    transport problem; the caller reports it as "no data").

    Every curl_cffi error is an OSError, JSON errors included, so the order matters.
    """
    if isinstance(exc, WireFailure):
        return exc.kind
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
        return iso_utc(self.now)

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
