"""Leads that weigh evidence rather than state one figure:

    worried      → "Should I be worried?": the case for worry (the period's biggest fall and its
                   cause, the other bad news), the case against it (good news, a valuation called
                   cheap, the analysts' target above the price, derived), and what to watch (the
                   next report)
    performance  → how the price went over the period, and what caused its biggest move when a
                   story says so

The answer gives no advice: it sets the evidence out both ways.
"""

from __future__ import annotations

from ..phrases import say
from ..phrases.numbers import pct
from . import company_facts
from . import facts as answer_facts
from .cause_kinds import MITIGATING, TEMPERING, kinds_in
from .cause_sentences import lead_items, move_words, quote
from .causes import Explanation, explain
from .derived import upside
from .markdown import escape
from .reader import Passage
from .told import Told
from .view import AnswerView, unique

NOTABLE_MOVE = 3.0        # a daily move this big (in %) gets its cause in a performance answer


def _tempers(passage: Passage) -> bool:
    """The sentence plays the bad news down or says how the company limits it."""
    return bool(TEMPERING.search(passage.text) or MITIGATING.search(passage.text))


def _direction(passage: Passage) -> int:
    """+1 good news, -1 bad news, 0 neither (by the kinds of cause it names)."""
    kinds = [k.direction for k in kinds_in(passage.text) if k.direction]
    if _tempers(passage):
        kinds.append(1)
    return (sum(kinds) > 0) - (sum(kinds) < 0) if kinds else 0


def _cause_phrase(explanation: Explanation, view: AnswerView) -> str | None:
    cause = explanation.cause
    if cause is None:
        return None
    if cause.kind is not None:
        return say(f"cause.kind.{cause.kind.id}", view.language)
    return f"“{escape(cause.clause or '')}”"


def worried(view: AnswerView) -> list[str]:
    out, language = [], view.language
    for ticker in view.tickers:
        explanation = explain(view, ticker, falling=True)
        cited: set[str] = set()
        bear = []
        if explanation is not None and explanation.move.falling and (
                abs(explanation.move.change_pct) >= NOTABLE_MOVE or _period_fell(view, ticker)):
            phrase = _cause_phrase(explanation, view)
            items = lead_items(explanation, view)
            cited |= {item.id for item in items}
            move = explanation.move
            moved = say("cause.moved_run" if move.run else "cause.moved_day", language, **move_words(move, view))
            key = "lead.bear_move" if phrase else "lead.bear_move_unexplained"
            bear.append(say(key, language, moved=moved, cause=phrase or "", refs=view.refs(items)))
        passages = view.reader.find(view.stories(ticker), None, view.topic)
        bad = [p for p in passages if _direction(p) < 0 and p.item.id not in cited and p.language == language]
        # The case against may come from a story the bear case cites, in a sentence of its own that plays the
        # fall down ("operations normal", "to limit tariff costs"), and from a story in another language.
        good = sorted((p for p in passages if _direction(p) > 0 and (p.item.id not in cited or _tempers(p))),
                      key=lambda p: p.language != language)
        if bad:
            told = _telling(bad)
            bear.append(say("lead.bear_story" if bear else "lead.story_wrote", language, text=quote(told.text),
                            ref=view.ref(told.item), publisher=view.publisher(told.item)))
        bull = []
        if good:
            bull.append(_good_news(_telling(good), view))
        target, price = view.current("target_mean", ticker), view.current("price", ticker)
        gap = upside(target.value, price.value) if target and price else None
        if gap is not None and gap.value > 0:
            bull.append(say("lead.bull_target", language, share=pct(gap.value, False), refs=view.refs(gap.items)))
        joiner = say("answer.sentence_sep", language)
        out += [say("lead.bear", language, who=view.who(ticker), points=joiner.join(bear))] if bear else []
        out += [say("lead.bull", language, points=joiner.join(bull))] if bull else []
        if not bear and not bull:
            out.append(say("lead.no_bear_bull", language, who=view.who(ticker)))
        earnings = view.first("earnings", ticker)
        next_date = (earnings.data or {}).get("next_date") if earnings is not None else None
        if isinstance(next_date, str) and next_date[:10] >= view.today.isoformat():
            out.append(say("lead.watch_report", language, date=next_date[:10], ref=view.ref(earnings)))
        else:
            out.append(say("lead.watch_news", language))
    return out


