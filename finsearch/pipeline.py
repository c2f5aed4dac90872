"""The one entry point: `run(question, …)` → a stream of events, ending in RunFinished.

    check the question → analyse (entities, time, intents) → plan → PlanReady
    → execute the graph (NodeStarted / NodeRewritten / NodeFinished / NodeFailed / NodeAdded)
    (with a model, PlanReady carries the rules' draft, which runs at once, and NodeAdded each node
    the model's streamed plan adds to it; in the sequential schedule PlanDrafted shows the draft
    while the model plans, and PlanReady carries the model's plan)
    → ChartsReady → AnswerStarted → AnswerDelta* → RunFinished(result)
    (with a model, the answer begins once the searches its lead reads have ended, `answer.early`:
    ChartsReady, AnswerStarted and AnswerDeltas then come between the node events of searches
    still running, and what those find is said after the text, `answer.late`)

A question asked again while its evidence is still what it was is answered from the answer cache
(`answer_cache`): PlanReady (the kept run's graph) → ChartsReady → AnswerStarted → AnswerDelta →
RunFinished, with no model call.

`ask(...)` is the blocking form: run the generator and keep the result. An unusable
question raises InputError before any event; every other failure is recorded on the
node or in the result's notes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator
from datetime import datetime

from .answer.charts import chart_specs
from .answer.early import EarlyAnswer
from .answer.generator import Answer, AnswerWriter
from .answer.late import extend, late_evidence
from .answer_cache import keep, recall
from .context import RunContext
from .errors import LLMError, ModelBudgetSpent
from .events import AnswerDelta, AnswerStarted, ChartsReady, Event, PlanDrafted, PlanReady, RunFinished
from .graph import NodeStatus, SearchGraph
from .model.budget import spent_note
from .model.language_model import LanguageModel
from .model.llm import LLMClient
from .model.usage import ModelUsage
from .phrases import Language
from .plan.analysis import Analysis, provisional_note
from .plan.interpretation import Corrections, Interpretation
from .plan.planner import make_plan
from .plan.rules import heuristic_plan
from .plan.streamed import first_plan
from .result import RunConfig, RunResult, RunStats, new_id
from .run.executor import Executor
from .run.rewriter import report_days
from .settings import Settings, from_env
from .sources.hub import DataHub

log = logging.getLogger(__name__)

JUDGE_MIN_S = 5.0
# The model's first tokens within the time the answer is due (`Settings.answer_due_s`): its plan, a
# guess at improving a draft that is already running, may keep the answer waiting for half of it;
# its answer must begin before the due time, less what the rules need to write theirs. A model that
# has begun writing is bounded by the deadline, its token cap and its judgement instead.
PLAN_SHARE = 0.5
RULES_ANSWER_S = 2.0
ANSWER_BEGINS_MIN_S = 3.0         # the least it is given to begin, when slow sources took the time


def run(question: str, *, now: datetime | None = None, settings: Settings | None = None,
        prior: Analysis | None = None, cancel: threading.Event | None = None,
        hub: DataHub | None = None, corrections: Corrections | None = None) -> Iterator[Event]:
    """The run's events; `corrections` (tickers, a period) change how the question is read
    before it is planned."""
    ctx = RunContext.open(question, settings=settings or from_env(), now=now, prior=prior,
                          cancel=cancel, hub=hub, corrections=corrections)
    try:
        yield from _execute(ctx)
    finally:
        ctx.close()


def _execute(ctx: RunContext) -> Iterator[Event]:
    interpretation = Interpretation.of(ctx.analysis, ctx.now, ctx.corrections)
    recalled = recall(ctx)
    if recalled is not None:
        yield from _given_again(ctx, recalled, interpretation)
        return
    streaming = None
    draft = heuristic_plan(ctx.analysis, ctx.now)
    streams = ctx.settings.schedule == "graph"
    if ctx.live_model is not None and not streams:      # drawn while the model writes the whole plan
        yield PlanDrafted(ctx.clock(), SearchGraph.build(ctx.analysis.question, ctx.analysis.time_context,
                                                         [n.copy() for n in draft]), interpretation)
    # On the graph schedule the draft runs at once and the model's plan streams into it.
    outcome, streaming = first_plan(ctx.analysis, ctx.now, ctx.live_model, draft, streams,
                                    begin_within=_until_due(ctx) * PLAN_SHARE)
    # A streamed plan is one call, which its thread counts only once it ends: read here, the count raced it.
    plan_calls = ctx.usage.calls if streaming is None else 1
    graph = outcome.graph
    yield PlanReady(ctx.clock(), graph.copy(), outcome.planner, outcome.notes, interpretation,
                    model_plans=streaming is not None)

    # A model's answer begins as soon as the evidence its lead reads is in (the rest extends it).
    early = EarlyAnswer(ctx, lambda snapshot: _writer(ctx, snapshot), streaming) \
        if streams and ctx.live_model is not None else None
    executor = Executor(ctx, graph, streaming, watch=early.consider if early is not None else None)
    yield from executor.run()
    if streaming is not None:
        outcome = streaming.outcome(outcome)

    charts = chart_specs(graph)
    if early is not None and early.started:
        yield from executor.drain(early.written.is_set)
        if early.error is not None:
            raise early.error
        if charts != early.charts:
            yield ChartsReady(ctx.clock(), tuple(charts))
        piece, answer = extend(early.writer.answer, late_evidence(graph, early.writer.given, early.given_nodes),
                               ctx.analysis, graph)
        if piece:
            yield AnswerDelta(ctx.clock(), piece)
    else:
        if charts:
            yield ChartsReady(ctx.clock(), tuple(charts))
        writer = _writer(ctx, graph)
        yield AnswerStarted(ctx.clock())
        for piece, restart in writer.stream():
            yield AnswerDelta(ctx.clock(), piece, restart)
        answer = writer.answer

    notes = (*ctx.hub.notices(), *_analysis_notes(ctx, graph), *outcome.notes, *executor.notes, *answer.notes,
             *_model_notes(ctx.model, ctx.analysis.language))
    judgement, usage = None, ctx.usage
    if ctx.settings.judge and not ctx.cancel.is_set():
        judgement, judged = _judge(ctx, graph, answer)
        usage = usage.plus(judged)
    result = RunResult(
        run_id=new_id(), analysis=ctx.analysis, now=ctx.now, config=RunConfig.describe(ctx.settings, ctx.backend),
        graph=graph, answer=answer, charts=charts, stats=_stats(ctx, graph, answer, plan_calls),
        planner=outcome.planner, notes=notes, sample=ctx.hub.sample, cancelled=ctx.cancel.is_set(),
        judgement=judgement, corrections=ctx.corrections, usage=usage)
    yield RunFinished(ctx.clock(), result)
    try:                        # kept once the reader has it; a cache never fails a run
        keep(ctx, result)
    except Exception:
        log.warning("could not keep the answer for a repeated question", exc_info=True)


def _given_again(ctx: RunContext, result: RunResult, interpretation: Interpretation) -> Iterator[Event]:
    """A kept answer's events: its graph, charts and text at once."""
    yield PlanReady(ctx.clock(), result.graph.copy(), result.planner, (), interpretation)
    if result.charts:
        yield ChartsReady(ctx.clock(), tuple(result.charts))
    yield AnswerStarted(ctx.clock())
    yield AnswerDelta(ctx.clock(), result.answer.markdown)
    yield RunFinished(ctx.clock(), result)


