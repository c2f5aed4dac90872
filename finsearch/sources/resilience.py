"""Calling an upstream service politely and surviving its bad days.

    call(upstream, fn, classify) → fn's result, or a SourceError that reads well

- at most `upstream.max_concurrent` calls in flight per upstream (a per-host limit);
- bounded retries with exponential backoff and full jitter on rate limits, timeouts and
  5xx answers; none on errors that retrying cannot fix (network down, bad request);
- every failure ends as a one-line reason for the node, e.g.
  "Yahoo Finance rate-limited the request; retried 3 times".

`classify(exc)` maps a library's exception to one of the FAILURE kinds, or None for
"unexpected"; each adapter supplies its own, since every library fails differently.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from ..errors import NoData, SourceError, Unreachable

T = TypeVar("T")

RATE = "rate"          # 429 / the library's rate-limit error
TIMEOUT = "timeout"
SERVER = "server"      # 5xx
NETWORK = "network"    # DNS failure, connection refused: retrying will not help
RETRYABLE = (RATE, TIMEOUT, SERVER)

_REASONS = {
    RATE: "{name} rate-limited the request",
    TIMEOUT: "{name} did not answer in time",
    SERVER: "{name} returned a server error",
    NETWORK: "cannot reach {name} (is the network down?)",
}

# Tests replace these to run without waiting.
sleep = time.sleep
jitter = random.random


@dataclasses.dataclass(frozen=True)
class Upstream:
    name: str                  # as users know it: "Yahoo Finance", "Google News"
    max_concurrent: int = 4
    retries: int = 3
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0


_LIMITS: dict[str, threading.BoundedSemaphore] = {}
_LIMITS_LOCK = threading.Lock()


def _limit(upstream: Upstream) -> threading.BoundedSemaphore:
    with _LIMITS_LOCK:
        if upstream.name not in _LIMITS:
            _LIMITS[upstream.name] = threading.BoundedSemaphore(upstream.max_concurrent)
        return _LIMITS[upstream.name]


def backoff(upstream: Upstream, attempt: int) -> float:
    """Full jitter: a random wait up to base · 2^attempt, capped."""
    return min(upstream.max_delay_s, upstream.base_delay_s * 2 ** attempt) * jitter()


def call(upstream: Upstream, fn: Callable[[], T], classify: Callable[[BaseException], str | None]) -> T:
    attempt = 0
    while True:
        try:
            with _limit(upstream):
                return fn()
        except (NoData, SourceError):
            raise
        except Exception as exc:  # every library has its own tree; `classify` reads it
            kind = classify(exc)
            if kind in RETRYABLE and attempt < upstream.retries:
                sleep(backoff(upstream, attempt))
                attempt += 1
                continue
            raise _failure(upstream, kind, exc, attempt) from exc


def _failure(upstream: Upstream, kind: str | None, exc: BaseException, attempts: int) -> SourceError:
    if kind is None:
        return SourceError(f"{upstream.name} failed unexpectedly ({type(exc).__name__})")
    reason = _REASONS[kind].format(name=upstream.name)
    if attempts:
        reason += f"; retried {attempts} time{'s' if attempts != 1 else ''}"
    return Unreachable(reason)


def http_status_kind(status: int) -> str | None:
    if status == 429:
        return RATE
    if status in (408, 504):
        return TIMEOUT
    if status >= 500:
        return SERVER
    return None
