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
from ..payloads import PriceMove
from ..timecontext import CAUSE_DAYS_AFTER, CAUSE_DAYS_BEFORE
from .cause_kinds import FAMILIES, TEMPERING, CauseKind, kinds_in
from .moves import Move, significant_move
from .reader import Passage, Searched
from .view import AnswerView, unique

MAX_REASON_CHARS = 140

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
LEADING_CONNECTOR = re.compile(r"^(?:after|amid|as|because\s+of|because|due\s+to|following|on|over)\s+", re.I)
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


def explain(view: AnswerView, ticker: str, falling: bool | None = None,
            day: PriceMove | None = None) -> Explanation | None:
    """The move of `ticker` the question asks about (the biggest fall or rise when `falling`
    says which, `day`'s when given) and what the stories around it say; None without a price history."""
    history = view.first("price_history", ticker)
    move = significant_move(view.analysis.question, history, falling, day) if history is not None else None
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
        named = kinds_of(passage.text)
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
    # A story's reason clause ("slide 11% after slower subscriber growth") and the kind another of
    # its sentences names ("added 495,000 customers, fewer than expected") are one cause, not two:
    # the clause's sentences join the kind, which the answer can say in either language.
    for clause in [k for k in given if k.startswith("clause:")]:
        stories = {p.item.id for _, p in given[clause]}
        named = [k for k in given if not k.startswith("clause:") and stories <= {p.item.id for _, p in given[k]}]
        if named:
            given[max(named, key=lambda k: (sum(w for w, _ in given[k]), k))] += given.pop(clause)
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


def kinds_of(text: str) -> list[CauseKind]:
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
