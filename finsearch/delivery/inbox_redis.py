"""The in-app inbox in Redis, so every replica and worker sees one inbox per owner.

    finsearch:inbox:<owner>          zset  notice_id → arrived (epoch s): newest first
    finsearch:inbox-items:<owner>    hash  notice_id → InboxItem JSON
    finsearch:inbox-unread:<owner>   set   the unread notice ids (the count is SCARD)

A put is one script: the item is added only when its id is new (HSETNX), with its index and
unread entries, and the oldest beyond `MAX_ITEMS` dropped — so two workers delivering the same
event leave one item. No key expires (as the run store: `noeviction` keeps them).
"""

from __future__ import annotations

import functools
import logging
import time

from ..hosting.redis_link import KEY_PREFIX, breaker, cause_of, connect, redis_errors, store_unavailable, where
from ..store.runs import record_json
from .inbox_items import MAX_ITEMS, InboxItem, parse_item
from .notice import Notice

log = logging.getLogger(__name__)

_PUT = """
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then
  local old = redis.call('ZRANGE', KEYS[1], 0, extra - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1)
  redis.call('HDEL', KEYS[2], unpack(old))
  redis.call('SREM', KEYS[3], unpack(old))
end
return 1
"""


def _keys(owner: str) -> list[str]:
    return [f"{KEY_PREFIX}inbox:{owner}", f"{KEY_PREFIX}inbox-items:{owner}", f"{KEY_PREFIX}inbox-unread:{owner}"]


def _reaching_redis(method):
    @functools.wraps(method)
    def wrapper(self: RedisInbox, *args, **kwargs):
        try:
            with self.breaker:
                return method(self, *args, **kwargs)
        except redis_errors() as exc:
            log.warning("inbox at %s failed: %s", self.where, cause_of(exc))
            raise store_unavailable(self.where, exc) from exc
    return wrapper


class RedisInbox:
    def __init__(self, url: str, client=None):
        self.where = where(url)
        self.redis = client if client is not None else connect(url)
        self.breaker = breaker(url)
        self._put = self.redis.register_script(_PUT)

    @_reaching_redis
    def put(self, notice: Notice) -> bool:
        arrived = time.time()
        item = record_json(InboxItem(notice, arrived).to_json())
        return bool(self._put(keys=_keys(notice.owner), args=[notice.notice_id, item, arrived, MAX_ITEMS]))

    @_reaching_redis
    def items(self, owner: str, limit: int = 50) -> list[InboxItem]:
        index, items, unread = _keys(owner)
        ids = self.redis.zrevrange(index, 0, limit - 1) if limit > 0 else []
        if not ids:
            return []
        read_ids = set(ids) - self.redis.smembers(unread)
        found = [parse_item(raw) for raw in self.redis.hmget(items, ids)]
        return [_with_read(i, i.notice.notice_id in read_ids) for i in found if i is not None]

    @_reaching_redis
    def unread(self, owner: str) -> int:
        return int(self.redis.scard(_keys(owner)[2]))

    @_reaching_redis
    def item(self, owner: str, notice_id: str) -> InboxItem | None:
        _, items, unread = _keys(owner)
        found = parse_item(self.redis.hget(items, notice_id))
        return _with_read(found, not self.redis.sismember(unread, notice_id)) if found else None

    @_reaching_redis
    def mark_read(self, owner: str, notice_id: str) -> bool:
        _, items, unread = _keys(owner)
        if not self.redis.hexists(items, notice_id):
            return False
        self.redis.srem(unread, notice_id)
        return True


def _with_read(item: InboxItem, read: bool) -> InboxItem:
    return InboxItem(item.notice, item.arrived, read)
