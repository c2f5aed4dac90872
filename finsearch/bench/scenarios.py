"""Benchmark scenarios: the real pipeline, with only the network stood in for.

Sources: the demo replay pack played as the live network (`ReplayAdapter`: every call
takes its seeded latency) behind a real on-disk cache. Model: a loopback server per
question, scripted by `cooperative`. A run's theoretical critical path is computed from those injected delays:
the plan call(s), then along the longest dependency chain each node's source latency
plus its rewrite call, then the streamed answer.
"""

from __future__ import annotations

import dataclasses
import shutil
import statistics
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from .. import pipeline
from ..catalogue import CATALOGUE, canonical_args
from ..errors import NotInPack
from ..events import AnswerDelta, PlanReady, RunFinished
from ..graph import NodeStatus
from ..plan.analysis import analyse
from ..plan.rules import heuristic_plan
from ..settings import Settings, from_env
from ..sources.cache import SourceCache
from ..sources.hub import DataHub
from ..sources.replay import ReplayAdapter, ReplayPack, simulated_latency, write_recording
from ..sources.setup import demo_pack
from .cooperative import cooperative_model

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)
TWO_TICKERS = "Compare NVDA and TSLA last week and explain each one's biggest move"
ONE_TICKER = "Why did NVDA fall last week?"
CROWD = (ONE_TICKER, "What's the latest news on Tesla?", "Compare AAPL and MSFT year to date",
         "贵州茅台最近一个月表现如何？", "How is AAPL doing this year?", "Why did TSLA drop last week?",
         "What is the market cap of MSFT?", "What do analysts expect for NVDA?")


@dataclasses.dataclass(frozen=True)
class Latency:
    llm_delay_s: float = 0.4
    tokens_per_s: float = 80.0
    answer_tokens: int = 120
    source_delay_s: float = 0.3
    jitter: float = 0.2

    @property
    def answer_s(self) -> float:
        """One streamed answer: the round trip, then its tokens."""
        return self.llm_delay_s + self.answer_tokens / self.tokens_per_s


@dataclasses.dataclass(frozen=True)
class Run:
    wall_ms: float
    first_event_ms: float
    first_token_ms: float | None
    critical_path_ms: float
    llm_round_trips: int
    stats: dict


class Bench:
    """The fixtures every scenario shares: a complete pack, a model server per question, cache folders."""

    def __init__(self, latency: Latency, workdir: Path | None = None):
        self.latency = latency
        self.root = Path(workdir or tempfile.mkdtemp(prefix="finsearch-bench-"))
        questions = (TWO_TICKERS, *CROWD)
        self.pack = ReplayPack(complete_pack(self.root / "pack", questions))
        self.models = {q: cooperative_model(q, NOW, latency.llm_delay_s, latency.tokens_per_s, latency.answer_tokens)
                       for q in questions}
        self._caches = 0

    def close(self) -> None:
        for model in self.models.values():
            model.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def settings(self, backend: str, question: str, **changes) -> Settings:
        """Settings for asking `question`, its own model server included."""
        return from_env({}, llm=backend, base_url=self.models[question].base_url, api_key="bench",
                        model="bench-model", now=NOW, llm_timeout_s=60, node_timeout_s=60, deadline_s=600,
                        cache_dir=self.root / "unused", data_dir=self.root / "data", **changes)

    def cache(self) -> SourceCache:
        """A fresh, empty cache (a cold start)."""
        self._caches += 1
        return SourceCache(self.root / f"cache-{self._caches}", Settings().freshness_s, 256 * 1024 * 1024)

    def hub(self, settings: Settings, cache: SourceCache, source_delay_s: float | None = None) -> DataHub:
        delay = self.latency.source_delay_s if source_delay_s is None else source_delay_s
        adapter = ReplayAdapter(self.pack, delay, self.latency.jitter)
        return DataHub(settings, adapters={s: adapter for s in CATALOGUE}, cache=cache)

    # -- one run -----------------------------------------------------------------------------

    def run(self, question: str, backend: str, cache: SourceCache, source_delay_s: float | None = None,
            **changes) -> Run:
        settings = self.settings(backend, question, **changes)
        model = self.models[question]
        model.take_calls()
        hub = self.hub(settings, cache, source_delay_s)
        started = time.perf_counter()
        first_event = first_token = None
        result = None
        for event in pipeline.run(question, settings=settings, hub=hub):
            if first_event is None and isinstance(event, PlanReady):
                first_event = event.at_ms
            if first_token is None and isinstance(event, AnswerDelta) and event.text:
                first_token = event.at_ms
            if isinstance(event, RunFinished):
                result = event.result
        wall = (time.perf_counter() - started) * 1000
        calls = model.take_calls()
        delay = self.latency.source_delay_s if source_delay_s is None else source_delay_s
        return Run(wall, first_event, first_token, self.critical_path_ms(result, calls, delay),
                   result.stats.llm_round_trips_critical_path, result.stats)

    def critical_path_ms(self, result, calls, source_delay_s: float) -> float:
        """The theoretical critical path of the executed graph under the injected delays."""
        llm = self.latency.llm_delay_s
        plan_calls = sum(1 for c in calls if c.kind == "plan")

        def cost(node) -> float:
            if node.status is NodeStatus.SKIPPED:
                return 0.0
            source = simulated_latency(node.source, canonical_args(node.args), source_delay_s, self.latency.jitter)
            return source + llm * node.llm_calls

        chain = result.graph.longest_chain(cost)[0] if len(result.graph) else 0.0
        answer = self.latency.answer_s if result.answer and result.answer.writer == "llm" else 0.0
        return (plan_calls * llm + chain + answer) * 1000


def complete_pack(folder: Path, questions: tuple[str, ...]) -> Path:
    """The demo pack, plus invented recordings for whatever the questions' plans would ask
    that it lacks (so that no node fails fast and skews a timing)."""
    shutil.copytree(demo_pack(), folder, dirs_exist_ok=True)
    pack = ReplayPack(folder)
    for question in questions:
        analysis = analyse(question, NOW)
        for node in heuristic_plan(analysis, NOW):
            try:
                pack.replay(node.source, node.args)
            except NotInPack:
                write_recording(folder, node.source, canonical_args(node.args), _invented(node), NOW)
                pack = ReplayPack(folder)
    return folder


def _invented(node) -> list[dict]:
    subject = node.args.get("ticker") or node.args.get("query") or "the market"
    if CATALOGUE[node.source].kind != "finance":
        return [{"title": f"Benchmark story {i} about {subject}", "url": f"https://example.com/bench/{subject}/{i}",
                 "publisher": "Benchmark Wire", "published": f"2024-10-1{i}T12:00:00Z",
                 "snippet": f"Invented text for the benchmark ({node.source})."} for i in range(1, 4)]
    return [{"title": f"{subject} {node.source} (benchmark data)", "publisher": "Benchmark data",
             "data": {"ticker": subject, "note": "invented for the benchmark"}}]


def median(values, digits: int = 1) -> float:
    values = [v for v in values if v is not None]
    return round(statistics.median(values), digits) if values else float("nan")


def at_once(bench: Bench, backend: str, questions: tuple[str, ...]) -> float:
    """Questions answered per second when they all arrive together (one shared cache)."""
    cache = bench.cache()
    errors: list[BaseException] = []

    def one(question: str) -> None:
        try:
            settings = bench.settings(backend, question)
            pipeline.ask(question, settings=settings, hub=bench.hub(settings, cache))
        except BaseException as exc:  # reported after the timing, not swallowed
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(q,)) for q in questions]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise errors[0]
    return len(questions) / elapsed
