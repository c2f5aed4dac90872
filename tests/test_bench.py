"""The benchmark runs and its figures are consistent (no timing targets here: those are
checked by the benchmark's own output), plus the engine features it measures."""

import json
import threading
import time

from openai import OpenAI

from finsearch import pipeline
from finsearch.bench import cli
from finsearch.bench.cooperative import cooperative_model
from finsearch.bench.scenarios import NOW, ONE_TICKER, TWO_TICKERS, Bench, Latency
from finsearch.catalogue import CATALOGUE
from finsearch.graph import NodeStatus
from finsearch.model.loopback import Reply
from finsearch.sources.cache import SourceCache
from finsearch.sources.hub import DataHub

FAST = ["--llm-delay-ms", "15", "--source-delay-ms", "15", "--answer-tokens", "8", "--tokens-per-s", "2000"]


def test_the_benchmark_runs_and_its_figures_agree(capsys):
    cli.main(["--json", *FAST])
    out = capsys.readouterr().out.strip().splitlines()
    report = json.loads(out[-1])
    assert out[0].startswith("FinSearch benchmark · ") and "model 15 ms/call, 2000 tok/s, 8 answer tokens" in out[0]
    for key in ("critical_path_ratio", "speedup_vs_sequential", "llm_round_trips_critical_path", "first_event_ms",
                "first_token_ms", "overhead_ms", "warm_repeat_ms", "parallel_questions_per_s", "peak_rss_mb", "cores"):
        assert key in report
    two = report["scenarios"]["llm.two_tickers"]
    assert two["source_calls"] >= 6 and two["dependency_levels"] == 2
    assert two["llm_round_trips_critical_path"] == 3 == report["llm_round_trips_critical_path"]
    assert two["first_event_ms"] <= two["first_token_ms"] <= two["wall_ms"]
    assert two["sequential_wall_ms"] > two["wall_ms"]
    assert abs(two["speedup_vs_sequential"] - two["sequential_wall_ms"] / two["wall_ms"]) < 0.01
    assert report["scenarios"]["heuristic.two_tickers"]["llm_round_trips_critical_path"] == 0
    assert report["warm_repeat_ms"] < report["scenarios"]["heuristic.one_ticker"]["wall_ms"]
    assert set(report["targets"]) >= {"speedup_vs_sequential", "overhead_ms", "warm_repeat_ms", "first_event_ms"}


def test_the_critical_path_follows_the_injected_delays():
    bench = Bench(Latency(llm_delay_s=0.05, tokens_per_s=1000, answer_tokens=10, source_delay_s=0.05, jitter=0.0))
    try:
        run = bench.run(ONE_TICKER, "openai", bench.cache())
        # plan + (price → rewrite + news) + answer (round trip + 10 tokens)
        assert abs(run.critical_path_ms - (50 + 50 + 50 + 50 + 50 + 10)) < 1
        heuristic = bench.run(ONE_TICKER, "heuristic", bench.cache())
        assert abs(heuristic.critical_path_ms - 100) < 1          # two source calls, nothing else
        assert heuristic.wall_ms >= 100
    finally:
        bench.close()


def test_sequential_schedule_runs_one_node_at_a_time_with_a_rewrite_before_each():
    bench = Bench(Latency(llm_delay_s=0.02, tokens_per_s=1000, answer_tokens=5, source_delay_s=0.03, jitter=0.0))
    try:
        settings = bench.settings("openai", TWO_TICKERS, schedule="sequential")
        model = bench.models[TWO_TICKERS]
        model.take_calls()
        result = pipeline.ask(TWO_TICKERS, settings=settings, hub=bench.hub(settings, bench.cache()))
        calls = model.take_calls()
        spans = sorted((n.started_ms, n.finished_ms) for n in result.graph)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)), "no two nodes overlap"
        assert sum(1 for c in calls if c.kind == "rewrite") == len(result.graph)
        assert all(n.status is NodeStatus.DONE for n in result.graph)
    finally:
        bench.close()


