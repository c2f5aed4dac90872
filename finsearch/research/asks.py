"""What an outline's key questions are filled with, known before anything is fetched: the
companies by name and ticker, a rival for the valuation question, the request's period in
words, the quarter its results are for, where its market's companies disclose their risks,
and what a request about no one company is about.

Each key question is read again by the question reader when its section is searched
(`research.section`), so every word put in here is one that reader knows: the instrument's
own name and ticker, a rival from `reference.peers` (all in the alias table), and period
words the time rules read back to the same days ("in Q3 2024", "2024年第三季度", "近三个月").
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, timedelta

from ..answer.titles import instrument_names
from ..catalogue import listing_of
from ..phrases import Language, say
from ..phrases.dates import DaySpan
from ..plan.alias_table import alias_table
from ..plan.analysis import Analysis
from ..plan.interpretation_text import local_name
from ..reference.peers import rival_of
from ..timecontext import TimeContext

_QUARTER_ZH = "一二三四"


@dataclasses.dataclass(frozen=True)
class Facts:
    name: str                  # "Adobe (ADBE)"; several: "NVIDIA (NVDA) and Advanced Micro Devices (AMD)"
    short: str                 # "ADBE" (in Chinese the name: "腾讯"); several: "NVDA and AMD"
    peer: str                  # "Salesforce (CRM)", or "" when no rival is known
    period: str                # "in Q3 2024", "over the past three months", "2024年以来"
    quarter: str               # "Q3 2024", "its latest quarter"
    filing: str                # where its market's companies disclose risks: "its latest 10-K annual report"
    topic: str                 # what a request about no one company is about: "the US regional banks"
    tickers: tuple[str, ...]   # the companies named, in the request's order
    peer_ticker: str | None = None

    def values(self) -> dict[str, str]:
        return {"name": self.name, "short": self.short, "peer": self.peer, "period": self.period,
                "quarter": self.quarter, "filing": self.filing, "topic": self.topic}


def facts(analysis: Analysis) -> Facts:
    language = analysis.language
    shown = instrument_names(analysis, language)
    tickers = tuple(e.ticker for e in analysis.entities if e.ticker)
    names = [_named(t, shown[t], language) for t in tickers]
    shorts = [_short(t, shown[t], language) for t in tickers]
    peer_ticker = rival_of(tickers[0]) if len(tickers) == 1 else None
    peer_ticker = peer_ticker if peer_ticker and listing_of(peer_ticker) else None
    peer = ""
    if peer_ticker:
        known = alias_table().by_ticker.get(peer_ticker)
        peer = _named(peer_ticker, local_name(known.name, peer_ticker, language) if known else peer_ticker, language)
    period, quarter = period_words(analysis.time_context, language, several=len(tickers) > 1)
    listing = listing_of(tickers[0]) if tickers else None
    return Facts(_listed(names, language), _listed(shorts, language), peer, period, quarter,
                 say(f"report.filing.{listing or 'other'}", language), topic(analysis, _listed(names, language)),
                 tickers, peer_ticker)


def _named(ticker: str, name: str, language: Language) -> str:
    return ticker if name == ticker else say("instrument", language, name=name, ticker=ticker)


def _short(ticker: str, name: str, language: Language) -> str:
    """What a second mention calls it: the ticker of a US listing in English, else the name."""
    return ticker if language == "en" and listing_of(ticker) == "us" else name


def _listed(items: list[str], language: Language) -> str:
    if len(items) < 2:
        return items[0] if items else ""
    return say("list.sep", language).join(items[:-1]) + say("report.list.and", language) + items[-1]


def period_words(tc: TimeContext, language: Language, several: bool = False) -> tuple[str, str]:
    """(the period, the quarter its results are for), in words the time rules read back. A
    request that names no period is about now: the past three months and the latest quarter."""
    latest = say("report.quarter.latest_several" if several else "report.quarter.latest", language)
    if not tc.explicit or tc.forward:
        return say("report.period.recent", language), latest
    quarter = _one_quarter(tc)
    if quarter is not None:
        year, n = quarter
        number = str(n) if language == "en" else _QUARTER_ZH[n - 1]
        named = say("report.quarter.named", language, year=str(year), n=number)
        return say("report.period.in", language, what=named), named
    if tc.start == date(tc.start.year, 1, 1) and tc.end.year == tc.start.year and tc.end.month >= 10:
        return say("report.period.year", language, year=str(tc.start.year)), latest
    if tc.start == tc.end:                # one day is a day, not a span from it to itself
        return say("report.period.on", language, day=_day(tc.start, language)), latest
    return say("report.period.span", language, span=DaySpan(_day(tc.start, language), _day(tc.end, language))), latest


def _day(day: date, language: Language) -> str:
    return say("report.day", language, year=str(day.year), month=f"{day.month:02d}", day=f"{day.day:02d}")


def _one_quarter(tc: TimeContext) -> tuple[int, int] | None:
    start, end = tc.start, tc.end
    if start.day != 1 or start.month not in (1, 4, 7, 10) or start.year != end.year:
        return None
    last = (date(start.year + 1, 1, 1) if start.month == 10 else date(start.year, start.month + 3, 1)) - timedelta(1)
    return (start.year, (start.month - 1) // 3 + 1) if end == last else None


# What a request about a sector, an event or the economy is about: the words around the type's own.
_SUBJECT = (
    re.compile(r"(?:\b[\w&.-]+\s+){0,3}?(?:industry|sector|banks|chipmakers|semiconductors|makers)\b", re.I),
    re.compile(r"(?:impact of|after|in the wake of|fallout from|reaction to|what does)\s+(?P<t>[^?.!,]+?)"
               r"(?=\s+(?:on|for|mean)\b|[?.!,]|$)", re.I),
    re.compile(r"(?:\b(?:US|China's|Chinese|euro[- ]area)\s+)?(?:\binflation|\binterest rates?|\bGDP(?: growth)?"
               r"|\bCPI\b|\brecession|\bunemployment|\bcentral bank|\b(?:bond|treasury) yields?)", re.I),
    re.compile(r"[\u4e00-\u9fffA-Za-z]{1,8}?(?:行业|板块|产业|赛道)"),
    re.compile(r"^(?P<t>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)(?:对|事件|的影响)"),
)
_ASKING = re.compile(r"^(?:please\s+)?(?:(?:analy[sz]e|research|review|assess|explain|describe|tell me about|"
                     r"report on)\s+|(?:what|how|why|which|who)\s+(?:is|are|was|were|does|do|did|has|have)\s+)"
                     r"|^请?(?:帮我)?(?:分析一下|分析|研究一下|研究|介绍一下|介绍|解读)", re.I)
_ENDING = re.compile(r"(?:如何|怎么样|怎样|分析|研究|情况)?[\s?？。.!！]*$")


def topic(analysis: Analysis, named: str = "") -> str:
    """"the US regional banks", "半导体行业", "the TikTok ban"; else the companies `named`;
    else the request without its asking words."""
    question = analysis.question.strip()
    if analysis.time_context.explicit:      # the period is said in the key question's own words
        question = " ".join(question.replace(analysis.time_context.label, " ").split())
    for pattern in _SUBJECT:
        found = pattern.search(question)
        if found:
            return (found.groupdict().get("t") or found.group(0)).strip()
    if named:
        return named
    return _ENDING.sub("", _ASKING.sub("", question)).strip() or question
