"""China A-share company data from the sites that publish it, through akshare (MIT, keyless).

    AShares().fetch(source, args) → [evidence dict, …]   (the Evidence contract)

One adapter for every source whose spec names it; the spec's builder (in `builders`, `industry`,
`prices` or `news`) runs one akshare function. akshare's cninfo / 10jqka (`_ths`) / Sina functions are used,
not the Eastmoney (`_em`) ones: Eastmoney bans clients of those endpoints (akshare issues
#6650, #7004, #7099). The one exception is per-stock news, which only Eastmoney has
(`news`).

Each site is its own `Upstream` (its own slots and retries). A failure is never "no data"
unless the site answered and had nothing: every call runs inside `wire.watching`,
so a 403 ban is Refused, a 429 or 5xx is retried and then RateLimited / Unreachable, and a
page akshare can no longer read (changed columns, a ban page served with 200) is
Unreachable with that reason.
"""

from __future__ import annotations

import dataclasses
import sys
import time
import warnings
from collections.abc import Callable
from datetime import datetime, timezone

from ...catalogue import A_SHARE_RE, CATALOGUE, HK_RE, load
from ...errors import NoData, Refused, SourceError, Unreachable
from ...settings import Settings
from ..upstream import resilience
from ..upstream.resilience import NETWORK, RATE, SERVER, TIMEOUT, Upstream
from .wire import Watch, watching

CNINFO = Upstream("cninfo (巨潮资讯)", max_concurrent=2, retries=2)
SINA = Upstream("Sina Finance (新浪财经)", max_concurrent=2, retries=2)
THS = Upstream("10jqka (同花顺)", max_concurrent=2, retries=2)
TENCENT = Upstream("Tencent Securities (腾讯证券)", max_concurrent=2, retries=2)
# Named in messages about the stock's own ratios in cn_industry_compare, whose calls take cninfo's slots.
BAIDU = Upstream("Baidu Gushitong (百度股市通)", max_concurrent=2, retries=2)
OTHER_SITES = {"gushitong.baidu.com": BAIDU}      # a host whose refusal is not its source's upstream's
# Only the per-stock news (china/news.py says why): one call at a time, one retry, as it bans clients.
EASTMONEY = Upstream("Eastmoney (东方财富)", max_concurrent=1, retries=1)
# The site each source's builder asks: its slots and retries are that site's.
UPSTREAMS: dict[str, Upstream] = {"cn_top_holders": SINA, "cn_announcements": CNINFO, "cn_business": THS,
                                  "cn_dividends": THS, "cn_financial_abstract": THS,
                                  "cn_profit_forecast": THS, "cn_stock_news": EASTMONEY,
                                  "cn_profile": CNINFO, "cn_industry_compare": CNINFO, "cn_daily_bars": TENCENT,
                                  "hk_dividends": THS}


@dataclasses.dataclass(frozen=True)
class Request:
    """One call as a builder sees it: the akshare module, the six-digit code, the args."""
    ak: object
    code: str
    ticker: str
    args: dict
    now: datetime


class SiteFailure(Exception):
    """What the site answered underneath akshare, as a resilience kind (retried by `call`)."""

    def __init__(self, kind: str, status: int | None = None):
        super().__init__(f"HTTP {status}" if status else kind)
        self.kind = kind


def classify(exc: BaseException) -> str | None:
    """requests' failures (akshare's transport) → a resilience kind; None: not a transport one."""
    if isinstance(exc, SiteFailure):
        return exc.kind
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & {"Timeout", "ReadTimeout", "ConnectTimeout"} or isinstance(exc, TimeoutError):
        return TIMEOUT
    if names & {"ConnectionError", "SSLError", "ProxyError"}:
        return NETWORK
    return None


def site_code(ticker: str, listing: str | None) -> str:
    """The code the sites use for a ticker of the source's listing: "600519.SS" → "600519",
    "0700.HK" → "0700"; SourceError for a ticker of another listing."""
    if listing != "hk":
        return a_share_code(ticker)
    m = HK_RE.match(ticker.strip().upper())
    if m is None:
        raise SourceError(f"{ticker or 'this'} is not a Hong Kong ticker (0700.HK)")
    return m.group(1)


