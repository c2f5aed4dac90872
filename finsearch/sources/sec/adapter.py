"""US filings from SEC EDGAR: its JSON API and the filed documents, over httpx.

    SecEdgar(identity).fetch(source, args) → [evidence dict, …]   (the Evidence contract)

SEC's own endpoints are used directly (the ticker list, `data.sec.gov/submissions`, the
archived documents): a handful of GETs a call, each bounded by the node's time, so the
edgartools layer (its process-wide identity, throttle and HTTP cache) is not needed here.

SEC's fair-access rules: every request names who is asking (`User-Agent: Name email`, the
`FINSEARCH_SEC_IDENTITY` setting; without it the sources fail and say how to set it), and
no more than 10 requests a second — this process keeps ≥ 0.11 s between its requests.
A 403 (SEC's answer to undeclared or too-fast clients) is Refused with that reason; 429 and
5xx are retried, then RateLimited / Unreachable; an unknown ticker is UnknownSymbol, and so is
an institution (`filer`, for 13F) that is neither in `finsearch.reference.filers` nor a CIK.
Every answer is read as a stream and bounded, by bytes as decoded (`MAX_RESPONSE_BYTES`, less
where a builder knows its document is small) and by the call's deadline: a body that never ends,
a gzip bomb or a trickle is Unreachable or TimedOut, never a hung thread holding gigabytes.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone

import httpx

from ...catalogue import CATALOGUE, load
from ...errors import FailureKind, NoData, Refused, SourceError, UnknownSymbol, Unreachable
from ...reference.filers import FILERS, resolve
from ...settings import Settings
from ..upstream import resilience
from ..upstream.bounded import read_bounded
from ..upstream.resilience import NETWORK, RATE, TIMEOUT, Upstream

SEC = Upstream("SEC EDGAR", max_concurrent=2, retries=2)
TICKERS_URL = "https://www.sec.gov/files/company_tickers.json"
SUBMISSIONS_URL = "https://data.sec.gov/submissions/CIK{cik:010d}.json"
ARCHIVE_URL = "https://www.sec.gov/Archives/edgar/data/{cik}/{folder}/{document}"
MIN_INTERVAL_S = 0.11            # under SEC's 10 requests per second, for the whole process
# A 10-K with its inline XBRL is a few tens of MB at most; the JSON answers are smaller still.
MAX_RESPONSE_BYTES = 64 * 2**20
NAME_MAX = 200                   # a company's name, as the ticker list gives it
IDENTITY_HELP = ('SEC EDGAR needs to know who is asking: set FINSEARCH_SEC_IDENTITY="Your Name you@example.com" '
                 "(or fill it in on the Settings page)")

TICKERS_FRESH_S = 86400          # SEC's ticker list (~1 MB) is read once a day per process
_pace_lock = threading.Lock()
_last_request = 0.0
_tickers_lock = threading.Lock()
_tickers: tuple[float, dict[str, Company]] | None = None      # (read at, by ticker)


class SecStatus(Exception):
    """An HTTP status from SEC, as a resilience kind (retried by `call` where it may pass)."""

    def __init__(self, status: int, url: str):
        super().__init__(f"HTTP {status} from {url}")
        self.status = status
        self.kind = RATE if status == 429 else resilience.http_status_kind(status)


def classify(exc: BaseException) -> str | None:
    if isinstance(exc, SecStatus):
        return exc.kind
    if isinstance(exc, httpx.TimeoutException):
        return TIMEOUT
    if isinstance(exc, httpx.TransportError):
        return NETWORK
    return None


@dataclasses.dataclass(frozen=True)
class Company:
    """Whom a call is about: a listed company, or (ticker "") a 13F filer."""
    cik: int
    ticker: str
    name: str


@dataclasses.dataclass(frozen=True)
class Request:
    """One call as a builder sees it."""
    get: Callable[..., httpx.Response]       # get(url, limit=…): paced, identified, bounded; raises on 4xx/5xx
    company: Company
    args: dict
    now: datetime


def _pace() -> None:
    """Wait until this process may send its next request to SEC."""
    global _last_request
    with _pace_lock:
        wait = _last_request + MIN_INTERVAL_S - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        _last_request = time.monotonic()


def _ticker_list(get: Callable[[str], httpx.Response]) -> dict[str, Company]:
    """SEC's ticker → company list, shared by every run of this process for a day."""
    global _tickers
    with _tickers_lock:
        if _tickers is not None and time.monotonic() - _tickers[0] < TICKERS_FRESH_S:
            return _tickers[1]
    try:
        rows = get(TICKERS_URL).json()
        tickers: dict[str, Company] = {}
        for row in rows.values():
            symbol = str(row["ticker"]).upper()
            tickers.setdefault(symbol, Company(int(row["cik_str"]), symbol, str(row["title"])[:NAME_MAX]))
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError) as exc:
        raise Unreachable(f"{SEC.name} changed its ticker list ({type(exc).__name__})") from exc
    with _tickers_lock:
        _tickers = (time.monotonic(), tickers)
    return tickers


