"""A deep research report in a background thread, for the app (as `background.question` is for answers).

The worker drafts the outline, then waits for it to be approved — by the user, as drafted or
edited, or on its own after `Settings.research_approve_s` — and then runs `run_report` on
that outline, mirroring its events into a lock-protected state. The page polls `view()` for
an immutable picture (outline, each section's progress, the finished report) and calls
`approve`, `hold` (the user is editing: no approval on its own) and `stop`. Stop keeps what
was found: the report is written from the sections as they stand, marked stopped early.
A finished report is handed to `on_finish` (the page stores it) before its status says done,
so the page knows by then whether it was saved (`save_error`).
The worker never touches the UI; a crash becomes a failed status with a message.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Literal, Protocol

from ..errors import FinSearchError
from ..events import NodeAdded, NodeFailed, NodeFinished, NodeRewritten, NodeStarted
from ..graph import NodeStatus, SearchGraph
from ..research.budget import ReportBudget
from ..research.outline import Outline
from ..research.result import OutlineReady, Report, ReportFinished, SectionDone, SectionProgress, SectionStarted
from ..research.run import outline_for, run_report
from ..settings import Settings
from ..sources.setup import with_data_fallback
from .question import store_finished

log = logging.getLogger(__name__)

# queued: a report job not yet taken by a worker (`queued_report`); a report run here starts outlining.
ReportStatus = Literal["queued", "outlining", "outline", "researching", "writing", "done", "stopped", "failed"]
SectionStatus = Literal["waiting", "researching", "done"]
_NODE_EVENTS = (NodeStarted, NodeRewritten, NodeFinished, NodeFailed, NodeAdded)
_SETTLED = (NodeStatus.DONE, NodeStatus.FAILED, NodeStatus.SKIPPED)
# An outline nobody approves is let go after this long: a waiting run holds one of its visitor's
# slots (limits.RunSlots), and a page left open mid-edit must not hold it for ever.
OUTLINE_WAIT_S = 900.0


@dataclasses.dataclass(frozen=True)
class SectionState:
    index: int
    title: str
    status: SectionStatus
    searches: int = 0                  # searches of its graph known so far
    settled: int = 0                   # of which finished (found something, failed or skipped)


@dataclasses.dataclass(frozen=True)
class ReportView:
    question: str
    status: ReportStatus
    outline: Outline | None
    sections: tuple[SectionState, ...]
    report: Report | None
    error: str | None
    stopping: bool
    held: bool                         # the user is editing the outline
    approved: bool                     # the outline to research is chosen
    approve_in_s: float | None         # until the outline is researched on its own; None: it waits
    elapsed_s: float
    notes: tuple[str, ...] = ()
    save_error: str | None = None      # the finished report could not be stored (lost on reload, no link)

    @property
    def finished(self) -> bool:
        return self.status in ("done", "stopped", "failed")

    @property
    def sections_done(self) -> int:
        return sum(1 for s in self.sections if s.status == "done")


class ReportRun(Protocol):
    """A report being written, as the page drives it: here (`BackgroundReport`) or as a job (`QueuedReport`)."""
    question: str
    budget: ReportBudget

    def view(self) -> ReportView: ...
    def approve(self, outline: Outline | None = None) -> None: ...
    def hold(self) -> None: ...
    def stop(self) -> None: ...
    def join(self, timeout: float | None = None) -> bool: ...
    def section_graph(self, index: int) -> SearchGraph | None: ...


class BackgroundReport:
    def __init__(self, question: str, settings: Settings, budget: ReportBudget | None = None,
                 outline_wait_s: float = OUTLINE_WAIT_S, on_finish: Callable[[Report], None] | None = None,
                 report_id: str | None = None):
        self.question = question
        self.report_id = report_id          # the finished report's id (given when it was enqueued), else its own
        self.on_finish = on_finish
        self.outline_wait_s = outline_wait_s
        self.settings = settings
        self.budget = budget or ReportBudget()
        self.cancel = threading.Event()
        self._wake = threading.Event()          # approve() or stop(): the wait for approval ends now
        self._lock = threading.Lock()
        self._status: ReportStatus = "outlining"
        self._outline: Outline | None = None
        self._chosen: Outline | None = None
        self._held = False
        self._approve_at: float | None = None
        self._sections: dict[int, SectionState] = {}
        self._graphs: dict[int, SearchGraph] = {}     # each section's searches as they start and finish
        self._report: Report | None = None
        self._error: str | None = None
        self._notes: tuple[str, ...] = ()
        self._save_error: str | None = None
        self._started = time.monotonic()
        self._ended: float | None = None
        self._thread = threading.Thread(target=self._work, name="finsearch-report", daemon=True)

    def start(self) -> BackgroundReport:
        self._thread.start()
        return self

    def approve(self, outline: Outline | None = None) -> None:
        """Research `outline` (an edited one), or the drafted one."""
        with self._lock:
            if self._outline is not None and self._chosen is None:
                self._chosen = outline or self._outline
        self._wake.set()

    def hold(self) -> None:
        """The user is editing the outline: it waits for them."""
        with self._lock:
            self._held = True

    def stop(self) -> None:
        self.cancel.set()
        self._wake.set()

    def join(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def section_graph(self, index: int) -> SearchGraph | None:
        """A copy of section `index`'s search graph so far (None before its first search)."""
        with self._lock:
            graph = self._graphs.get(index)
            return graph.copy() if graph is not None else None

    def view(self) -> ReportView:
        with self._lock:
            left = None
            if self._status == "outline" and not self._held and self._approve_at is not None:
                left = max(0.0, self._approve_at - time.monotonic())
            return ReportView(self.question, self._status, self._outline,
                              tuple(self._sections[i] for i in sorted(self._sections)), self._report, self._error,
                              self.cancel.is_set(), self._held, self._chosen is not None, left,
                              (self._ended or time.monotonic()) - self._started, self._notes, self._save_error)

    # -- the worker thread -----------------------------------------------------------------

    def _work(self) -> None:
        try:
            settings, note = with_data_fallback(self.settings)
            settings = settings.replace(now=settings.clock())     # the outline and the report: one `now`
            self._set(notes=(note,) if note else ())
            chosen = self._approved(self._draft(settings))
            if chosen is None:              # stopped (or left) before any research: nothing to keep
                self._set(status="stopped")
                return
            for event in run_report(self.question, settings=settings, budget=self.budget, cancel=self.cancel,
                                    outline=chosen):
                self._apply(event)
        except FinSearchError as exc:
            self._set(status="failed", error=str(exc))
        except Exception as exc:  # the page shows an error; the log keeps the traceback
            log.exception("report crashed: %s", self.question[:80])
            self._set(status="failed", error=f"Something went wrong while writing the report "
                                             f"({type(exc).__name__}). Please try again.")
        finally:
            with self._lock:
                self._ended = time.monotonic()

    def _draft(self, settings: Settings) -> Outline:
        """The outline, before anything is fetched (the rules', or one model call)."""
        outline = outline_for(self.question, settings=settings, budget=self.budget, cancel=self.cancel)
        with self._lock:
            self._outline, self._status = outline, "outline"
            approve_s = settings.research_approve_s
            self._approve_at = time.monotonic() + approve_s if approve_s > 0 else None
            self._sections = _waiting(outline)
        return outline

    def _approved(self, drafted: Outline) -> Outline | None:
        """The outline to research once approved; None when stopped first or left waiting."""
        given_up = time.monotonic() + self.outline_wait_s
        while not self.cancel.is_set() and time.monotonic() < given_up:
            with self._lock:
                if self._chosen is not None:
                    return self._chosen
                due = not self._held and self._approve_at is not None and time.monotonic() >= self._approve_at
                if due:
                    self._chosen = drafted
                    return drafted
                wait = 0.5 if self._approve_at is None or self._held else self._approve_at - time.monotonic()
            self._wake.wait(max(0.01, min(wait, 0.5)))
            self._wake.clear()
        return None

    def _set(self, **changes) -> None:
        with self._lock:
            for name, value in changes.items():
                setattr(self, f"_{name}", value)

    def _apply(self, event) -> None:
        if isinstance(event, ReportFinished):
            report = event.report if self.report_id is None else dataclasses.replace(event.report,
                                                                                      report_id=self.report_id)
            save_error = self._save(report)
            with self._lock:                    # done only once saved: the page then knows whether it was
                self._report, self._save_error = report, save_error
                self._status = "stopped" if report.cancelled else "done"
                self._notes = self._notes + report.notes
            return
        with self._lock:
            if isinstance(event, OutlineReady):
                self._outline, self._status = event.outline, "researching"
                self._sections = _waiting(event.outline)
            elif isinstance(event, SectionStarted):
                self._sections[event.index] = dataclasses.replace(self._sections[event.index], status="researching")
            elif isinstance(event, SectionProgress) and isinstance(event.event, _NODE_EVENTS):
                node = event.event.node
                section = self._sections[event.index]
                # A node's parents have started before it does, so the graph is mirrored as it goes.
                graph = self._graphs.setdefault(event.index, SearchGraph(section.title, node.time_context))
                graph.apply(node)
                self._sections[event.index] = dataclasses.replace(
                    section, searches=len(graph), settled=sum(1 for n in graph if n.status in _SETTLED))
            elif isinstance(event, SectionDone):
                self._sections[event.index] = dataclasses.replace(self._sections[event.index], status="done")
                if all(s.status == "done" for s in self._sections.values()):
                    self._status = "writing"

    def _save(self, report: Report) -> str | None:
        return store_finished(self.on_finish, report, report.report_id, "This report",
                              "it will be gone after a reload, History does not list it and it has no share link")


def _waiting(outline: Outline) -> dict[int, SectionState]:
    return {i: SectionState(i, s.title, "waiting") for i, s in enumerate(outline.sections, start=1)}
