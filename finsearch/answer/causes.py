"""Why a price moved: a cause model over every story read around the move.

For the move a "why" question asks about (`moves.significant_move`: one day, or a run of days
in a row), every sentence of every story about the instrument dated from three calendar days
before the move's first day to the day after its last (a weekend counts) is read, in every
language retrieved. Each sentence is read for the kinds of cause it names (`cause_kinds`) and,
failing those, for a reason clause ("… slide 4.7% as report of wider chip export curbs weighs",
"…大跌，因游戏新规出台"). A kind going the move's way (or either way) supports it; one going the
other way, or a sentence that plays the move down ("影响有限", "overdone"), speaks against it.

The most supported cause is stated in the lead with the move's date and size, quoting the
sentence that first reported it when it is in the answer's language, and naming the kind in the
answer's language when it is not; then the other support, the evidence against, and a caveat
when a second cause is close behind. A move no story explains says so, with how many stories
from which days were read.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, timedelta

from ..evidence import Evidence
from ..phrases import say
from ..phrases.numbers import pct
from ..timecontext import CAUSE_DAYS_AFTER, CAUSE_DAYS_BEFORE
from .cause_kinds import FAMILIES, TEMPERING, CauseKind, kinds_in
from .markdown import escape
from .moves import Move, significant_move
from .reader import Passage, Searched
from .stated import LINE_KEYS, amount, guidance_in, results_vs_expected
from .view import AnswerView, unique

MAX_REASON_CHARS = 140
MAX_QUOTE_CHARS = 240
REASON_ITEMS = 3           # stories cited for the cause in the lead, at most
MAX_AGAINST = 2            # stories quoted against the cause, at most
COMPETING = 0.5            # a second cause with this share of the first's support is a caveat

# A word of movement; a reason clause must follow one (English) so that "on October 23"
# in "to report results on October 23" is never read as a cause.
_MOVES_EN = (r"\b(?:fall|falls|fell|slide|slides|slid|drop|drops|dropped|retreat|retreats|decline|declines|sink"
             r"|sinks|sank|slump|slumps|tumble|tumbles|plunge|plunges|dip|dips|lose|loses|lost|rise|rises|rose"
             r"|jump|jumps|gain|gains|climb|climbs|surge|surges|soar|soars|rally|rallies|rebound|rebounds|sell-?off"
             r"|worst day|best day|lower|higher|down|up|leads decline)\b")
_MOVE_EN = re.compile(_MOVES_EN, re.I)
_REASON_WORD_EN = re.compile(r"\b(?:after|amid|as|because of|because|due to|following|on|over)\s", re.I)
_CLAUSE_END = re.compile(r"[;:|—()]|,\s|\s[-–]\s")
_MOVES_ZH = r"(?:跌|涨|下挫|重挫|走低|走高|飙升|上扬|回落|反弹|跳水|拉升)"
_REASON_ZH = (re.compile(r"(?P<clause>(?:因|由于|受)[^，。；;：:！？]{2,40})[，,]?[^。；;]*"
                         + _MOVES_ZH),
              re.compile(_MOVES_ZH + r"[^。；;]*?[，,]\s*(?P<clause>(?:因|由于|受)[^。；;！？（(]{2,40})"),
              # "…大涨，刺激政策提振市场信心": a clause that says what lifted or weighed on it
              re.compile(_MOVES_ZH + r"[^。；;]*?[，,]\s*(?P<clause>[^，,。；;！？（(]{1,30}"
                         r"(?:提振|拖累|带动|推动|打压|利好|利空)[^，,。；;！？（(]{0,16})"))
# Clauses that follow a reason word but give no reason: a date, a time of day, a number, a
# place or a market ("on Wall Street", "on the Nasdaq", "on heavy volume").
_NOT_A_REASON = re.compile(
    r"^(?:on|after|as|over)\s+(?:\d|the\s+day|the\s+week|the\s+session|hours|the\s+bell|the\s+open|the\s+close"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|much\b|well\b|expected\b|a\s+result\b|wall\s+street\b"
    r"|the\s+(?:nasdaq|nyse|exchange|market|year|month|quarter)\b|(?:average|volume|heavy|light)\b"
    r"|(?:early|late|midday|premarket|pre-market|after-hours)\b|(?:this|last|next)\s+\w+$)", re.I)
_REASON_CONNECTOR = re.compile(r"\b(?:after|amid|because|due\s+to|following|on\s+worries|as\s+\w+\s+(?:weigh|hit))"
                               r"|因|由于|受|拖累|提振|担忧", re.I)
_MOVE_ZH = re.compile(_MOVES_ZH)
# The lead says "after": a clause's own "after", "as", "amid" … is left out of the quote.
_LEADING_CONNECTOR = re.compile(r"^(?:after|amid|as|because\s+of|because|due\s+to|following|on|over)\s+", re.I)
# Kinds that say more than "policy": when a sentence names one, its "policy" words are part of it.
# Kinds that name what the news was about but not how it landed: a cause only in a sentence that
# ties them to the move ("fell after results"), never a launch story alone.
_SAYS_NOT_WHICH_WAY = frozenset({"results", "product"})
_NARROWER_THAN_POLICY = frozenset({"tariffs", "tax", "legal", "stimulus"})
_NARROWER_THAN_RESULTS = frozenset({"guidance_cut", "guidance_raise"})


def reason_in(text: str) -> str | None:
    """The reason clause a headline or snippet gives for a move, or None."""
    text = text.strip().rstrip(".。")
    clauses = [m.group("clause") for p in _REASON_ZH for m in [p.search(text)] if m]
    move = _MOVE_EN.search(text)
    if move:
        for word in _REASON_WORD_EN.finditer(text, move.end()):
            end = _CLAUSE_END.search(text, word.start())
            clauses.append(text[word.start():end.start() if end else len(text)])
    for clause in clauses:
        clause = clause.strip(" ,.，。")
        if len(clause) >= 4 and not _NOT_A_REASON.match(clause):
            return clause[:MAX_REASON_CHARS].rstrip()
    return None


@dataclasses.dataclass(frozen=True)
class Finding:
    """One cause and the sentences that give it, best first."""
    kind: CauseKind | None          # None: a reason clause that names no kind
    clause: str | None
    passages: tuple[Passage, ...]
    support: float

    @property
    def items(self) -> list[Evidence]:
        return unique(p.item for p in self.passages)


@dataclasses.dataclass(frozen=True)
class Explanation:
    ticker: str
    move: Move
    window: tuple[date, date]
    findings: tuple[Finding, ...]   # best first
    against: tuple[Passage, ...]    # sentences that play the move down or go the other way
    read: Searched

    @property
    def cause(self) -> Finding | None:
        return self.findings[0] if self.findings else None


def explain(view: AnswerView, ticker: str, falling: bool | None = None) -> Explanation | None:
    """The move of `ticker` the question asks about (the biggest fall or rise when `falling`
    says which) and what the stories around it say; None without a price history."""
    history = view.first("price_history", ticker)
    move = significant_move(view.analysis.question, history, falling) if history is not None else None
    if move is None:
        return None
    window = (move.start - timedelta(days=CAUSE_DAYS_BEFORE), move.end + timedelta(days=CAUSE_DAYS_AFTER))
    stories = view.stories(ticker)
    passages = view.reader.find(stories, None, view.topic, between=window)
    sign = -1 if move.falling else 1
    support: dict[str, float] = {}
    given: dict[str, list[tuple[float, Passage]]] = {}
    kinds: dict[str, CauseKind | None] = {}
    against: list[Passage] = []
    for passage in passages:
        weight = _weight(passage, move, view)
        named = _kinds(passage.text)
        going = [k for k in named if k.direction in (0, sign)]
        if TEMPERING.search(passage.text) or (named and not going):
            against.append(passage)
            continue
        moving = bool(_MOVE_EN.search(passage.text) or _MOVE_ZH.search(passage.text))
        keys = [(k.id, k) for k in going if moving or k.id not in _SAYS_NOT_WHICH_WAY]
        if not keys:
            clause = reason_in(passage.text)
            if clause:
                keys = [(f"clause:{clause}", None)]
        for key, kind in keys:
            kinds[key] = kind
            given.setdefault(key, []).append((weight, passage))
    # "after results" said plainly joins the beat or miss (or the guidance) other stories name.
    for plain, directed in FAMILIES.items():
        specific = next((k for k in directed if k in given), None)
        if plain in given and specific is not None:
            given[specific] += given.pop(plain)
    for key, found in given.items():
        best_per_item: dict[str, float] = {}
        for weight, passage in found:
            best_per_item[passage.item.id] = max(best_per_item.get(passage.item.id, 0.0), weight)
        support[key] = sum(best_per_item.values())
    findings = []
    for key in sorted(support, key=lambda k: (-support[k], k)):
        ranked = sorted(given[key], key=lambda wp: -wp[0])
        findings.append(Finding(kinds[key], key[7:] if key.startswith("clause:") else None,
                                tuple(p for _, p in ranked), round(support[key], 3)))
    read = view.reader.searched(p.item for p in passages)       # the stories of the window
    return Explanation(ticker, move, window, tuple(findings), tuple(against), read)


def _kinds(text: str) -> list[CauseKind]:
    found = kinds_in(text)
    ids = {k.id for k in found}
    if ids & _NARROWER_THAN_POLICY:
        found = [k for k in found if k.id != "policy"]
    if ids & _NARROWER_THAN_RESULTS:
        found = [k for k in found if k.id not in ("results_miss", "results_beat")]
    for plain, directed in FAMILIES.items():
        if ids & set(directed):
            found = [k for k in found if k.id != plain]
    return found


def _weight(passage: Passage, move: Move, view: AnswerView) -> float:
    weight = 1.0
    if _MOVE_EN.search(passage.text) or _MOVE_ZH.search(passage.text):
        weight += 0.5
    if _REASON_CONNECTOR.search(passage.text):
        weight += 0.3
    if view.names_in(passage.text, move.history.ticker or ""):
        weight += 0.3
    if passage.day is not None:
        if move.start - timedelta(days=1) <= passage.day <= move.end:
            weight += 0.5
        elif passage.day < move.start:
            weight += 0.2
    return weight


# -- writing ----------------------------------------------------------------------------------------

def quote(text: str, limit: int = MAX_QUOTE_CHARS) -> str:
    """A sentence as it is quoted: escaped, without its end stop, cut at a word near `limit`."""
    text = text.strip().rstrip(".。 ")
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
    publisher = escape(trigger.item.publisher or say("answer.a_report", language))
    when = _when(view, trigger.day)
    if finding.kind is None:
        if trigger.language == language:
            clause = _LEADING_CONNECTOR.sub("", finding.clause or "")
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


def move_words(move: Move, view: AnswerView) -> dict[str, str]:
    language = view.language
    return {"who": view.who(move.history.ticker), "change": pct(abs(move.change_pct), False),
            "verb": say("facts.rose" if move.change_pct >= 0 else "facts.fell", language),
            "date": move.start.isoformat(), "start": move.start.isoformat(), "end": move.end.isoformat(),
            "days": str(move.days), "biggest": pct(move.biggest.change_pct), "biggest_date": move.biggest.date[:10]}


def cause_sentence(explanation: Explanation, view: AnswerView) -> str:
    """The lead: the move, its size and days, and its most supported cause, cited."""
    language, move = view.language, explanation.move
    values = move_words(move, view)
    cause = explanation.cause
    if cause is None:
        read = explanation.read
        if not read.stories:
            return say("cause.none_read", language, ref=view.ref(move.history),
                       first=explanation.window[0].isoformat(), last=explanation.window[1].isoformat(), **values)
        return say("cause.none", language, ref=view.ref(move.history), stories=str(read.stories),
                   first=explanation.window[0].isoformat(), last=explanation.window[1].isoformat(), **values)
    words = _cause_words(cause, _trigger(cause, view), view)
    key = "cause.lead_run" if move.run else "cause.lead_day"
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
    for passage in cause.passages:
        if passage.item.id in quoted or len(quoted) > REASON_ITEMS:
            continue
        quoted.add(passage.item.id)
        out.append(_reported(passage, view, "cause.also", cause))
    against = 0
    for passage in explanation.against:
        if passage.item.id in quoted or against == MAX_AGAINST:
            continue
        quoted.add(passage.item.id)
        against += 1
        opposite = next((k for k in _kinds(passage.text) if k.direction == (1 if explanation.move.falling else -1)),
                        None)
        if opposite is not None and passage.language != view.language and not TEMPERING.search(passage.text):
            out.append(say("cause.against_kind", view.language, phrase=say(f"cause.kind.{opposite.id}", view.language),
                           publisher=escape(passage.item.publisher or say("answer.a_report", view.language)),
                           date=_when(view, passage.day), ref=view.ref(passage.item)))
        else:
            out.append(_reported(passage, view, "cause.against", None))
    runner_up = next((f for f in explanation.findings[1:] if f.kind is not None and f.kind != cause.kind), None)
    if runner_up is not None and runner_up.support >= COMPETING * cause.support:
        others = [i for i in runner_up.items if i.id not in cited][:2] or runner_up.items[:1]
        out.append(say("cause.competing", language, cause=say(f"cause.kind.{runner_up.kind.id}", language),
                       refs=view.refs(others)))
    return out


def _reported(passage: Passage, view: AnswerView, key: str, finding: Finding | None) -> str:
    """A supporting or tempering story: quoted in the answer's language; in another, what it
    reported said in the answer's words (the kind of cause), never left untranslated."""
    language = view.language
    publisher = escape(passage.item.publisher or say("answer.a_report", language))
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