def forget_tickers() -> None:
    """Drop the shared ticker list (tests: each starts from an empty process)."""
    global _tickers
    with _tickers_lock:
        _tickers = None


class SecEdgar:
    """The Adapter for the SEC sources (see hub.Adapter)."""

    def __init__(self, identity: str | None, transport: httpx.BaseTransport | None = None,
                 clock: Callable[[], datetime] | None = None, timeout_s: float = 15.0):
        self.identity = identity
        self.transport = transport
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.timeout_s = timeout_s

    @classmethod
    def from_settings(cls, settings: Settings) -> SecEdgar:
        return cls(settings.sec_identity, clock=settings.clock)

    def fetch(self, source: str, args: dict) -> list[dict]:
        spec = CATALOGUE.get(source)
        if spec is None or spec.builder is None or load(spec.adapter) is not SecEdgar:
            raise SourceError(f"{SEC.name} does not serve the {source} source")
        if not self.identity or "@" not in self.identity:
            raise SourceError(IDENTITY_HELP, kind=FailureKind.NOT_SET_UP)
        build: Callable[[Request], list[dict]] = load(spec.builder)
        ticker = str((args or {}).get("ticker") or "").strip().upper()
        filer = _filer(source, args or {}) if spec.arg("ticker") is None else None
        if filer is None and not ticker:
            raise SourceError(f"{source} needs a ticker")
        deadline = time.monotonic() + resilience.time_left(self.timeout_s)

        def attempt() -> list[dict]:
            with httpx.Client(transport=self.transport, follow_redirects=True,
                              headers={"User-Agent": self.identity, "Accept-Encoding": "gzip, deflate"}) as client:
                get = self._getter(client, deadline)
                company = filer or self._company(get, ticker)
                return build(Request(get, company, dict(args), self.clock()))

        return resilience.call(SEC, attempt, classify)

    def _getter(self, client: httpx.Client, deadline: float) -> Callable[..., httpx.Response]:
        def get(url: str, limit: int = MAX_RESPONSE_BYTES) -> httpx.Response:
            _pace()
            left = max(0.5, deadline - time.monotonic())
            with client.stream("GET", url, timeout=httpx.Timeout(left, connect=min(left, 5.0))) as response:
                if response.status_code == 403:
                    raise Refused(f"{SEC.name} refused the request (HTTP 403): SEC blocks clients that do not "
                                  "identify themselves or send too fast; check FINSEARCH_SEC_IDENTITY")
                if response.status_code == 404:
                    raise NoData(f"{SEC.name} has no such document ({url})")
                if response.status_code >= 400:
                    raise SecStatus(response.status_code, url)
                body = read_bounded(response, SEC.name, url, limit, deadline + left)
            # The body as decoded, under the headers that still describe it.
            headers = [(k, v) for k, v in response.headers.multi_items()
                       if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]
            return httpx.Response(response.status_code, headers=headers, content=body, request=response.request)
        return get

    def _company(self, get: Callable[[str], httpx.Response], ticker: str) -> Company:
        tickers = _ticker_list(get)
        company = tickers.get(ticker) or tickers.get(ticker.replace(".", "-"))
        if company is None:
            raise UnknownSymbol(f"{SEC.name} lists no company with the ticker {ticker}")
        return company


def _filer(source: str, args: dict) -> Company:
    """The 13F filer a call names, before anything is sent: UnknownSymbol for a name the table
    lacks (with the names it has)."""
    asked = str(args.get("filer") or "").strip()
    if not asked:
        raise SourceError(f"{source} needs an institution (a name or its SEC CIK)")
    filer = resolve(asked)
    if filer is None:
        known = ", ".join(f.name for f in FILERS[:6])
        raise UnknownSymbol(f"no 13F filer named {asked!r} is known here; give its SEC CIK, or one of {known} …")
    return Company(filer.cik, "", filer.name)
