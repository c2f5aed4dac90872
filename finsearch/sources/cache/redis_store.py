"""The source cache in Redis, shared by every replica (`FINSEARCH_REDIS_URL`).

Same contract as the diskcache `SourceCache` (the hub cannot tell them apart):

- Keyed by (source, canonical args); the value is `encode_entry` (the evidence and when it was
  fetched). Freshness is judged per source on read, so an old entry still serves offline.
- **One upstream call per key across all replicas**: a miss takes a Redis lock
  (`SET lock token NX PX`), looks into the cache again, fetches, stores, and releases the lock
  by compare-and-delete (a Lua script: only the holder's token deletes it). Others wait for the
  entry, then read it. Within one process the threads queue on a local lock first, so only one
  of them polls Redis. A holder that dies frees the lock when its PX runs out.
- **Size bound: an explicit LRU kept by FinSearch**, not Redis eviction. Entries live in one
  hash, their last use in a sorted set and the total bytes in a counter; the put script evicts
  the least recently used entries until the total is under `FINSEARCH_CACHE_MB`. So the server
  can keep `maxmemory-policy noeviction` (the default) and never evict a stored run. The bound
  counts the entries' bytes, not Redis's own overhead per key (allow some headroom).

    finsearch:cache:entries   hash    key → entry JSON
    finsearch:cache:lru       zset    key → last use (the server's clock)
    finsearch:cache:bytes     string  the entries' total size
    finsearch:cache:lock:<sha1 of key>   the fetch lock of one key

- Answers to repeated questions (`finsearch.answer_cache`) are entries of the same hash under keys
  of their own (`ANSWER_PREFIX`), so the same LRU bound holds them.
- **Redis down** is never a run failure: reads miss, writes are skipped, locks are not taken
  (each replica then fetches for itself), and a notice says so once. Calls go through the
  server's circuit breaker (`hosting.redis_link.breaker`, shared with the run store), so after a
  timeout the cache is not even tried for a cool-down and a run does not pay a timeout per call;
  then it is tried again: the cache recovers by itself when Redis is back. A full Redis (out of
  memory) is said to be so.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime

from ...hosting.redis_link import KEY_PREFIX, breaker, cause_of, connect, out_of_memory, redis_errors, where
from ..upstream import resilience
from .disk import ANSWER_PREFIX, Entry, SourceCache, decode_entry, encode_entry, local_lock

log = logging.getLogger(__name__)

ENTRIES = KEY_PREFIX + "cache:entries"
LRU = KEY_PREFIX + "cache:lru"
BYTES = KEY_PREFIX + "cache:bytes"
LOCK_PREFIX = KEY_PREFIX + "cache:lock:"
LOCK_TTL_S = 30.0          # longer than any one upstream call (the node timeout is 20 s by default)
POLL_S = 0.05              # how often a waiting replica looks for the entry

# KEYS: entries, lru, bytes. ARGV: key, payload, size limit. Returns the new total.
_PUT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local old = redis.call('HSTRLEN', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], now, ARGV[1])
local total = redis.call('INCRBY', KEYS[3], string.len(ARGV[2]) - old)
local limit = tonumber(ARGV[3])
while total > limit do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #oldest == 0 or oldest[1] == ARGV[1] then break end
  total = redis.call('DECRBY', KEYS[3], redis.call('HSTRLEN', KEYS[1], oldest[1]))
  redis.call('HDEL', KEYS[1], oldest[1])
  redis.call('ZREM', KEYS[2], oldest[1])
end
return total
"""

# KEYS: entries, lru. ARGV: key. The entry, its use recorded (least recently *used*, not written).
_GET = """
local value = redis.call('HGET', KEYS[1], ARGV[1])
if value then
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[2], 'XX', tonumber(t[1]) + tonumber(t[2]) / 1000000, ARGV[1])
end
return value
"""

