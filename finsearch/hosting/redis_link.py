"""The one way FinSearch talks to Redis (`FINSEARCH_REDIS_URL`): the official `redis` client.

Both the run store (`finsearch.store`) and the source cache (`finsearch.sources.cache.redis_store`)
get their client here, so timeouts and retries are chosen once. The client is imported when a
Redis URL is configured, never otherwise (the file backend needs nothing installed).

Timeouts are short on purpose: Redis is a local service; when it does not answer within a
second it is down, and a run should go on without it rather than wait.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import redis

KEY_PREFIX = "finsearch:"        # every key FinSearch writes starts with this
CONNECT_TIMEOUT_S = 0.5
COMMAND_TIMEOUT_S = 2.0
# The client retries a command whose connection dropped (seen in redis-py 6.4: a refused
# connect is not retried, so a server that is down costs no waiting).
RETRIES = 2

_CLIENTS: dict[str, redis.Redis] = {}
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
        retry=Retry(ExponentialBackoff(cap=0.25, base=0.05), RETRIES),
        retry_on_error=[redis.exceptions.ConnectionError, redis.exceptions.TimeoutError],
        health_check_interval=30)


def connect(url: str) -> redis.Redis:
    """The process's shared client for `url` (redis-py clients are thread-safe)."""
    with _GUARD:
        client = _CLIENTS.get(url)
        if client is None:
            client = _CLIENTS[url] = new_client(url)
        return client


def redis_errors() -> tuple[type[Exception], ...]:
    """What a call to an unreachable or failing Redis raises."""
    import redis

    return (redis.exceptions.RedisError, OSError)


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
