"""The day an item is dated by, wherever it is shown: the answer's sentences and headline
lines, every References list (the chat, the HTML export, the research report, the command
line) and the audit that traces the answer's dates. One day per item, the day the answer states:

- a story (news, web, a filing: every kind but finance data) by when it was published, on the
  clock of the market of the instrument it is about: a Tesla event at 23:30 in New York (03:30
  UTC the next day) is dated the day it happened there, a cninfo notice stamped 16:00 UTC the
  next day in Beijing; in UTC when it is about no instrument of a known market;
- finance data by the UTC day of its stamp, the day its figures are said to be "as of" (a
  quote fetched at 01:00 UTC is as of that day), else by the end of the period it covers (a
  price history);
- None when it has neither.

Which instrument an item is about is the answer's rule (`Dating.about`): the ticker its node
searched for, else the ticker of its payload, else the question's only instrument.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import date

from ..evidence import Evidence
from ..graph import NodeStatus, SearchGraph
from ..reference import markets


def day_of(item: Evidence, about: str | None) -> date | None:
    """The day `item` is dated by, read on the clock of `about`'s market (see the module)."""
    stamp = item.published or (item.period or {}).get("end")
    if not stamp:
        return None
    try:
        return markets.bar_day(stamp, markets.zone_for(None, about) if item.kind != "finance" else None)
    except ValueError:
        return None


def searched_for(graph: SearchGraph) -> dict[str, str]:
    """Evidence id → the ticker the node that found it searched for."""
    return {e.id: n.args["ticker"] for n in graph if n.status is NodeStatus.DONE
            for e in n.evidence if isinstance(n.args.get("ticker"), str)}


@dataclasses.dataclass(frozen=True)
class Dating:
    """Which instrument each item of one run is about, so every item is dated on that market's clock."""
    searched: Mapping[str, str]           # evidence id → the ticker its node searched for
    only: str | None = None               # the question's one instrument: every story is about it

    @classmethod
    def of(cls, graph: SearchGraph, tickers: list[str]) -> Dating:
        return cls(searched_for(graph), tickers[0] if len(tickers) == 1 else None)

    def about(self, item: Evidence) -> str | None:
        return self.searched.get(item.id) or item.ticker or self.only

    def day(self, item: Evidence) -> date | None:
        return day_of(item, self.about(item))
