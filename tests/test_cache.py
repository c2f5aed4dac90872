"""The source cache and the hub around it: freshness, offline serving, one upstream call
per key under concurrency, eviction, recording, and a repeated question costing nothing.
Each test runs on both backends (`backend`: diskcache files, and a real Redis)."""

import json
import threading
import time
from datetime import datetime, timedelta, timezone

import pytest

from finsearch import pipeline
from finsearch.errors import NotCached, NotInPack
from finsearch.sources.cache.disk import SourceCache
from finsearch.sources.cache.redis_store import RedisSourceCache
from finsearch.sources.hub import DataHub
from finsearch.sources.replay import ReplayPack, write_recording
from finsearch.sources.setup import make_hub
from tests.conftest import NOW

ITEM = {"title": "NVDA quote", "data": {"ticker": "NVDA", "last": 131.6}}


class Clock:
    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now


class CountingSource:
    """The network boundary: counts calls, optionally slow."""

    def __init__(self, delay_s=0.0):
        self.delay_s = delay_s
        self.calls = 0
        self.lock = threading.Lock()

    def fetch(self, source, args):
        with self.lock:
            self.calls += 1
        time.sleep(self.delay_s)
        return [dict(ITEM, title=f"{source} {args.get('ticker')}")]


@pytest.fixture
def new_cache(backend, tmp_path):
    """A new cache object on the backend's storage (folder or Redis) each time it is called, as a
    second process would open it."""
    def opened(freshness_s, size_limit_bytes, folder="c"):
        if backend.server is None:
            return SourceCache(tmp_path / folder, freshness_s, size_limit_bytes)
        return RedisSourceCache(backend.server.url, freshness_s, size_limit_bytes, client=backend.server.client())
    return opened


def hub_with(settings, new_cache, source, clock, **changes):
    cache = new_cache(settings.freshness_s, 10 * 1024 * 1024)
    return DataHub(settings.replace(**changes), adapters={"quote": source, "price_history": source,
                                                          "news": source, "web_search": source},
                   cache=cache, clock=clock), cache


def test_fresh_entries_are_served_and_stale_ones_refetched(settings, tmp_path, new_cache):
    clock, source = Clock(datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)), CountingSource()
    hub, _ = hub_with(settings, new_cache, source, clock)
    assert hub.call("quote", {"ticker": "NVDA"}).origin == "live"
    clock.now += timedelta(seconds=59)
    assert hub.call("quote", {"ticker": "NVDA"}).origin == "cache"           # quote: fresh for 60 s
    clock.now += timedelta(seconds=2)
    assert hub.call("quote", {"ticker": "NVDA"}).origin == "live"
    assert source.calls == 2
    assert hub.stats.calls == 3 and hub.stats.cache_hits == 1 and hub.stats.upstream_calls == 2
    assert hub.stats.bytes > 0


def test_freshness_differs_per_source(settings, tmp_path, new_cache):
    clock, source = Clock(datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)), CountingSource()
    hub, _ = hub_with(settings, new_cache, source, clock)
    hub.call("price_history", {"ticker": "NVDA", "start": "2026-01-01", "end": "2026-01-05"})
    clock.now += timedelta(minutes=30)
    assert hub.call("price_history", {"ticker": "NVDA", "start": "2026-01-01", "end": "2026-01-05"}).origin \
        == "cache"                                                            # price history: 1 h


def test_offline_serves_expired_entries_and_never_calls_upstream(settings, tmp_path, new_cache):
    clock, source = Clock(datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)), CountingSource()
    hub, cache = hub_with(settings, new_cache, source, clock)
    hub.call("news", {"ticker": "NVDA"})
    clock.now += timedelta(days=30)
    offline = DataHub(settings.replace(offline=True), adapters={"news": source}, cache=cache, clock=clock)
    assert offline.call("news", {"ticker": "NVDA"}).origin == "cache"
    with pytest.raises(NotCached, match="not cached offline"):
        offline.call("news", {"ticker": "AMD"})
    assert source.calls == 1


