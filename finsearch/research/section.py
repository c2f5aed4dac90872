"""One section's research: its key questions → a search graph → evidence, then a look at
what is missing, at most two rounds of supplementary searches, and the section's text.

Runs on a worker thread of the report; it reuses the single-question engine as it is:
`analyse` (the report's question as the prior turn, so "its P/E" keeps the company),
`first_plan` (the rules' draft running at once, the model's plan streamed into it),
`Executor` (with the time weighting) and `AnswerWriter` (its evidence selection, its
rule-based or model-written text and its citations, numbered per section here and
renumbered once for the whole report later).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..answer.generator import Answer, AnswerWriter
from ..context import RunContext
from ..errors import PlanError
from ..events import AnswerDelta, Event
from ..evidence import Evidence
from ..graph import NodeStatus, SearchGraph, SearchNode
from ..plan.analysis import Analysis, analyse
from ..plan.rules import heuristic_plan
from ..plan.streamed import StreamedPlan, first_plan
from ..run.executor import Executor
from .budget import SUPPLEMENT_ROUNDS, SUPPLEMENTS_PER_ROUND
from .outline import Section

# A gap in these sources is looked for in the news first, then on the web.
_NEWS_FIRST = frozenset({"financials", "earnings", "analyst", "profile", "holders", "dividends", "quote",
                         "price_history"})


@dataclasses.dataclass(frozen=True)
class Supplement:
    round: int                     # 1 or 2
    for_node: str                  # the planned node whose gap it looks into
    node: str                      # the supplementary node's id in the section's graph
    source: str
    query: str
    found: bool


@dataclasses.dataclass
class SectionResult:
    index: int
    section: Section
    analysis: Analysis
    graph: SearchGraph
    answer: Answer | None = None
    given: tuple[Evidence, ...] = ()     # what the writer was given (the tables read it too)
    planner: str = "heuristic"
    supplements: list[Supplement] = dataclasses.field(default_factory=list)
    missing: list[str] = dataclasses.field(default_factory=list)   # sub-queries still without evidence
    started_ms: float = 0.0
    finished_ms: float = 0.0
    notes: list[str] = dataclasses.field(default_factory=list)


def section_question(section: Section) -> str:
    return " ".join(section.key_questions)


def research(ctx: RunContext, index: int, section: Section, post: Callable[[Event], None]) -> SectionResult:
    """Run one section to its written text; `post` receives every executor event, then the
    writer's text as AnswerDelta events."""
    started = ctx.clock()
    analysis = analyse(section_question(section), ctx.now, prior=ctx.analysis)
    own = dataclasses.replace(ctx, analysis=analysis)
    # As for a question: the rules' draft runs at once, the model's plan streaming into it.
    outcome, streaming = first_plan(analysis, ctx.now, ctx.live_model, heuristic_plan(analysis, ctx.now),
                                    ctx.settings.schedule == "graph")
    graph = outcome.graph
    result = SectionResult(index, section, analysis, graph, started_ms=started)
    _execute(own, graph, post, result, streaming)
    outcome = streaming.outcome(outcome) if streaming is not None else outcome
    result.planner = outcome.planner
    result.notes[:0] = outcome.notes
    for round_no in range(1, SUPPLEMENT_ROUNDS + 1):
        if ctx.cancel.is_set() or not _supplement(own, result, round_no, post):
            break
    result.missing = [n.sub_query for n in _gaps(result) if not _covered(result, n.id)]
    writer = AnswerWriter(analysis, graph, ctx.now, ctx.live_model, sample=ctx.hub.sample,
                          coverage=ctx.hub.coverage, call="section")
    # The model's text streams as it is written (one call per section, all sections at once).
    for text, restart in writer.stream():
        if text or restart:
            post(AnswerDelta(ctx.clock(), text, restart))
    result.answer, result.given = writer.answer, tuple(writer.given)
    result.finished_ms = ctx.clock()
    return result


def _execute(ctx: RunContext, graph: SearchGraph, post: Callable[[Event], None], result: SectionResult,
             plan: StreamedPlan | None = None) -> None:
    executor = Executor(ctx, graph, plan)
    for event in executor.run():
        post(event)
    result.notes.extend(executor.notes)


def _gaps(result: SectionResult) -> list[SearchNode]:
    """Planned searches that found nothing (skipped ones follow a parent that found nothing)."""
    supplementary = {s.node for s in result.supplements}
    return [n for n in result.graph if n.status is NodeStatus.FAILED and n.id not in supplementary]


def _covered(result: SectionResult, node_id: str) -> bool:
    return any(s.for_node == node_id and s.found for s in result.supplements)


def _supplement(ctx: RunContext, result: SectionResult, round_no: int, post: Callable[[Event], None]) -> bool:
    """One round: up to two searches for the gaps no earlier round covered; False when
    there was nothing left to look for."""
    tried = {(s.for_node, s.source) for s in result.supplements}
    wanted: list[tuple[SearchNode, SearchNode]] = []
    for gap in _gaps(result):
        if _covered(result, gap.id):
            continue
        extra = _search_for(gap, tried)
        if extra is not None:
            wanted.append((gap, extra))
        if len(wanted) == SUPPLEMENTS_PER_ROUND:
            break
    if not wanted:
        return False
    graph = result.graph
    batch: list[SearchNode] = []
    first = int(graph.next_id()[1:])
    for i, (_, extra) in enumerate(wanted):
        extra.id = f"n{first + i}"
        batch.append(extra)
    try:
        sub = SearchGraph.build(graph.question, graph.time_context, batch)
    except PlanError:
        return False
    # Supplementary searches stand alone: nothing to rewrite from, and no follow-ups of their own
    # (their ids would not be the section graph's).
    alone = dataclasses.replace(ctx, settings=ctx.settings.replace(rewriter=False))
    _execute(alone, sub, post, result)
    for (gap, _), node in zip(wanted, sub, strict=True):
        graph.apply(node)
        result.supplements.append(Supplement(round_no, gap.id, node.id, node.source,
                                             str(node.args.get("query") or node.sub_query),
                                             node.status is NodeStatus.DONE))
    return True


def _search_for(gap: SearchNode, tried: set[tuple[str, str]]) -> SearchNode | None:
    """The next search to try for a gap: the news, then the web, on the gap's sub-query."""
    order = ("news", "web_search") if gap.source in _NEWS_FIRST else ("web_search",)
    for source in order:
        if (gap.id, source) in tried or source == gap.source:
            continue
        args: dict = {"query": gap.sub_query[:200]}
        if isinstance(gap.args.get("ticker"), str):
            args["ticker"] = gap.args["ticker"]
        return SearchNode(id="", sub_query=gap.sub_query, source=source, args=args,
                          time_context=gap.time_context)
    return None
