"""The model's plan streamed into a run that has already started on the rules' draft.

Evidence never waits on the model: the rules' draft plan is the run's graph from the first
millisecond and its searches start at once (PlanReady carries it). The model's plan is asked
for with stream=True, in the compact format (`compact`: one node a line); a reader thread scans
the reply as it comes (`NodeScanner`) and posts each node the moment its line's newline arrives
(or, from a model that writes JSON anyway, its object's closing brace), its shape checked
(`node_from_json`), into the executor's inbox. On the coordinating thread each node is merged into the running graph
(`StreamedPlan.admit`):

- a node that does the same search as a draft node (same source, same ticker or query) is that
  node: it keeps its results (or its place in the run) and nothing is redrawn; so is a node
  that makes exactly the call of one already in the graph (a model writing a node twice);
- a new node joins the graph as NodeAdded (`added_by == "model"`), checked against the catalogue
  and the nodes so far (a dependency is on an earlier node, so the graph stays a DAG), and starts
  at once; its dependencies on the model's ids point at the draft's twins;
- the draft's searches the model's plan left out are kept as context (they ran already, or were
  running), unless they are about an instrument the model's plan does not search: the rules
  misread the question and the model read it right, so those are dropped (`left_out`; the
  executor marks them skipped, their results unused). The result's notes say which.

The stream is judged as it arrives (`ReplyWatch`): after any reasoning block a plan must begin
(a node line, or JSON) within about sixty tokens, and it must not lose the thread (template markup, our prompt
written back, a loop); it may write at most `plan_token_cap` tokens
(scaled to the draft: a three-node plan needs about 120-300). A reply that is clearly not a plan
is abandoned at once and not asked for again: the draft is already running. So is one that has not
begun within `begin_within` (a question gives its plan half the time until its answer is due,
`Settings.answer_due_s`: a small model on a busy machine may read the prompt for longer than the
whole answer should take). That failure is the plan's only; the model is still asked to write the
answer (only hangs and server errors stop a run from calling it, `model.llm`).
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
from datetime import datetime

from ..errors import LLMError, PlanError, Stopped
from ..graph import MAX_NODES, ROOT, Author, SearchGraph, SearchNode, validate_nodes
from ..model.language_model import LanguageModel
from ..model.reply_check import JSON_OPENS_WITHIN, ReplyWatch
from ..source_args import canonical_args, primary_key
from .analysis import Analysis
from .node_scanner import NodeScanner, ScannedNode
from .planner import (
    PlanOutcome,
    make_plan,
    node_from_json,
    plan_from_reply,
    plan_messages,
    plan_token_cap,
    reread_notes,
)
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


PROMPTS = ("plan_system", "plan_user")    # what a reply must not write back (`ReplyWatch`)


class StreamedPlan:
    """One run's streamed plan: the reader thread and, on the coordinating thread, how it merged."""

    def __init__(self, analysis: Analysis, now: datetime, llm: LanguageModel, inbox: queue.Queue,
                 draft: list[SearchNode] | None = None, begin_within: float | None = None):
        self.analysis, self.now, self.llm = analysis, now, llm
        self.begin_within = begin_within  # seconds the model may read its prompt before it must begin
        self.inbox = inbox
        self.draft = draft if draft is not None else heuristic_plan(analysis, now)
        self.messages = plan_messages(analysis, now, [n.copy() for n in self.draft])
        self.open = True                  # until PlanEnded has been applied
        self.notes: list[str] = []
        self._ids: dict[str, str] = {}    # the model's node id → the graph's
        self.taken: set[str] = set()      # draft nodes the model's plan also wrote
        self.added = 0                    # nodes the model's plan added
        self.left_out: tuple[str, ...] = ()   # once ended: nodes whose results the run drops
        self._draft_ids = {n.id for n in self.draft}

    @property
    def planner(self) -> Author:
        """Who planned the run: the model when its plan kept or added a search, else the rules."""
        return "llm" if self.taken or self.added else "heuristic"

    def outcome(self, first: PlanOutcome) -> PlanOutcome:
        """The run's plan once the stream has ended: `first` (the draft's), with who planned it
        and what the stream noted."""
        return dataclasses.replace(first, planner=self.planner, notes=(*first.notes, *self.notes))

    def start(self) -> StreamedPlan:
        threading.Thread(target=self._read, name="finsearch-plan-stream", daemon=True).start()
        return self

    # -- the reader thread ------------------------------------------------------------------

    def _read(self) -> None:
        scanner, index, watch = NodeScanner(), 0, ReplyWatch(PROMPTS)
        stream = self.llm.stream(self.messages, call="plan", max_tokens=plan_token_cap(self.draft),
                                 begin_within=self.begin_within)
        try:
            for piece in stream:
                for scanned in scanner.feed(piece):
                    self.inbox.put(self._planned(scanned, index))
                    index += 1
                if len(scanner.visible) < len(watch.text):      # a lone </think>: all before it was reasoning
                    watch = ReplyWatch(PROMPTS)
                watch.feed(scanner.visible[len(watch.text):])
                if not scanner.begun and len(scanner.visible) > JSON_OPENS_WITHIN:
                    raise LLMError(f"its reply was not a plan: it wrote {len(scanner.visible)} characters "
                                   "of something else first")
            watch.finish()
            for scanned in scanner.finish():
                self.inbox.put(self._planned(scanned, index))
                index += 1
            self.inbox.put(PlanEnded(scanner.visible))
        except LLMError as exc:
            self.inbox.put(PlanEnded(scanner.visible, exc))
        except Exception as exc:  # a bug here must end the plan, not hang the run
            log.exception("reading the streamed plan failed")
            self.inbox.put(PlanEnded(scanner.visible, LLMError(f"reading its plan failed ({type(exc).__name__})")))
        finally:
            stream.close()                # abandoning the reply closes its connection

    def _planned(self, scanned: ScannedNode, index: int) -> PlannedNode:
        if scanned.item is None:
            return PlannedNode(None, f"node {index + 1}: {scanned.problem}")
        try:
            return PlannedNode(node_from_json(scanned.item, index, self.analysis, self.draft))
        except PlanError as exc:
            return PlannedNode(None, "; ".join(exc.problems))

    # -- the coordinating thread ------------------------------------------------------------

    def apply(self, message, graph: SearchGraph) -> SearchNode | None:
        """Apply a plan message to `graph`; the node added, if one was (a twin of a draft node
        adds none)."""
        if isinstance(message, PlanEnded):
            self._end(message, graph)
            return None
        node = self.admit(message, graph)
        if node is not None:
            graph.apply(node)
        return node

    def admit(self, message: PlannedNode, graph: SearchGraph) -> SearchNode | None:
        """The node as it joins `graph`, or None: when it is a draft node's twin (then that node
        stands for it), or when it cannot join (then a note)."""
        node = message.node
        problem = message.problem
        if node is not None and problem is None:
            problem = self._order_problem(node)
            twin = self._twin(node, graph) if problem is None else None
            if twin is not None:
                self._ids[node.id] = twin.id
                self.taken.add(twin.id)
                return None
            same = self._same_search(node, graph) if problem is None else None
            if same is not None:           # written twice (small models loop on a node): one search
                self._ids[node.id] = same.id
                return None
            if problem is None:
                problem = self._problem(node, graph)
        if problem is not None:
            self.notes.append(f"A node of the model's plan was left out ({problem}).")
            return None
        own = node.id if node.id not in graph.nodes else graph.next_id()
        self._ids[node.id] = own
        self.added += 1
        return dataclasses.replace(node, id=own, depends_on=tuple(self._ids[d] for d in node.depends_on),
                                   added_by="model")

    def _twin(self, node: SearchNode, graph: SearchGraph) -> SearchNode | None:
        """The draft's node doing the same search: same source, same ticker (or query)."""
        key = primary_key(node.args)
        return next((d for d in graph if d.id in self._draft_ids and d.id not in self.taken
                     and d.source == node.source and primary_key(d.args) == key), None)

    def _same_search(self, node: SearchNode, graph: SearchGraph) -> SearchNode | None:
        """A node already in the graph that makes exactly this call (after what it derives)."""
        call = (node.source, canonical_args(node.args))
        return next((n for n in graph if (n.source, canonical_args(n.args)) == call), None)

    def _order_problem(self, node: SearchNode) -> str | None:
        if node.id in self._ids or node.id == ROOT:
            return f"{node.id}: a node id used twice"
        later = [d for d in node.depends_on if d not in self._ids]
        if later:
            return f"{node.id}: depends on {', '.join(later)}, not a node written before it"
        return None

    def _problem(self, node: SearchNode, graph: SearchGraph) -> str | None:
        if self.added >= MAX_NODES:
            return f"{node.id}: more than {MAX_NODES} nodes"
        candidate = dataclasses.replace(node, id="n-candidate",
                                        depends_on=tuple(self._ids[d] for d in node.depends_on))
        problems = validate_nodes([*graph, candidate], len(graph) + 1)
        return "; ".join(p.replace("n-candidate", node.id) for p in problems) or None

    def _end(self, message: PlanEnded, graph: SearchGraph) -> None:
        self.open = False
        error = message.error
        if isinstance(error, Stopped):
            return
        if self.planner == "heuristic":
            why = str(error) if error is not None else "it had no usable search"
            self.notes.append(f"The model's plan was not used ({why}); the rules' plan ran.")
            return
        if error is not None:
            self.notes.append(f"The model's plan was cut off ({error}); the searches it had written ran.")
        else:
            try:
                plan_from_reply(self.analysis, message.text, self.draft)
            except PlanError as exc:
                self.notes.append(f"The model's plan had problems ({'; '.join(exc.problems[:3])}); "
                                  "ran the searches that were valid.")
        self.left_out = self._about_others(graph)
        dropped = [d for d in graph if d.id in self.left_out]
        if dropped:
            others = sorted({d.args["ticker"] for d in dropped if d.args.get("ticker")})
            self.notes.append(f"{len(dropped)} of the rules' searches were dropped: they were about "
                              f"{', '.join(others)}, which the model's plan does not search.")
        kept = [d for d in graph if d.id in self._draft_ids and d.id not in self.taken and d.id not in self.left_out]
        if kept:
            self.notes.append(f"{len(kept)} of the rules' searches the model's plan left out "
                              f"({', '.join(sorted({d.source for d in kept}))}) were kept as context.")
        self.notes.extend(reread_notes(self.analysis, graph))

    def _about_others(self, graph: SearchGraph) -> tuple[str, ...]:
        """The rules' searches (the draft's, and the follow-ups the rewriter added to them) that
        are about an instrument the model's plan does not search (the rules misread the question,
        and the model read it right), and what hangs below only them; none when the model's plan
        names no instrument. The rest are kept as context: the same instruments, another angle."""
        ours = {n.id for n in graph if n.id in self.taken or n.added_by == "model"}
        subjects = {str(n.args["ticker"]).upper() for n in graph if n.id in ours and n.args.get("ticker")}
        if not subjects:
            return ()
        out: list[str] = []
        for node in graph.topological():
            if node.id in ours:
                continue
            ticker = str(node.args.get("ticker") or "").upper()
            parents = graph.parents(node.id)
            if (ticker and ticker not in subjects) or (parents and all(p.id in out for p in parents)):
                out.append(node.id)
        return tuple(out)


def first_plan(analysis: Analysis, now: datetime, llm: LanguageModel | None, draft: list[SearchNode],
               stream: bool, begin_within: float | None = None) -> tuple[PlanOutcome, StreamedPlan | None]:
    """The plan a run starts with. With a model and `stream` (the graph schedule): the rules'
    `draft`, to run at once, and the model's plan that streams into it, given up when it has not
    begun within `begin_within` seconds; otherwise the whole plan before anything runs
    (`make_plan`, the paper's sequential way, or the rules alone)."""
    if llm is None or not stream:
        return make_plan(analysis, now, llm, draft=draft), None
    plan = StreamedPlan(analysis, now, llm, queue.Queue(), draft, begin_within).start()
    return PlanOutcome(SearchGraph.build(analysis.question, analysis.time_context, draft), "heuristic"), plan
