"""Watchlists in Redis, so every replica and worker sees the same ones.

    finsearch:watchlist:<watchlist_id>        string  one watchlist (`Watchlist.to_json`)
    finsearch:watchlists:owner:<owner>        set     an owner's watchlist ids
    finsearch:watchlists                      set     every watchlist id (the scheduler's list)

A save or delete is one MULTI/EXEC transaction, and `update` reads under WATCH first (done again when
another client changed the watchlist meanwhile), so no change is lost; calls go through the server's circuit breaker,
and a failure raises `StoreUnavailable` naming the server, as the run store's do.
"""

from __future__ import annotations

import functools
import json
import logging
from typing import TYPE_CHECKING

from ..hosting.redis_link import KEY_PREFIX, breaker, cause_of, connect, redis_errors, store_unavailable, where
from ..store.runs import valid_id
from .watchlist import Watchlist, parse_watchlist

if TYPE_CHECKING:                      # the backends import nothing of each other when they run
    from .lists import Change

log = logging.getLogger(__name__)

EVERY = KEY_PREFIX + "watchlists"
UPDATE_TRIES = 50                      # changes racing on one watchlist: each try loses only to one that landed


def _key(watchlist_id: str) -> str:
    return f"{KEY_PREFIX}watchlist:{watchlist_id}"


def _owner_key(owner: str) -> str:
    return f"{KEY_PREFIX}watchlists:owner:{owner}"


def _reaching_redis(method):
    @functools.wraps(method)
    def wrapper(self: RedisWatchlists, *args, **kwargs):
        try:
            with self.breaker:
                return method(self, *args, **kwargs)
        except redis_errors() as exc:
            log.warning("watchlists at %s failed: %s", self.where, cause_of(exc))
            raise store_unavailable(self.where, exc) from exc
    return wrapper


class RedisWatchlists:
    def __init__(self, url: str, client=None):
        self.where = where(url)
        self.redis = client if client is not None else connect(url)
        self.breaker = breaker(url)

    @_reaching_redis
    def save(self, watchlist: Watchlist) -> None:
        with self.redis.pipeline(transaction=True) as tx:
            tx.set(_key(watchlist.watchlist_id), json.dumps(watchlist.to_json(), ensure_ascii=False))
            tx.sadd(_owner_key(watchlist.owner), watchlist.watchlist_id)
            tx.sadd(EVERY, watchlist.watchlist_id)
            tx.execute()

    @_reaching_redis
    def update(self, watchlist_id: str, owner: str, change: Change) -> Watchlist | None:
        """Apply `change` to `owner`'s watchlist `watchlist_id` atomically; the watchlist kept (None: none)."""
        from redis.exceptions import WatchError

        if not valid_id(watchlist_id):
            return None
        for _ in range(UPDATE_TRIES):
            with self.redis.pipeline(transaction=True) as tx:
                try:
                    tx.watch(_key(watchlist_id))
                    stored = parse_watchlist(tx.get(_key(watchlist_id)))
                    if stored is not None and stored.owner != owner:
                        return None
                    kept = change(stored)
                    if kept is stored:
                        return stored
                    if kept is not None and (kept.watchlist_id != watchlist_id or kept.owner != owner):
                        raise ValueError("a change keeps the watchlist's id and owner")
                    tx.multi()
                    if kept is None:
                        tx.delete(_key(watchlist_id))
                        tx.srem(_owner_key(owner), watchlist_id)
                        tx.srem(EVERY, watchlist_id)
                    else:
                        tx.set(_key(watchlist_id), json.dumps(kept.to_json(), ensure_ascii=False))
                        tx.sadd(_owner_key(owner), watchlist_id)
                        tx.sadd(EVERY, watchlist_id)
                    tx.execute()
                    return kept
                except WatchError:             # changed since it was read: read it again
                    continue
        raise WatchError(f"watchlist {watchlist_id} changed {UPDATE_TRIES} times while it was being changed")

    @_reaching_redis
    def get(self, watchlist_id: str, owner: str) -> Watchlist | None:
        found = parse_watchlist(self.redis.get(_key(watchlist_id))) if valid_id(watchlist_id) else None
        return found if found is not None and found.owner == owner else None

    @_reaching_redis
    def mine(self, owner: str) -> list[Watchlist]:
        return [w for w in self._many(sorted(self.redis.smembers(_owner_key(owner)))) if w.owner == owner]

    @_reaching_redis
    def delete(self, watchlist_id: str, owner: str) -> bool:
        if self.get(watchlist_id, owner) is None:
            return False
        with self.redis.pipeline(transaction=True) as tx:
            tx.delete(_key(watchlist_id))
            tx.srem(_owner_key(owner), watchlist_id)
            tx.srem(EVERY, watchlist_id)
            removed = tx.execute()[0]
        return bool(removed)

    @_reaching_redis
    def every(self) -> list[Watchlist]:
        return self._many(sorted(self.redis.smembers(EVERY)))

    def _many(self, ids: list[str]) -> list[Watchlist]:
        texts = self.redis.mget([_key(i) for i in ids]) if ids else []
        return [w for w in (parse_watchlist(t) for t in texts) if w is not None]
