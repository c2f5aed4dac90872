"""What only the Redis cache has (the shared behaviour is in test_cache.py, on both backends):
its lock released only by its holder, a dead holder's lock expiring, the LRU bound that never
touches stored runs, and the wiring and the setting that choose it."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest

from finsearch.errors import ConfigError
from finsearch.settings import from_env
from finsearch.sources.cache import redis_store as redis_cache
from finsearch.sources.cache.redis_store import RedisSourceCache, _lock_key
from finsearch.sources.setup import make_hub, source_cache
from finsearch.store import open_store
from tests.store_kit import sample_run

WHEN = datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)
ITEM = [{"title": "NVDA quote", "data": {"ticker": "NVDA", "last": 131.6}}]


def cache_on(server, **kw):
    return RedisSourceCache(server.url, {"quote": 60, "news": 3600}, kw.pop("size", 10**7), client=server.client(),
                            **kw)


def test_a_lock_is_released_only_by_the_one_who_holds_it(redis_server):
    cache = cache_on(redis_server)
    key = cache.key("quote", {"ticker": "NVDA"})
    client = redis_server.client()
    client.set(_lock_key(key), "another-replica", px=30_000)
    assert cache._release(keys=[_lock_key(key)], args=["not-their-token"]) == 0
    assert client.get(_lock_key(key)) == "another-replica", "compare-and-delete left it alone"
    assert cache._release(keys=[_lock_key(key)], args=["another-replica"]) == 1


def test_a_holder_that_died_frees_the_key_when_its_lock_expires(redis_server):
    cache = cache_on(redis_server)
    key = cache.key("quote", {"ticker": "NVDA"})
    redis_server.client().set(_lock_key(key), "crashed-replica", px=400)    # never released
    calls = []
    entry, cached = cache.fetch_through("quote", {"ticker": "NVDA"}, lambda: calls.append(1) or ITEM, lambda: WHEN)
    assert calls == [1] and cached is False and entry.evidence == ITEM
    assert redis_server.client().get(_lock_key(key)) is None, "our own lock is gone after the fetch"


def test_a_failed_fetch_releases_the_lock_for_the_next_caller(redis_server):
    cache = cache_on(redis_server)

    def failing():
        raise RuntimeError("upstream broke")

    with pytest.raises(RuntimeError):
        cache.fetch_through("quote", {"ticker": "NVDA"}, failing, lambda: WHEN)
    assert not list(redis_server.client().scan_iter("finsearch:cache:lock:*"))
    entry, cached = cache.fetch_through("quote", {"ticker": "NVDA"}, lambda: ITEM, lambda: WHEN)
    assert not cached and entry.evidence == ITEM


def test_threads_of_two_cache_objects_make_one_upstream_call(redis_server):
    caches = [cache_on(redis_server), cache_on(redis_server)]
    calls, origins = [], []

    def slow():
        calls.append(1)
        threading.Event().wait(0.3)
        return ITEM

    def ask(cache):
        origins.append(cache.fetch_through("quote", {"ticker": "NVDA"}, slow, lambda: WHEN)[1])

    threads = [threading.Thread(target=ask, args=(caches[i % 2],)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and sorted(origins) == [False] + [True] * 5


def test_the_size_bound_evicts_cache_entries_and_never_a_stored_run(redis_server, tmp_path):
    settings = from_env({}, data_dir=tmp_path / "data", redis_url=redis_server.url)
    store = open_store(settings)
    store.save(sample_run("run-survivor"), "conv-survivor")
    cache = cache_on(redis_server, size=500_000)
    for i in range(30):
        cache.put("news", {"query": f"q{i}"}, [{"title": "x" * 50_000}], WHEN)
    stats = cache.stats()
    assert stats["bytes"] <= 500_000 and stats["entries"] < 30
    assert cache.get("news", {"query": "q0"}, any_age=True, now=WHEN) is None, "the oldest went first"
    assert cache.get("news", {"query": "q29"}, any_age=True, now=WHEN) is not None
    assert store.load("run-survivor") is not None and store.conversation("conv-survivor") == ["run-survivor"]
    assert cache.clear() == stats["entries"] and cache.stats()["bytes"] == 0
    assert store.load("run-survivor") is not None, "clearing the cache leaves the runs"


def test_the_wiring_chooses_redis_when_a_url_is_set(redis_server, settings, monkeypatch):
    monkeypatch.setattr(redis_cache, "_OPEN", {})
    hub = make_hub(settings.replace(offline=True, redis_url=redis_server.url))
    assert isinstance(hub.cache, RedisSourceCache) and hub.cache.usable
    assert source_cache(settings.replace(redis_url=redis_server.url)) is hub.cache, "one per URL per process"
    assert type(source_cache(settings)).__name__ == "SourceCache", "files without a URL"


def test_a_redis_url_is_checked_and_never_echoed():
    with pytest.raises(ConfigError, match="must start with redis://") as caught:
        from_env({"FINSEARCH_REDIS_URL": "http://admin:s3cret-pass@redis:6379"})
    assert "s3cret" not in str(caught.value)
    settings = from_env({"FINSEARCH_REDIS_URL": "redis://:s3cret-pass@redis:6379/0"})
    assert settings.redis_url == "redis://:s3cret-pass@redis:6379/0" and "s3cret" not in repr(settings)


@pytest.mark.parametrize(("url", "shown"), [
    ("redis://:s3cret@redis:6379/0", "redis://redis:6379/0"),
    ("rediss://admin:s3cret@cache.example.com:6380/2", "rediss://cache.example.com:6380/2"),
    ("redis://localhost", "redis://localhost"),
    ("unix://:s3cret@/run/redis/redis.sock?db=1", "unix:///run/redis/redis.sock"),
    ("redis://h:notaport/0", "redis://h/0"),
])
def test_messages_name_the_server_without_its_credentials(url, shown):
    from finsearch.hosting.redis_link import where

    assert where(url) == shown


def test_a_damaged_entry_is_a_miss_and_is_replaced_by_the_next_fetch(redis_server):
    cache = cache_on(redis_server)
    key = cache.key("quote", {"ticker": "NVDA"})
    redis_server.client().hset("finsearch:cache:entries", key, "\x00\xffnot json{")
    assert cache.get("quote", {"ticker": "NVDA"}, any_age=True, now=WHEN) is None
    entry, cached = cache.fetch_through("quote", {"ticker": "NVDA"}, lambda: ITEM, lambda: WHEN)
    assert not cached and cache.get("quote", {"ticker": "NVDA"}, any_age=True, now=WHEN).evidence == ITEM
