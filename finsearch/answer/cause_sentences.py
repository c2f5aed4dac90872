"""Writing the cause model's findings (`causes.explain`) as an answer's sentences:

    cause_sentence        the lead: the move, its size and days, and its most supported cause,
                          quoting the sentence that first reported it in the answer's language,
                          naming the kind (and the figures behind it) in the answer's words when
                          the story is in another language
    explanation_sentences the other stories that give the cause, what speaks against it, and the
                          caveat when a second cause is close behind
    moves_to_explain      the same, as lines of the model's facts brief
"""

from __future__ import annotations

from datetime import date

from ..evidence import Evidence
from ..phrases import say
from ..phrases.dates import DaySpan
from ..phrases.numbers import pct
from .cause_kinds import TEMPERING
from .causes import LEADING_CONNECTOR, Explanation, Finding, explain, kinds_of
from .facts import NOTHING_TOLD
from .markdown import escape
from .moves import Move
from .reader import Passage
from .stated import LINE_KEYS, amount, guidance_in, results_vs_expected
from .told import Told
from .view import AnswerView, unique

MAX_REASON_CHARS = 140
MAX_QUOTE_CHARS = 240
REASON_ITEMS = 3           # stories cited for the cause in the lead, at most
MAX_AGAINST = 2            # stories quoted against the cause, at most
COMPETING = 0.25           # a second cause with this share of the first's support is named too


def quote(text: str, limit: int = MAX_QUOTE_CHARS) -> str:
    """A sentence as it is quoted: escaped, without its end stop, cut at a word near `limit`."""
    text = text.strip().rstrip(".。;；,， ")
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
        text += "…"
    return escape(text)


def _when(view: AnswerView, day: date | None) -> str:
    """A day as the answer writes it; a weekend or holiday day with its weekday, since the
    market was shut ("Saturday 2025-04-05")."""
    if day is None:
        return say("answer.undated", view.language)
    if day.weekday() >= 5:
        return say("cause.weekday_date", view.language, weekday=say(f"weekday.{day.weekday()}", view.language),
                   date=day.isoformat())
    return day.isoformat()


def _trigger(finding: Finding, view: AnswerView) -> Passage:
    """The sentence the lead quotes: one in the answer's language first, one that names the
    cause itself ("lacked a timeline", not only "the robotaxi event"), then the earliest (what first
    reported it), a sentence of the story before its headline, one with a figure, then the best."""
    order = {id(p): i for i, p in enumerate(finding.passages)}
    return min(finding.passages, key=lambda p: (p.language != view.language, not _names_kind(finding, p),
                                                p.day or date.max, p.headline, not p.has_figure, order[id(p)]))


def _names_kind(finding: Finding, passage: Passage) -> bool:
    """The sentence names the finding's own kind (not only the plain one of its family)."""
    return finding.kind is None or finding.kind.named_in(passage.text)


def _cause_words(finding: Finding, trigger: Passage, view: AnswerView) -> str:
    language = view.language
    publisher = view.publisher(trigger.item)
    when = _when(view, trigger.day)
    if finding.kind is None:
        if trigger.language == language:
            clause = LEADING_CONNECTOR.sub("", finding.clause or "")
            return say("cause.clause", language, clause=escape(clause), publisher=publisher, date=when)
        return say("cause.clause_foreign", language, text=quote(trigger.text, MAX_REASON_CHARS), publisher=publisher,
                   date=when)
    phrase = say(f"cause.kind.{finding.kind.id}", language)
    if trigger.language == language:
        return say("cause.detail", language, phrase=phrase, text=quote(trigger.text), publisher=publisher, date=when)
    figures = _figures_said(finding, language)
    if figures:
        return say("cause.detail_figures", language, phrase=phrase, figures=figures, publisher=publisher, date=when)
    return say("cause.detail_foreign", language, phrase=phrase, publisher=publisher, date=when)


def _figures_said(finding: Finding, language) -> str | None:
    """A guidance range or results against estimates that a story in another language gives,
    written in the answer's language: the facts behind the cause, never its words untranslated."""
    passages = list(finding.passages)
    if finding.kind.id in ("guidance_cut", "guidance_raise"):
        found = guidance_in(passages)
        if found is not None and found.high is not None and found.consensus is not None:
            line = say(f"facts.line.{LINE_KEYS[found.line]}" if found.line else "lead.guidance_line", language)
            return say("cause.guided", language, line=line, low=amount(language, found.low, found.passage),
                       high=amount(language, found.high, found.passage),
                       consensus=amount(language, found.consensus, found.passage))
    if finding.kind.id in ("results_beat", "results_miss"):
        lines = results_vs_expected(passages)
        if lines:
            return say("list.sep", language).join(
                say("lead.line_vs", language, line=say(f"facts.line.{LINE_KEYS[v.line]}", language),
                    reported=amount(language, v.reported, v.passage), expected=amount(language, v.expected, v.passage))
                for v in lines)
    return None


def lead_items(explanation: Explanation, view: AnswerView) -> list[Evidence]:
    """What the lead cites: the prices, the quoted story, then the best other support."""
    cause = explanation.cause
    if cause is None:
        return [explanation.move.history]
    trigger = _trigger(cause, view)
    return [explanation.move.history, *unique([trigger.item, *cause.items])][:REASON_ITEMS + 1]


