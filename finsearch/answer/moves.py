"""The move a "why" question asks about: the biggest daily move of the asked period the way
the question says the price went (by size alone when it asks how the stock did over the period),
or the run of trading days in a row it belongs to ("fell three days in a row") when the run moved
the price clearly more than its biggest day.

    significant_move(question, history) → Move | None
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date

from ..evidence import Evidence
from ..payloads import PriceMove
from ..plan.intents import asks_performance
from ..sources.yahoo.price_stats import daily_closes

# A run is told as a run when it moved the price this much more than its biggest day did,
# or when the question asks about days in a row.
RUN_FACTOR = 1.5
_IN_A_ROW = re.compile(r"\bin\s+a\s+row\b|\bstraight\s+(?:days|sessions)|\bconsecutive|\bstreak"
                       r"|连续|连跌|连涨|接连|几连", re.I)
# The way a question says the price went ("why did it jump", "为什么跌"); both or neither: no way.
_ASKS_UP = re.compile(r"\b(?:rise|rises|rose|risen|jump|surg|soar|rall|gain|climb|spike|up\b)|涨(?![跌空])|拉升|飙升",
                      re.I)
_ASKS_DOWN = re.compile(r"\b(?:fall|fell|drop|sank|sink|slump|tumbl|plung|declin|crash|slid|down\b|lose|lost)"
                        r"|(?<!涨)跌|跳水|下挫|重挫", re.I)


@dataclasses.dataclass(frozen=True)
class Move:
    history: Evidence
    start: date                     # first trading day of the move
    end: date                       # last trading day (the same as start for one day)
    change_pct: float               # close before `start` → close of `end`
    days: int                       # trading days
    biggest: PriceMove              # its biggest day

    @property
    def run(self) -> bool:
        return self.days > 1

    @property
    def falling(self) -> bool:
        return self.change_pct < 0


def asked_direction(question: str) -> bool | None:
    """True when the question says the price fell, False when it rose, None when it says neither."""
    up, down = _ASKS_UP.search(question), _ASKS_DOWN.search(question)
    return None if bool(up) == bool(down) else bool(down)


def biggest_day(question: str, history: Evidence, falling: bool | None = None) -> PriceMove | None:
    """The biggest daily move the way `falling` or the question says it went; for a question on
    how the period went, the biggest either way (a period up 2.7% whose biggest day was a 4.7%
    fall has that fall for its biggest move); else the way the period went; else the biggest."""
    prices = history.prices
    if prices is None or not prices.stats.biggest_moves:
        return None
    moves, ret = prices.stats.biggest_moves, prices.stats.return_pct
    falling = asked_direction(question) if falling is None else falling
    if falling is None and asks_performance(question):
        return max(moves, key=lambda m: abs(m.change_pct))
    if falling is None:
        falling = ret < 0 if ret is not None else None
    same_way = [m for m in moves if falling is not None and (m.change_pct < 0) == falling]
    return (same_way or list(moves))[0]


def significant_move(question: str, history: Evidence, falling: bool | None = None,
                     day: PriceMove | None = None) -> Move | None:
    """The move the question asks about (`day`'s, when given), one day or the run it belongs to."""
    day = day or biggest_day(question, history, falling)
    if day is None:
        return None
    try:
        moved = date.fromisoformat(day.date[:10])
    except ValueError:
        return None
    single = Move(history, moved, moved, day.change_pct, 1, day)
    closes = [(d, close) for d, _, _, close in daily_closes(list(history.prices.rows))]
    focus = history.prices.stats.focus
    first, last = (date.fromisoformat(focus[0]), date.fromisoformat(focus[1])) if focus else (None, None)
    index = next((i for i, (d, _) in enumerate(closes) if d == moved), None)
    if index is None or index == 0:
        return single
    sign = 1 if day.change_pct >= 0 else -1

    def same_way(i: int) -> bool:
        return i > 0 and closes[i - 1][1] > 0 and (closes[i][1] - closes[i - 1][1]) * sign > 0 \
            and (first is None or first <= closes[i][0] <= last)

    start = index
    while same_way(start - 1):
        start -= 1
    end = index
    while end + 1 < len(closes) and same_way(end + 1):
        end += 1
    if start == end or closes[start - 1][1] <= 0:
        return single
    change = (closes[end][1] / closes[start - 1][1] - 1) * 100
    if abs(change) < RUN_FACTOR * abs(day.change_pct) and not _IN_A_ROW.search(question):
        return single
    return Move(history, closes[start][0], closes[end][0], round(change, 2), end - start + 1, day)