def test_the_drafts_first_calls_are_fetched_while_the_model_plans(tmp_path, llm_settings, fake_llm):
    class SlowSource:          # the network boundary
        calls = 0
        lock = threading.Lock()

        def fetch(self, source, args):
            with self.lock:
                SlowSource.calls += 1
            time.sleep(0.2)
            return [{"title": f"{source} {args.get('ticker')}", "published": "2024-10-11T12:00:00Z",
                     "data": {"ticker": args.get("ticker")} if source == "price_history" else None}]

    fake_llm.on("plan", Reply(status=500, delay_s=0.5))   # a slow planner that fails: the draft is used, as planned for
    fake_llm.on("answer", Reply(stream_pieces=["Done [1]."]))
    hub = DataHub(llm_settings, adapters={s: SlowSource() for s in CATALOGUE},
                  cache=SourceCache(tmp_path / "cache", llm_settings.freshness_s, 10 ** 8))
    result = pipeline.ask("Why did NVDA fall last week?", settings=llm_settings, hub=hub)
    assert hub.stats.prefetched == 1 and SlowSource.calls == len(result.graph)
    assert hub.stats.cache_hits == 1, "the price node was served by the fetch made during planning"


def test_the_bench_model_plans_as_the_rules_do_whatever_the_prompt_says():
    server = cooperative_model(ONE_TICKER, NOW, llm_delay_s=0.0, tokens_per_s=1000, answer_tokens=3)
    try:
        client = OpenAI(base_url=server.base_url, api_key="k", max_retries=0)
        reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "anything"}],
                                               extra_headers={"X-FinSearch-Call": "plan"})
        plan = json.loads(reply.choices[0].message.content)
        assert [(n["id"], n["source"], n["depends_on"]) for n in plan["nodes"]] == [
            ("n1", "price_history", []), ("n2", "news", ["n1"]), ("n3", "web_search", ["n1"])]
        assert plan["nodes"][0]["args"] == {"ticker": "NVDA", "start": "2024-10-07", "end": "2024-10-13"}
        streamed = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}],
                                                  stream=True, extra_headers={"X-FinSearch-Call": "answer"})
        assert "".join(c.choices[0].delta.content or "" for c in streamed if c.choices) == "The evidence shows"
        assert [c.kind for c in server.take_calls()] == ["plan", "answer"]
        client.close()
    finally:
        server.stop()


def test_a_rewritten_node_fetches_the_rules_choice_while_the_model_rewrites(tmp_path, llm_settings, fake_llm):

    class SlowSource:          # the network boundary
        calls: list = []

        def fetch(self, source, args):
            SlowSource.calls.append((source, dict(args), time.monotonic()))
            time.sleep(0.3)
            if source == "price_history":
                return [{"title": "NVDA prices", "period": {"start": args["start"], "end": args["end"]},
                         "data": {"ticker": "NVDA", "stats": {"biggest_moves": [{"date": "2024-10-11",
                                                                                 "change_pct": -4.7}]}}}]
            return [{"title": f"{source} story", "url": f"https://e.test/{source}",
                     "published": "2024-10-11T12:00:00Z"}]

    fake_llm.on("plan", Reply(content="no plan today"))       # the rule-based plan stands; the model stays in use
    fake_llm.on("answer", Reply(stream_pieces=["Done [1]."]))
    # A rewrite's arguments are merged into the rules' ones: none keeps them, a query replaces theirs.
    changes = {True: {}, False: {"query": "NVIDIA export curbs"}}
    for kept, expected_calls in ((True, 3), (False, 5)):
        fake_llm.on("rewrite", Reply(content=json.dumps({"sub_query": "refined", "args": changes[kept]}),
                                     delay_s=0.4))
        fake_llm.take_calls()
        SlowSource.calls = []
        hub = DataHub(llm_settings, adapters={s: SlowSource() for s in CATALOGUE},
                      cache=SourceCache(tmp_path / f"cache-{kept}", llm_settings.freshness_s, 10 ** 8))
        result = pipeline.ask("Why did NVDA fall last week?", settings=llm_settings, hub=hub)
        rewrites_done = [c.ended for c in fake_llm.take_calls() if c.kind == "rewrite"]
        news = next(n for n in result.graph if n.source == "news")
        assert news.status is NodeStatus.DONE and news.rewritten_by == "llm"
        assert len(SlowSource.calls) == expected_calls
        news_fetch = min(t for source, _, t in SlowSource.calls if source == "news")
        if kept:       # the rules' fetch started while the model was still rewriting
            assert news_fetch < max(rewrites_done) and hub.stats.prefetched == 3   # 1 while planning
        else:          # the model changed the query: its own call, after the rewrite
            assert news.args["query"] == "NVIDIA export curbs"
