"""The on-disk cache every source call goes through (diskcache).

- Keyed by (source, canonical args); the value is the sanitised evidence plus the time it
  was fetched. Freshness is judged per source when reading, so an expired entry is still
  there to serve offline (diskcache's own `expire=` would delete it).
- Size-bounded with least-recently-used eviction.
- Concurrent misses for one key make one upstream call: a per-key lock, and a second
  look into the cache once it is held.
- It also keeps answers to repeated questions (`finsearch.answer_cache`), under keys of their own
  (`ANSWER_PREFIX`) in the same bounded store: one size bound, one LRU, one place to clear.
- A damaged cache (random bytes, a truncated database) is moved aside and a fresh one
  started, once, with a notice for the next run's notes; a folder that cannot hold a cache
  at all leaves the cache off (every call goes to the pack or upstream). A cache is an
  optimisation: it never fails a run.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import diskcache

from ...evidence import parse_utc, to_iso
from ...source_args import canonical_args

log = logging.getLogger(__name__)

# An answer's key in the store, beside the sources' (which are JSON arrays).
ANSWER_PREFIX = "answer:"


@dataclasses.dataclass(frozen=True)
class Entry:
    evidence: list            # sanitised evidence dicts
    fetched_at: datetime
    size: int = 0             # bytes as stored


class SourceCache:
    def __init__(self, directory: Path, freshness_s: dict[str, float], size_limit_bytes: int):
        self.directory = Path(directory)
        self.freshness_s = dict(freshness_s)
        self.size_limit_bytes = size_limit_bytes
        self._notices: list[str] = []
        self._guard = threading.Lock()
        self._store = self._open()

    def _open(self):
        """The diskcache store; a damaged one is moved aside first. None: no cache possible."""
        try:
            store = diskcache.Cache(str(self.directory), size_limit=self.size_limit_bytes,
                                    eviction_policy="least-recently-used")
            len(store)                                   # reads the database: damage shows here
            return store
        except (sqlite3.DatabaseError, ValueError) as exc:
            return self._start_over(exc)
        except OSError as exc:
            self._notices.append(f"The source cache in {self.directory} cannot be used "
                                 f"({exc.strerror or type(exc).__name__}); running without it.")
            log.warning("source cache unusable: %s", exc)
            return None

    def _start_over(self, exc: Exception):
        """Move a damaged cache aside and open an empty one in its place."""
        aside = self.directory.with_name(f"{self.directory.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.directory, aside)
            store = diskcache.Cache(str(self.directory), size_limit=self.size_limit_bytes,
                                    eviction_policy="least-recently-used")
        except (OSError, sqlite3.DatabaseError) as again:
            self._notices.append(f"The source cache in {self.directory} is damaged and could not be replaced "
                                 f"({type(again).__name__}); running without it.")
            return None
        self._notices.append(f"The source cache was damaged ({exc}); it was moved to {aside.name} and a fresh "
                             "one started.")
        log.warning("damaged source cache moved to %s: %s", aside, exc)
        return store

    def _use(self, action, fallback):
        """Run `action(store)`; a store that turns out damaged is replaced, and `fallback` returned."""
        store = self._store
        if store is None:
            return fallback
        try:
            return action(store)
        except sqlite3.DatabaseError as exc:
            with self._guard:
                if self._store is store:                 # the first thread to notice replaces it
                    try:
                        store.close()
                    except sqlite3.Error:
                        pass
                    self._store = self._start_over(exc)
            return fallback

    def take_notices(self) -> list[str]:
        """What happened to the cache since the last call (each said once)."""
        with self._guard:
            notices, self._notices = self._notices, []
        return notices

    @property
    def usable(self) -> bool:
        return self._store is not None

    @staticmethod
    def key(source: str, args: dict) -> str:
        return json.dumps([source, canonical_args(args)], sort_keys=True, ensure_ascii=False)

    def fresh(self, source: str, entry: Entry, now: datetime) -> bool:
        age = (now - entry.fetched_at).total_seconds()
        return age <= self.freshness_s.get(source, 3600)

    def get(self, source: str, args: dict, *, any_age: bool, now: datetime) -> Entry | None:
        """The entry when present and fresh (or present at all, with `any_age`)."""
        entry = decode_entry(self._use(lambda store: store.get(self.key(source, args)), None))
        if entry is None or not (any_age or self.fresh(source, entry, now)):
            return None
        return entry

    def put(self, source: str, args: dict, evidence: list, fetched_at: datetime) -> int:
        """Store an entry; returns its size in bytes."""
        payload = encode_entry(evidence, fetched_at)
        stored = self._use(lambda store: store.set(self.key(source, args), payload), False)
        return len(payload) if stored else 0

    def fetch_through(self, source: str, args: dict, produce: Callable[[], list],
                      now: Callable[[], datetime]) -> tuple[Entry, bool]:
        """(entry, from_cache): one `produce()` per key however many threads miss at once.

        The lock is per process (the app and the CLI are one process each); two processes
        sharing the folder may both fetch a key once, which costs a call, not correctness.
        """
        with local_lock(self.key(source, args)):
            entry = self.get(source, args, any_age=False, now=now())
            if entry is not None:
                return entry, True                   # filled while we waited for the lock
            evidence = produce()
            fetched_at = now()
            size = self.put(source, args, evidence, fetched_at) if evidence else 0
            return Entry(evidence, fetched_at, size), False

    def get_answer(self, key: str) -> str | None:
        """A kept answer's text (`finsearch.answer_cache` reads it), or None."""
        raw = self._use(lambda store: store.get(ANSWER_PREFIX + key), None)
        return raw if isinstance(raw, str) else None

    def put_answer(self, key: str, text: str) -> bool:
        """Keep an answer's text under `key`, within the store's bound (least recently used goes first)."""
        return bool(self._use(lambda store: store.set(ANSWER_PREFIX + key, text), False))

    def stats(self) -> dict:
        entries, volume = self._use(lambda store: (len(store), store.volume()), (0, 0))
        return {"entries": entries, "bytes": volume, "folder": str(self.directory), "usable": self.usable}

    def clear(self) -> int:
        return self._use(lambda store: store.clear(), 0)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def encode_entry(evidence: list, fetched_at: datetime) -> str:
    """What a cache backend stores for one key: the evidence and when it was fetched."""
    return json.dumps({"fetched_at": to_iso(fetched_at), "evidence": evidence}, ensure_ascii=False)


def decode_entry(raw) -> Entry | None:
    """`encode_entry`'s text back; anything else (damaged, foreign) is None."""
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


def local_lock(key: str) -> threading.Lock:
    return _STRIPES[hash(key) % len(_STRIPES)]


_OPEN: dict[str, SourceCache] = {}
_OPEN_GUARD = threading.Lock()


def open_cache(directory: Path, freshness_s: dict[str, float], size_mb: int) -> SourceCache:
    """One SourceCache per folder per process (diskcache objects are thread-safe). It may
    be unusable (`usable` False: every read misses, every write is skipped)."""
    folder = Path(directory).expanduser()
    with _OPEN_GUARD:
        cache = _OPEN.get(str(folder))
        if cache is None:
            cache = SourceCache(folder, freshness_s, size_mb * 1024 * 1024)
            _OPEN[str(folder)] = cache
        cache.freshness_s = dict(freshness_s)
        return cache
