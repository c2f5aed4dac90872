"""Our own HTTP client for feeds and pages: explicit timeout, a user agent, limited size.

feedparser has no timeout, so feed text is fetched here and parsed afterwards.
"""

from __future__ import annotations

import threading

import httpx

from ...errors import FailureKind, SourceError
from . import resilience
from .resilience import NETWORK, TIMEOUT, Upstream

USER_AGENT = "Mozilla/5.0 (compatible; FinSearch/0.1; +https://github.com/finsearch)"
MAX_BYTES = 3_000_000

_client: httpx.Client | None = None
_client_lock = threading.Lock()


def client() -> httpx.Client:
    global _client
    with _client_lock:
        if _client is None:
            _client = httpx.Client(headers={"User-Agent": USER_AGENT}, follow_redirects=True,
                                   timeout=httpx.Timeout(8.0, connect=4.0))
        return _client


class _Status(Exception):
    def __init__(self, status: int):
        super().__init__(f"HTTP {status}")
        self.status = status


def classify(exc: BaseException) -> str | None:
    if isinstance(exc, _Status):
        return resilience.http_status_kind(exc.status)
    if isinstance(exc, httpx.TimeoutException):
        return TIMEOUT
    if isinstance(exc, (httpx.ConnectError, httpx.NetworkError, OSError)):
        return NETWORK
    return None


def get_text(url: str, upstream: Upstream, timeout_s: float = 8.0) -> str:
    """The body of `url` as text, within `timeout_s` and the call's deadline; SourceError with
    a readable reason on failure."""
    def fetch() -> str:
        # Never longer than the node may wait, so that a slow feed rarely outlives its caller.
        response = client().get(url, timeout=max(0.1, resilience.time_left(timeout_s)))
        if response.status_code >= 400:
            if resilience.http_status_kind(response.status_code) is None:
                raise SourceError(f"{upstream.name} refused the request (HTTP {response.status_code})",
                                  kind=FailureKind.REFUSED)
            raise _Status(response.status_code)
        body = response.content[:MAX_BYTES]
        return body.decode(response.encoding or "utf-8", errors="replace")

    return resilience.call(upstream, fetch, classify)
