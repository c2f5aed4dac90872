"""A deep research report whose progress reaches a stream: a `BackgroundReport` (the app's own
worker) with its outline approved as drafted — a program asking for a report has no editor — and
its progress read as lines: the outline's sections, then each section as it starts and ends,
then the report as `report --json` prints it. Stopping the feed stops the report, which is then
written from the sections as they stand, marked cancelled."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator

from ..background.report import BackgroundReport, ReportView, SectionState
from ..errors import InputError
from ..research.budget import ReportBudget
from ..research.result import Report
from ..settings import Settings
from .request import AskRequest

POLL_S = 0.2          # how often progress is looked at: a section takes seconds, a line per change is enough


@dataclasses.dataclass(frozen=True)
class Progress:
    """Where a report stands: `done` of `total` sections, and a line saying what changed."""
    done: int
    total: int
    line: dict


class ReportFeed:
    def __init__(self, request: AskRequest, settings: Settings, on_finish: Callable[[Report], None] | None = None,
                 budget: ReportBudget | None = None):
        if request.tickers or request.period:
            raise InputError('a report takes "question" and "now" only (its outline chooses the companies and '
                             "the periods it researches)")
        self.request = request
        self.report = BackgroundReport(request.question, request.settings(settings), budget=budget,
                                       on_finish=on_finish)

    def start(self) -> ReportFeed:
        self.report.start()
        return self

    def stop(self) -> None:
        self.report.stop()

    def progress(self) -> Iterator[Progress]:
        """A line each time the report moves on (blocking: a thread reads it), until it has ended."""
        seen: tuple = ()
        while True:
            ended = self.report.join(0)
            view = self.report.view()
            if view.status == "outline" and not view.approved:
                self.report.approve()
            total = len(view.outline.sections) if view.outline else 0
            if view.outline is not None and not seen:
                seen = ("outline",)
                yield Progress(0, total, {"type": "OutlineReady",
                                          "sections": [s.title for s in view.outline.sections]})
            for section in view.sections:
                mark = (section.index, section.status)
                if section.status != "waiting" and mark not in seen:
                    seen += (mark,)
                    yield Progress(view.sections_done, total, _section_line(section))
            if ended:
                return
            time.sleep(POLL_S)

    def outcome(self) -> dict:
        """Once the report has ended: `report --json`'s object, or {"type": "Error", …}."""
        view: ReportView = self.report.view()
        if view.report is not None:
            return view.report.to_dict() | ({"save_error": view.save_error} if view.save_error else {})
        error = view.error or ("stopped before any research" if view.status == "stopped" else
                               "the report ended without being written")
        return {"type": "Error", "error": error}


def _section_line(section: SectionState) -> dict:
    kind = "SectionStarted" if section.status == "researching" else "SectionDone"
    return {"type": kind, "index": section.index, "title": section.title}