def _good_news(told: Passage, view: AnswerView) -> str:
    """A point against worry: quoted in the answer's language; from a story in another, what it
    reported said in the answer's words (it played the fall down, or the kind of good news)."""
    language, publisher = view.language, view.publisher(told.item)
    if told.language == language:
        return say("lead.story_wrote", language, text=quote(told.text), ref=view.ref(told.item), publisher=publisher)
    good = next((k for k in kinds_in(told.text) if k.direction > 0), None)
    if good is not None and not _tempers(told):
        return say("cause.also_kind", language, phrase=say(f"cause.kind.{good.id}", language), publisher=publisher,
                   date=view.day_text(told.item), ref=view.ref(told.item))
    return say("lead.bull_played_down", language, publisher=publisher, date=view.day_text(told.item),
               ref=view.ref(told.item))


def _telling(passages: list[Passage]) -> Passage:
    """The best story's sentence to quote: one of its snippet going the same way before its headline,
    which the References list shows and which says less ("beats forecasts" against "revenue of 86.6
    billion yuan, above the 85.1 billion expected")."""
    best = passages[0]
    return next((p for p in passages if p.item.id == best.item.id and not p.headline), best)


RISK_STORIES = 3


def risks(view: AnswerView) -> list[str]:
    """"What risks does the news report?": the bad news read out of the stories (kinds of cause that
    push a price down), quoted in the answer's language, newest first."""
    out, language = [], view.language
    for ticker in view.tickers:
        stories = view.stories(ticker)
        bad = [p for p in view.reader.find(stories, None, view.topic)
               if _direction(p) < 0 and p.language == language]
        bad.sort(key=lambda p: p.day.toordinal() if p.day else 0, reverse=True)
        picked = unique(p.item for p in bad)[:RISK_STORIES]
        filed = [s for item in view.finance("sec_section", ticker)
                 for s in company_facts.filing_section(item, view.ref(item), view.names, language)]
        out += filed                  # what the company lists itself comes first
        if not picked:
            if stories and not filed:
                out.append(say("lead.no_risks_news", language, who=view.who(ticker), count=str(len(stories))))
            continue
        first = {item.id: next(p for p in bad if p.item.id == item.id) for item in picked}
        items = say("list.semi", language).join(
            say("lead.latest_item", language, title=quote(first[item.id].text), ref=view.ref(item),
                publisher=view.publisher(item), date=view.day_text(item))
            for item in picked)
        out.append(say("lead.risks_news", language, who=view.who(ticker), items=items))
    return out


def _period_fell(view: AnswerView, ticker: str) -> bool:
    history = view.first("price_history", ticker)
    ret = history.prices.stats.return_pct if history is not None and history.prices else None
    return ret is not None and ret < 0


def performance(view: AnswerView) -> list[str]:
    """Over the period: the direction and size, from which close to which; then the cause of
    its biggest move when that move was notable and a story gives one."""
    if len(view.tickers) > 1:
        return []       # the ranking answers it
    out = []
    for ticker in view.tickers:
        item = view.first("price_history", ticker)
        if item is None:
            continue
        out += answer_facts.price_history(item, view.ref(item), view.names, view.language, view.when)[:1]
        explanation = explain(view, ticker)
        if explanation is None or abs(explanation.move.biggest.change_pct) < NOTABLE_MOVE:
            continue
        phrase = _cause_phrase(explanation, view)
        if phrase:
            move = explanation.move
            if Told.of(out).on_day(move.biggest.change_pct, move.biggest.date):
                # a one-day period: its change was this move, so only the cause is new
                verb = say("facts.rose" if move.biggest.change_pct >= 0 else "facts.fell", view.language)
                out.append(say("cause.told_day", view.language, verb=verb, cause=phrase,
                               refs=view.refs(lead_items(explanation, view))))
                continue
            out.append(say("lead.move_cause", view.language, change=pct(move.biggest.change_pct),
                           date=move.biggest.date[:10], cause=phrase,
                           refs=view.refs(lead_items(explanation, view))))
    return out