def move_words(move: Move, view: AnswerView) -> dict[str, str | DaySpan]:
    language = view.language
    return {"who": view.who(move.history.ticker), "change": pct(abs(move.change_pct), False),
            "verb": say("facts.rose" if move.change_pct >= 0 else "facts.fell", language),
            "date": move.start.isoformat(), "span": DaySpan(move.start, move.end),
            "days": str(move.days), "biggest": pct(move.biggest.change_pct), "biggest_date": move.biggest.date[:10]}


def cause_sentence(explanation: Explanation, view: AnswerView, told: Told = NOTHING_TOLD) -> str:
    """The lead: the move, its size and days, and its most supported cause, cited; a one-day move
    `told` gave for its day (a one-day period's change) is not sized again, only its cause is said."""
    language, move = view.language, explanation.move
    values = move_words(move, view)
    cause = explanation.cause
    if cause is None:
        read = explanation.read
        moved = say("cause.move_run" if move.run else "cause.move_day", language, **values)
        # The window is said in words: its bounds are no dates any evidence holds.
        if not read.stories:
            return say("cause.none_read", language, move=moved, ref=view.ref(move.history))
        return say("cause.none", language, move=moved, ref=view.ref(move.history), stories=str(read.stories))
    words = _cause_words(cause, _trigger(cause, view), view)
    key = "cause.lead_run" if move.run else "cause.lead_day"
    if not move.run and told.on_day(move.change_pct, move.start):
        key = "cause.told_day"
    return say(key, language, cause=words, refs=view.refs(lead_items(explanation, view)), **values)


def explanation_sentences(explanation: Explanation, view: AnswerView) -> list[str]:
    """After the lead: the other stories that give the cause, what speaks against it, and the
    caveat when a second cause is close behind."""
    language, out = view.language, []
    cause = explanation.cause
    if cause is None:
        return out
    cited = {item.id for item in lead_items(explanation, view)}
    trigger = _trigger(cause, view)
    quoted = {trigger.item.id}
    for passage in _sentence_first(cause.passages):
        if passage.item.id in quoted or len(quoted) > REASON_ITEMS:
            continue
        quoted.add(passage.item.id)
        out.append(_reported(passage, view, "cause.also", cause))
    against = 0
    for passage in _sentence_first(explanation.against):
        if passage.item.id in quoted or against == MAX_AGAINST:
            continue
        quoted.add(passage.item.id)
        against += 1
        opposite = next((k for k in kinds_of(passage.text) if k.direction == (1 if explanation.move.falling else -1)),
                        None)
        if opposite is not None and passage.language != view.language and not TEMPERING.search(passage.text):
            out.append(say("cause.against_kind", view.language, phrase=say(f"cause.kind.{opposite.id}", view.language),
                           publisher=view.publisher(passage.item),
                           date=_when(view, passage.day), ref=view.ref(passage.item)))
        else:
            out.append(_reported(passage, view, "cause.against", None))
    runner_up = next((f for f in explanation.findings[1:] if f.kind is not None and f.kind != cause.kind), None)
    # "Other reports" are other stories: a second reading of the cause's own stories is no rival cause.
    others = [i for i in runner_up.items if i.id not in cited | {c.id for c in cause.items}][:2] if runner_up else []
    if others and runner_up.support >= COMPETING * cause.support:
        out.append(say("cause.competing", language, cause=say(f"cause.kind.{runner_up.kind.id}", language),
                       refs=view.refs(others)))
    return out


def _sentence_first(passages) -> list[Passage]:
    """Each story's passages with a sentence of its snippet before its headline: the headline is
    shown once, in the References list, and the sentence usually says more."""
    order = {id(p): i for i, p in enumerate(passages)}
    first_seen: dict[str, int] = {}
    for p in passages:
        first_seen.setdefault(p.item.id, order[id(p)])
    return sorted(passages, key=lambda p: (first_seen[p.item.id], p.headline, order[id(p)]))


def _reported(passage: Passage, view: AnswerView, key: str, finding: Finding | None) -> str:
    """A supporting or tempering story: quoted in the answer's language; in another, what it
    reported said in the answer's words (the kind of cause), never left untranslated."""
    language = view.language
    publisher = view.publisher(passage.item)
    values = {"publisher": publisher, "date": _when(view, passage.day), "ref": view.ref(passage.item)}
    if passage.language == language:
        return say(key, language, text=quote(passage.text), **values)
    if finding is not None and finding.kind is not None:
        return say("cause.also_kind", language, phrase=say(f"cause.kind.{finding.kind.id}", language), **values)
    return say(_FOREIGN[key], language, **values)


_FOREIGN = {"cause.also": "cause.also_foreign", "cause.against": "cause.against_foreign"}


def moves_to_explain(view: AnswerView) -> list[str]:
    """For the model writer's facts brief: each instrument's move, the cause the stories
    support most (and its evidence numbers), and what speaks against it."""
    lines = []
    for ticker in view.tickers:
        explanation = explain(view, ticker)
        if explanation is None:
            continue
        move = explanation.move
        span = move.start.isoformat() if not move.run else f"{move.start} → {move.end} ({move.days} trading days)"
        line = f"- {ticker} {move.change_pct:+.2f}% on {span} (from [{view.ref(move.history)}])"
        cause = explanation.cause
        if cause is not None:
            what = cause.kind.id.replace("_", " ") if cause.kind else f"“{cause.clause}”"
            line += f"; most supported cause: {what} {view.refs(cause.items[:REASON_ITEMS])}"
            if explanation.against:
                line += f"; against it: {view.refs(p.item for p in explanation.against[:2])}"
        else:
            line += f"; no story from {explanation.window[0]} to {explanation.window[1]} gives a reason: say so"
        lines.append(line)
    return lines
