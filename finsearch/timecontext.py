"""A time context: the absolute [start, end] days a question (or one sub-query) is about.

Plans, evidence weighting, answers and stored runs all carry one; the rules that read
one out of a question's words live in `plan/timectx`.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, timedelta

# The days whose stories may explain a price move: from three calendar days before it (a
# weekend's policy news, a report after an earlier close) to the day after. The planner asks for
# them, the rewriter narrows a "why" search to them and the answer's cause model reads them.
CAUSE_DAYS_BEFORE = 3
CAUSE_DAYS_AFTER = 1


@dataclasses.dataclass(frozen=True)
class TimeContext:
    """`forward`: the question looks ahead ("next quarter", "next earnings"), so what it is
    about has not happened yet: estimates and announcements answer it, not price history.
    `anchor`: the window hangs on an event the words do not date ("since earnings", "since
    launch": "earnings", "launch", "ipo", …); [start, end] is then a provisional guess for a
    later stage to replace with the event's real date (backward from it when not `forward`,
    up to it when `forward`)."""
    start: date
    end: date
    label: str
    explicit: bool = True
    forward: bool = False
    anchor: str | None = None

    def to_dict(self) -> dict:
        out = {"start": self.start.isoformat(), "end": self.end.isoformat(), "label": self.label}
        # Only when set, so the time context of every other question reads as it always did.
        if self.forward:
            out["forward"] = True
        if self.anchor:
            out["anchor"] = self.anchor
        return out

    @classmethod
    def from_dict(cls, raw: dict) -> TimeContext:
        """ValueError for dates that are not YYYY-MM-DD within 1900–2199 (a model's plan
        or a stored record may hold anything)."""
        start, end = date.fromisoformat(raw["start"]), date.fromisoformat(raw["end"])
        if not all(EARLIEST <= d <= LATEST for d in (start, end)):
            raise ValueError("a time context must lie between 1900 and 2199")
        anchor = raw.get("anchor")
        return cls(start, end, str(raw.get("label", "")), bool(raw.get("explicit", True)),
                   forward=raw.get("forward") is True, anchor=str(anchor) if anchor else None)

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


EARLIEST, LATEST = date(1900, 1, 1), date(2199, 12, 31)
FUTURE_DAYS = 3650                 # forward-looking questions reach years ahead, not millennia


def clamp(tc: TimeContext, now: datetime) -> tuple[TimeContext, bool]:
    """`tc` moved inside [1900-01-01, ten years after `now`] (dates outside it cannot be
    searched, and arithmetic on them overflows); and whether it had to move."""
    latest = now.date() + timedelta(days=FUTURE_DAYS)
    start, end = min(max(tc.start, EARLIEST), latest), min(max(tc.end, EARLIEST), latest)
    if (start, end) == (tc.start, tc.end):
        return tc, False
    return dataclasses.replace(tc, start=start, end=end), True


def today_context(now: datetime) -> TimeContext:
    return TimeContext(now.date(), now.date(), "today", explicit=False)
