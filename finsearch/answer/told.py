"""The facts an answer's opening gave, so the detail under it gives each one once.

A fact is a figure with the day it is of, or with the evidence it cites:

    told = Told.of(lead_sentences)
    told.on_day(value, day)      → a clause gave this figure for this day ("+5.30% on 2024-11-08")
    told.cited(value, ref)       → a sentence gave this figure citing evidence [ref] (a period's return)
    told.said(value, day)        → a clause gave this figure for this day or for none ("EPS of 0.81")
    told.repeated(sentence)      → (figures in a detail sentence, how many of them were told)
    told.and_then(sentences)     → what was told once these were said too (the detail, sentence by sentence)

So "-5.21% on 2024-10-14" is not told by "over 5 trading days", nor "+0.50% on 2024-11-21" by
"fell 0.50% on 2024-11-20 (a story of 2024-11-21)": the detail drops only what the reader has
already read and keeps what only it says. A figure belongs to the dates of its clause (commas,
semicolons and colons end one).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from datetime import date

from .citations import markers
from .figures import Figure, figures_in

# Where one clause of a sentence ends; a comma inside "1,454.30" has no space after it. Brackets
# do not end one: "fell 0.40% last week (2024-11-04 → 2024-11-10)" is of those days.
_CLAUSE_END = re.compile(r",\s|[;:，；：。]")
_SIGNS = "+-−–"


@dataclasses.dataclass(frozen=True)
class ToldClause:
    figures: tuple[Figure, ...]          # its numbers, percentages and amounts (not its dates)
    days: frozenset[date]


@dataclasses.dataclass(frozen=True)
class ToldSentence:
    clauses: tuple[ToldClause, ...]
    refs: frozenset[int]                 # the evidence it cites, by the answer's numbering


@dataclasses.dataclass(frozen=True)
class Told:
    sentences: tuple[ToldSentence, ...] = ()

    @classmethod
    def of(cls, sentences: Iterable[str]) -> Told:
        return cls(tuple(ToldSentence(tuple(_clause(part) for part in _CLAUSE_END.split(text)),
                                      frozenset(markers(text))) for text in sentences))

    def and_then(self, sentences: Iterable[str]) -> Told:
        """What the reader has read once `sentences` follow: a detail sentence tells the ones after it
        too (a period's last close is not the quote's "last traded" price of that day again)."""
        return Told(self.sentences + Told.of(sentences).sentences)

    def on_day(self, value: float | None, day: str | date | None, percent: bool = True) -> bool:
        """One clause gave `value` (a percentage, or an amount when not `percent`) and `day`."""
        when = _day(day)
        return when is not None and any(when in c.days and _states(c, value, percent)
                                        for s in self.sentences for c in s.clauses)

    def said(self, value: float | None, day: str | date | None, percent: bool = True) -> bool:
        """One clause gave `value` for `day`, or for no day at all ("EPS of 0.81 against 0.75 expected")."""
        when = _day(day)
        return any(_states(c, value, percent) and (not c.days or when is None or when in c.days)
                   for s in self.sentences for c in s.clauses)

    def cited(self, value: float | None, ref: int, percent: bool = True) -> bool:
        """One sentence gave `value` citing evidence [ref]: a figure with no one day, such as a period's return."""
        return any(ref in s.refs and any(_states(c, value, percent) for c in s.clauses) for s in self.sentences)

    def repeated(self, sentence: str) -> tuple[int, int]:
        """(how many figures `sentence` gives, how many of them were told): a figure of a clause
        with dates counts when told for one of them or with no day ("EPS of 0.92"), not when told
        only for other days."""
        figures = repeated = 0
        for clause in (_clause(part) for part in _CLAUSE_END.split(sentence)):
            for f in clause.figures:
                percent = f.kind == "percent"
                figures += 1
                repeated += any(_states(c, f.value, percent) and (not clause.days or not c.days or c.days & clause.days)
                                for s in self.sentences for c in s.clauses)
        return figures, repeated


def _clause(text: str) -> ToldClause:
    found = figures_in(text)
    return ToldClause(tuple(f for f in found if f.kind != "date"),
                      frozenset(f.day for f in found if f.kind == "date" and f.day))


def _states(clause: ToldClause, value: float | None, percent: bool) -> bool:
    """The clause has `value`: with its sign when written with one ("-4.70%"), else either way
    ("fell 7.50%" tells -7.50%)."""
    if value is None:
        return False
    for f in clause.figures:
        if (f.kind == "percent") != percent:
            continue
        signed = f.text.lstrip()[:1] in _SIGNS
        if signed and (f.value < 0) != (value < 0) and abs(value) > f.tolerance:
            continue
        if abs(abs(f.value) - abs(value)) <= f.tolerance + 1e-9:
            return True
    return False


def _day(day: str | date | None) -> date | None:
    if isinstance(day, date):
        return day
    try:
        return date.fromisoformat(str(day or "")[:10])
    except ValueError:
        return None