def test_concurrent_misses_make_one_upstream_call(settings, tmp_path, new_cache):
    clock, source = Clock(datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)), CountingSource(delay_s=0.2)
    hub, _ = hub_with(settings, new_cache, source, clock)
    results = []
    threads = [threading.Thread(target=lambda: results.append(hub.call("quote", {"ticker": "NVDA"})))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert source.calls == 1 and len(results) == 8
    assert sorted(r.origin for r in results) == ["cache"] * 7 + ["live"]


def test_canonical_args_share_an_entry(settings, tmp_path, new_cache):
    clock, source = Clock(datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)), CountingSource()
    hub, _ = hub_with(settings, new_cache, source, clock)
    hub.call("web_search", {"query": "nvidia  export curbs", "lang": "en", "ticker": None})
    hub.call("web_search", {"lang": "en", "query": "nvidia export curbs"})
    assert source.calls == 1


def test_size_bound_evicts_least_recently_used(new_cache):
    cache = new_cache({"news": 3600}, size_limit_bytes=2_000_000, folder="small")
    when = datetime(2026, 1, 5, tzinfo=timezone.utc)
    big = [{"title": "x" * 100_000}]
    for i in range(40):
        cache.put("news", {"query": f"q{i}"}, big, when)
        assert cache.get("news", {"query": "q0"}, any_age=True, now=when) is not None   # q0 stays in use
    assert cache.stats()["bytes"] < 3_000_000
    assert cache.get("news", {"query": "q1"}, any_age=True, now=when) is None, "evicted"
    assert cache.get("news", {"query": "q39"}, any_age=True, now=when) is not None


def test_a_repeated_question_is_served_from_the_cache_with_zero_upstream_calls(settings, new_cache):
    source = CountingSource()
    adapters = {s: source for s in ("price_history", "news", "web_search", "quote")}

    def hub():
        return DataHub(settings, adapters=adapters,
                       cache=new_cache(settings.freshness_s, 50 * 1024 * 1024, folder="shared"))

    first = pipeline.ask("Why did NVDA fall last week?", settings=settings, hub=hub())
    second = pipeline.ask("Why did NVDA fall last week?", settings=settings, hub=hub())
    assert first.stats.upstream_calls == first.stats.source_calls > 0
    assert second.stats.upstream_calls == 0
    assert second.stats.cache_hits == second.stats.source_calls == first.stats.source_calls


def test_recording_writes_every_call_into_a_pack_that_replays(settings, tmp_path, new_cache):
    clock, source = Clock(datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)), CountingSource()
    pack = tmp_path / "pack"
    hub, _ = hub_with(settings, new_cache, source, clock, record_to=pack)
    hub.call("quote", {"ticker": "NVDA"})
    hub.call("quote", {"ticker": "NVDA"})          # served by the cache, still recorded
    files = sorted(pack.glob("*.json"))
    assert len(files) == 1
    assert json.loads(files[0].read_text())["fetched_at"] == "2026-01-05T15:00:00Z"
    replay = DataHub(settings.replace(pack=pack, offline=True))
    assert replay.call("quote", {"ticker": "NVDA"}).evidence[0].title == "quote NVDA"


def test_a_sample_pack_never_mixes_with_live_data(settings, tmp_path):
    write_recording(tmp_path, "quote", {"ticker": "NVDA"}, [ITEM], NOW)
    (tmp_path / "_pack.json").write_text(json.dumps({"label": "sample", "sample": True}))
    source = CountingSource()
    hub = DataHub(settings.replace(pack=tmp_path), adapters={"quote": source},
                  cache=SourceCache(tmp_path / "c", settings.freshness_s, 10**7))
    assert ReplayPack(tmp_path).info.sample and hub.sample
    with pytest.raises(NotInPack):
        hub.call("quote", {"ticker": "AMD"})
    assert source.calls == 0


def test_the_real_wiring_offline_touches_no_adapter(settings):
    hub = make_hub(settings.replace(offline=True))
    assert hub.adapters == {} and hub.cache is not None
