"""The executor: runs a search graph as fast as its dependencies allow.

A node starts the moment its last parent finishes (not level by level), on a bounded
thread pool. Before a node with parents runs, the rewriter refines it from their
results: by templates (a date, a figure or a ticker filled in from a parent's result), with
no model call even when a model is configured; only where no template applies is the model's
rewrite asked for, and waited for. One node failing never stops the others: its dependents run with what exists,
or are skipped when the parent proved there is nothing to find (no data for that
ticker). Each node's fetch has a deadline, passed down to every upstream call made for it:
when it passes, the call stops waiting and gives its upstream slot back (see
sources/upstream/resilience), so a later question never queues behind a node that gave up. A Stop
(the cancel flag) starts nothing new, ends those waits, and keeps what was found.

Workers never touch the graph: they post messages, and the coordinating generator
applies them and yields events carrying copies.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

from ..context import RunContext
from ..deadline import Deadline
from ..errors import FailureKind, NoData, PlanError, SourceError
from ..events import Event, NodeAdded, NodeFailed, NodeFinished, NodeRewritten, NodeStarted
from ..graph import NodeStatus, SearchGraph, SearchNode
from ..plan.streamed import PlanEnded, PlannedNode, StreamedPlan
from . import rewriter
from .weighting import WeightPolicy, weigh

log = logging.getLogger(__name__)

ANSWER_RESERVE_S = 3.0      # kept back from the sources so that the answer can still be written
# The executor gives up on a node this long after the node's own deadline: the source's wait
# ends first and says which upstream did not answer; this is the backstop for code that does not.
BACKSTOP_S = 0.25


@dataclasses.dataclass(frozen=True)
class _Rewritten:
    node_id: str
    rewrite: rewriter.Rewrite
    llm_calls: int


@dataclasses.dataclass(frozen=True)
class _Fetching:
    node_id: str
    limit: Deadline                # the node's: its source calls end by then


@dataclasses.dataclass(frozen=True)
class _Done:
    node_id: str
    result: object = None          # CallResult on success
    error: SourceError | None = None


# Asked whenever the executor is about to wait, with the graph and `post`, through which another
# thread may put events into the run's stream. Returns the searches whose evidence it took (kept).
Watch = Callable[[SearchGraph, Callable[[object], None]], frozenset[str]]


class Executor:
    def __init__(self, ctx: RunContext, graph: SearchGraph, plan: StreamedPlan | None = None,
                 watch: Watch | None = None):
        """`plan`: the model's plan while it is still being written, over the rules' draft that
        `graph` starts as; its new nodes join the graph (NodeAdded) and start as they arrive, in the
        same inbox as the workers' messages (see plan.streamed). `watch`: asked before each wait (an
        answer begun early, `answer.early`, posts its events through `post`)."""
        self.ctx = ctx
        self.graph = graph
        self.plan = plan
        self.hub = ctx.hub
        self.settings = ctx.settings
        self.deadline = ctx.deadline
        self.cancel = ctx.cancel
        self.policy = WeightPolicy.of(ctx.settings)
        self.elapsed_ms = ctx.clock
        self.notes: list[str] = []
        self._inbox: queue.Queue = plan.inbox if plan is not None else queue.Queue()
        self._no_data: set[str] = set()          # nodes whose source had no data at all
        self._deadlines: dict[str, tuple[float, float]] = {}    # node → (gives up at, after seconds)
        self.watch = watch
        self._kept: frozenset[str] = frozenset()     # searches an answer already being written was given

    # -- the coordinating loop -------------------------------------------------------------

    def run(self) -> Iterator[Event]:
        pool = ThreadPoolExecutor(max_workers=self.settings.max_workers, thread_name_prefix="finsearch-node")
        try:
            yield from self._loop(pool)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def _loop(self, pool: ThreadPoolExecutor) -> Iterator[Event]:
        running: set[str] = set()
        while True:
            if self.cancel.is_set():
                yield from self._stop_all(running, "stopped by the user", FailureKind.STOPPED)
                return
            if self.deadline.remaining(ANSWER_RESERVE_S) <= 0:
                yield from self._stop_all(running, f"ran out of time (this question's budget is "
                                                   f"{self.deadline.seconds:g} s)", FailureKind.OUT_OF_TIME)
                self.notes.append(f"Some searches were cut short to answer within {self.deadline.seconds:g} s.")
                return
            for node in self._ready():
                if self.sequential and running:
                    break                     # the paper's way: one node at a time
                skip = self._skip_reason(node)
                if skip:
                    yield from self._finish(node, NodeStatus.SKIPPED, error=skip[0], failure=skip[1])
                    continue
                node.status = NodeStatus.RUNNING
                node.started_ms = self.elapsed_ms()
                running.add(node.id)
                pool.submit(self._work, node.copy(), self._context(node))
                yield NodeStarted(node.started_ms, node.copy())
            if not running:
                if not all(n.status.finished for n in self.graph):
                    continue                  # skips made more nodes ready
                if self.plan is None or not self.plan.open:
                    return
                # (else wait for the model to write more of its plan)
            if self.watch is not None:
                self._kept |= self.watch(self.graph, self.post)
            try:
                message = self._inbox.get(timeout=self._wait_s())
            except queue.Empty:
                yield from self._expire(running)
                continue
            yield from self._apply(message, running)

    def post(self, message: Event | None) -> None:
        """An event from another thread, passed on in order with the executor's own (None: a wake-up)."""
        self._inbox.put(message)

    def drain(self, ended: Callable[[], bool]) -> Iterator[Event]:
        """Once the searches have ended: the events still being posted, until `ended()` (the poster's
        last word is in) and none are left."""
        while True:
            try:
                message = self._inbox.get(timeout=0.1)
            except queue.Empty:
                message = None
            if isinstance(message, Event):
                yield dataclasses.replace(message, at_ms=self.elapsed_ms())
            elif message is None and ended() and self._inbox.empty():
                return

    @property
    def sequential(self) -> bool:
        return self.settings.schedule == "sequential"

    def _context(self, node: SearchNode) -> list[SearchNode]:
        """What the rewriter sees before `node` runs: its parents; in the sequential
        schedule, every node finished so far (a rewrite before each node, as in the paper)."""
        if self.sequential:
            return [n.copy() for n in self.graph if n.status is NodeStatus.DONE]
        return [p.copy() for p in self.graph.parents(node.id)]

    def _ready(self) -> list[SearchNode]:
        return [n for n in self.graph if n.status is NodeStatus.PENDING
                and all(p.status.finished for p in self.graph.parents(n.id))]

    def _skip_reason(self, node: SearchNode) -> tuple[str, FailureKind] | None:
        parents = self.graph.parents(node.id)
        ticker = node.args.get("ticker")
        for parent in parents:
            # No report date leaves a "since earnings" node its guessed window, not nothing to find.
            if parent.id in self._no_data and ticker and parent.args.get("ticker") == ticker \
                    and not rewriter.dates_window(parent, node):
                # The parent's kind: "unknown symbol" for the parent is unknown for the child too.
                return f"skipped: {parent.id} found no data for {ticker}", parent.failure or FailureKind.NO_DATA
        if parents and all(p.status is NodeStatus.SKIPPED for p in parents):
            return f"skipped: {', '.join(p.id for p in parents)} did not run", FailureKind.SKIPPED
        return None

    def _wait_s(self) -> float:
        if not self._deadlines:
            return 0.1                        # wake up now and then to notice a Stop or the deadline
        nearest = min(at for at, _ in self._deadlines.values()) - time.monotonic()
        return max(0.0, min(0.1, nearest))

    def _apply(self, message, running: set[str]) -> Iterator[Event]:
        if message is None:
            return                            # a wake-up
        if isinstance(message, Event):        # posted (`post`): stamped as it joins the stream, so times only rise
            yield dataclasses.replace(message, at_ms=self.elapsed_ms())
            return
        if isinstance(message, (PlannedNode, PlanEnded)):
            added = self.plan.apply(message, self.graph)
            if added is not None:
                yield NodeAdded(self.elapsed_ms(), added.copy())
            # An answer already written from a search keeps it: its citations point at its evidence.
            for node_id in self.plan.left_out if isinstance(message, PlanEnded) else ():
                if node_id not in self._kept:
                    yield from self._drop(self.graph[node_id], running)
            return
        node = self.graph.nodes.get(message.node_id)
        if node is None or node.status is not NodeStatus.RUNNING:
            return                            # a late message for a node that timed out
        if isinstance(message, _Rewritten):
            rw = message.rewrite
            before = node.sub_query
            node.sub_query, node.args, node.time_context = rw.sub_query, dict(rw.args), rw.time_context
            node.rewritten_by = rw.by
            node.llm_calls += message.llm_calls
            if rw.note:
                self.notes.append(f"{node.id}: {rw.note}")
            yield NodeRewritten(self.elapsed_ms(), node.copy(), before)
        elif isinstance(message, _Fetching):
            limit = message.limit
            self._deadlines[node.id] = (time.monotonic() + limit.remaining() + BACKSTOP_S, limit.seconds)
        elif isinstance(message, _Done):
            running.discard(node.id)
            self._deadlines.pop(node.id, None)
            if message.error is not None:
                if isinstance(message.error, NoData):
                    self._no_data.add(node.id)
                yield from self._finish(node, NodeStatus.FAILED, error=str(message.error),
                                        failure=message.error.kind)
            else:
                evidence = weigh(message.result.evidence, node.time_context, self.ctx.now, self.policy)
                self.notes.extend(f"{node.id}: {problem}" for problem in message.result.problems)
                yield from self._finish(node, NodeStatus.DONE, evidence=evidence)

    def _expire(self, running: set[str]) -> Iterator[Event]:
        now = time.monotonic()
        for node_id, (deadline, timeout) in list(self._deadlines.items()):
            if deadline <= now:
                running.discard(node_id)
                del self._deadlines[node_id]
                yield from self._finish(self.graph[node_id], NodeStatus.FAILED,
                                        error=f"timed out after {timeout:.3g} s", failure=FailureKind.TIMED_OUT)

    def _node_timeout(self) -> float:
        """A source call may take `node_timeout_s`, but never past the time kept for the answer."""
        return max(0.5, self.deadline.cap(self.settings.node_timeout_s, reserve=ANSWER_RESERVE_S))

    def _stop_all(self, running: set[str], reason: str, failure: FailureKind) -> Iterator[Event]:
        for node in self.graph:
            if not node.status.finished:
                was_running = node.id in running
                yield from self._finish(node, NodeStatus.SKIPPED, failure=failure,
                                        error=reason + (" while running" if was_running else ""))

    def _drop(self, node: SearchNode, running: set[str]) -> Iterator[Event]:
        """A search the model's plan left out, about another instrument: whatever it found (or is
        still finding) is not used, and it is drawn as skipped where it stands."""
        running.discard(node.id)
        self._deadlines.pop(node.id, None)
        yield from self._finish(node, NodeStatus.SKIPPED, failure=FailureKind.LEFT_OUT,
                                error="left out: the model's plan searches other instruments")

    def _finish(self, node: SearchNode, status: NodeStatus, error: str | None = None,
                evidence: tuple = (), failure: FailureKind | None = None) -> Iterator[Event]:
        node.status, node.error, node.evidence = status, error, tuple(evidence)
        node.failure = failure if status is not NodeStatus.DONE else None
        node.finished_ms = self.elapsed_ms()
        if node.started_ms is not None:
            node.elapsed_ms = round(node.finished_ms - node.started_ms)
        event = NodeFinished if status is NodeStatus.DONE else NodeFailed
        yield event(node.finished_ms, node.copy())
        if self.settings.rewriter and status is not NodeStatus.SKIPPED and not self.cancel.is_set():
            yield from self._add_follow_ups(node)

    def _add_follow_ups(self, node: SearchNode) -> Iterator[Event]:
        for extra in rewriter.follow_ups(node, self.graph, self.ctx.analysis):
            extra.id = self.graph.next_id()
            try:
                self.graph.add_follow_up(extra)
            except PlanError:
                break                         # the follow-up budget is spent
            yield NodeAdded(self.elapsed_ms(), extra.copy())

    # -- one node, on a worker thread ------------------------------------------------------

    def _work(self, node: SearchNode, parents: list[SearchNode]) -> None:
        try:
            args = node.args
            rewrite = None
            if self.settings.rewriter and (parents or self.sequential) and not self.cancel.is_set():
                rewrite, calls = self._rewrite(node, parents)
                if rewrite is not None:
                    args = rewrite.args
                    self._inbox.put(_Rewritten(node.id, rewrite, calls))
            if self.cancel.is_set():
                return
            self._inbox.put(_Done(node.id, result=self._fetch(node, args)))
        except SourceError as exc:
            self._inbox.put(_Done(node.id, error=exc))
        except Exception as exc:  # a bug in an adapter must not take the run down
            log.exception("node %s (%s) crashed", node.id, node.source)
            self._inbox.put(_Done(node.id, error=SourceError(
                f"the {node.source} source failed unexpectedly ({type(exc).__name__})")))

    def _fetch(self, node: SearchNode, args: dict):
        limit = Deadline(self._node_timeout(), self.cancel)
        self._inbox.put(_Fetching(node.id, limit))
        return self.hub.call(node.source, args, deadline=limit)

    def _rewrite(self, node: SearchNode, parents: list[SearchNode]) -> tuple[rewriter.Rewrite | None, int]:
        """The node's rewrite and the model calls it took. The rules' template, when one applies,
        is taken as it is (it fills in what a parent found: the model would only reword it, a call
        on the critical path); the model is asked where none does, and in the paper's sequential
        way, which rewrites before every node."""
        ctx = self.ctx
        draft = rewriter.heuristic_rewrite(node, parents, ctx.analysis, ctx.now)
        if draft is not None and not self.sequential:
            return draft, 0
        # While the model is still writing its plan it is asked nothing else: one request at a time
        # (a local server has one slot, and a second request slows the plan it is writing).
        model = ctx.live_model if self.plan is None or not self.plan.open else None
        if model is None or not (self.sequential or any(p.status is NodeStatus.DONE for p in parents)):
            return draft, 0
        return rewriter.llm_rewrite(node, parents, draft, ctx.analysis, ctx.now, model), 1
