"""Well-known market events and their dates, each with where the date comes from.

"Since the Fed cut", "after the stimulus", "自9月降息以来": the window runs from the event to
today. Only events whose date is on record are here; a kind that recurs (rate decisions,
elections, halvings) is complete up to `CHECKED_THROUGH`, so after that day a later one may
be missing and the reading is marked provisional instead of trusted.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from typing import Literal

from . import elections

EventKind = Literal["fed_cut", "fed_hike", "pboc_cut", "china_stimulus", "election",
                    "btc_halving", "covid_crash", "lehman", "svb", "ukraine_invasion",
                    "chatgpt", "spot_btc_etf", "deepseek", "liberation_day", "brexit_vote"]

# The last day up to which every recurring kind below was checked to be complete.
CHECKED_THROUGH = date(2025, 12, 31)
RECURRING: frozenset[EventKind] = frozenset({"fed_cut", "fed_hike", "pboc_cut", "election", "btc_halving"})
# A run of cuts ends at the first hike and the other way round: "since the Fed started cutting"
# is the first cut after the last hike.
OPPOSITE: dict[EventKind, EventKind] = {"fed_cut": "fed_hike", "fed_hike": "fed_cut"}


@dataclasses.dataclass(frozen=True)
class DatedEvent:
    kind: EventKind
    start: date
    end: date          # the last day of the event itself (a crash runs for weeks)
    source: str        # where the date is from: a URL or a document's name
    place: str | None = None    # where it happened, for a kind held in many places (elections)


def _on(kind: EventKind, day: str, source: str) -> DatedEvent:
    return DatedEvent(kind, date.fromisoformat(day), date.fromisoformat(day), source)


_FOMC = "https://www.federalreserve.gov/newsevents/pressreleases/monetary{}a.htm"
_FED_CUTS = ("20190731", "20190918", "20191030", "20200303", "20200315", "20240918", "20241107",
             "20241218", "20250917", "20251029", "20251210")
_FED_HIKES = ("20151216", "20161214", "20170315", "20170614", "20171213", "20180321", "20180613", "20180926",
              "20181219", "20220316", "20220504", "20220615", "20220727", "20220921", "20221102", "20221214",
              "20230201", "20230322", "20230503", "20230726")


def _iso(compact: str) -> str:
    return f"{compact[:4]}-{compact[4:6]}-{compact[6:]}"


EVENTS: tuple[DatedEvent, ...] = (
    *(_on("fed_cut", _iso(d), "FOMC statement, " + _FOMC.format(d)) for d in _FED_CUTS),
    *(_on("fed_hike", _iso(d), "FOMC statement, " + _FOMC.format(d)) for d in _FED_HIKES),
    _on("pboc_cut", "2024-07-22", "PBOC open market operations announcement of 2024-07-22 "
                                  "(7-day reverse repo rate 1.8% → 1.7%), http://www.pbc.gov.cn/"),
    _on("pboc_cut", "2024-09-24", "PBOC governor Pan Gongsheng, State Council Information Office "
                                  "press conference of 2024-09-24, http://www.scio.gov.cn/"),
    _on("pboc_cut", "2025-05-07", "PBOC governor Pan Gongsheng, State Council Information Office "
                                  "press conference of 2025-05-07, http://www.scio.gov.cn/"),
    _on("china_stimulus", "2024-09-24", "PBOC, NFRA and CSRC heads, State Council Information Office "
                                        "press conference of 2024-09-24, http://www.scio.gov.cn/"),
    *(DatedEvent("election", e.day, e.day, e.source, e.place) for e in elections.ELECTIONS),
    _on("brexit_vote", "2016-06-23", "The Electoral Commission, EU referendum results (2016-06-23), "
                                     "https://www.electoralcommission.org.uk/"),
    _on("btc_halving", "2012-11-28", "bitcoin block 210,000 timestamp"),
    _on("btc_halving", "2016-07-09", "bitcoin block 420,000 timestamp"),
    _on("btc_halving", "2020-05-11", "bitcoin block 630,000 timestamp"),
    _on("btc_halving", "2024-04-20", "bitcoin block 840,000 timestamp (2024-04-20 00:09 UTC)"),
    DatedEvent("covid_crash", date(2020, 2, 20), date(2020, 3, 23),
               "S&P Dow Jones Indices: S&P 500 record close 2020-02-19, low close 2020-03-23"),
    _on("lehman", "2008-09-15", "Lehman Brothers Holdings Chapter 11 petition, "
                                "U.S. Bankruptcy Court S.D.N.Y., 2008-09-15"),
    _on("svb", "2023-03-10", "FDIC press release PR-16-2023, https://www.fdic.gov/news/press-releases/2023/"),
    _on("ukraine_invasion", "2022-02-24", "UN General Assembly resolution ES-11/1 (2022-03-02) on the "
                                          "invasion of Ukraine begun 2022-02-24"),
    _on("chatgpt", "2022-11-30", "OpenAI, Introducing ChatGPT, https://openai.com/index/chatgpt/"),
    _on("spot_btc_etf", "2024-01-10", "SEC Chair Gary Gensler, Statement on the Approval of Spot Bitcoin "
                                      "Exchange-Traded Products, 2024-01-10, https://www.sec.gov/"),
    _on("deepseek", "2025-01-27", "NVDA's daily close of 2025-01-27 (−17%), the market's answer to DeepSeek-R1"),
    _on("liberation_day", "2025-04-02", "The White House, Executive Order 14257 of 2025-04-02"),
)


def latest(kind: EventKind, today: date, month: int | None = None, year: int | None = None,
           places: tuple[str, ...] = ()) -> DatedEvent | None:
    """The most recent event of `kind` that began by `today` (in `month`/`year` when the
    question names them: "the September cut"; in one of `places` when given: "the Indian
    election"); None when there is none."""
    found = [e for e in EVENTS if e.kind == kind and e.start <= today and (not places or e.place in places)
             and (month is None or e.start.month == month) and (year is None or e.start.year == year)]
    return max(found, key=lambda e: e.start, default=None)


def first_of_run(event: DatedEvent) -> DatedEvent:
    """The event that began the run `event` belongs to ("since the Fed started hiking in 2022":
    the first hike after the last cut); the event itself for a kind without an opposite."""
    opposite = OPPOSITE.get(event.kind)
    if opposite is None:
        return event
    turned = max((e.start for e in EVENTS if e.kind == opposite and e.start < event.start), default=date.min)
    return min((e for e in EVENTS if e.kind == event.kind and turned < e.start <= event.start),
               key=lambda e: e.start)


def maybe_outdated(event: DatedEvent, today: date) -> bool:
    """Whether a later event of the same kind could have happened that the table lacks."""
    return event.kind in RECURRING and today > CHECKED_THROUGH
