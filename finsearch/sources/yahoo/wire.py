"""What Yahoo answered, watched on the wire below yfinance.

yfinance does not tell its caller what Yahoo answered: it hides exceptions, checks few
statuses, and hands back None, {} or an empty frame for a 429, a 500, an "Invalid Crumb", a
DNS failure or a truncated body alike — the same as for an unknown symbol. It also keeps
answers (failures included) in a process-wide lru cache, and on any 4xx/5xx walks a second
cookie strategy and its fallbacks (43 requests for one unknown symbol's quote). So every
source call runs inside `watching(yf, deadline)`, which sits on the session the `YfData`
singleton sends every request through:

- a request's timeout is cut to what is left before `deadline`, and once it has passed
  nothing more is sent: cookie and crumb steps included, one call ends in time;
- each answer of a Yahoo API endpoint is judged: 429 → rate limit; 5xx → server error;
  401/403 → refused (Yahoo's "Invalid Crumb"); a 200 whose JSON does not parse → an
  unreadable answer; a transport error → itself. A later good answer for the same URL path
  clears its failure (yfinance's own retry with a fresh crumb may succeed);
- after a rate limit, a server error, an unreadable answer, a second refusal, a transport
  error or a 404 (an unknown symbol) this attempt sends nothing more: the answer is known,
  and Yahoo is not hammered;
- yfinance's `cache_get` lru is bypassed: our cache decides freshness.

`Watch.failure` is then read by the adapter: when a builder finds nothing and Yahoo failed
underneath, the failure is the answer, not "no data".
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from ..upstream.resilience import RATE, REFUSED, SERVER, TIMEOUT

# Cookie and consent steps: yfinance expects them to fail at times (ad blockers, a 404 that
# still sets the cookie) and has a second strategy, so their answers are not judged.
COOKIE_HOSTS = ("fc.yahoo.com", "guce.yahoo.com", "consent.yahoo.com")


class WireFailure(Exception):
    """A failed answer seen on the wire. `kind` is a resilience failure kind; None means
    "not found" (Yahoo does not know the symbol)."""

    def __init__(self, kind: str | None, detail: str):
        super().__init__(detail)
        self.kind = kind


@dataclasses.dataclass
class Watch:
    """One attempt of one source call, as seen on the wire."""
    deadline: float                          # time.monotonic() after which nothing is sent
    requests: int = 0
    not_found: bool = False
    _failed: dict[str, BaseException] = dataclasses.field(default_factory=dict)   # by URL path
    _stop: BaseException | None = None       # once set, every further request raises it

    @property
    def failure(self) -> BaseException | None:
        """The latest failed answer not later answered well, or None."""
        return next(reversed(self._failed.values()), None)

    def send(self, send: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        url = str(kwargs["url"] if "url" in kwargs else args[0])
        if self._stop is not None:
            raise self._stop
        left = self.deadline - time.monotonic()
        if left <= 0:
            self._fail(url, WireFailure(TIMEOUT, "the call's time ran out"), stop=True)
            raise self._stop
        kwargs["timeout"] = min(float(kwargs.get("timeout") or left), left)
        self.requests += 1
        api = _judged(url)
        try:
            answer = send(*args, **kwargs)
        except Exception as exc:  # curl_cffi's errors (DNS, timeout, TLS …), whatever their class
            if api:
                self._fail(url, exc, stop=True)
            raise
        if api:
            self._judge(url, answer)
        return answer

    def _judge(self, url: str, answer: Any) -> None:
        status = getattr(answer, "status_code", 200)
        path = urlsplit(url).path
        if status == 404:
            self.not_found = True
            self._stop = WireFailure(None, "Yahoo does not know this symbol")
        elif status == 429:
            self._fail(url, WireFailure(RATE, f"HTTP {status} from {path}"), stop=True)
        elif status >= 500:
            self._fail(url, WireFailure(SERVER, f"HTTP {status} from {path}"), stop=True)
        elif status in (401, 403):
            # "Invalid Crumb": Yahoo refused the session. yfinance retries once with the other
            # cookie strategy, so the first refusal of a path is not final; the second is.
            again = path in self._failed
            self._fail(url, WireFailure(REFUSED, f"HTTP {status} from {path}"), stop=again)
        elif not _readable(answer):
            self._fail(url, WireFailure(SERVER, f"unreadable answer from {path}"), stop=True)
        else:
            self._failed.pop(path, None)

    def _fail(self, url: str, exc: BaseException, stop: bool) -> None:
        path = urlsplit(url).path
        self._failed.pop(path, None)
        self._failed[path] = exc
        if stop:
            self._stop = exc


def _judged(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return not host.endswith(COOKIE_HOSTS) and not urlsplit(url).path.endswith("/getcrumb")


def _readable(answer: Any) -> bool:
    """A Yahoo API answer (query1/query2) must be JSON; pages (finance.yahoo.com) are HTML."""
    if not (urlsplit(getattr(answer, "url", "") or "").hostname or "").startswith("query"):
        return True
    try:
        json.loads(answer.content)
    except (ValueError, TypeError):
        return False
    return True


# -- installing the watch ------------------------------------------------------------------

_local = threading.local()
_INSTALL_LOCK = threading.Lock()


@contextmanager
def watching(yf: Any, deadline: float) -> Iterator[Watch]:
    """Watch every request yfinance sends from this thread until the block ends."""
    watch = Watch(deadline)
    _install(yf)
    _local.watch = watch
    try:
        yield watch
    finally:
        _local.watch = None


def _install(yf: Any) -> None:
    """On the YfData singleton of this yfinance module: bypass the lru cache and guard the
    session's get/post. A stand-in module without `data.YfData` is left alone."""
    data_class = getattr(getattr(yf, "data", None), "YfData", None)
    if data_class is None:
        return
    data = data_class()
    with _INSTALL_LOCK:
        if "cache_get" not in vars(data):
            data.cache_get = data.get            # same signature, nothing kept between calls
        session = data._session
        if not getattr(session, "_finsearch_watched", False):
            session.get, session.post = _guarded(session.get), _guarded(session.post)
            session._finsearch_watched = True


def _guarded(send: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(*args: Any, **kwargs: Any) -> Any:           # yfinance passes url= or positionally
        watch = getattr(_local, "watch", None)
        return send(*args, **kwargs) if watch is None else watch.send(send, args, kwargs)
    return guarded
