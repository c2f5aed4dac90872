"""A paused or full Redis (issue 31, item 8).

Paused: each store call used to wait out 2 s three times (6.3 s) before failing, so a page making
several calls stalled for tens of seconds. Now the first call waits one timeout and opens the
server's circuit breaker (`hosting.breaker`, one per server in `hosting.redis_link`, shared by the
run store, the source cache and the question counter): the next calls fail at once for a cool-down,
then one trial call is let through, and calls work again once Redis answers.

Full (`maxmemory` reached, `noeviction`): the message says Redis is out of memory, not unreachable,
and the breaker stays closed (a full Redis answers at once)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest

from finsearch.background.question import BackgroundRun
from finsearch.errors import StoreUnavailable
from finsearch.hosting.breaker import Breaker, BreakerOpen
from finsearch.hosting.counters import RedisQuestionCounter
from finsearch.hosting.redis_link import COMMAND_TIMEOUT_S, breaker
from finsearch.settings import from_env
from finsearch.sources.cache.redis_store import RedisSourceCache
from finsearch.store import open_store
from tests.conftest import DEMO_PACK, NOW
from tests.store_kit import sample_run

SLACK_S = 1.5          # a busy 2-core machine's scheduling, on top of the one timeout a call may wait


class Down(Exception):
    """The server is gone (a timeout, a refused connection)."""


class Answered(Exception):
    """The server answered, with an error of its own."""


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def a_breaker(clock: Clock, cool_down_s: float = 20.0) -> Breaker:
    return Breaker("the server", cool_down_s, is_down=lambda e: isinstance(e, Down),
                   is_answer=lambda e: isinstance(e, Answered), clock=clock)


def fail_with(gate: Breaker, exc: Exception) -> None:
    with pytest.raises(type(exc)), gate:
        raise exc


# -- the breaker alone, on a clock of our own ---------------------------------------------------


def test_after_a_failure_calls_are_refused_for_the_cool_down_then_one_trial_closes_it():
    clock = Clock()
    gate = a_breaker(clock)
    with gate:
        pass                                            # closed: calls go through
    fail_with(gate, Down())
    assert gate.resting
    for _ in range(3):
        with pytest.raises(BreakerOpen, match=r"the server not tried: it failed moments ago \(Down\); "
                                              r"tried again in 20 s"), gate:
            raise AssertionError("a refused call is not made")
    clock.now += 19.9
    with pytest.raises(BreakerOpen), gate:
        pass
    clock.now += 0.2                                    # the cool-down is over: one trial goes through
    with gate:
        pass
    assert not gate.resting
    with gate:                                          # and it closed the circuit
        pass


def test_a_failed_trial_opens_it_for_another_cool_down():
    clock = Clock()
    gate = a_breaker(clock, cool_down_s=5)
    fail_with(gate, Down())
    clock.now += 5
    fail_with(gate, Down())                             # the trial: still down
    clock.now += 4.9
    with pytest.raises(BreakerOpen), gate:
        pass
    clock.now += 0.2
    with gate:
        pass


def test_while_the_trial_runs_other_threads_are_refused_and_its_own_nested_calls_are_not():
    clock = Clock()
    gate = a_breaker(clock, cool_down_s=5)
    fail_with(gate, Down())
    clock.now += 6
    inside, go_on, nested = threading.Event(), threading.Event(), []

    def trial():
        with gate:
            inside.set()
            go_on.wait(10)
            with gate:                                  # a store method calling another
                nested.append("went through")

    thread = threading.Thread(target=trial)
    thread.start()
    assert inside.wait(10)
    with pytest.raises(BreakerOpen), gate:              # another page, during the trial
        pass
    go_on.set()
    thread.join(10)
    assert nested == ["went through"]
    with gate:                                          # the trial was answered: closed
        pass


def test_an_answer_with_an_error_closes_it_and_our_own_errors_change_nothing():
    clock = Clock()
    gate = a_breaker(clock, cool_down_s=5)
    fail_with(gate, Answered())                         # the server is there: nothing to cool down
    assert not gate.resting
    fail_with(gate, ValueError("a bug of ours"))
    assert not gate.resting
    fail_with(gate, Down())
    clock.now += 6
    fail_with(gate, Answered())                         # the trial was answered, if with an error
    with gate:
        pass


# -- a real Redis, paused ------------------------------------------------------------------------


@pytest.fixture
def redis_settings(redis_server, tmp_path):
    return from_env({}, llm="heuristic", now=NOW, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data",
                    redis_url=redis_server.url)


def test_a_paused_redis_costs_one_timeout_for_many_calls_and_calls_work_again_after_the_cool_down(
        redis_server, redis_settings):
    store = open_store(redis_settings)
    counter = RedisQuestionCounter(redis_server.url)
    cache = RedisSourceCache(redis_server.url, {"quote": 60}, 10**7)
    store.save(sample_run("run-aaaaaaaa"), "conv-aaaaaaaa")
    breaker(redis_server.url).cool_down_s = 3.0
    calls = [store.list, lambda: store.load("run-aaaaaaaa"), lambda: store.conversation("conv-aaaaaaaa"),
             lambda: store.save(sample_run("run-bbbbbbbb"), "conv-aaaaaaaa"),
             lambda: counter.hit("visitor-1", 3600)] * 2

    redis_server.pause()
    started = time.monotonic()
    for call in calls:
        with pytest.raises(StoreUnavailable, match=r"^the shared store at redis://127\.0\.0\.1:\d+/0 is unreachable$"):
            call()
    assert cache.get("quote", {"ticker": "NVDA"}, any_age=True, now=datetime.now(UTC)) is None
    assert cache.put("quote", {"ticker": "NVDA"}, [{"title": "q"}], datetime.now(UTC)) == 0
    waited = time.monotonic() - started
    # Each of the 12 calls used to wait 2 s three times (75 s in all); now only the first waits.
    assert waited < 2 * COMMAND_TIMEOUT_S + SLACK_S, f"{len(calls) + 2} calls to a paused Redis took {waited:.1f} s"
    assert any("could not be reached (TimeoutError)" in note for note in cache.take_notices())

    # Back, but within the cool-down: still refused, at once (the breaker, not the server, answers).
    redis_server.resume()
    started = time.monotonic()
    with pytest.raises(StoreUnavailable, match="is unreachable"):
        store.list()
    assert time.monotonic() - started < 0.5
    assert not cache.usable

    # After the cool-down: one trial call is let through, Redis answers, and everything works again.
    deadline = time.monotonic() + 10
    while breaker(redis_server.url).resting and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [s.run_id for s in store.list()] == ["run-aaaaaaaa"], "nothing of the failed save was written"
    store.save(sample_run("run-bbbbbbbb"), "conv-aaaaaaaa")
    assert store.conversation("conv-aaaaaaaa") == ["run-aaaaaaaa", "run-bbbbbbbb"]
    assert counter.hit("visitor-1", 3600) == 1, "the counts refused while paused were not made"
    assert cache.put("quote", {"ticker": "NVDA"}, [{"title": "q"}], datetime.now(UTC)) > 0
    assert cache.usable


def test_after_the_cool_down_a_still_paused_redis_gets_one_trial_that_waits_then_calls_fail_at_once_again(
        redis_server, redis_settings):
    store = open_store(redis_settings)
    breaker(redis_server.url).cool_down_s = 1.0
    redis_server.pause()
    with pytest.raises(StoreUnavailable):
        store.list()                                    # opens the breaker (one timeout)
    time.sleep(1.1)
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        store.list()                                    # the trial: waits one timeout
    trial = time.monotonic() - started
    with pytest.raises(StoreUnavailable):
        store.list()                                    # refused again at once
    assert COMMAND_TIMEOUT_S * 0.9 < trial < COMMAND_TIMEOUT_S + SLACK_S
    assert time.monotonic() - started < trial + 0.5


# -- a real Redis, full --------------------------------------------------------------------------


def fill_up(redis_server) -> None:
    """maxmemory 1 MB, noeviction, and junk until a write is refused (OOM)."""
    import redis

    admin = redis_server.client()
    admin.config_set("maxmemory", "1mb")
    admin.config_set("maxmemory-policy", "noeviction")
    for i in range(10_000):
        try:
            admin.set(f"junk:{i}", "x" * 10_000)
        except redis.exceptions.OutOfMemoryError:
            return
    raise AssertionError("Redis never filled up")


def test_a_full_redis_is_said_to_be_out_of_memory_not_unreachable(redis_server, redis_settings):
    store = open_store(redis_settings)
    cache = RedisSourceCache(redis_server.url, {"quote": 60}, 10**7)
    store.save(sample_run("run-aaaaaaaa"), "conv-aaaaaaaa")
    fill_up(redis_server)

    out_of_memory = r"^Redis is out of memory at redis://127\.0\.0\.1:\d+/0: it stores nothing more until its " \
                    r"maxmemory is raised or space is freed$"
    with pytest.raises(StoreUnavailable, match=out_of_memory):
        store.save(sample_run("run-bbbbbbbb"), "conv-aaaaaaaa")
    with pytest.raises(StoreUnavailable, match=out_of_memory):
        RedisQuestionCounter(redis_server.url).hit("visitor-1", 3600)
    assert cache.put("quote", {"ticker": "NVDA"}, [{"title": "q"}], datetime.now(UTC)) == 0
    assert cache.take_notices() == [f"The shared source cache (redis://127.0.0.1:{redis_server.port}/0) is out of "
                                    "memory; sources were asked directly."]
    # A full Redis still answers: reads work and the breaker stays closed.
    assert [s.run_id for s in store.list()] == ["run-aaaaaaaa"]
    assert not breaker(redis_server.url).resting

    # The page's run saves through the same store: its message says so.
    run = BackgroundRun("How did NVDA do last week?", redis_settings.replace(pack=DEMO_PACK, offline=True),
                        on_finish=lambda result: store.save(result, "conv-aaaaaaaa")).start()
    assert run.join(60)
    view = run.view()
    assert view.result is not None and view.error is None
    assert view.save_error.startswith("This answer could not be saved on the server (Redis is out of memory at "
                                      "redis://127.0.0.1:")

    # Space made: saving works at once, with no cool-down to wait out.
    redis_server.client().config_set("maxmemory", "0")
    store.save(sample_run("run-bbbbbbbb"), "conv-aaaaaaaa")
    assert store.conversation("conv-aaaaaaaa") == ["run-aaaaaaaa", "run-bbbbbbbb"]
