"""Why a price moved, extractively: the reason clause the stories of the move's day give.

For the biggest daily move of an instrument's period, the news and web items dated on that
day or the day before are read, best-weighted first, for a clause that gives a cause
after a word of movement: "… slide 4.7% as report of wider chip export curbs weighs",
"… retreat on export worries", "…大跌，因游戏新规出台", "受…影响". The sentence states the
move, the clause as written and who wrote it, citing the day's items that give a reason.
"…大涨，刺激政策提振市场信心". A day with no such clause gets the sentence that says so: a headline that merely names
the move explains nothing.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, timedelta

from ..evidence import Evidence
from ..payloads import PriceMove
from ..phrases import say
from ..phrases.numbers import pct
from ..plan.analysis import language_of
from .markdown import escape
from .view import AnswerView

MAX_REASON_CHARS = 140
REASON_ITEMS = 3           # the day's items cited for a reason, at most

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



@dataclasses.dataclass(frozen=True)
class Reason:
    item: Evidence
    text: str                    # the headline or snippet that gave it
    clause: str
    same_language: bool          # written in the answer's language, so it can be quoted inline


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


def day_stories(view: AnswerView, ticker: str, day: str) -> list[Evidence]:
    """The stories about `ticker` dated on `day` or the day before (news of an evening, a
    market abroad), best-weighted first, then those of the day itself."""
    try:
        moved = date.fromisoformat(day[:10])
    except ValueError:
        return []
    days = {moved.isoformat(), (moved - timedelta(days=1)).isoformat()}
    stories = [e for e in view.stories(ticker) if (e.published or "")[:10] in days]
    return sorted(stories, key=lambda e: (-(e.time_weight or 0), (e.published or "")[:10] != moved.isoformat()))


def day_reasons(view: AnswerView, ticker: str, day: str) -> list[Reason]:
    """The reasons the stories of `day` (or the day before) give, best-weighted first."""
    found = []
    for item in day_stories(view, ticker, day):
        for text in (item.title, item.snippet):
            clause = reason_in(text or "")
            if clause:
                found.append(Reason(item, text, clause, language_of(text) == view.language))
                break
    return found


# The way a question says the price went ("why did it jump", "为什么跌"); both or neither: no way.
_ASKS_UP = re.compile(r"\b(?:rise|rises|rose|risen|jump|surg|soar|rall|gain|climb|spike|up\b)|涨(?!跌)|拉升|飙升", re.I)
_ASKS_DOWN = re.compile(r"\b(?:fall|fell|drop|sank|sink|slump|tumbl|plung|declin|crash|slid|down\b|lose|lost)"
                        r"|(?<!涨)跌|跳水|下挫|重挫", re.I)


def _move(view: AnswerView, history: Evidence) -> PriceMove | None:
    """The biggest daily move the way the question says it went, else the way the period went;
    else the biggest."""
    prices = history.prices
    if prices is None or not prices.stats.biggest_moves:
        return None
    moves, ret = prices.stats.biggest_moves, prices.stats.return_pct
    up, down = _ASKS_UP.search(view.analysis.question), _ASKS_DOWN.search(view.analysis.question)
    falling = (ret < 0 if ret is not None else None) if bool(up) == bool(down) else bool(down)
    same_way = [m for m in moves if falling is not None and (m.change_pct < 0) == falling]
    return (same_way or list(moves))[0]


def cause_sentence(view: AnswerView, ticker: str) -> str | None:
    """"X fell 4.70% on 2024-10-11, “as …” in the words of … [1][2]" (a headline's clause,
    quoted: headlines drop their articles), or the sentence that no
    report of that day explains the move; None without a price history."""
    history = view.first("price_history", ticker)
    move = _move(view, history) if history is not None else None
    if move is None:
        return None
    language = view.language
    values = {"who": view.who(ticker), "date": move.date[:10], "change": pct(abs(move.change_pct), False),
              "verb": say("facts.rose" if move.change_pct >= 0 else "facts.fell", language)}
    reasons = day_reasons(view, ticker, move.date)
    if not reasons:
        return say("cause.none", language, ref=view.ref(history), **values)
    best = reasons[0]
    cited = [history, *dict.fromkeys(r.item for r in reasons[:REASON_ITEMS])]
    publisher = escape(best.item.publisher or say("answer.a_report", language))
    if best.same_language:
        return say("cause.reason", language, reason=escape(best.clause), publisher=publisher,
                   refs=view.refs(cited), **values)
    return say("cause.quoted", language, title=escape(best.text.rstrip(".。 ")), publisher=publisher,
               refs=view.refs(cited), **values)


def moves_to_explain(view: AnswerView) -> list[str]:
    """For the model writer's prompt: each instrument's biggest move and the evidence numbers
    dated on its day or the day before, the items its cause sentence may cite."""
    lines = []
    for ticker in view.tickers:
        history = view.first("price_history", ticker)
        move = _move(view, history) if history is not None else None
        if move is None:
            continue
        that_day = day_stories(view, ticker, move.date)
        cite = view.refs(that_day) if that_day else "none: say that no report on the day explains the move"
        lines.append(f"- {ticker} {move.change_pct:+.2f}% on {move.date[:10]} (from [{view.ref(history)}]); "
                     f"evidence of that day or the day before: {cite}")
    return lines
