"""Benchmark scenarios: the real pipeline, with only the network stood in for.

Sources: the demo replay pack played as the live network (`ReplayAdapter`: every call
takes its seeded latency) behind a real on-disk cache. Model: a loopback server per
question, scripted by `cooperative` and paced by a model profile (`Pace`). A run's
theoretical critical path is computed from those injected delays (`schedule`).
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
from ..catalogue import CATALOGUE
from ..errors import NotInPack
from ..events import AnswerDelta, NodeAdded, NodeFinished, PlanReady, RunFinished
from ..model.loopback import Pace
from ..plan.analysis import analyse
from ..plan.rules import heuristic_plan
from ..settings import Settings, from_env
from ..source_args import canonical_args
from ..sources.cache.disk import SourceCache
from ..sources.hub import DataHub
from ..sources.replay import ReplayAdapter, ReplayPack, write_recording
from ..sources.setup import demo_pack
from .cooperative import cooperative_model
from .schedule import CriticalPath, critical_path

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)
TWO_TICKERS = "Compare NVDA and TSLA last week and explain each one's biggest move"
ONE_TICKER = "Why did NVDA fall last week?"
CROWD = (ONE_TICKER, "What's the latest news on Tesla?", "Compare AAPL and MSFT year to date",
         "贵州茅台最近一个月表现如何？", "How is AAPL doing this year?", "Why did TSLA drop last week?",
         "What is the market cap of MSFT?", "What do analysts expect for NVDA?")


@dataclasses.dataclass(frozen=True)
class Sources:
    delay_s: float = 0.3       # each source call, ± jitter (seeded by the call)
    jitter: float = 0.2


@dataclasses.dataclass(frozen=True)
class Run:
    wall_ms: float
    first_node_ms: float | None         # PlanReady: the graph on screen
    first_evidence_ms: float | None     # the first node that finished with evidence
    first_token_ms: float | None        # the first answer text
    critical_path: CriticalPath
    llm_calls: int                      # every model call made
    rewrites: int                       # rewrite calls made
    refetched: int                      # nodes whose rewrite (rules' or model's) changed their arguments
    plan_tokens: int                    # output tokens of the plan call(s)
    stats: dict

    @property
    def critical_path_ms(self) -> float:
        return self.critical_path.ms


class Bench:
    """The fixtures every scenario shares: a complete pack, a model server per question, cache folders."""

    def __init__(self, pace: Pace, sources: Sources = Sources(), workdir: Path | None = None):
        self.pace = pace
        self.sources = sources
        self.root = Path(workdir or tempfile.mkdtemp(prefix="finsearch-bench-"))
        questions = (TWO_TICKERS, *CROWD)
        self.pack = ReplayPack(complete_pack(self.root / "pack", questions))
        self.models = {q: cooperative_model(q, NOW, pace) for q in questions}
        self._caches = 0

    def close(self) -> None:
        for model in self.models.values():
            model.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def use(self, pace: Pace) -> None:
        """Every later call, on every question's server, costs what it would on `pace`."""
        self.pace = pace
        for model in self.models.values():
            model.pace = pace

    def settings(self, backend: str, question: str, **changes) -> Settings:
        """Settings for asking `question`, its own model server included. Every time limit is
        stretched (the answer's due time too) so that nothing times out: these runs measure speed."""
        return from_env({}, llm=backend, base_url=self.models[question].base_url, api_key="bench",
                        model="bench-model", now=NOW, llm_timeout_s=60, node_timeout_s=60, deadline_s=600,
                        answer_due_s=600,
                        cache_dir=self.root / "unused", data_dir=self.root / "data", **changes)

    def cache(self) -> SourceCache:
        """A fresh, empty cache (a cold start)."""
        self._caches += 1
        return SourceCache(self.root / f"cache-{self._caches}", Settings().freshness_s, 256 * 1024 * 1024)

    def hub(self, settings: Settings, cache: SourceCache, source_delay_s: float | None = None) -> DataHub:
        delay = self.sources.delay_s if source_delay_s is None else source_delay_s
        adapter = ReplayAdapter(self.pack, delay, self.sources.jitter)
        return DataHub(settings, adapters={s: adapter for s in CATALOGUE}, cache=cache)

    # -- one run -----------------------------------------------------------------------------

    def run(self, question: str, backend: str, cache: SourceCache, source_delay_s: float | None = None,
            **changes) -> Run:
        settings = self.settings(backend, question, **changes)
        model = self.models[question]
        model.take_calls()
        hub = self.hub(settings, cache, source_delay_s)
        started = time.perf_counter()
        first_node = first_evidence = first_token = None
        result = None
        planned: dict[str, dict] = {}
        for event in pipeline.run(question, settings=settings, hub=hub):
            if isinstance(event, PlanReady):
                planned.update((n.id, n.args) for n in event.graph)
            if isinstance(event, NodeAdded):
                planned[event.node.id] = event.node.args
            if first_node is None and isinstance(event, PlanReady) and len(event.graph):
                first_node = event.at_ms
            if first_evidence is None and isinstance(event, NodeFinished) and event.node.evidence:
                first_evidence = event.at_ms
            if first_token is None and isinstance(event, AnswerDelta) and event.text:
                first_token = event.at_ms
            if isinstance(event, RunFinished):
                result = event.result
        wall = (time.perf_counter() - started) * 1000
        calls = model.take_calls(at_least=result.stats.llm_calls)
        delay = self.sources.delay_s if source_delay_s is None else source_delay_s
        path = critical_path(result, calls, self.pace, delay, self.sources.jitter)
        return Run(wall, first_node, first_evidence, first_token, path, len(calls),
                   sum(1 for c in calls if c.kind == "rewrite"),
                   sum(1 for n in result.graph if n.rewritten and n.args != planned.get(n.id)),
                   sum(c.output_tokens for c in calls if c.kind == "plan"), result.stats)


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
