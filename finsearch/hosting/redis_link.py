"""The one way FinSearch talks to Redis (`FINSEARCH_REDIS_URL`): the official `redis` client.

The run store (`finsearch.store`), the source cache (`finsearch.sources.cache.redis_store`) and
the question counters (`finsearch.hosting.counters`) get their client here, so timeouts and retries
are chosen once, and share one circuit breaker per server (`breaker`). The client is imported when
a Redis URL is configured, never otherwise (the file backend needs nothing installed).

Timeouts are short on purpose: Redis is a local service; when it does not answer within a
second it is down, and a run should go on without it rather than wait. A timeout is not retried
(a paused server would make each call wait out three), and after one the breaker refuses every
call at once for `COOL_DOWN_S`: a page making ten store calls to a paused Redis waits once, not ten
times. A full Redis (`maxmemory` reached, `noeviction`) answers at once with an error: it is said
to be out of memory (`store_unavailable`), not unreachable, and does not open the breaker.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..errors import StoreUnavailable
from ..phrases import say
from .breaker import Breaker, BreakerOpen

if TYPE_CHECKING:
    import redis

KEY_PREFIX = "finsearch:"        # every key FinSearch writes starts with this
CONNECT_TIMEOUT_S = 0.5
COMMAND_TIMEOUT_S = 2.0
# The client retries a command whose connection dropped (seen in redis-py 6.4: a refused
# connect is not retried, so a server that is down costs no waiting), never one that timed out.
RETRIES = 2
# After a call finds Redis gone (a timeout, a refused or dropped connection), calls fail at once
# for this long; then one is let through to see whether it is back.
COOL_DOWN_S = 20.0

_CLIENTS: dict[str, redis.Redis] = {}
_BREAKERS: dict[str, Breaker] = {}
_GUARD = threading.Lock()


def new_client(url: str) -> redis.Redis:
    """A client (with its own connection pool) for `url`. Raises ImportError with the fix
    when the `redis` package is missing."""
    try:
        import redis
        from redis.backoff import ExponentialBackoff
        from redis.retry import Retry
    except ImportError as exc:  # an optional dependency: say how to get it
        raise ImportError("FINSEARCH_REDIS_URL is set but the `redis` package is not installed: "
                          "pip install -r requirements.txt") from exc
    return redis.Redis.from_url(
        url, decode_responses=True, socket_connect_timeout=CONNECT_TIMEOUT_S, socket_timeout=COMMAND_TIMEOUT_S,
        # Only a dropped connection is worth another try: a timeout means the server is stuck, and a
        # command that timed out may have been carried out (an INCR would count twice).
        retry=Retry(ExponentialBackoff(cap=0.25, base=0.05), RETRIES,
                    supported_errors=(redis.exceptions.ConnectionError,)),
        retry_on_error=[redis.exceptions.ConnectionError],
        health_check_interval=30)


def queue_client(url: str) -> redis.Redis:
    """A client for the job queue (RQ, `finsearch.jobs`): bytes, not text, as RQ stores them, and no
    command timeout of ours — a worker blocks on its queues longer than one, and RQ sets its own."""
    new_client(url)                      # the same message when the `redis` package is missing
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT_S, health_check_interval=30)


def connect(url: str) -> redis.Redis:
    """The process's shared client for `url` (redis-py clients are thread-safe)."""
    with _GUARD:
        client = _CLIENTS.get(url)
        if client is None:
            client = _CLIENTS[url] = new_client(url)
        return client


def breaker(url: str) -> Breaker:
    """The process's circuit breaker for the server at `url`, shared by every store that uses it
    (`with breaker(url): ...` around each call). Its `cool_down_s` is `COOL_DOWN_S`."""
    with _GUARD:
        found = _BREAKERS.get(url)
        if found is None:
            found = _BREAKERS[url] = Breaker(f"Redis at {where(url)}", COOL_DOWN_S, is_down=_is_down,
                                             is_answer=_is_answer)
        return found


def redis_errors() -> tuple[type[Exception], ...]:
    """What a call to an unreachable or failing Redis raises (`BreakerOpen`: not even tried)."""
    import redis

    return (redis.exceptions.RedisError, OSError, BreakerOpen)


def _is_down(exc: BaseException) -> bool:
    """Redis is not there: it did not answer in time, or the connection failed."""
    import redis

    return isinstance(exc, (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError))


def _is_answer(exc: BaseException) -> bool:
    """Redis answered, with an error of its own (out of memory, a wrong type, a script error)."""
    import redis

    return isinstance(exc, redis.exceptions.ResponseError)


def out_of_memory(exc: BaseException) -> bool:
    """Redis refused a write because it is full (`maxmemory` reached, nothing it may evict)."""
    import redis

    return isinstance(exc, redis.exceptions.OutOfMemoryError) or (
        isinstance(exc, redis.exceptions.ResponseError) and str(exc).startswith("OOM"))


def store_unavailable(where: str, exc: BaseException) -> StoreUnavailable:
    """The error a store raises when a call to Redis at `where` failed with `exc`: out of memory
    when it is, else unreachable (a refused call of an open breaker included)."""
    key = "store.out_of_memory" if out_of_memory(exc) else "store.unreachable"
    # The sentence is read inside others ("could not be saved (…)"): the error's name is in the log.
    return StoreUnavailable(say(key, "en", where=where))


def cause_of(exc: BaseException) -> str:
    """The name of what went wrong, for a log line or a notice: for a refused call, what opened the breaker."""
    return exc.cause if isinstance(exc, BreakerOpen) else type(exc).__name__


def where(url: str) -> str:
    """`url` without its credentials, fit for a message or a log line."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return f"unix://{parts.path}"
    host = parts.hostname or "localhost"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:                   # a malformed port: the client will say so when it connects
        port = ""
    return f"{parts.scheme}://{host}{port}{parts.path or ''}"
