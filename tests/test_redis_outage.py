"""Redis killed mid-run and started again: the run finishes (cache misses go upstream), saving
fails with a sentence that names the store, nothing stored before is lost or half-written, and
everything works again once Redis is back (after the breaker's cool-down), with no restart of the app."""

from __future__ import annotations

import time

import pytest

from finsearch import pipeline
from finsearch.background.question import BackgroundRun
from finsearch.errors import StoreUnavailable
from finsearch.hosting.redis_link import breaker, new_client
from finsearch.settings import from_env
from finsearch.sources.cache.redis_store import RedisSourceCache
from finsearch.sources.hub import DataHub
from finsearch.store import open_store
from tests.conftest import DEMO_PACK, NOW
from tests.store_kit import sample_run

QUESTION = "Why did NVDA fall last week?"


class Network:
    """The fake network boundary: counts calls; can kill Redis on its first call (mid-run)."""

    def __init__(self, on_first_call=None):
        self.calls = 0
        self.on_first_call = on_first_call

    def fetch(self, source, args):
        self.calls += 1
        if self.calls == 1 and self.on_first_call is not None:
            self.on_first_call()
        return [{"title": f"{source} {args.get('ticker') or args.get('query')}",
                 "data": {"ticker": "NVDA", "last": 131.6}}]


def hub_for(settings, network, cache):
    return DataHub(settings, adapters={s: network for s in ("quote", "price_history", "news", "web_search")},
                   cache=cache)


@pytest.fixture
def redis_settings(redis_server, tmp_path):
    return from_env({}, llm="heuristic", now=NOW, node_timeout_s=5.0, cache_dir=tmp_path / "cache",
                    data_dir=tmp_path / "data", redis_url=redis_server.url)


def test_a_run_survives_redis_dying_mid_run_and_everything_recovers(redis_server, redis_settings):
    cache = RedisSourceCache(redis_server.url, redis_settings.freshness_s, 10**8, client=new_client(redis_server.url))
    breaker(redis_server.url).cool_down_s = 0.2        # shared by the cache and the store
    store = open_store(redis_settings)
    before = pipeline.ask(QUESTION, settings=redis_settings, hub=hub_for(redis_settings, Network(), cache))
    store.save(before, "conv-outage1")
    assert before.stats.upstream_calls > 0

    # Redis dies during the next run (as its first upstream call is made), like a crash.
    network = Network(on_first_call=redis_server.kill)
    started = time.monotonic()
    during = pipeline.ask("How did TSLA do last month?", settings=redis_settings,
                          hub=hub_for(redis_settings, network, cache))
    assert time.monotonic() - started < 15, "a dead cache costs no long waits"
    assert during.answer is not None and during.answer.markdown
    assert during.stats.upstream_calls == during.stats.source_calls == network.calls > 0, "misses went upstream"
    assert any("shared source cache" in note and "could not be reached" in note for note in during.notes)
    with pytest.raises(StoreUnavailable, match=r"shared store at redis://127\.0\.0\.1:\d+/0 is unreachable"):
        store.save(during, "conv-outage1")
    with pytest.raises(StoreUnavailable):
        store.list()

    # The app's run saves through the same store: the page is told why, in words.
    run = BackgroundRun("How did NVDA do last week?", redis_settings.replace(pack=DEMO_PACK, offline=True),
                        on_finish=lambda result: store.save(result, "conv-outage1")).start()
    assert run.join(60)
    view = run.view()
    assert view.result is not None and view.error is None
    assert "could not be saved on the server (the shared store at redis://127.0.0.1:" in view.save_error

    # Redis comes back on the same port and data: what was stored before is intact, nothing of
    # the failed saves was half-written, and saving and caching work again.
    redis_server.start()
    time.sleep(0.3)                                   # past the breaker's cool-down
    assert [s.run_id for s in store.list()] == [before.run_id]
    assert store.load(before.run_id).answer.markdown == before.answer.markdown
    assert store.conversation("conv-outage1") == [before.run_id]
    store.save(during, "conv-outage1")
    assert store.conversation("conv-outage1") == [before.run_id, during.run_id]
    again = Network()
    repeat = pipeline.ask(QUESTION, settings=redis_settings, hub=hub_for(redis_settings, again, cache))
    assert again.calls == 0 and repeat.stats.cache_hits == repeat.stats.source_calls, "cache entries survived"
    assert not any("could not be reached" in note for note in repeat.notes)


def test_a_store_that_cannot_reach_redis_at_all_says_so_on_every_call(tmp_path):
    from tests.redis_kit import free_port

    settings = from_env({"FINSEARCH_REDIS_URL": f"redis://:hunter2-password@127.0.0.1:{free_port()}/0"},
                        data_dir=tmp_path / "data")
    store = open_store(settings)
    for call in (lambda: store.list(), lambda: store.load("run-aaaaaaaa"), lambda: store.conversation("conv-aaaaaaaa"),
                 lambda: store.save(sample_run("run-aaaaaaaa"))):
        with pytest.raises(StoreUnavailable) as caught:
            call()
        assert "hunter2" not in str(caught.value), "the password is never in a message"
    assert not (tmp_path / "data").exists(), "no file fallback: Redis is the store when it is configured"
