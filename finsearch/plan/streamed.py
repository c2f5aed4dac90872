"""The plan streamed into the executor (the LLMCompiler idea, arXiv 2312.04511).

The model's plan is requested with stream=True. A reader thread scans the reply as it
comes (`NodeScanner`) and posts each node object the moment it closes, its shape checked
(`node_from_json`), into the executor's inbox. The executor's coordinating thread admits it
(`StreamedPlan.admit`: checked against the catalogue and the nodes so far, so every
dependency is on an earlier node and the graph stays a DAG) and dispatches it at once. A node
that fails is dropped and noted; the rest run. When the reply ends, the whole plan is checked
as a whole plan would be, and what was wrong is noted.

The run waits only for the first node: it is shown as PlanReady, later ones as NodeAdded
(`added_by == "plan"`). A plan with no usable node falls back as a whole plan does: one repair
call, then the rule-based plan.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
from datetime import datetime

from ..catalogue import canonical_args
from ..errors import LLMError, PlanError, Stopped
from ..graph import MAX_NODES, ROOT, SearchGraph, SearchNode, validate_nodes
from ..model.language_model import LanguageModel
from .analysis import Analysis
from .node_scanner import NodeScanner, ScannedNode
from .planner import PlanOutcome, Prefetch, node_from_json, plan_from_json, plan_messages, repair_plan, reread_notes
from .rules import heuristic_plan

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class PlannedNode:
    """A node object the model finished writing: its node, or why it could not be read."""
    node: SearchNode | None
    problem: str | None = None


@dataclasses.dataclass(frozen=True)
class PlanEnded:
    text: str                          # the whole reply, reasoning removed
    error: LLMError | None = None      # why the stream ended early, when it did


class StreamedPlan:
    """One run's streamed plan: the reader thread and, on the coordinating thread, what was admitted."""

    def __init__(self, analysis: Analysis, now: datetime, llm: LanguageModel, inbox: queue.Queue,
                 draft: list[SearchNode] | None = None):
        self.analysis, self.now, self.llm = analysis, now, llm
        self.inbox = inbox
        self.draft = draft if draft is not None else heuristic_plan(analysis, now)
        self.messages = plan_messages(analysis, now, [n.copy() for n in self.draft])
        self.open = True                  # until PlanEnded has been applied
        self.notes: list[str] = []
        self._ids: dict[str, str] = {}    # the model's node id → the graph's (a follow-up may hold it)
        self._ended: PlanEnded | None = None

    def start(self) -> StreamedPlan:
        threading.Thread(target=self._read, name="finsearch-plan-stream", daemon=True).start()
        return self

    # -- the reader thread ------------------------------------------------------------------

    def _read(self) -> None:
        scanner, index = NodeScanner(), 0
        try:
            for piece in self.llm.stream(self.messages, call="plan", max_tokens=1200):
                for scanned in scanner.feed(piece):
                    self.inbox.put(self._planned(scanned, index))
                    index += 1
            for scanned in scanner.finish():
                self.inbox.put(self._planned(scanned, index))
                index += 1
            self.inbox.put(PlanEnded(scanner.visible))
        except LLMError as exc:
            self.inbox.put(PlanEnded(scanner.visible, exc))
        except Exception as exc:  # a bug here must end the plan, not hang the run
            log.exception("reading the streamed plan failed")
            self.inbox.put(PlanEnded(scanner.visible, LLMError(f"reading its plan failed ({type(exc).__name__})")))

    def _planned(self, scanned: ScannedNode, index: int) -> PlannedNode:
        if scanned.item is None:
            return PlannedNode(None, f"node {index + 1} was not valid JSON")
        try:
            return PlannedNode(node_from_json(scanned.item, index, self.analysis, self.draft))
        except PlanError as exc:
            return PlannedNode(None, "; ".join(exc.problems))

    # -- the coordinating thread ------------------------------------------------------------

    def first_graph(self) -> SearchGraph | None:
        """The graph of the first admitted node(s), waiting until one comes; None when the
        plan ended without a usable node (then `fallback`)."""
        graph = SearchGraph(self.analysis.question, self.analysis.time_context)
        while True:
            message = self.inbox.get()
            self.apply(message, graph)
            if len(graph) or not self.open:
                break
        while len(graph) and self.open:      # whatever else has already been written comes along
            try:
                self.apply(self.inbox.get_nowait(), graph)
            except queue.Empty:
                break
        return graph if len(graph) else None

    def apply(self, message, graph: SearchGraph) -> SearchNode | None:
        """Apply a plan message to `graph`; the node added, if one was."""
        if isinstance(message, PlanEnded):
            self._end(message, graph)
            return None
        node = self.admit(message, graph)
        if node is not None:
            graph.apply(node)
        return node

    def admit(self, message: PlannedNode, graph: SearchGraph) -> SearchNode | None:
        """The node as it joins `graph`, or None (and a note) when it cannot."""
        node = message.node
        problem = message.problem
        if node is not None and problem is None:
            problem = self._problem(node, graph)
        if problem is not None:
            self.notes.append(f"A node of the model's plan was left out ({problem}).")
            return None
        own = node.id if node.id not in graph.nodes else graph.next_id()
        self._ids[node.id] = own
        return dataclasses.replace(node, id=own, depends_on=tuple(self._ids[d] for d in node.depends_on))

    def _problem(self, node: SearchNode, graph: SearchGraph) -> str | None:
        if node.id in self._ids or node.id == ROOT:
            return f"{node.id}: a node id used twice"
        later = [d for d in node.depends_on if d not in self._ids]
        if later:
            return f"{node.id}: depends on {', '.join(later)}, not a node written before it"
        if sum(1 for n in graph if n.added_by == "plan") >= MAX_NODES:
            return f"{node.id}: more than {MAX_NODES} nodes"
        candidate = dataclasses.replace(node, id="n-candidate",
                                        depends_on=tuple(self._ids[d] for d in node.depends_on))
        problems = validate_nodes([*graph, candidate], len(graph) + 1)
        return "; ".join(p.replace("n-candidate", node.id) for p in problems) or None

    def _end(self, message: PlanEnded, graph: SearchGraph) -> None:
        self.open, self._ended = False, message
        if not len(graph):
            return                            # `fallback` decides
        if message.error is not None and not isinstance(message.error, Stopped):
            self.notes.append(f"The model's plan was cut off ({message.error}); ran the {len(graph)} "
                              "searches it had written.")
        elif message.error is None:
            try:
                plan_from_json(self.analysis, message.text, self.draft)
            except PlanError as exc:
                self.notes.append(f"The model's plan had problems ({'; '.join(exc.problems[:3])}); "
                                  "ran the searches that were valid.")
        self.notes.extend(reread_notes(self.analysis, graph))

    def draft_children(self, node: SearchNode) -> list[SearchNode]:
        """The rules' draft nodes that depend on `node` alone (matched by source and arguments)."""
        same = [d.id for d in self.draft if d.source == node.source
                and canonical_args(d.args) == canonical_args(node.args)]
        return [d for d in self.draft if len(d.depends_on) == 1 and d.depends_on[0] in same]

    def fallback(self) -> PlanOutcome:
        """The plan when the stream gave no usable node: one repair call when the model wrote
        something and is still usable, else the rule-based plan (as `make_plan` does)."""
        ended = self._ended or PlanEnded("", LLMError("its plan stream ended"))
        draft = SearchGraph.build(self.analysis.question, self.analysis.time_context, self.draft)
        if isinstance(ended.error, Stopped):
            return PlanOutcome(draft, "heuristic")
        error = ended.error
        if error is None:
            problems = self.notes or ["the plan has no nodes"]
            try:
                graph = repair_plan(self.analysis, self.llm, self.messages, ended.text, problems, self.draft)
                return PlanOutcome(graph, "llm", reread_notes(self.analysis, graph))
            except Stopped:
                return PlanOutcome(draft, "heuristic")
            except LLMError as exc:
                error = exc
        return PlanOutcome(draft, "heuristic", (f"The LLM planner failed ({error}); used the heuristic plan instead.",))


def stream_plan(analysis: Analysis, now: datetime, llm: LanguageModel, inbox: queue.Queue,
                prefetch: Prefetch | None = None,
                draft: list[SearchNode] | None = None) -> tuple[PlanOutcome, StreamedPlan | None]:
    """Start the streamed plan and wait for its first node: the outcome to show as PlanReady,
    and the plan still streaming (None when the outcome is a fallback, already complete)."""
    plan = StreamedPlan(analysis, now, llm, inbox, draft)
    if prefetch is not None:              # as make_plan: the draft's first fetches while the model writes
        prefetch([(n.source, n.args) for n in plan.draft if not n.depends_on])
    plan.start()
    graph = plan.first_graph()
    if graph is None:
        return plan.fallback(), None
    return PlanOutcome(graph, "llm"), plan