# KEYS: the lock. ARGV: our token. Deletes the lock only when it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisSourceCache:
    def __init__(self, url: str, freshness_s: dict[str, float], size_limit_bytes: int, client=None):
        self.where = where(url)
        self.freshness_s = dict(freshness_s)
        self.size_limit_bytes = size_limit_bytes
        self.redis = client if client is not None else connect(url)
        self.breaker = breaker(url)
        self._put = self.redis.register_script(_PUT)
        self._get = self.redis.register_script(_GET)
        self._release = self.redis.register_script(_RELEASE)
        self._guard = threading.Lock()
        self._notices: list[str] = []
        self._said_down = False           # one notice per outage

    key = staticmethod(SourceCache.key)
    fresh = SourceCache.fresh

    # -- reaching Redis -----------------------------------------------------------------------

    def _use(self, action: Callable[[], object], fallback):
        """`action()`, or `fallback` when Redis fails (after a timeout the breaker skips it for a while)."""
        try:
            with self.breaker:
                value = action()
        except redis_errors() as exc:
            with self._guard:
                first, self._said_down = not self._said_down, True
                if first:
                    self._notices.append(self._notice(exc))
            log.log(logging.WARNING if first else logging.DEBUG, "source cache at %s failed: %s", self.where,
                    cause_of(exc))
            return fallback
        if self._said_down:
            with self._guard:
                self._said_down = False
            log.info("source cache at %s reachable again", self.where)
        return value

    def _notice(self, exc: BaseException) -> str:
        if out_of_memory(exc):
            return f"The shared source cache ({self.where}) is out of memory; sources were asked directly."
        return (f"The shared source cache ({self.where}) could not be reached ({cause_of(exc)}); "
                "sources were asked directly.")

    def take_notices(self) -> list[str]:
        with self._guard:
            notices, self._notices = self._notices, []
        return notices

    @property
    def usable(self) -> bool:
        return not self.breaker.resting

    # -- the cache ----------------------------------------------------------------------------

    def get(self, source: str, args: dict, *, any_age: bool, now: datetime) -> Entry | None:
        """The entry when present and fresh (or present at all, with `any_age`)."""
        key = self.key(source, args)
        entry = decode_entry(self._use(lambda: self._get(keys=[ENTRIES, LRU], args=[key]), None))
        if entry is None or not (any_age or self.fresh(source, entry, now)):
            return None
        return entry

    def put(self, source: str, args: dict, evidence: list, fetched_at: datetime) -> int:
        """Store an entry (evicting the least recently used beyond the bound); its size, 0 if not stored."""
        payload = encode_entry(evidence, fetched_at)
        key = self.key(source, args)
        stored = self._use(lambda: self._put(keys=[ENTRIES, LRU, BYTES], args=[key, payload, self.size_limit_bytes]),
                           None)
        return len(payload) if stored is not None else 0

    def fetch_through(self, source: str, args: dict, produce: Callable[[], list],
                      now: Callable[[], datetime]) -> tuple[Entry, bool]:
        """(entry, from_cache): one `produce()` per key across every process sharing this Redis."""
        key = self.key(source, args)
        with local_lock(key):
            entry = self.get(source, args, any_age=False, now=now())
            if entry is not None:
                return entry, True
            token, entry = self._lock_or_entry(source, args, key, now)
            if entry is not None:
                return entry, True                   # another replica fetched it while we waited
            try:
                evidence = produce()
                fetched_at = now()
                size = self.put(source, args, evidence, fetched_at) if evidence else 0
            finally:
                if token is not None:
                    self._use(lambda: self._release(keys=[_lock_key(key)], args=[token]), None)
            return Entry(evidence, fetched_at, size), False

    def _lock_or_entry(self, source: str, args: dict, key: str,
                       now: Callable[[], datetime]) -> tuple[str | None, Entry | None]:
        """(our lock token, None) once the lock is ours; (None, entry) when another holder filled
        the key meanwhile; (None, None) when Redis is down or the wait ran out (fetch anyway)."""
        token = uuid.uuid4().hex
        lock = _lock_key(key)
        waited_until = time.monotonic() + resilience.time_left(LOCK_TTL_S)
        while True:
            # True: ours; False: someone else holds it; None: Redis is down.
            taken = self._use(lambda: bool(self.redis.set(lock, token, nx=True, px=int(LOCK_TTL_S * 1000))), None)
            if taken:
                # Filled between our miss and the lock? Then the holder before us fetched it.
                entry = self.get(source, args, any_age=False, now=now())
                if entry is not None:
                    self._use(lambda: self._release(keys=[lock], args=[token]), None)
                    return None, entry
                return token, None
            if taken is None or time.monotonic() >= waited_until:
                return None, None                     # Redis down, or a holder that never finishes
            time.sleep(POLL_S)
            entry = self.get(source, args, any_age=False, now=now())
            if entry is not None:
                return None, entry

    def get_answer(self, key: str) -> str | None:
        """A kept answer's text (`finsearch.answer_cache` reads it), or None."""
        raw = self._use(lambda: self._get(keys=[ENTRIES, LRU], args=[ANSWER_PREFIX + key]), None)
        return raw if isinstance(raw, str) else None

    def put_answer(self, key: str, text: str) -> bool:
        """Keep an answer's text under `key`, within the cache's bound (least recently used goes first)."""
        stored = self._use(lambda: self._put(keys=[ENTRIES, LRU, BYTES],
                                             args=[ANSWER_PREFIX + key, text, self.size_limit_bytes]), None)
        return stored is not None

    def stats(self) -> dict:
        def read():
            with self.redis.pipeline(transaction=False) as pipe:
                entries, volume = pipe.hlen(ENTRIES).get(BYTES).execute()
            return int(entries), int(volume or 0)

        entries, volume = self._use(read, (0, 0))
        return {"entries": entries, "bytes": volume, "folder": self.where, "usable": self.usable}

    def clear(self) -> int:
        def wipe():
            entries = int(self.redis.hlen(ENTRIES))
            self.redis.delete(ENTRIES, LRU, BYTES)
            return entries

        return self._use(wipe, 0)

    def close(self) -> None:
        """The client is the process's shared one (`redis_link.connect`): nothing to close here."""


def _lock_key(key: str) -> str:
    return LOCK_PREFIX + hashlib.sha1(key.encode("utf-8")).hexdigest()


_OPEN: dict[str, RedisSourceCache] = {}
_OPEN_GUARD = threading.Lock()


def open_redis_cache(url: str, freshness_s: dict[str, float], size_mb: int) -> RedisSourceCache:
    """One RedisSourceCache per URL per process (so one notice is said per outage)."""
    with _OPEN_GUARD:
        cache = _OPEN.get(url)
        if cache is None:
            cache = _OPEN[url] = RedisSourceCache(url, freshness_s, size_mb * 1024 * 1024)
        cache.freshness_s = dict(freshness_s)
        cache.size_limit_bytes = size_mb * 1024 * 1024
        return cache
