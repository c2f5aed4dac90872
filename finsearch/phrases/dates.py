"""Dates as the rules write them: a span of days that reads as one date when it is one day
("2024-10-10", never "2024-10-10 → 2024-10-10"), and English month and weekday names
capitalised in the words a question named its period with ("oct 10" → "Oct 10")."""

from __future__ import annotations

import dataclasses
import re
from datetime import date

from .numbers import MONTH_NAMES

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Full names and the short forms people type ("sept", "tues"); "may" is a month here too: only
# words a time rule read as a date reach `capitalised`.
_NAMES = re.compile(r"\b(?:" + "|".join(
    [f"{name[:3]}(?:{name[3:]})?" for name in MONTH_NAMES] + ["sept", "tues", "thurs"]
    + [f"{name[:3]}(?:{name[3:]})?" for name in WEEKDAY_NAMES]) + r")\b", re.I)


@dataclasses.dataclass(frozen=True)
class DaySpan:
    """The first and last day of a period, placed in a template as `{span: → }`: the format
    spec is what the language writes between the two days (" → ", " to ", " 至 "), and a span of
    one day is written as that day alone."""
    start: date | str | None
    end: date | str | None

    def __format__(self, between: str) -> str:
        start, end = _day(self.start), _day(self.end)
        return start if start == end or not end else end if not start else f"{start}{between or ' → '}{end}"


def _day(value: date | str | None) -> str:
    return value.isoformat() if isinstance(value, date) else str(value or "")


def capitalised(words: str) -> str:
    """`words` with every English month and weekday name capitalised: "since sept 3" →
    "since Sept 3", "last friday" → "last Friday". Other words, and Chinese, are left as they are."""
    return _NAMES.sub(lambda m: m.group(0)[0].upper() + m.group(0)[1:], words)
