"""Leads for how an instrument did over a period, and why: the period's return first, then its
biggest moves by size with their causes, else the period's main dated events.

    period_lead(view) → PeriodLead(sentences, explained)

"How did NVDA do since 2024-10-08, and why?" asks about the whole period: the opening says the
period's change from which close to which, then the biggest daily moves either way (not the
biggest in the direction the period went) with the cause a story from around each gives (`causes`).
When no story around any of them gives one, what the evidence shows happened in the period is named
(`period_events`: its results with reported against expected EPS, a material filing, then the stories
that say most), never as the cause of a move; a move on the day of or the day after results is said to
be so only when the dates show it.
"""

from __future__ import annotations

import dataclasses
from datetime import date

from ..evidence import Evidence
from ..phrases import say
from ..phrases.numbers import pct
from . import facts as answer_facts
from .cause_sentences import cause_sentence
from .causes import Explanation, explain
from .period_events import event_text, period_events, results_days
from .view import AnswerView

MOVES_EXPLAINED = 2        # the period's biggest daily moves the lead looks for causes of


@dataclasses.dataclass(frozen=True)
class PeriodLead:
    sentences: tuple[str, ...]
    explained: tuple[Explanation, ...]     # the moves whose causes the lead gave


def period_lead(view: AnswerView) -> PeriodLead:
    """Per instrument: the period's change, cited; the biggest moves' causes, or what happened."""
    out: list[str] = []
    explained: list[Explanation] = []
    for ticker in view.tickers:
        history = view.first("price_history", ticker)
        if history is None or history.prices is None:
            continue
        out += answer_facts.price_history(history, view.ref(history), view.names, view.language, view.when)[:1]
        found = _explanations(view, ticker, history)
        caused = [e for e in found if e.cause is not None]
        out += [cause_sentence(e, view) for e in caused]
        explained += caused
        if found and not caused:
            out.append(_unexplained(view, ticker, history, found))
            events = _events(view, ticker, history)
            if events:
                items = say("list.semi", view.language).join(event_text(view, e) for e in events)
                out.append(say("lead.period_events", view.language, items=items))
    return PeriodLead(tuple(out), tuple(explained))


def _explanations(view: AnswerView, ticker: str, history: Evidence) -> list[Explanation]:
    """The biggest daily moves by size, each explained once (two days of one run are one move)."""
    moves = sorted(history.prices.stats.biggest_moves, key=lambda m: -abs(m.change_pct))[:MOVES_EXPLAINED]
    out: list[Explanation] = []
    for day in moves:
        found = explain(view, ticker, day=day)
        if found is not None and all((e.move.start, e.move.end) != (found.move.start, found.move.end) for e in out):
            out.append(found)
    return out


def _unexplained(view: AnswerView, ticker: str, history: Evidence, found: list[Explanation]) -> str:
    language = view.language
    moves = say("list.and", language).join(
        say("facts.move_day", language, change=pct(e.move.biggest.change_pct), date=e.move.biggest.date[:10])
        + _results_timing(view, ticker, history, e.move.biggest.date[:10])
        for e in found)
    key = "lead.period_moves_unexplained" if len(found) > 1 else "lead.period_move_unexplained"
    return say(key, language, moves=moves, ref=view.ref(history))


def _events(view: AnswerView, ticker: str, history: Evidence) -> list:
    stats = history.prices.stats
    focus = stats.focus or (stats.start_date, stats.end_date)
    try:
        first, last = date.fromisoformat(str(focus[0])[:10]), date.fromisoformat(str(focus[1])[:10])
    except ValueError:
        return []
    return period_events(view, ticker, first, last)


def _results_timing(view: AnswerView, ticker: str, history: Evidence, day: str) -> str:
    """" (the day of its results)" or " (the day after its results)" when the earnings evidence dates
    results on that trading day or the one before it in the history; else nothing. Results reported
    after the close move the next session, so both are the dates' own word, not a cause."""
    days = sorted({str(row[0])[:10] for row in history.prices.rows if row})
    if day not in days:
        return ""
    before = days[days.index(day) - 1] if days.index(day) > 0 else None
    reported = {d.isoformat() for d in results_days(view, ticker)}
    if day in reported:
        return say("lead.move_on_results_day", view.language)
    if before is not None and (before in reported or any(before < r < day for r in reported)):
        return say("lead.move_after_results_day", view.language)
    return ""
