"""Leads for how an instrument did over a period, and why: the period's return first, then its
biggest moves by size with their causes, else the period's main dated events.

    period_lead(view) → PeriodLead(sentences, explained)

"How did NVDA do since 2024-10-08, and why?" asks about the whole period: the opening says the
period's change from which close to which, then the biggest daily moves either way (not the
biggest in the direction the period went) with the cause a story from around each gives (`causes`).
When no story around any of them gives one, the stories dated in the period that say most (results,
guidance, a figure) are named as what the evidence shows happened, never as the cause of a move.
"""

from __future__ import annotations

import dataclasses
from datetime import date

from ..evidence import Evidence
from ..phrases import say
from ..phrases.numbers import pct
from ..plan.analysis import language_of
from . import facts as answer_facts
from .cause_sentences import cause_sentence, quote
from .causes import Explanation, explain, kinds_of
from .figures import figures_in
from .view import AnswerView

MOVES_EXPLAINED = 2        # the period's biggest daily moves the lead looks for causes of
EVENTS_NAMED = 3           # dated stories named when no move has a cause


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
            out.append(_unexplained(view, history, found))
            events = _events(view, ticker, history)
            if events:
                items = say("list.semi", view.language).join(_event(view, e) for e in events)
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


def _unexplained(view: AnswerView, history: Evidence, found: list[Explanation]) -> str:
    language = view.language
    moves = say("list.and", language).join(
        say("facts.move_day", language, change=pct(e.move.biggest.change_pct), date=e.move.biggest.date[:10])
        for e in found)
    key = "lead.period_moves_unexplained" if len(found) > 1 else "lead.period_move_unexplained"
    return say(key, language, moves=moves, ref=view.ref(history))


def _events(view: AnswerView, ticker: str, history: Evidence) -> list[Evidence]:
    """The stories dated in the period that say most: those naming results, guidance or another
    kind of news that moves a price, those with a figure, then the weightiest; oldest first."""
    stats = history.prices.stats
    focus = stats.focus or (stats.start_date, stats.end_date)
    try:
        first, last = date.fromisoformat(str(focus[0])[:10]), date.fromisoformat(str(focus[1])[:10])
    except ValueError:
        return []
    # A story in another language is named by its kind of news: one that names none is left out.
    dated = [(e, d) for e in view.stories(ticker) if (d := view.day(e)) is not None and first <= d <= last
             and (language_of(e.title) == view.language or kinds_of(e.title))]
    ranked = sorted(dated, key=lambda pair: (not kinds_of(pair[0].title), not _has_figure(pair[0].title),
                                             pair[0].source == "web_search", -(pair[0].time_weight or 0)))
    picked = ranked[:EVENTS_NAMED]
    return [e for e, _ in sorted(picked, key=lambda pair: pair[1])]


def _event(view: AnswerView, item: Evidence) -> str:
    """A story as an event: its headline quoted in the answer's language; in another, the kind of
    news it reported in the answer's words (a headline is never left untranslated)."""
    language = view.language
    values = {"publisher": view.publisher(item), "date": view.day_text(item), "ref": view.ref(item)}
    if language_of(item.title) == language:
        return say("lead.latest_item", language, title=quote(item.title), **values)
    kind = kinds_of(item.title)[0]
    return say("lead.period_event_kind", language, phrase=say(f"cause.kind.{kind.id}", language), **values)


def _has_figure(text: str) -> bool:
    return any(f.kind != "date" for f in figures_in(text))
