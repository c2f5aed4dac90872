"""What the China-market sites really answered, watched below akshare.

akshare calls `requests.get/post` without a timeout and without checking the status: a
403 ban page or a changed page surfaces as a KeyError, an IndexError ("No tables found"),
a JSON error or an AttributeError from BeautifulSoup — or, worse, as an empty frame. So each
akshare call runs inside `watching(deadline)`, which sees every response at requests'
transport (`HTTPAdapter.send`, patched once per process, active only on the watching
thread): it gives each request the time left as its timeout and keeps the worst status
seen, so the adapter can say "cninfo refused the request (HTTP 403)" instead of "no data".
The few akshare functions that send through curl_cffi instead (Eastmoney's per-stock news)
are watched the same way at `curl_cffi.requests.Session.request`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from collections.abc import Iterator

_local = threading.local()
_PATCH_LOCK = threading.Lock()
_patched = False
MIN_REQUEST_S = 0.5          # a request is always given at least this long


@dataclasses.dataclass
class Watch:
    deadline: float                       # time.monotonic() by which the call must end
    statuses: list[int] = dataclasses.field(default_factory=list)
    hosts: list[str] = dataclasses.field(default_factory=list)

    @property
    def refused_status(self) -> int | None:
        """The first 4xx/5xx the sites answered, if any: a ban, a rate limit, an outage."""
        return next((s for s in self.statuses if s >= 400), None)

    @property
    def refused_host(self) -> str | None:
        """The host that answered `refused_status`."""
        return next((h for s, h in zip(self.statuses, self.hosts, strict=True) if s >= 400), None)


def _install() -> None:
    global _patched
    with _PATCH_LOCK:
        if _patched:
            return
        import requests.adapters

        original = requests.adapters.HTTPAdapter.send

        def send(self, request, *args, **kwargs):
            watch: Watch | None = getattr(_local, "watch", None)
            if watch is None:                          # not an akshare call of ours: untouched
                return original(self, request, *args, **kwargs)
            left = max(MIN_REQUEST_S, watch.deadline - time.monotonic())
            kwargs["timeout"] = left if kwargs.get("timeout") is None else min(left, _seconds(kwargs["timeout"]))
            response = original(self, request, *args, **kwargs)
            watch.statuses.append(response.status_code)
            watch.hosts.append(request.url.split("/")[2] if "//" in request.url else request.url)
            return response

        requests.adapters.HTTPAdapter.send = send
        _install_curl_cffi()
        _patched = True


def _install_curl_cffi() -> None:
    """The same watch on curl_cffi's sessions (akshare's `from curl_cffi import requests`)."""
    try:
        from curl_cffi.requests import Session
    except ImportError:                  # an akshare without it sends nothing through it
        return
    original = Session.request

    def request(self, method, url, *args, **kwargs):
        watch: Watch | None = getattr(_local, "watch", None)
        if watch is None:
            return original(self, method, url, *args, **kwargs)
        left = max(MIN_REQUEST_S, watch.deadline - time.monotonic())
        given = kwargs.get("timeout")
        kwargs["timeout"] = left if not isinstance(given, (int, float, tuple)) else min(left, _seconds(given))
        response = original(self, method, url, *args, **kwargs)
        watch.statuses.append(response.status_code)
        watch.hosts.append(url.split("/")[2] if "//" in url else url)
        return response

    Session.request = request


def _seconds(timeout) -> float:
    """A requests timeout (seconds, or a (connect, read) pair) as the longest wait it allows."""
    parts = timeout if isinstance(timeout, tuple) else (timeout,)
    try:
        return max(float(t) for t in parts if t is not None)
    except (TypeError, ValueError):          # no number in it (a urllib3 Timeout object): ours rules
        return float("inf")


@contextlib.contextmanager
def watching(deadline: float) -> Iterator[Watch]:
    """Every request this thread sends in the block is bounded by `deadline` and recorded."""
    _install()
    watch = Watch(deadline)
    previous = getattr(_local, "watch", None)
    _local.watch = watch
    try:
        yield watch
    finally:
        _local.watch = previous
