"""Time normalisation: a question's time expressions → an absolute [start, end].

Finance periods (quarters, halves, fiscal years, "last week", 近三个月 …) are our own
small rules (`rules_en`, `rules_zh`); generic dates written out in English
("October 1, 2024", "10/1/2024") are parsed by dateparser. Everything is relative to
an injected `now` (UTC), in whole days.

A question with several expressions ("Q2 2024 vs Q2 2023", "from Sep 1 to Oct 1") gets
their union; one with none gets today, with `explicit=False` so that a follow-up
question can inherit the previous question's context instead.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime, timedelta

from . import rules_en, rules_zh


@dataclasses.dataclass(frozen=True)
class TimeContext:
    start: date
    end: date
    label: str
    explicit: bool = True

    def to_dict(self) -> dict:
        return {"start": self.start.isoformat(), "end": self.end.isoformat(), "label": self.label}

    @classmethod
    def from_dict(cls, raw: dict) -> TimeContext:
        """ValueError for dates that are not YYYY-MM-DD within 1900–2199 (a model's plan
        or a stored record may hold anything)."""
        start, end = date.fromisoformat(raw["start"]), date.fromisoformat(raw["end"])
        if not all(EARLIEST <= d <= LATEST for d in (start, end)):
            raise ValueError("a time context must lie between 1900 and 2199")
        return cls(start, end, str(raw.get("label", "")), bool(raw.get("explicit", True)))

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


@dataclasses.dataclass(frozen=True)
class _Found:
    start: int
    end: int
    span: tuple[date, date]
    text: str


_RULES = rules_en.RULES + rules_zh.RULES
_SINCE = re.compile(r"(?:\bsince|自从|自)\s*$", re.I)
_SINCE_INSIDE = re.compile(r"^(?:since|自从|自)\b", re.I)
_UNTIL_NOW = re.compile(r"^\s*(?:以来|至今|到现在|until\s+now|to\s+date|through\s+today)", re.I)


def resolve(question: str, now: datetime) -> TimeContext:
    """The question's time context relative to `now` (an aware UTC datetime)."""
    today = now.date()
    found: list[_Found] = []
    for pattern, handler in _RULES:
        for match in pattern.finditer(question):
            span = handler(match, today)
            if span is not None:
                found.append(_Found(match.start(), match.end(), span, match.group(0).strip()))
    # Longest expressions first; a shorter one inside a longer one is part of it.
    chosen: list[_Found] = []
    for item in sorted(found, key=lambda f: (-(f.end - f.start), f.start)):
        if all(item.end <= c.start or item.start >= c.end for c in chosen):
            chosen.append(item)
    if not chosen:
        return today_context(now)
    chosen.sort(key=lambda f: f.start)
    starts, ends = [], []
    for item in chosen:
        start, end = item.span
        if _SINCE.search(question[: item.start]) or _SINCE_INSIDE.match(item.text) \
                or _UNTIL_NOW.match(question[item.end:]):
            end = today                      # "since X", "X以来": open up to today
        starts.append(start)
        ends.append(max(start, end))
    label = " … ".join(dict.fromkeys(f.text for f in chosen))
    return TimeContext(min(starts), max(ends), label)
