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

EventKind = Literal["fed_cut", "fed_hike", "fomc_meeting", "pboc_cut", "ecb_cut", "ecb_hike", "boj_cut", "boj_hike",
                    "jackson_hole", "china_stimulus", "new_nine_articles", "rmb_devaluation", "election",
                    "btc_halving", "covid_crash", "lehman", "svb", "credit_suisse", "ukraine_invasion",
                    "chatgpt", "spot_btc_etf", "eth_merge", "ftx", "deepseek", "liberation_day", "brexit_vote",
                    "carry_unwind"]

# The last day up to which every recurring kind below was checked to be complete.
CHECKED_THROUGH = date(2025, 12, 31)
# Rate decisions are complete from 2016 (the Fed's cuts from 2019, its meetings from 2023), elections
# from 2016 (see `elections`).
RECURRING: frozenset[EventKind] = frozenset({"fed_cut", "fed_hike", "fomc_meeting", "pboc_cut", "ecb_cut", "ecb_hike",
                                             "boj_cut", "boj_hike", "jackson_hole", "election", "btc_halving"})
# A run of cuts ends at the first hike and the other way round: "since the Fed started cutting"
# is the first cut after the last hike.
OPPOSITE: dict[EventKind, EventKind] = {"fed_cut": "fed_hike", "fed_hike": "fed_cut", "ecb_cut": "ecb_hike",
                                        "ecb_hike": "ecb_cut", "boj_cut": "boj_hike", "boj_hike": "boj_cut"}


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


# The second day of each FOMC meeting, when the statement is released, cuts and hikes included.
_FOMC_MEETINGS = ("2023-02-01", "2023-03-22", "2023-05-03", "2023-06-14", "2023-07-26", "2023-09-20", "2023-11-01",
                  "2023-12-13", "2024-01-31", "2024-03-20", "2024-05-01", "2024-06-12", "2024-07-31", "2024-09-18",
                  "2024-11-07", "2024-12-18", "2025-01-29", "2025-03-19", "2025-05-07", "2025-06-18", "2025-07-30",
                  "2025-09-17", "2025-10-29", "2025-12-10")
_FOMC_CALENDAR = "Federal Reserve, FOMC meeting calendars, https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm"
# The ECB's deposit facility rate; the Bank of Japan's policy rate (negative from 2016-01-29).
_ECB = "ECB press release, Monetary policy decisions, {}, https://www.ecb.europa.eu/press/pr/html/index.en.html"
_ECB_CUTS = ("2016-03-10", "2019-09-12", "2024-06-06", "2024-09-12", "2024-10-17", "2024-12-12", "2025-01-30",
             "2025-03-06", "2025-04-17", "2025-06-05")
_ECB_HIKES = ("2022-07-21", "2022-09-08", "2022-10-27", "2022-12-15", "2023-02-02", "2023-03-16", "2023-05-04",
              "2023-06-15", "2023-07-27", "2023-09-14")
_BOJ = "Bank of Japan, Statement on Monetary Policy, {}, https://www.boj.or.jp/en/mopo/mpmdeci/"
_BOJ_CUTS = ("2016-01-29",)
_BOJ_HIKES = ("2024-03-19", "2024-07-31", "2025-01-24", "2025-12-19")
# The Chair's speech at the Kansas City Fed's Economic Policy Symposium.
_JACKSON_HOLE = ("2022-08-26", "2023-08-25", "2024-08-23", "2025-08-22")


def _iso(compact: str) -> str:
    return f"{compact[:4]}-{compact[4:6]}-{compact[6:]}"


EVENTS: tuple[DatedEvent, ...] = (
    *(_on("fed_cut", _iso(d), "FOMC statement, " + _FOMC.format(d)) for d in _FED_CUTS),
    *(_on("fed_hike", _iso(d), "FOMC statement, " + _FOMC.format(d)) for d in _FED_HIKES),
    *(_on("fomc_meeting", d, _FOMC_CALENDAR) for d in _FOMC_MEETINGS),
    *(_on("ecb_cut", d, _ECB.format(d)) for d in _ECB_CUTS),
    *(_on("ecb_hike", d, _ECB.format(d)) for d in _ECB_HIKES),
    *(_on("boj_cut", d, _BOJ.format(d)) for d in _BOJ_CUTS),
    *(_on("boj_hike", d, _BOJ.format(d)) for d in _BOJ_HIKES),
    *(_on("jackson_hole", d, f"Federal Reserve Bank of Kansas City, Economic Policy Symposium: Chair Powell's "
                             f"speech of {d}, https://www.federalreserve.gov/newsevents/speeches.htm")
      for d in _JACKSON_HOLE),
    _on("pboc_cut", "2024-07-22", "PBOC open market operations announcement of 2024-07-22 "
                                  "(7-day reverse repo rate 1.8% → 1.7%), http://www.pbc.gov.cn/"),
    _on("pboc_cut", "2024-09-24", "PBOC governor Pan Gongsheng, State Council Information Office "
                                  "press conference of 2024-09-24, http://www.scio.gov.cn/"),
    _on("pboc_cut", "2025-05-07", "PBOC governor Pan Gongsheng, State Council Information Office "
                                  "press conference of 2025-05-07, http://www.scio.gov.cn/"),
    _on("china_stimulus", "2024-09-24", "PBOC, NFRA and CSRC heads, State Council Information Office "
                                        "press conference of 2024-09-24, http://www.scio.gov.cn/"),
    _on("new_nine_articles", "2024-04-12", "国务院关于加强监管防范风险推动资本市场高质量发展的若干意见 "
                                           "(国发〔2024〕10号), published 2024-04-12, https://www.gov.cn/"),
    _on("rmb_devaluation", "2015-08-11", "PBOC statement on improving the quotation of the RMB central parity, "
                                         "2015-08-11, http://www.pbc.gov.cn/"),
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
    _on("credit_suisse", "2023-03-19", "FINMA press release of 2023-03-19 on UBS's takeover of Credit Suisse, "
                                       "https://www.finma.ch/"),
    _on("carry_unwind", "2024-08-05", "Nikkei Inc.: the Nikkei 225 fell 12.4% on 2024-08-05, its largest fall "
                                      "since 1987, as yen carry trades unwound"),
    _on("svb", "2023-03-10", "FDIC press release PR-16-2023, https://www.fdic.gov/news/press-releases/2023/"),
    _on("ukraine_invasion", "2022-02-24", "UN General Assembly resolution ES-11/1 (2022-03-02) on the "
                                          "invasion of Ukraine begun 2022-02-24"),
    _on("chatgpt", "2022-11-30", "OpenAI, Introducing ChatGPT, https://openai.com/index/chatgpt/"),
    _on("spot_btc_etf", "2024-01-10", "SEC Chair Gary Gensler, Statement on the Approval of Spot Bitcoin "
                                      "Exchange-Traded Products, 2024-01-10, https://www.sec.gov/"),
    _on("eth_merge", "2022-09-15", "ethereum.org, The Merge (mainnet, 2022-09-15), "
                                   "https://ethereum.org/en/roadmap/merge/"),
    _on("ftx", "2022-11-11", "FTX Trading Ltd. Chapter 11 petition, U.S. Bankruptcy Court D. Del., case 22-11068, "
                             "2022-11-11"),
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
