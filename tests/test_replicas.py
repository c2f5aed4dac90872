"""Two replicas sharing one Redis behave as one site: a run saved by A is listed and loaded by
B, a question asked on A and then on B costs one upstream call per source, and misses of one
key in two processes at once make one upstream call between them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

from finsearch import pipeline
from finsearch.settings import from_env
from finsearch.sources.cache.redis_store import RedisSourceCache
from finsearch.sources.hub import DataHub
from finsearch.store.run_redis import RedisRunStore
from tests.conftest import NOW, ROOT
from tests.store_kit import sample_run

QUESTION = "Why did NVDA fall last week?"
ITEM = {"title": "NVDA", "data": {"ticker": "NVDA", "last": 131.6}}


class CountingNetwork:
    """The fake network boundary every live adapter of both replicas calls: counts per key."""

    def __init__(self):
        self.calls: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    def fetch(self, source, args):
        with self.lock:
            self.calls.append((source, repr(sorted(args.items()))))
        return [dict(ITEM, title=f"{source} {args.get('ticker') or args.get('query')}")]


def replica(name, tmp_path, url, network):
    """One replica: its own settings (own folders), its own Redis client and cache object."""
    settings = from_env({}, llm="heuristic", now=NOW, node_timeout_s=5.0, cache_dir=tmp_path / name / "cache",
                        data_dir=tmp_path / name / "data", redis_url=url)
    cache = RedisSourceCache(url, settings.freshness_s, 50 * 1024 * 1024, client=_client(url))
    hub = DataHub(settings, adapters={s: network for s in ("quote", "price_history", "news", "web_search")},
                  cache=cache)
    return settings, hub, RedisRunStore(url, client=_client(url))


def _client(url):
    from finsearch.hosting.redis_link import new_client

    return new_client(url)


def test_a_run_saved_on_one_replica_is_listed_and_loaded_on_the_other(redis_server, tmp_path):
    network = CountingNetwork()
    _, _, store_a = replica("a", tmp_path, redis_server.url, network)
    _, _, store_b = replica("b", tmp_path, redis_server.url, network)
    store_a.save(sample_run("run-from-a-1"), "conv-shared1")
    store_a.save(sample_run("run-from-a-2", "What is AAPL's price?"), "conv-shared1")
    assert [s.run_id for s in store_b.list()] == ["run-from-a-2", "run-from-a-1"]
    assert store_b.load("run-from-a-1").question == "How did NVDA do last week?"
    assert [r.question for r in store_b.load_conversation("conv-shared1")] == \
        ["How did NVDA do last week?", "What is AAPL's price?"], "?c= restores on B"
    assert store_b.delete("run-from-a-1") and store_a.load("run-from-a-1") is None


def test_a_question_asked_on_a_then_b_makes_one_upstream_call_per_source(redis_server, tmp_path):
    network = CountingNetwork()
    settings_a, hub_a, _ = replica("a", tmp_path, redis_server.url, network)
    settings_b, hub_b, _ = replica("b", tmp_path, redis_server.url, network)
    first = pipeline.ask(QUESTION, settings=settings_a, hub=hub_a)
    calls_after_a = len(network.calls)
    second = pipeline.ask(QUESTION, settings=settings_b, hub=hub_b)
    assert first.stats.upstream_calls == first.stats.source_calls == calls_after_a > 0
    assert len(set(network.calls)) == len(network.calls), "each source call reached the network once"
    assert second.stats.upstream_calls == 0 and len(network.calls) == calls_after_a
    assert second.stats.cache_hits == second.stats.source_calls == first.stats.source_calls
    assert second.answer.markdown == first.answer.markdown


# Run in separate processes, so only the Redis lock (not a lock inside one process) can keep
# the second process from fetching. Every call of `produce` appends a line to the tally file.
REPLICA_SCRIPT = textwrap.dedent("""
    import sys, threading, time
    from datetime import datetime, timezone
    from finsearch.sources.cache.redis_store import RedisSourceCache

    url, tally, start_at = sys.argv[1], sys.argv[2], float(sys.argv[3])
    cache = RedisSourceCache(url, {"quote": 60}, 10 * 1024 * 1024)
    now = lambda: datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)

    def produce():
        with open(tally, "a") as f:
            f.write("call\\n")
        time.sleep(0.5)                       # slow upstream: everyone else arrives meanwhile
        return [{"title": "NVDA quote", "data": {"ticker": "NVDA", "last": 131.6}}]

    origins = []
    def ask():
        entry, cached = cache.fetch_through("quote", {"ticker": "NVDA"}, produce, now)
        origins.append("cache" if cached else "live")
        assert entry.evidence[0]["title"] == "NVDA quote"

    time.sleep(max(0.0, start_at - time.time()))
    threads = [threading.Thread(target=ask) for _ in range(4)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    print(" ".join(sorted(origins)))
""")


def test_concurrent_misses_in_two_processes_make_one_upstream_call(redis_server, tmp_path):
    import time

    tally = tmp_path / "tally.txt"
    start_at = f"{time.time() + 1.5:.3f}"         # both processes start asking at the same moment
    processes = [subprocess.Popen([sys.executable, "-c", REPLICA_SCRIPT, redis_server.url, str(tally), start_at],
                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
    outputs = [p.communicate(timeout=60) for p in processes]
    assert [p.returncode for p in processes] == [0, 0], outputs
    origins = " ".join(out for out, _ in outputs).split()
    assert tally.read_text().count("call") == 1, "one upstream call between the two processes"
    assert sorted(origins) == ["cache"] * 7 + ["live"]


# `python -m finsearch ask`, with only the live adapters replaced by a network that tallies each
# call in a file (the fake network boundary, shared by both processes). The probe for "is there
# a network" is pointed at the Redis port, a loopback listener, so no sample pack is chosen.
CLI_SCRIPT = textwrap.dedent("""
    import sys
    from finsearch import cli
    from finsearch.sources import setup

    tally = sys.argv[1]

    class TalliedNetwork:
        def fetch(self, source, args):
            with open(tally, "a") as f:
                f.write(f"{source} {sorted(args.items())}\\n")
            return [{"title": f"{source} {args.get('ticker') or args.get('query')}",
                     "data": {"ticker": "NVDA", "last": 131.6}}]

    setup.live_adapters = lambda settings: {s: TalliedNetwork() for s in ("quote", "price_history", "news",
                                                                          "web_search")}
    sys.exit(cli.main(["ask", "--json", *sys.argv[2:]]))
""")


def test_two_cli_processes_on_one_redis_make_one_upstream_call_per_source(redis_server, tmp_path):
    import json
    import os

    from finsearch.settings import ENV_NAMES

    env = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    env.update(FINSEARCH_REDIS_URL=redis_server.url, FINSEARCH_LLM="heuristic", FINSEARCH_NOW="2024-10-15T20:00:00Z",
               FINSEARCH_PROBE=f"127.0.0.1:{redis_server.port}")
    tally = tmp_path / "tally.txt"
    answers = []
    for replica_name in ("a", "b"):
        own = dict(env, FINSEARCH_DATA_DIR=str(tmp_path / replica_name / "data"),
                   FINSEARCH_CACHE_DIR=str(tmp_path / replica_name / "cache"))
        done = subprocess.run([sys.executable, "-c", CLI_SCRIPT, str(tally), QUESTION], cwd=ROOT, env=own,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        answers.append(json.loads(done.stdout))
        if replica_name == "a":
            calls_after_a = tally.read_text().splitlines()
    calls = tally.read_text().splitlines()
    assert calls == calls_after_a and len(calls) == len(set(calls)) > 0, "B made no upstream call"
    assert answers[0]["stats"]["upstream_calls"] == len(calls) and answers[1]["stats"]["upstream_calls"] == 0
    assert answers[1]["stats"]["cache_hits"] == answers[1]["stats"]["source_calls"] == len(calls)
    assert answers[0]["answer"]["markdown"] == answers[1]["answer"]["markdown"]
