"""The model's answer begun before every search has ended: once the evidence its lead reads is in.

A model's first words cost a round trip (its time to first token, then its reading of the
prompt); waiting for every search first, and for the model's plan to finish streaming, put that
cost after the slowest of them. The executor asks `consider` whenever it is about to wait; the
first time the lead's searches have all ended (`lead_needs.lead_nodes`) and a model is still
worth asking, the writer is built on a copy of the graph as it stands and runs on a thread of
its own, posting ChartsReady, AnswerStarted and its AnswerDeltas into the executor's inbox (the
executor passes them on in order with its own events). Searches still running go on; what they
find after the text is said after it, as having come late (`late`).

While the model's plan is still streaming, the answer waits until that plan has written a
search about every instrument the lead's searches are about: a plan that has begun is a model
that answers (a hung or failing one is not asked a second thing at once), and a plan about the
same instruments will not drop the searches the answer is written from (one that reads the
question as being about another instrument drops the rules' searches, `plan.streamed`; the
answer then waits for it, as before).

Only the model's answer starts early: the rules write theirs in milliseconds, so waiting for
every search costs them nothing and keeps each item in its own paragraph.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from ..context import RunContext
from ..events import AnswerDelta, AnswerStarted, ChartsReady
from ..graph import NodeStatus, SearchGraph, SearchNode
from ..plan.streamed import StreamedPlan
from .charts import chart_specs
from .generator import AnswerWriter
from .lead_needs import lead_nodes

log = logging.getLogger(__name__)


class EarlyAnswer:
    """One run's answer, once begun early: the writer, the nodes it was given, its thread."""

    def __init__(self, ctx: RunContext, make_writer: Callable[[SearchGraph], AnswerWriter],
                 plan: StreamedPlan | None = None):
        self.ctx = ctx
        self.plan = plan                    # the model's plan, while it streams into the graph
        self.make_writer = make_writer      # the run's writer for a graph (the pipeline's, with its due time)
        self.writer: AnswerWriter | None = None
        self.given_nodes: frozenset[str] = frozenset()   # the searches that had ended when it began
        self.charts: list[dict] = []
        self.written = threading.Event()    # the writer has posted its last piece
        self.error: BaseException | None = None

    @property
    def started(self) -> bool:
        return self.writer is not None

    def consider(self, graph: SearchGraph, post: Callable[[object], None]) -> frozenset[str]:
        """Begin the answer if its lead's evidence is in (`post` takes its events); the ids of the
        searches it was given (the run must keep their evidence), else none."""
        if self.started or self.ctx.live_model is None or self.ctx.cancel.is_set():
            return frozenset()
        needed = lead_nodes(graph, self.ctx.analysis)
        if needed is None or not self._plan_agrees(graph, needed):
            return frozenset()
        snapshot = graph.copy()
        self.given_nodes = frozenset(n.id for n in snapshot if n.status is NodeStatus.DONE)
        self.charts = chart_specs(snapshot)
        self.writer = self.make_writer(snapshot)
        threading.Thread(target=self._write, args=(post,), name="finsearch-early-answer", daemon=True).start()
        return self.given_nodes

    def _plan_agrees(self, graph: SearchGraph, needed: list[SearchNode]) -> bool:
        """The model's plan has ended, or has written a search about every instrument `needed` is about."""
        plan = self.plan
        if plan is None or not plan.open:
            return True
        written = [graph[i] for i in plan.taken if i in graph.nodes] + [n for n in graph if n.added_by == "model"]
        return bool(written) and _tickers(needed) <= _tickers(written)

    def _write(self, post: Callable[[object], None]) -> None:
        clock = self.ctx.clock
        try:
            if self.charts:
                post(ChartsReady(clock(), tuple(self.charts)))
            post(AnswerStarted(clock()))
            for piece, restart in self.writer.stream():
                post(AnswerDelta(clock(), piece, restart))
        except BaseException as exc:    # raised on the run's own thread once it has read the rest
            log.exception("the early answer failed")
            self.error = exc
        finally:
            self.written.set()
            post(None)                  # wakes a reader waiting for the end


def _tickers(nodes: list[SearchNode]) -> set[str]:
    return {str(n.args["ticker"]).upper() for n in nodes if n.args.get("ticker")}
