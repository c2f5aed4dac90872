"""The dated events a period's answer names: its earnings report, a material filing, then stories.

    period_events(view, ticker, first, last) → [PeriodEvent] (oldest first, at most EVENTS_NAMED)
    results_days(view, ticker) → the days results were reported (for "the day after its results")

For an analyst the period's main event is its results ("EPS 0.81 against 0.75 expected, 2024-11-20"),
then what the company filed (a 10-Q, an 8-K, a cninfo or HKEXnews announcement), then the stories
that say most. Every figure is the evidence's own; nothing here says what caused a move.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date
from typing import Literal

from ..evidence import Evidence
from ..phrases import say
from ..phrases.numbers import decimal, finite
from ..plan.analysis import language_of
from .cause_sentences import quote
from .causes import kinds_of
from .figures import figures_in
from .view import AnswerView

EVENTS_NAMED = 3
FILING_SOURCES = frozenset({"sec_filings", "cn_announcements", "hk_announcements"})
# Forms that report results or material events; a Form 4 or an S-8 is routine.
_PERIODIC_FORMS = ("10-K", "10-Q", "20-F", "40-F")
_EVENT_FORMS = ("8-K", "6-K")
# An announcement of a report or of results; other announcements count when they name a kind of news.
_REPORT_WORDS = re.compile(r"年度报告|季度报告|半年度报告|年报|业绩|results|annual report|interim report"
                           r"|quarterly report", re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class PeriodEvent:
    day: date
    item: Evidence
    kind: Literal["results", "filing", "story"]
    eps: float | None = None          # results: the reported EPS and the estimate, as the evidence gives them
    estimate: float | None = None


def period_events(view: AnswerView, ticker: str, first: date, last: date) -> list[PeriodEvent]:
    """The results reported in [first, last] (the latest), one material filing, then the stories that
    say most, up to EVENTS_NAMED in all, oldest first; each one the answer's language can name."""
    picked: list[PeriodEvent] = _results(view, ticker, first, last)[-1:]
    picked += _filings(view, ticker, first, last)[:1]
    picked += _stories(view, ticker, first, last)[:EVENTS_NAMED - len(picked)]
    return sorted(picked, key=lambda e: e.day)


def results_days(view: AnswerView, ticker: str) -> list[date]:
    """Every day the earnings evidence says results were reported."""
    return [e.day for e in _results(view, ticker, date.min, date.max)]


def event_text(view: AnswerView, event: PeriodEvent) -> str:
    """An event as the lead names it, cited: results with their figures, a filing by its form,
    a story by its headline (in another language, by the kind of news it reported)."""
    language = view.language
    values = {"publisher": view.publisher(event.item), "ref": view.ref(event.item)}
    if event.kind == "results":
        key = "lead.period_event_results" if event.estimate is not None else "lead.period_event_results_alone"
        return say(key, language, date=event.day.isoformat(), eps=decimal(event.eps),
                   estimate=decimal(event.estimate), **values)
    form = _form(event.item)
    if form:
        return say("lead.period_event_filing", language, form=form, date=event.day.isoformat(), **values)
    if language_of(event.item.title) == language:
        return say("lead.latest_item", language, title=quote(event.item.title), date=view.day_text(event.item),
                   **values)
    kind = kinds_of(event.item.title)[0]
    return say("lead.period_event_kind", language, phrase=say(f"cause.kind.{kind.id}", language),
               date=view.day_text(event.item), **values)


def _results(view: AnswerView, ticker: str, first: date, last: date) -> list[PeriodEvent]:
    out = []
    for item in view.finance("earnings", ticker):
        rows = (item.data or {}).get("history")
        for row in rows if isinstance(rows, list) else ():
            day = _day(row.get("date")) if isinstance(row, dict) else None
            eps = finite(row.get("eps_reported")) if day else None
            if day and eps is not None and first <= day <= last:
                out.append(PeriodEvent(day, item, "results", eps, finite(row.get("eps_estimate"))))
    return sorted(out, key=lambda e: e.day)


def _filings(view: AnswerView, ticker: str, first: date, last: date) -> list[PeriodEvent]:
    """Material filings dated in the period: periodic reports first, then event reports and
    announcements of results or of a kind of news; the latest first within each."""
    found = []
    for item in view.stories(ticker):
        day = view.day(item)
        if item.source not in FILING_SOURCES or day is None or not first <= day <= last:
            continue
        form = _form(item)
        if form in _PERIODIC_FORMS:
            found.append((0, day, item))
        elif form in _EVENT_FORMS:
            found.append((1, day, item))
        elif not form and _nameable(view, item) and (_REPORT_WORDS.search(item.title) or kinds_of(item.title)):
            found.append((0 if _REPORT_WORDS.search(item.title) else 1, day, item))
    found.sort(key=lambda t: (t[0], -t[1].toordinal()))
    return [PeriodEvent(day, item, "filing") for _, day, item in found]


def _stories(view: AnswerView, ticker: str, first: date, last: date) -> list[PeriodEvent]:
    """The stories dated in the period that say most: those naming results, guidance or another
    kind of news that moves a price, those with a figure, then the weightiest."""
    dated = [(e, d) for e in view.stories(ticker) if e.source not in FILING_SOURCES
             and (d := view.day(e)) is not None and first <= d <= last and _nameable(view, e)]
    ranked = sorted(dated, key=lambda pair: (not kinds_of(pair[0].title), not _has_figure(pair[0].title),
                                             pair[0].source == "web_search", -(pair[0].time_weight or 0)))
    return [PeriodEvent(d, e, "story") for e, d in ranked]


def _nameable(view: AnswerView, item: Evidence) -> bool:
    # A headline in another language is named by its kind of news: one that names none is left out.
    return language_of(item.title) == view.language or bool(kinds_of(item.title))


def _form(item: Evidence) -> str:
    form = (item.data or {}).get("form") if isinstance(item.data, dict) else None
    return form.strip().upper() if isinstance(form, str) and form.strip() else ""


def _day(value) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _has_figure(text: str) -> bool:
    return any(f.kind != "date" for f in figures_in(text))
