"""Time normalisation: a question's time expressions → an absolute [start, end].

Finance periods (quarters, halves, fiscal years, "last week", 近三个月 …) are our own
small rules (`rules_en`, `rules_zh`); generic dates written out in English
("October 1, 2024", "10/1/2024") are parsed by dateparser. Everything is relative to
an injected `now` (UTC), in whole days; "the past N trading days" is counted on the
exchange calendar of the market the question is about (weekdays when it is unknown).

Expressions anchored on events ("since the Fed cut", "自9月降息以来") take their dates
from a small table of dated events (`events`, `rules_events`); a company's own events
("since earnings") give a provisional window marked with its `anchor`. Expressions about
what is still to come ("next quarter", "下季度") are marked `forward` (`rules_ahead`).

A question with several expressions ("Q2 2024 vs Q2 2023", "from Sep 1 to Oct 1") gets
their union; one with none gets today, with `explicit=False` so that a follow-up
question can inherit the previous question's context instead.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime

from ...phrases.dates import capitalised
from ...reference.markets import Market
from ...timecontext import TimeContext, today_context
from ..number_words import explicit_role
from . import rules_ahead, rules_en, rules_events, rules_zh
from .calendar_math import Anchored, TradingDays


@dataclasses.dataclass(frozen=True)
class _Found:
    start: int
    end: int
    span: tuple[date, date]
    text: str
    reading: Anchored | None = None


_RULES = rules_en.RULES + rules_zh.RULES + rules_ahead.RULES + rules_events.RULES
_SINCE = re.compile(r"(?:\bsince(?:\s+the)?|自从|自)\s*$", re.I)       # "since the start of September"
_SINCE_INSIDE = re.compile(r"^(?:since|自从|自)\b", re.I)
_UNTIL_NOW = re.compile(r"^\s*(?:以来|至今|到现在|until\s+now|to\s+date|through\s+today)", re.I)


_BARE_YEAR = re.compile(r"\s*((?:19|20)\d{2})\s*")


def _a_year_that_counts_something(question: str, match: re.Match) -> bool:
    """A bare year-like number that the words around it make a quantity, a price or an amount
    ("sold 2000 shares", "at 2000 points"): no year."""
    bare = _BARE_YEAR.fullmatch(match.group(0))
    if bare is None:
        return False
    start = match.start() + bare.start(1)
    return explicit_role(question, start, start + 4) not in (None, "year", "date")


def resolve(question: str, now: datetime, market: Market | None = None) -> TimeContext:
    """The question's time context relative to `now` (an aware UTC datetime); trading days
    are those of `market`."""
    today = now.date()
    found: list[_Found] = []
    for pattern, handler in _RULES:
        for match in pattern.finditer(question):
            span = handler(match, today)
            if isinstance(span, (TradingDays, rules_events.ElectionIn)):    # dated by the market asked about
                span = span.span(today, market)
            reading = span if isinstance(span, Anchored) else None
            if reading is not None:
                span = reading.span
            if span is not None and not _a_year_that_counts_something(question, match):
                found.append(_Found(match.start(), match.end(), span, match.group(0).strip(), reading))
    # Longest expressions first; a shorter one inside a longer one is part of it.
    chosen: list[_Found] = []
    for item in sorted(found, key=lambda f: (-(f.end - f.start), f.start)):
        if all(item.end <= c.start or item.start >= c.end for c in chosen):
            chosen.append(item)
    if not chosen:
        return today_context(now)
    chosen.sort(key=lambda f: f.start)
    starts, ends, words = [], [], []
    for item in chosen:
        start, end = item.span
        since, until = _SINCE.search(question[: item.start]), _UNTIL_NOW.match(question[item.end:])
        text = item.text
        if since or until or _SINCE_INSIDE.match(item.text):
            end = today                      # "since X", "X以来": open up to today
            # …and said so: "since 2024-10-08", "自2024-10-08以来", not the day alone as if it were the period.
            text = question[since.start() if since else item.start: item.end + (until.end() if until else 0)].strip()
        starts.append(start)
        ends.append(max(start, end))
        words.append(text)
    # The question's own words, with the month and weekday names it typed in lower case capitalised.
    label = capitalised(" … ".join(dict.fromkeys(words)))
    readings = [f.reading for f in chosen if f.reading]
    forward = any(r.forward for r in readings) or min(starts) > today
    anchor = next((r.anchor for r in readings if r.anchor), None)
    return TimeContext(min(starts), max(ends), label, forward=forward, anchor=anchor)


def dated_event_words(question: str, now: datetime) -> tuple[str, ...]:
    """The words of each event of the table the question dates itself by ("since the SVB collapse",
    "自DeepSeek发布以来"): a name inside them names the event, not an instrument asked about."""
    today = now.date()
    words = []
    for pattern, handler in rules_events.DATED_RULES:
        for match in pattern.finditer(question):
            reading = handler(match, today)
            if isinstance(reading, rules_events.ElectionIn):
                reading = reading.span(today, None)
            if reading is not None:
                words.append(match.group(0))
    return tuple(words)