def _writer(ctx: RunContext, graph: SearchGraph) -> AnswerWriter:
    """The run's answer writer over `graph`, its model given until the answer is due to begin."""
    return AnswerWriter(ctx.analysis, graph, ctx.now, ctx.live_model, sample=ctx.hub.sample,
                        coverage=ctx.hub.coverage,
                        begin_within=max(ANSWER_BEGINS_MIN_S, _until_due(ctx) - RULES_ANSWER_S))


def _until_due(ctx: RunContext) -> float:
    """Seconds left until the answer is due (never past the deadline)."""
    return max(0.0, min(ctx.settings.answer_due_s, ctx.settings.deadline_s) - ctx.clock() / 1000)


def _stats(ctx: RunContext, graph: SearchGraph, answer: Answer, plan_calls: int) -> RunStats:
    rewrite_chain = graph.longest_chain(lambda node: node.llm_calls)[0] if len(graph) else 0
    usage, sources = ctx.usage, ctx.hub.stats
    return RunStats(
        llm_calls=usage.calls,
        llm_round_trips_critical_path=int(plan_calls + rewrite_chain + (answer.writer == "llm")),
        prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens,
        source_calls=sources.calls, cache_hits=sources.cache_hits, upstream_calls=sources.upstream_calls,
        bytes=sources.bytes, nodes_failed=sum(1 for n in graph if n.status is not NodeStatus.DONE),
        wall_ms=round(ctx.clock()), pack_reads=sources.pack_reads)


