"""The reports this API server is writing: each a `ReportFeed` whose progress is relayed as lines (the
outline, each section as it starts and ends with `done` of `total`, the report last), by the id the
caller was given when it asked — the id the report is stored under, so once it is written any
replica opens it from the store. An ended report is kept here a while for what the store may lack
(an error, a report the store could not take)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator

from ..service.report_feed import ReportFeed
from .relay import Relay

KEEP_S = 600.0            # an ended report stays here this long (the store has it by then)
CRASHED = "the report stopped on an error on the server; please try again"


@dataclasses.dataclass(frozen=True)
class ReportOnDesk:
    report_id: str
    owner: str
    feed: ReportFeed
    lines: Relay[dict]

    def progress(self) -> tuple[int, int]:
        """(sections done, sections in the outline) as last told."""
        told = [line for line in self.lines.so_far() if "total" in line]
        return (told[-1]["done"], told[-1]["total"]) if told else (0, 0)

    def outcome(self) -> dict | None:
        """Once ended: `report --json`'s object, or {"type": "Error", …}; None while it runs."""
        if not self.lines.ended:
            return None
        return self.lines.so_far()[-1]


class ReportDesk:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reports: dict[str, ReportOnDesk] = {}
        self._ended_at: dict[str, float] = {}       # when each was first seen ended

    def start(self, report_id: str, owner: str, feed: ReportFeed) -> ReportOnDesk:
        """Start `feed` (made to store its report as `report_id`: `new_id()`) and relay its lines."""
        on_desk = ReportOnDesk(report_id, owner, feed, Relay(_lines(feed.start(), report_id), _crashed,
                                                              name="finsearch-api-report"))
        with self._lock:
            self._forget_old()
            self._reports[report_id] = on_desk
        on_desk.lines.start()
        return on_desk

    def find(self, report_id: str, owner: str) -> ReportOnDesk | None:
        """The report `report_id` when it is here and `owner` asked for it (another's is not found)."""
        with self._lock:
            self._forget_old()
            found = self._reports.get(report_id)
        return found if found is not None and found.owner == owner else None

    def _forget_old(self) -> None:
        now = time.monotonic()
        for report_id, on_desk in list(self._reports.items()):
            if on_desk.lines.ended:
                ended = self._ended_at.setdefault(report_id, now)
                if now - ended > KEEP_S:
                    del self._reports[report_id], self._ended_at[report_id]


def _lines(feed: ReportFeed, report_id: str) -> Iterator[dict]:
    for step in feed.progress():
        yield step.line | {"done": step.done, "total": step.total}
    outcome = feed.outcome()
    if "report_id" in outcome:
        outcome["report_id"] = report_id            # stored under the id the caller was given
    yield outcome


def _crashed() -> dict:
    return {"type": "Error", "error": CRASHED}
