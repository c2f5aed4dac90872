"""A run in a background thread, for interactive front ends.

The worker thread consumes `pipeline.run` and mirrors the events into a lock-protected
state; the front end polls `view()` for an immutable picture of it (graph so far,
answer text so far, charts, status) and calls `stop()` for a Stop button. The worker
never touches the UI. A crash inside the worker becomes an error status with a message,
never a spinner that never stops.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Literal

from .. import pipeline
from ..errors import FinSearchError
from ..events import (
    AnswerDelta,
    AnswerStarted,
    ChartsReady,
    Event,
    NodeAdded,
    NodeFailed,
    NodeFinished,
    NodeRewritten,
    NodeStarted,
    PlanDrafted,
    PlanReady,
    RunFinished,
)
from ..graph import Author, SearchGraph
from ..plan.analysis import Analysis
from ..plan.interpretation import Corrections, Interpretation
from ..result import RunResult
from ..settings import Settings
from ..sources.setup import with_data_fallback

log = logging.getLogger(__name__)

RunStatus = Literal["planning", "running", "answering", "done", "failed"]
PLANNING, RUNNING, ANSWERING, DONE, FAILED = "planning", "running", "answering", "done", "failed"


@dataclasses.dataclass(frozen=True)
class RunView:
    question: str
    status: RunStatus
    graph: SearchGraph | None
    planner: Author | None
    answer_text: str
    charts: tuple[dict, ...]
    result: RunResult | None
    error: str | None
    notes: tuple[str, ...]
    stopping: bool
    elapsed_s: float
    save_error: str | None = None     # the finished run could not be stored (no share link, lost on reload)
    interpretation: Interpretation | None = None    # how the question was read, once it is planned
    draft: bool = False      # `graph` is the rules' draft, shown while a model writes the plan
    model_plans: bool = False   # the model's plan is still streaming into the running graph

    @property
    def waits_for_the_model(self) -> bool:
        """Every search is back but the model's plan, which may add one, is still being written."""
        graph = self.graph
        return self.status == RUNNING and self.model_plans and graph is not None and len(graph) > 0 \
            and all(n.status.finished for n in graph)

    @property
    def finished(self) -> bool:
        return self.status in (DONE, FAILED)


class BackgroundRun:
    def __init__(self, question: str, settings: Settings, prior: Analysis | None = None,
                 on_finish: Callable[[RunResult], None] | None = None, corrections: Corrections | None = None,
                 on_event: Callable[[Event], None] | None = None):
        self.question = question
        self.on_event = on_event          # told each event on the worker thread, after the view has it
        self.settings = settings
        self.prior = prior
        self.corrections = corrections
        self.on_finish = on_finish
        self.cancel = threading.Event()
        self._lock = threading.Lock()
        self._status = PLANNING
        self._graph: SearchGraph | None = None
        self._draft = False
        self._model_plans = False
        self._planner: str | None = None
        self._interpretation: Interpretation | None = None
        self._answer: list[str] = []
        self._charts: tuple[dict, ...] = ()
        self._result: RunResult | None = None
        self._error: str | None = None
        self._notes: tuple[str, ...] = ()
        self._data_note: tuple[str, ...] = ()     # "no network: sample pack" when it applies
        self._save_error: str | None = None
        self._started = time.monotonic()
        self._ended: float | None = None
        self._thread = threading.Thread(target=self._work, name="finsearch-run", daemon=True)

    def start(self) -> BackgroundRun:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.cancel.set()

    def join(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def view(self) -> RunView:
        with self._lock:
            graph = self._graph.copy() if self._graph is not None else None
            return RunView(self.question, self._status, graph, self._planner, "".join(self._answer),
                           self._charts, self._result, self._error, self._data_note + self._notes,
                           self.cancel.is_set(),
                           (self._ended or time.monotonic()) - self._started, self._save_error,
                           self._interpretation, self._draft, self._model_plans)

    # -- the worker thread -----------------------------------------------------------------

    def _work(self) -> None:
        try:
            settings, note = with_data_fallback(self.settings)
            if note:
                with self._lock:
                    self._data_note = (note,)
            for event in pipeline.run(self.question, settings=settings, prior=self.prior, cancel=self.cancel,
                                      corrections=self.corrections):
                self._apply(event)
                if self.on_event is not None:
                    self.on_event(event)
        except FinSearchError as exc:
            self._fail(str(exc))
        except Exception as exc:  # the UI shows an error card; the log keeps the traceback
            log.exception("run crashed: %s", self.question[:80])
            self._fail(f"Something went wrong while answering ({type(exc).__name__}). "
                       "What was found so far is shown; please try again.")
        finally:
            with self._lock:
                self._ended = time.monotonic()

    def _fail(self, message: str) -> None:
        with self._lock:
            self._status, self._error = FAILED, message

    def _apply(self, event) -> None:
        finished: RunResult | None = None
        with self._lock:
            if isinstance(event, PlanDrafted):
                self._graph, self._draft, self._interpretation = event.graph, True, event.interpretation
            elif isinstance(event, PlanReady):
                self._graph, self._planner, self._status = event.graph, event.planner, RUNNING
                self._notes, self._interpretation, self._draft = event.notes, event.interpretation, False
                self._model_plans = event.model_plans
            elif isinstance(event, (NodeStarted, NodeRewritten, NodeFinished, NodeFailed, NodeAdded)):
                if self._graph is not None:
                    self._graph.apply(event.node)
            elif isinstance(event, ChartsReady):
                self._charts = event.charts
            elif isinstance(event, AnswerStarted):
                self._status = ANSWERING
            elif isinstance(event, AnswerDelta):
                self._status = ANSWERING
                if event.restart:
                    self._answer.clear()
                self._answer.append(event.text)
            elif isinstance(event, RunFinished):
                finished = event.result
        if finished is not None:
            save_error = self._save(finished)
            with self._lock:                    # done only once saved: the page then knows whether it was
                self._result, self._graph, self._status = finished, finished.graph, DONE
                self._notes, self._save_error = finished.notes, save_error

    def _save(self, result: RunResult) -> str | None:
        return store_finished(self.on_finish, result, result.run_id, "This answer",
                              "it will be gone after a reload and it has no share link")


def store_finished(on_finish: Callable | None, finished, ident: str, subject: str, lost: str) -> str | None:
    """Store a finished run or report with `on_finish`; a sentence for the page when that failed,
    naming `subject` and what is `lost` (saving must not turn a good answer into an error)."""
    if on_finish is None:
        return None
    try:
        on_finish(finished)
    except Exception as exc:
        log.warning("could not save %s (%s): %s", ident, subject.removeprefix("This ").lower(), exc)
        return f"{subject} could not be saved on the server ({save_failure(exc)}). It stays on this page, but {lost}."
    return None


def save_failure(exc: Exception) -> str:
    """Why a finished run or report could not be stored, for the page: our own errors say what
    happened (e.g. which store is unreachable); others get their name."""
    return str(exc) if isinstance(exc, FinSearchError) else getattr(exc, "strerror", None) or type(exc).__name__