def _analysis_notes(ctx: RunContext, graph: SearchGraph) -> tuple[str, ...]:
    """The analysis's notes, less the guess of a "since earnings" window the run's earnings calendar dated."""
    analysis, tc = ctx.analysis, ctx.analysis.time_context
    if tc.anchor != "earnings" or tc.forward or not report_days(list(graph), ctx.now.date()):
        return analysis.notes
    guessed = provisional_note(tc, analysis.language)
    return tuple(note for note in analysis.notes if note != guessed)


def _model_notes(model: LanguageModel | None, language: Language) -> tuple[str, ...]:
    """One sentence when the model stopped being used part-way, so the reader knows
    which parts the rules wrote (a spent budget: which, and when it resets)."""
    if model is None or model.failure is None:
        return ()
    if isinstance(model.failure, ModelBudgetSpent):
        return (spent_note(model.failure, language),)
    return (f"After the model failed ({model.failure}), the rest of this run used the rule-based "
            "planner, rewriter and writer without calling it again.",)


def _judge(ctx: RunContext, graph: SearchGraph, answer: Answer) -> tuple[dict, ModelUsage]:
    """The optional LLM judge, on its own client (its calls are not the run's stats), within
    what is left of the question's budget; its verdict and its usage (the answer's cost includes it)."""
    from .answer.judge import judge

    failed_model: LLMError | None = ctx.model.failure if ctx.model else None
    if ctx.backend != "openai":
        return {"error": "the judge needs a model: set OPENAI_API_KEY or OPENAI_BASE_URL"}, ModelUsage()
    if failed_model is not None:
        return {"error": f"skipped: the model failed earlier in this run ({failed_model})"}, ModelUsage()
    if ctx.deadline.remaining() < JUDGE_MIN_S:
        return {"error": f"skipped: less than {JUDGE_MIN_S:g} s of this question's "
                         f"{ctx.deadline.seconds:g} s budget was left"}, ModelUsage()
    settings = ctx.settings
    with LLMClient(settings.replace(model=settings.judge_model or settings.model), ctx.deadline) as client:
        verdict = judge(ctx.analysis.question, answer, graph, client)
        verdict["calls"] = client.usage.calls
        verdict["model"] = client.model
    return verdict, client.usage


def finished(events: Iterable[Event]) -> RunResult | None:
    """Run an event stream to its end and keep the result (None if it never finished)."""
    result = None
    for event in events:
        if isinstance(event, RunFinished):
            result = event.result
    return result


def ask(question: str, **kwargs) -> RunResult:
    """Run to the end and return the result."""
    return finished(run(question, **kwargs))


def plan_only(question: str, *, now: datetime | None = None, settings: Settings | None = None,
              prior: Analysis | None = None, corrections: Corrections | None = None) -> RunResult:
    """Analyse and plan without fetching any data (`python -m finsearch plan`)."""
    ctx = RunContext.open(question, settings=settings or from_env(), now=now, prior=prior, fetch=False,
                          corrections=corrections)
    try:
        outcome = make_plan(ctx.analysis, ctx.now, ctx.model)
    finally:
        ctx.close()
    return RunResult(run_id=new_id(), analysis=ctx.analysis, now=ctx.now,
                     config=RunConfig.describe(ctx.settings, ctx.backend), graph=outcome.graph, answer=None,
                     charts=[], stats=None, planner=outcome.planner, notes=ctx.analysis.notes + outcome.notes,
                     corrections=ctx.corrections, usage=ctx.usage)
