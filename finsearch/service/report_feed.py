"""A deep research report for a program (the HTTP API, an MCP client): a "report" job with its outline
researched as drafted — a program has no editor — followed as lines: the outline's sections, then each
section as it starts and ends with `done` of `total`, then the report as `report --json` prints it (or
an Error line). The job runs on a worker (or this process's in-process queue) and stores the report for
its owner, so any process can follow it by its id. Stopping it (a client's cancel, DELETE) has the
report written from the sections as they stand, marked cancelled."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from ..background.queued_report import QueuedReport
from ..errors import InputError
from ..jobs import JobQueue
from ..result import new_id
from ..store.runs import RunStore
from .request import AskRequest


@dataclasses.dataclass(frozen=True)
class Progress:
    """Where a report stands: `done` of `total` sections, and a line saying what changed."""
    done: int
    total: int
    line: dict


class ReportFeed:
    def __init__(self, report: QueuedReport):
        self.report = report

    @classmethod
    def asked(cls, request: AskRequest, jobs: JobQueue, store: RunStore, owner: str,
              report_id: str | None = None) -> ReportFeed:
        """A new report for `owner` (not started: `start()`). InputError for tickers or a period."""
        if request.tickers or request.period:
            raise InputError('a report takes "question" and "now" only (its outline chooses the companies and '
                             "the periods it researches)")
        return cls(QueuedReport(request.question, jobs, store, owner, report_id or new_id(), editable=False,
                                now=request.now))

    @classmethod
    def following(cls, report_id: str, jobs: JobQueue, store: RunStore, owner: str) -> ReportFeed | None:
        """The report job `report_id`, when `owner` asked for it and its record is kept."""
        found = QueuedReport.of_job(report_id, jobs, store, owner)
        return cls(found) if found is not None else None

    @property
    def report_id(self) -> str:
        return self.report.report_id

    def start(self) -> ReportFeed:
        self.report.start()
        return self

    def stop(self) -> None:
        self.report.stop()

    def progress(self) -> Iterator[Progress]:
        """A step each time the report moves on (blocking: a thread reads it), until it has ended."""
        for line in self.report.lines():
            if "total" in line:
                yield Progress(line["done"], line["total"], line)

    def where(self) -> tuple[int, int]:
        """(sections done, sections in the outline) as it stands."""
        view = self.report.view()
        return view.sections_done, len(view.sections)

    def ended(self) -> bool:
        return self.report.join(0)

    def outcome(self) -> dict:
        """Once the report has ended: `report --json`'s object, or {"type": "Error", …}."""
        self.report.join(0)
        return self.report.outcome() or {"type": "Error", "error": "the report has not ended"}
