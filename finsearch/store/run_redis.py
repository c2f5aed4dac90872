"""The shared backend: finished runs, reports and conversations in Redis, so replicas see one history.

    finsearch:run:<run_id>                 string  the record of a run or report (`record_of`), as JSON
    finsearch:runs                         zset    run_id → saved (epoch s): History's order
    finsearch:runs:owner:<owner>           zset    the same, for one owner's runs
    finsearch:summaries                    hash    run_id → RunSummary JSON (History reads no records)
    finsearch:conversation:<id>            list    run ids in the order asked
    finsearch:conversation-owners          hash    conversation → the owner who began it
    finsearch:share:<token>                string  a share link (`store.shares.Share`), as JSON
    finsearch:shares:owner:<owner>         zset    token → created: an owner's links, for History

A save is one MULTI/EXEC transaction, so a reader sees a run with its index entry or neither.
None of these keys expires: the source cache bounds its own size (see `sources.redis_cache`),
so the server can keep `maxmemory-policy noeviction` and never drop a run.

Any failure to reach Redis raises `StoreUnavailable` with a sentence naming the server
(without its credentials), or saying it is out of memory; nothing half-written is left, because
nothing is written outside the transaction. Calls go through the server's circuit breaker
(`hosting.redis_link.breaker`): after a timeout they fail at once for a cool-down.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Sequence

from ..hosting.redis_link import KEY_PREFIX, breaker, cause_of, connect, redis_errors, store_unavailable, where
from ..result import RunResult
from .runs import (
    RecordKind,
    RunSummary,
    Stored,
    id_of,
    parse_record,
    record_json,
    record_of,
    summary_from_json,
    summary_json,
    summary_of,
    valid_id,
)
from .shares import Share, ShareKind, new_share_token, share_from_json

log = logging.getLogger(__name__)

RUNS = KEY_PREFIX + "runs"
SUMMARIES = KEY_PREFIX + "summaries"
CONVERSATION_OWNERS = KEY_PREFIX + "conversation-owners"

# Append a run id to a conversation once, atomically (two replicas may save at the same time).
_APPEND_ONCE = """
if redis.call('LPOS', KEYS[1], ARGV[1]) == false then redis.call('RPUSH', KEYS[1], ARGV[1]) end
return 1
"""


def _run_key(run_id: str) -> str:
    return f"{KEY_PREFIX}run:{run_id}"


def _owner_key(owner: str) -> str:
    return f"{KEY_PREFIX}runs:owner:{owner}"


def _conversation_key(conversation: str) -> str:
    return f"{KEY_PREFIX}conversation:{conversation}"


def _share_key(token: str) -> str:
    return f"{KEY_PREFIX}share:{token}"


def _owner_shares_key(owner: str) -> str:
    return f"{KEY_PREFIX}shares:owner:{owner}"


def _reaching_redis(method):
    """Call Redis through the server's breaker (a paused Redis costs one timeout, not one per
    call), and turn any failure into StoreUnavailable, with the server named."""
    @functools.wraps(method)
    def wrapper(self: RedisRunStore, *args, **kwargs):
        try:
            with self.breaker:
                return method(self, *args, **kwargs)
        except redis_errors() as exc:
            log.warning("run store at %s failed: %s", self.where, cause_of(exc))
            raise store_unavailable(self.where, exc) from exc
    return wrapper


class RedisRunStore:
    def __init__(self, url: str, client=None):
        self.where = where(url)
        self.redis = client if client is not None else connect(url)
        self.breaker = breaker(url)
        self._append_once = self.redis.register_script(_APPEND_ONCE)

    # -- runs ---------------------------------------------------------------------------------

    @_reaching_redis
    def save(self, result: Stored, conversation: str | None = None, *, owner: str | None = None) -> None:
        record = record_of(result, owner)
        saved = time.time()
        summary = summary_of(record, saved)
        stored_id = id_of(result)
        with self.redis.pipeline(transaction=True) as tx:
            tx.set(_run_key(stored_id), record_json(record))
            tx.hset(SUMMARIES, stored_id, summary_json(summary))
            tx.zadd(RUNS, {stored_id: saved})
            if owner is not None:
                tx.zadd(_owner_key(owner), {stored_id: saved})
            if isinstance(result, RunResult) and valid_id(conversation):
                self._append_once(keys=[_conversation_key(conversation)], args=[stored_id], client=tx)
                if owner is not None:
                    tx.hsetnx(CONVERSATION_OWNERS, conversation, owner)
            tx.execute()

    @_reaching_redis
    def load(self, run_id: str, kind: RecordKind = "run") -> Stored | None:
        if not valid_id(run_id):
            return None
        text = self.redis.get(_run_key(run_id))
        return parse_record(text, run_id, kind) if text is not None else None

    @_reaching_redis
    def delete(self, run_id: str, *, owner: str | None = None) -> bool:
        if not valid_id(run_id):
            return False
        summary = summary_from_json(self.redis.hget(SUMMARIES, run_id) or "")
        if owner is not None and (summary is None or summary.owner != owner):
            return False
        with self.redis.pipeline(transaction=True) as tx:
            tx.delete(_run_key(run_id))
            tx.hdel(SUMMARIES, run_id)
            tx.zrem(RUNS, run_id)
            if summary is not None and summary.owner is not None:
                tx.zrem(_owner_key(summary.owner), run_id)
            removed = tx.execute()[0]
        return bool(removed)

    @_reaching_redis
    def owner_of(self, run_id: str) -> str | None:
        if not valid_id(run_id):
            return None
        summary = summary_from_json(self.redis.hget(SUMMARIES, run_id) or "")
        return summary.owner if summary is not None else None

    @_reaching_redis
    def list(self, limit: int = 200, *, owner: str | None = None) -> list[RunSummary]:
        index = RUNS if owner is None else _owner_key(owner)
        ids = self.redis.zrevrange(index, 0, max(0, limit - 1)) if limit > 0 else []
        if not ids:
            return []
        out = []
        for raw in self.redis.hmget(SUMMARIES, ids):
            summary = summary_from_json(raw) if raw is not None else None
            if summary is not None:                # a damaged or deleted entry is left out
                out.append(summary)
        return out

    # -- conversations ------------------------------------------------------------------------

    @_reaching_redis
    def conversation(self, conversation: str) -> list[str]:
        if not valid_id(conversation):
            return []
        return [i for i in self.redis.lrange(_conversation_key(conversation), 0, -1) if valid_id(i)]

    def load_conversation(self, conversation: str) -> list[RunResult]:
        return [r for r in (self.load(i) for i in self.conversation(conversation)) if r is not None]

    @_reaching_redis
    def conversation_owner(self, conversation: str) -> str | None:
        return self.redis.hget(CONVERSATION_OWNERS, conversation) if valid_id(conversation) else None

    # -- share links --------------------------------------------------------------------------

    @_reaching_redis
    def share(self, kind: ShareKind, run_ids: Sequence[str], owner: str, question: str) -> Share:
        link = Share(new_share_token(), kind, tuple(run_ids), owner, question, time.time())
        with self.redis.pipeline(transaction=True) as tx:
            tx.set(_share_key(link.token), link.to_json())
            tx.zadd(_owner_shares_key(owner), {link.token: link.created})
            tx.execute()
        return link

    @_reaching_redis
    def shared(self, token: str) -> Share | None:
        return share_from_json(self.redis.get(_share_key(token))) if valid_id(token) else None

    @_reaching_redis
    def shares(self, owner: str) -> list[Share]:
        tokens = self.redis.zrevrange(_owner_shares_key(owner), 0, -1)
        links = [share_from_json(text) for text in self.redis.mget([_share_key(t) for t in tokens])] if tokens else []
        return [link for link in links if link is not None and link.owner == owner]

    @_reaching_redis
    def revoke(self, token: str, owner: str) -> bool:
        link = self.shared(token)
        if link is None or link.owner != owner:
            return False
        with self.redis.pipeline(transaction=True) as tx:
            tx.delete(_share_key(token))
            tx.zrem(_owner_shares_key(owner), token)
            removed = tx.execute()[0]
        return bool(removed)
