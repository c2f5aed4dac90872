"""Which value of a quantity is current, and how old the others are.

The freshest value of a quantity wins (`quantities.freshest`); a price is the clearest case: a
quote stamped days before the last daily close is stale, and the answer gives the close with
its day, naming the quote's age. A window of prices says the days it measured.
"""

from __future__ import annotations

import dataclasses
from datetime import date

from .quantities import Quantity

STALE_DAYS = 1          # a value more than this many days older than the freshest is labelled with its age


@dataclasses.dataclass(frozen=True)
class Current:
    """The freshest value, and an older one of the same kind that an answer would otherwise
    have used (a stale quote), with its age in days."""
    value: Quantity
    stale: Quantity | None = None

    @property
    def age_days(self) -> int:
        if self.stale is None or self.stale.as_of is None or self.value.as_of is None:
            return 0
        return (self.value.as_of - self.stale.as_of).days


def current(found: list[Quantity], kind: str, ticker: str) -> Current | None:
    """The freshest `kind` for `ticker`, with the stalest structured value more than
    STALE_DAYS older (a quote left behind by the daily closes)."""
    mine = [q for q in found if q.kind == kind and q.ticker == ticker]
    if not mine:
        return None
    best = max(enumerate(mine), key=lambda iq: (iq[1].as_of or date.min, iq[1].structured, -iq[0]))[1]
    older = [q for q in mine if q.structured and q.item is not best.item and q.as_of is not None
             and best.as_of is not None and (best.as_of - q.as_of).days > STALE_DAYS]
    return Current(best, min(older, key=lambda q: q.as_of) if older else None)
