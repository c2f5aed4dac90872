"""The one entry point: `run(question, …)` → a stream of events, ending in RunFinished.

    check the question → analyse (entities, time, intents) → plan → PlanReady
    → execute the graph (NodeStarted / NodeRewritten / NodeFinished / NodeFailed / NodeAdded)
    → ChartsReady → AnswerDelta* → RunFinished(result)

`ask(...)` is the blocking form: run the generator and keep the result. An unusable
question raises InputError before any event; every other failure is recorded on the
node or in the result's notes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime

from .answer.charts import chart_specs
from .answer.generator import AnswerWriter
from .deadline import Deadline
from .errors import LLMError
from .events import AnswerDelta, ChartsReady, Event, PlanReady, RunFinished
from .graph import NodeStatus
from .history import new_id
from .model.llm import LLMClient, choose_backend
from .plan.analysis import Analysis, analyse, check_question
from .plan.planner import make_plan
from .plan.rules import heuristic_plan
from .result import RunResult
from .run.executor import Executor
from .run.weighting import WeightPolicy
from .settings import Settings, from_env
from .sources.hub import DataHub
from .sources.setup import make_hub

JUDGE_MIN_S = 5.0


def run(question: str, *, now: datetime | None = None, settings: Settings | None = None,
        prior: Analysis | None = None, cancel: threading.Event | None = None,
        hub: DataHub | None = None) -> Iterator[Event]:
    settings = settings or from_env()
    started = time.perf_counter()

    def elapsed_ms() -> float:
        return round((time.perf_counter() - started) * 1000, 1)

    text = check_question(question)
    now = now or settings.clock()
    cancel = cancel or threading.Event()
    deadline = Deadline(settings.deadline_s, cancel)
    analysis = analyse(text, now, prior)
    backend = choose_backend(settings)
    llm = LLMClient(settings, deadline) if backend == "openai" else None

    try:
        yield from _execute(analysis, now, settings, backend, llm, deadline, hub, elapsed_ms)
    finally:
        if llm is not None:
            llm.close()


def _execute(analysis: Analysis, now: datetime, settings: Settings, backend: str, llm: LLMClient | None,
             deadline: Deadline, hub: DataHub | None, elapsed_ms) -> Iterator[Event]:
    cancel = deadline.cancel
    hub = hub or make_hub(settings)
    draft = heuristic_plan(analysis, now)
    if llm is not None and settings.schedule == "graph":
        # While the model plans, fetch what the rule-based draft needs first (its nodes
        # without dependencies) into the cache: the model's plan almost always keeps them.
        hub.prefetch([(n.source, n.args) for n in draft if not n.depends_on])
    outcome = make_plan(analysis, now, llm, draft=[n.copy() for n in draft])
    plan_calls = llm.usage.calls if llm else 0
    graph = outcome.graph
    yield PlanReady(elapsed_ms(), graph.copy(), outcome.planner, outcome.notes)

    policy = WeightPolicy(settings.window_hours, settings.floor, settings.undated_weight,
                          settings.time_weighting)
    executor = Executor(graph, hub, analysis, now, settings, policy, llm, deadline, elapsed_ms)
    yield from executor.run()

    charts = chart_specs(graph)
    if charts:
        yield ChartsReady(elapsed_ms(), tuple(charts))

    writer = AnswerWriter(analysis, graph, now, llm if llm is not None and llm.available else None,
                          sample=hub.sample)
    for piece, restart in writer.stream():
        yield AnswerDelta(elapsed_ms(), piece, restart)
    answer = writer.answer

    rewrite_chain = graph.longest_chain(lambda node: node.llm_calls)[0] if len(graph) else 0
    stats = {
        "llm_calls": llm.usage.calls if llm else 0,
        "llm_round_trips_critical_path": int(plan_calls + rewrite_chain + (answer.writer == "llm")),
        "prompt_tokens": llm.usage.prompt_tokens if llm else 0,
        "completion_tokens": llm.usage.completion_tokens if llm else 0,
        "source_calls": hub.stats.calls,
        "cache_hits": hub.stats.cache_hits,
        "cache_misses": hub.stats.upstream_calls,
        "upstream_calls": hub.stats.upstream_calls,
        "bytes": hub.stats.bytes,
        "nodes_failed": sum(1 for n in graph if n.status is not NodeStatus.DONE),
        "wall_ms": round(elapsed_ms()),
    }
    notes = (*hub.notices(), *analysis.notes, *outcome.notes, *executor.notes, *answer.notes,
             *_model_notes(llm, deadline))
    judgement = None
    if settings.judge and not cancel.is_set():
        judgement = _judge(analysis, graph, answer, settings, deadline, llm.failure if llm else None)
    result = RunResult(
        run_id=new_id(), analysis=analysis, now=now,
        config=describe_config(settings, backend), graph=graph, answer=answer, charts=charts,
        stats=stats, planner=outcome.planner, notes=notes, sample=hub.sample,
        cancelled=cancel.is_set(), judgement=judgement)
    yield RunFinished(elapsed_ms(), result)


def _model_notes(llm: LLMClient | None, deadline: Deadline) -> tuple[str, ...]:
    """One sentence when the model stopped being used part-way, so the reader knows
    which parts the rules wrote."""
    if llm is None or llm.failure is None:
        return ()
    return (f"After the model failed ({llm.failure}), the rest of this run used the rule-based "
            "planner, rewriter and writer without calling it again.",)


def _judge(analysis: Analysis, graph, answer, settings: Settings, deadline: Deadline,
           failed_model: LLMError | None) -> dict:
    """The optional LLM judge, on its own client (its calls are not the run's), within
    what is left of the question's budget."""
    from .answer.judge import judge

    if choose_backend(settings) != "openai":
        return {"error": "the judge needs a model: set OPENAI_API_KEY or OPENAI_BASE_URL"}
    if failed_model is not None:
        return {"error": f"skipped: the model failed earlier in this run ({failed_model})"}
    if deadline.remaining() < JUDGE_MIN_S:
        return {"error": f"skipped: less than {JUDGE_MIN_S:g} s of this question's "
                         f"{deadline.seconds:g} s budget was left"}
    with LLMClient(settings.replace(model=settings.judge_model or settings.model), deadline) as client:
        verdict = judge(analysis.question, answer, graph, client)
        verdict["calls"] = client.usage.calls
        verdict["model"] = client.model
    return verdict


def ask(question: str, **kwargs) -> RunResult:
    """Run to the end and return the result."""
    result = None
    for event in run(question, **kwargs):
        if isinstance(event, RunFinished):
            result = event.result
    return result


def plan_only(question: str, *, now: datetime | None = None, settings: Settings | None = None,
              prior: Analysis | None = None) -> RunResult:
    """Analyse and plan without fetching any data (`python -m finsearch plan`)."""
    settings = settings or from_env()
    text = check_question(question)
    now = now or settings.clock()
    analysis = analyse(text, now, prior)
    backend = choose_backend(settings)
    llm = LLMClient(settings, Deadline(settings.deadline_s)) if backend == "openai" else None
    try:
        outcome = make_plan(analysis, now, llm)
    finally:
        if llm is not None:
            llm.close()
    return RunResult(run_id=new_id(), analysis=analysis, now=now,
                     config=describe_config(settings, backend), graph=outcome.graph, answer=None,
                     charts=[], stats={}, planner=outcome.planner, notes=analysis.notes + outcome.notes)


def describe_config(settings: Settings, backend: str) -> dict:
    data = "offline" if settings.offline else ("replay" if settings.pack else "live")
    config = {"llm": backend, "data": data, "window_hours": settings.window_hours,
              "floor": settings.floor, "undated_weight": settings.undated_weight,
              "time_weighting": settings.time_weighting, "rewriter": settings.rewriter,
              "deadline_s": settings.deadline_s}
    if backend == "openai":
        config["model"] = settings.model
    return config
