"""Counters for the question limits and the model budget, kept where replicas share them.

A fixed window: the count of hits on a name in the current `window_s` (windows begin at
multiples of `window_s` since the epoch, so every replica agrees on them without talking). The
names: a visitor's identity and the network it asks from (`hosting.limits`), and the operator's
model budget (`model.budget`). A name is counted in one window size only: two sizes on one name
would restart each other's count (files) or share one at midnight (Redis).

    files   limits/<digest>.json   {"window": <start>, "count": n}, one small file per identity,
                                   updated under an exclusive lock (`fcntl`), so two app
                                   processes on one machine count together
    Redis   finsearch:limit:<digest>:<start>   INCR, and EXPIRE with the window, in one MULTI

A name appears only as a digest: a counter's name must not hand out a visitor's token or address.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Protocol

from ..settings import Settings
from .redis_link import KEY_PREFIX, breaker, connect, redis_errors, store_unavailable, where


class QuestionCounter(Protocol):
    def hit(self, owner: str, window_s: float, now: float | None = None) -> int:
        """Count one more question for `owner`; returns how many it asked in this window
        (`now`: epoch seconds, the real clock when None)."""


def _digest(owner: str) -> str:
    return hashlib.sha256(owner.encode()).hexdigest()[:32]


def _window(window_s: float, now: float | None = None) -> int:
    return int((time.time() if now is None else now) // window_s * window_s)


def window_end(window_s: float, now: float) -> float:
    """When the window holding `now` ends, and its count starts again (epoch seconds)."""
    return (now // window_s + 1) * window_s


class FileQuestionCounter:
    def __init__(self, data_dir: Path):
        self.folder = Path(data_dir).expanduser() / "limits"

    def hit(self, owner: str, window_s: float, now: float | None = None) -> int:
        self.folder.mkdir(parents=True, exist_ok=True)
        start = _window(window_s, now)
        fd = os.open(self.folder / f"{_digest(owner)}.json", os.O_RDWR | os.O_CREAT, 0o600)
        with os.fdopen(fd, "r+", encoding="utf-8") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)          # released when the file closes
            try:
                raw = json.loads(handle.read() or "{}")
                count = int(raw["count"]) if raw.get("window") == start else 0
            except (ValueError, KeyError, TypeError, AttributeError):
                count = 0                              # a damaged counter starts the window again
            count += 1
            handle.seek(0)
            handle.truncate()
            json.dump({"window": start, "count": count}, handle)
        return count


class RedisQuestionCounter:
    def __init__(self, url: str, client=None):
        self.where = where(url)
        self.redis = client if client is not None else connect(url)
        self.breaker = breaker(url)

    def hit(self, owner: str, window_s: float, now: float | None = None) -> int:
        start = _window(window_s, now)
        key = f"{KEY_PREFIX}limit:{_digest(owner)}:{start}"
        try:
            with self.breaker, self.redis.pipeline(transaction=True) as tx:
                tx.incr(key)
                tx.expire(key, max(1, int(window_s)) + 1)   # gone soon after its window ends
                count, _ = tx.execute()
        except redis_errors() as exc:
            raise store_unavailable(self.where, exc) from exc
        return int(count)


def open_counter(settings: Settings) -> QuestionCounter:
    """The counter these settings name: Redis when `FINSEARCH_REDIS_URL` is set, else files."""
    if settings.redis_url:
        return RedisQuestionCounter(settings.redis_url)
    return FileQuestionCounter(settings.data_dir)
