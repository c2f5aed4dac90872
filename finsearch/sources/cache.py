"""The on-disk cache every source call goes through (diskcache).

- Keyed by (source, canonical args); the value is the sanitised evidence plus the time it
  was fetched. Freshness is judged per source when reading, so an expired entry is still
  there to serve offline (diskcache's own `expire=` would delete it).
- Size-bounded with least-recently-used eviction.
- Concurrent misses for one key make one upstream call: a per-key lock, and a second
  look into the cache once it is held.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import diskcache

from ..evidence import parse_utc, to_iso
from .catalogue import canonical_args


@dataclasses.dataclass(frozen=True)
class Entry:
    evidence: list            # sanitised evidence dicts
    fetched_at: datetime
    size: int = 0             # bytes as stored


class SourceCache:
    def __init__(self, directory: Path, freshness_s: dict[str, float], size_limit_bytes: int):
        self.directory = Path(directory)
        self.freshness_s = dict(freshness_s)
        self._store = diskcache.Cache(str(self.directory), size_limit=size_limit_bytes,
                                      eviction_policy="least-recently-used")

    @staticmethod
    def key(source: str, args: dict) -> str:
        return json.dumps([source, canonical_args(args)], sort_keys=True, ensure_ascii=False)

    def fresh(self, source: str, entry: Entry, now: datetime) -> bool:
        age = (now - entry.fetched_at).total_seconds()
        return age <= self.freshness_s.get(source, 3600)

    def get(self, source: str, args: dict, *, any_age: bool, now: datetime) -> Entry | None:
        """The entry when present and fresh (or present at all, with `any_age`)."""
        entry = _decode(self._store.get(self.key(source, args)))
        if entry is None or not (any_age or self.fresh(source, entry, now)):
            return None
        return entry

    def put(self, source: str, args: dict, evidence: list, fetched_at: datetime) -> int:
        """Store an entry; returns its size in bytes."""
        payload = json.dumps({"fetched_at": to_iso(fetched_at), "evidence": evidence}, ensure_ascii=False)
        self._store.set(self.key(source, args), payload)
        return len(payload)

    def fetch_through(self, source: str, args: dict, produce: Callable[[], list],
                      now: Callable[[], datetime]) -> tuple[Entry, bool]:
        """(entry, from_cache): one `produce()` per key however many threads miss at once.

        The lock is per process (the app and the CLI are one process each); two processes
        sharing the folder may both fetch a key once, which costs a call, not correctness.
        """
        with _local_lock(self.key(source, args)):
            entry = self.get(source, args, any_age=False, now=now())
            if entry is not None:
                return entry, True                   # filled while we waited for the lock
            evidence = produce()
            fetched_at = now()
            size = self.put(source, args, evidence, fetched_at) if evidence else 0
            return Entry(evidence, fetched_at, size), False

    def stats(self) -> dict:
        return {"entries": len(self._store), "bytes": self._store.volume(),
                "folder": str(self.directory)}

    def clear(self) -> int:
        return self._store.clear()

    def close(self) -> None:
        self._store.close()


def _decode(raw) -> Entry | None:
    if not isinstance(raw, str):
        return None
    try:
        value = json.loads(raw)
        fetched = parse_utc(value["fetched_at"])
        evidence = value["evidence"]
    except (ValueError, KeyError, TypeError):
        return None
    if fetched is None or not isinstance(evidence, list):
        return None
    return Entry(evidence, fetched, len(raw))


# Per-key locks, striped so that memory stays bounded.
_STRIPES = [threading.Lock() for _ in range(64)]


def _local_lock(key: str) -> threading.Lock:
    return _STRIPES[hash(key) % len(_STRIPES)]


_OPEN: dict[str, SourceCache] = {}
_OPEN_GUARD = threading.Lock()


def open_cache(directory: Path, freshness_s: dict[str, float], size_mb: int) -> SourceCache:
    """One SourceCache per folder per process (diskcache objects are thread-safe)."""
    folder = Path(directory).expanduser()
    with _OPEN_GUARD:
        cache = _OPEN.get(str(folder))
        if cache is None:
            folder.mkdir(parents=True, exist_ok=True)
            cache = SourceCache(folder, freshness_s, size_mb * 1024 * 1024)
            _OPEN[str(folder)] = cache
        cache.freshness_s = dict(freshness_s)
        return cache
