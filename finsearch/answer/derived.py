"""Figures an answer computes from cited values, each kept with the values it came from so
the sentence cites them all and the audit can trace it (figures.derived):

    upside(target, price)           → how far the analysts' target lies above the price, in %
    implied_growth(trailing, fwd)   → the earnings growth a forward P/E below the trailing one
                                      implies, in % (trailing / forward − 1)
    share_of(part, whole)           → a part as a % of a whole (a dividend per share over the
                                      price: a yield from a plan)

The writer says each one is derived ("(derived)", "（推算）").
"""

from __future__ import annotations

import dataclasses

from ..evidence import Evidence
from .quantities import Quantity
from .view import unique


@dataclasses.dataclass(frozen=True)
class Derived:
    value: float                       # in percent
    inputs: tuple[Quantity, ...]

    @property
    def items(self) -> list[Evidence]:
        return unique(q.item for q in self.inputs)


def upside(target: Quantity, price: Quantity) -> Derived | None:
    if price.value <= 0:
        return None
    return Derived(round((target.value / price.value - 1) * 100, 2), (target, price))


def implied_growth(trailing: Quantity, forward: Quantity) -> Derived | None:
    if forward.value <= 0 or trailing.value <= 0:
        return None
    return Derived(round((trailing.value / forward.value - 1) * 100, 2), (trailing, forward))


def share_of(part: Quantity, whole: Quantity) -> Derived | None:
    if whole.value <= 0:
        return None
    return Derived(round(part.value / whole.value * 100, 2), (part, whole))
