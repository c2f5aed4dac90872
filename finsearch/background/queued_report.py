"""A deep research report run as a job and followed from here: the page's calls on a `BackgroundReport`
(`view`, `approve`, `hold`, `stop`, `join`, `section_graph`), answered from the job's progress lines and
carried to it as orders. The report is written by a worker (or the in-process one) and stored there for
its owner, so losing this process — a web replica restarted, a browser closed — loses nothing but the
view of it: it still finishes, and is in its owner's History."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from ..errors import FinSearchError
from ..jobs import START, JobQueue
from ..jobs.kinds import kind_of
from ..jobs.report_job import report_args
from ..research.budget import ReportBudget
from ..research.outline import Outline
from ..research.result import Report
from ..store.runs import RunStore
from .report import ReportView
from .report_lines import API_LINES, STOPPED_EARLY, ReportPicture

UNREADABLE = "The report was written but cannot be opened right now ({why}); it is in your History."
LOST = "The report's worker was lost before it could finish; please try again."
# A job silent this long is asked about: a worker killed on the last try says nothing more (the queue notices).
SILENT_S = 15.0


class QueuedReport:
    def __init__(self, question: str, jobs: JobQueue, store: RunStore, owner: str, report_id: str, *,
                 editable: bool = True, now: str | None = None, settings_args: dict | None = None,
                 budget: ReportBudget | None = None, silent_s: float = SILENT_S):
        """`editable`: its outline waits for `approve` (as the app's settings say); else it is researched as
        drafted. `settings_args`: the asker's own settings (`jobs.settings_args`). `silent_s`: how long it
        waits for a line before asking the queue whether the job was given up."""
        self.question, self.report_id, self.owner = question, report_id, owner
        self.budget = budget or ReportBudget()
        self._jobs, self._store = jobs, store
        self._args = report_args(question, owner, report_id, now, editable=editable, settings=settings_args)
        self._lock = threading.Lock()
        self._picture = ReportPicture(question)
        self._last = START
        self._attempts = 0                   # JobStarted lines seen: 0 while it waits for a worker
        self._failed: str | None = None      # its last try failed
        self._stopped_waiting = False        # stopped before a worker took it
        self._report: Report | None = None
        self._read_error: str | None = None
        self._started = time.monotonic()
        self._ended: float | None = None
        self._heard = time.monotonic()          # when its last line came (or it was asked about)
        self._silent_s = silent_s

    @classmethod
    def of_job(cls, report_id: str, jobs: JobQueue, store: RunStore, owner: str) -> QueuedReport | None:
        """The report job `report_id` when `owner` asked for it (another's is not found), followed from
        its first line — by any process, not only the one that enqueued it; None when there is no such job."""
        args = jobs.args_of(report_id)
        if args is None or args.get("owner") != owner or not isinstance(args.get("question"), str):
            return None
        return cls(args["question"], jobs, store, owner, report_id, editable=bool(args.get("editable")),
                   now=args.get("now"), settings_args=args.get("settings"))

    def start(self) -> QueuedReport:
        self._started = time.monotonic()
        self._jobs.enqueue("report", self.report_id, self._args)
        return self

    def lines(self, wait_s: float = 1.0) -> Iterator[dict]:
        """What a program following the report is told (blocking: a thread reads it): the outline and
        each section as it starts and ends, as they come, then `outcome()`."""
        while True:
            with self._lock:
                ended = self._ended is not None
                came = [] if ended else self._jobs.read(self.report_id, self._last, wait_s)
                told = []
                for line in came:
                    self._last, self._heard = line.line_id, time.monotonic()
                    self._told(line.line)
                    if line.line.get("type") in API_LINES:
                        told.append(line.line)
                    if self._ended is not None:
                        break
                if not came and not ended:
                    self._ask_if_silent()
            yield from told
            if ended:
                yield self.outcome()
                return

    def outcome(self) -> dict | None:
        """Once ended: `report --json`'s object (an AlreadyWritten report's read from the store), or
        {"type": "Error", …}; None while it runs."""
        with self._lock:
            if self._ended is None:
                return None
            if self._stopped_waiting:
                return {"type": "Error", "error": STOPPED_EARLY}
            if self._failed is not None:
                return {"type": "Error", "error": self._failed}
            outcome = self._picture.outcome or {}
            if outcome.get("type") == "AlreadyWritten":
                return self._report.to_dict() if self._report is not None else \
                    {"type": "Error", "error": self._read_error or "the report is gone"}
            return outcome

    def approve(self, outline: Outline | None = None) -> None:
        """Research `outline` (an edited one), or the drafted one."""
        self._jobs.tell(self.report_id, {"order": "approve", "outline": outline.to_json() if outline else None})
        with self._lock:
            self._picture.state["approved"] = True      # seen at once; the job's next line says it too

    def hold(self) -> None:
        self._jobs.tell(self.report_id, {"order": "hold"})
        with self._lock:
            self._picture.state["held"] = True

    def stop(self) -> None:
        self._jobs.tell(self.report_id, {"order": "stop"})   # a worker that takes it later stops at once
        self._catch_up()         # a follower that has not looked yet (a page reloaded) must know if a worker took it
        with self._lock:
            self._picture.state["stopping"] = True
            if self._attempts == 0:
                self._stopped_waiting = True
                self._ended = time.monotonic()

    def join(self, timeout: float | None = None) -> bool:
        """Whether the report has ended (waits up to `timeout` for it)."""
        end = time.monotonic() + (timeout or 0.0)
        while True:
            self._catch_up()
            if self._ended is not None or time.monotonic() >= end:
                return self._ended is not None
            time.sleep(min(0.2, max(0.0, end - time.monotonic())))

    def section_graph(self, index: int):
        self._catch_up()
        with self._lock:
            graph = self._picture.graphs.get(index)
            return graph.copy() if graph is not None else None

    def view(self) -> ReportView:
        self._catch_up()
        with self._lock:
            picture, elapsed = self._picture, (self._ended or time.monotonic()) - self._started
            if self._stopped_waiting:
                return picture.view("stopped", elapsed, None)
            if self._failed is not None:
                return picture.view("failed", elapsed, None, error=self._failed)
            if self._attempts == 0:
                return picture.view("queued", elapsed, None)
            told = picture.state.get("status", "outlining")
            if picture.outcome is None:          # ended, but its last line is still to come
                return picture.view("writing" if told in ("done", "stopped", "failed") else told, elapsed, None)
            return picture.view(told, elapsed, self._report, error=self._read_error)

    def _catch_up(self) -> None:
        with self._lock:
            if self._ended is not None:
                return
            for line in self._jobs.read(self.report_id, self._last):
                self._last, self._heard = line.line_id, time.monotonic()
                self._told(line.line)
                if self._ended is not None:        # what follows is another try's, after this one was told
                    return
            self._ask_if_silent()

    def _ask_if_silent(self) -> None:
        if self._attempts == 0 or time.monotonic() - self._heard < self._silent_s:
            return                                 # waiting for a worker is not being lost
        self._heard = time.monotonic()
        if self._jobs.given_up(self.report_id) and not self._jobs.read(self.report_id, self._last):
            self._failed, self._ended = LOST, time.monotonic()

    def _told(self, line: dict) -> None:
        kind = line.get("type")
        last_try = self._attempts > kind_of("report").retries
        if kind == "JobStarted":
            self._attempts = int(line.get("attempt", 1))
            if self._attempts > 1:               # a lost or failed try: the next one starts over
                self._picture = ReportPicture(self.question)
        elif kind == "JobFailed":
            if last_try:                         # else another try follows
                self._failed = str(line.get("error") or "the report could not be written")
                self._ended = time.monotonic()
        elif kind == "AlreadyWritten":           # by a try that was lost after saving it
            self._picture.state["status"] = "done"
            self._end(line)
        elif kind != "JobDone":
            self._picture.fold(line)
            outcome = self._picture.outcome
            if outcome is None:
                return
            if outcome.get("type") == "Error" and self._picture.state.get("status") == "failed" and not last_try:
                self._picture.outcome = None     # it failed, and is tried again: wait for that
                return
            self._end(outcome)

    def _end(self, outcome: dict) -> None:
        self._picture.outcome = outcome
        if "report_id" in outcome:
            self._report = self._picture.unsaved or self._read()
        self._ended = time.monotonic()

    def _read(self) -> Report | None:
        try:
            found = self._store.load(self.report_id, "report")
        except FinSearchError as exc:
            self._read_error = UNREADABLE.format(why=exc)
            return None
        return found if isinstance(found, Report) else None