def a_share_code(ticker: str) -> str:
    """"600519.SS" → "600519"; SourceError for anything that is not an A-share ticker."""
    m = A_SHARE_RE.match(ticker.strip().upper())
    if m is None:
        raise SourceError(f"{ticker or 'this'} is not a Shanghai or Shenzhen A-share ticker (600519.SS, 000001.SZ)")
    return m.group(1)


class AShares:
    """The Adapter for the China-market sources (see hub.Adapter)."""

    def __init__(self, ak=None, clock: Callable[[], datetime] | None = None, timeout_s: float = 15.0):
        self._ak = ak
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.timeout_s = timeout_s

    @classmethod
    def from_settings(cls, settings: Settings) -> AShares:
        return cls(clock=settings.clock)

    def fetch(self, source: str, args: dict) -> list[dict]:
        spec = CATALOGUE.get(source)
        if spec is None or spec.builder is None or load(spec.adapter) is not AShares:
            raise SourceError(f"the China-market adapter does not serve the {source} source")
        build: Callable[[Request], list[dict]] = load(spec.builder)
        ticker = str((args or {}).get("ticker") or "").strip().upper()
        code, now = site_code(ticker, spec.arg("ticker").listing), self.clock()
        upstream = UPSTREAMS[source]
        deadline = time.monotonic() + resilience.time_left(self.timeout_s)

        def attempt() -> list[dict]:
            # akshare is imported here, on the call's own thread: its first import takes a second
            # or two, and that belongs to the call's time.
            req = Request(self._module(), code, ticker, dict(args or {}), now)
            with watching(deadline) as watch:
                try:
                    items = build(req)
                except (NoData, SourceError):
                    _raise_for_status(upstream, watch)
                    raise
                except Exception as exc:
                    _raise_for_status(upstream, watch)
                    if classify(exc) is not None:
                        raise                   # timeouts and dead links go on to resilience.call
                    raise Unreachable(f"{upstream.name} answered with a page akshare could not read "
                                      f"(the page may have changed, or the site is blocking this client: "
                                      f"{type(exc).__name__})") from exc
                _raise_for_status(upstream, watch)
                return items

        return resilience.call(upstream, attempt, classify)

    def _module(self):
        if self._ak is None:
            try:
                import akshare
            except ImportError as exc:
                raise SourceError("the China-market sources need akshare: pip install akshare") from exc
            # akshare's parsers use pandas calls pandas 3.1 deprecates (inplace=…): its to fix,
            # and not worth a line on every run. Only its own lines.
            warnings.filterwarnings("ignore", category=DeprecationWarning, module="^akshare")
            _without_progress_bars()
            self._ak = akshare
        return self._ak


def _without_progress_bars() -> None:
    """akshare draws a tqdm bar on stderr while it pages through results (cninfo's announcements,
    Tencent's and Sina's daily bars): in the app's log and the CLI's terminal, noise. Each akshare
    module holds its own `get_tqdm` (imported by name), so each is given the disabled one."""
    from akshare.utils import tqdm as bars

    drawing = bars.get_tqdm
    for name, module in list(sys.modules.items()):
        if name.startswith("akshare") and getattr(module, "get_tqdm", None) is drawing:
            module.get_tqdm = _no_bars


def _no_bars(enable: bool = True):
    """akshare's `get_tqdm` as it is with enable=False: the iterable, undrawn."""
    return lambda iterable, *args, **kwargs: iterable


def _raise_for_status(upstream: Upstream, watch: Watch) -> None:
    """A refusal underneath akshare, whatever akshare made of it (an empty frame included)."""
    status = watch.refused_status
    if status is None:
        return
    # The site that refused, where a source asks two (cn_industry_compare: cninfo, then Baidu).
    name = OTHER_SITES.get(watch.refused_host or "", upstream).name
    if status in (401, 403, 451):
        raise Refused(f"{name} refused the request (HTTP {status}): it may be blocking this client; "
                      "try again later")
    if status == 429:
        raise SiteFailure(RATE, status)
    if status >= 500 or status in (408,):
        raise SiteFailure(resilience.http_status_kind(status) or SERVER, status)
    if status == 404:
        raise Unreachable(f"{name} no longer has the page akshare reads (HTTP 404)")
    raise Unreachable(f"{name} answered HTTP {status}")
