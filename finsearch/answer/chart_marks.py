"""Which of a period's biggest daily moves a K-line marks, and where each label goes.

Labels of moves on neighbouring trading days sat on top of each other (TSLA 10-09 and 10-10),
so a chart marks the biggest moves no two of which are on neighbouring trading days, and
alternates its labels above and below the candles in date order, so two labels on one side
are at least four trading days apart; of three, the outer two lean away from each other.
"""

from __future__ import annotations

import dataclasses

from ..payloads import PriceMove

MARKED = 3


@dataclasses.dataclass(frozen=True)
class Mark:
    move: PriceMove
    above: bool          # the label sits above the day's high (else below its low)
    lean: int = 0        # -1: the label leans left of its day, 1: right, 0: straight above or below


def marks(moves: tuple[PriceMove, ...] | list[PriceMove], days: list[str], most: int = MARKED) -> list[Mark]:
    """The marks for `moves` (biggest first) on a chart of trading `days` (ISO dates, oldest
    first, repeats allowed for intraday bars), in date order; moves off the chart are skipped."""
    position = {day: i for i, day in enumerate(dict.fromkeys(days))}
    kept: list[PriceMove] = []
    for move in moves:
        at = position.get(move.date)
        if at is None or any(abs(at - position[k.date]) <= 1 for k in kept):
            continue
        kept.append(move)
        if len(kept) == most:
            break
    kept.sort(key=lambda m: position[m.date])
    lean = {0: -1, len(kept) - 1: 1} if len(kept) > 2 else {}
    return [Mark(move, above=i % 2 == 0, lean=lean.get(i, 0)) for i, move in enumerate(kept)]
