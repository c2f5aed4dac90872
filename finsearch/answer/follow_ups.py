"""The questions a finished answer suggests asking next: three, in the answer's language, each
about something the question did not ask yet.

    one instrument   compare it with its rival (`reference.peers`), why it moved, what analysts
                     say, a longer period, last quarter's results, the latest news
    several          why the bigger mover moved, what analysts say, a longer period, last
                     quarter's results, the latest news

A suggestion names its instruments (and keeps the question's period where it has one), so a
click asks the same question in any turn, never leaning on what the conversation inherits. Each
is read back by the question reader, as the next turn of the conversation would read it, and
offered only if it reads as the instruments and intent it was written for: a name or period the
reader would take for something else is never suggested.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from ..phrases import Language, say
from ..plan.alias_table import alias_table, has_cjk
from ..plan.analysis import Analysis, analyse
from ..reference.peers import rival_of
from .charts import price_items

if TYPE_CHECKING:
    from ..result import RunResult

FollowUpKind = Literal["rival", "why", "analysts", "longer", "results", "news"]

# The intent the question reader must find in each kind of suggestion.
INTENT: dict[FollowUpKind, str] = {"rival": "compare", "why": "why", "analysts": "analyst", "longer": "price",
                                   "results": "fundamentals", "news": "news"}
# Which intents already asked make a kind of suggestion a repeat ("should I buy?" is answered
# with what analysts say; an earnings surprise or date with the results).
ASKED: dict[FollowUpKind, frozenset[str]] = {
    "rival": frozenset({"compare", "peers"}), "why": frozenset({"why"}),
    "analysts": frozenset({"analyst", "advice"}), "longer": frozenset(),
    "results": frozenset({"fundamentals", "surprise", "calendar"}), "news": frozenset({"news"})}
# Kinds that only a company has (an index or a currency has no analysts or quarterly results).
COMPANY_ONLY: frozenset[FollowUpKind] = frozenset({"analysts", "results"})
COMPANIES = frozenset({"equity"})
SHOWN = 3
# A question about a shorter period than this many days is offered six months, then a year.
SIX_MONTHS_DAYS, YEAR_DAYS = 150, 330


@dataclasses.dataclass(frozen=True)
class FollowUp:
    """One suggested question: its text, what kind of question it is, the instruments it names."""
    question: str
    kind: FollowUpKind
    tickers: tuple[str, ...]

    @property
    def intent(self) -> str:
        return INTENT[self.kind]


def follow_ups(result: RunResult) -> tuple[FollowUp, ...]:
    """The suggestions under a finished run's answer (none without an answer)."""
    if result.answer is None:
        return ()
    returns = {(item.ticker or node.args.get("ticker")): item.prices.stats.return_pct
               for node, item in price_items(result.graph) if item.prices.stats.return_pct is not None}
    return choose(result.analysis, result.now, returns)


def choose(analysis: Analysis, now: datetime, returns: dict[str, float] | None = None,
           shown: int = SHOWN) -> tuple[FollowUp, ...]:
    """Up to `shown` suggestions for a question read as `analysis` (at `now`), in its language;
    `returns`: each instrument's % change over the question's period, where the run found it
    (it says which way a move went, and which of several instruments moved most)."""
    kinds = {e.ticker: e.kind for e in analysis.entities if e.ticker}
    tickers = tuple(kinds)
    if not tickers:
        return ()
    returns = {t: r for t, r in (returns or {}).items() if t in kinds}
    companies = all(kind in COMPANIES for kind in kinds.values())
    out: list[FollowUp] = []
    for kind in ("rival", "why", "analysts", "longer", "results", "news"):
        if len(out) == shown:
            break
        if analysis.intents & ASKED[kind] or (kind in COMPANY_ONLY and not companies):
            continue
        found = next(_readable(kind, analysis, tickers, returns, now), None)
        if found is not None and found.question.casefold() != analysis.question.casefold():
            out.append(found)
    return tuple(out)


def _readable(kind: FollowUpKind, analysis: Analysis, tickers: tuple[str, ...], returns: dict[str, float],
              now: datetime) -> Iterator[FollowUp]:
    """The kind's suggestions that the reader reads back right, best wording first."""
    language, period = analysis.language, _period(analysis)
    for asked, text, keeps_period in _drafts(kind, analysis, tickers, returns, language, period):
        read = analyse(text, now, prior=analysis)
        if (set(read.tickers) == set(asked) and INTENT[kind] in read.intents and not read.unknown
                and (not keeps_period or _same_days(read, analysis))):
            yield FollowUp(text, kind, asked)


def _drafts(kind: FollowUpKind, analysis: Analysis, tickers: tuple[str, ...], returns: dict[str, float],
            language: Language, period: str | None) -> Iterator[tuple[tuple[str, ...], str, bool]]:
    """(tickers named, text, whether it keeps the question's period), in the order to try: the
    question's period before a default one, names before symbols."""
    for naming in (_name, _symbol):
        def names(asked: tuple[str, ...], naming=naming) -> str:
            return _join([naming(t, analysis, language) for t in asked], language)

        if kind == "rival":
            rival = rival_of(tickers[0]) if len(tickers) == 1 else None
            if rival is None:
                return
            asked = (tickers[0], rival)
            if period:
                yield asked, say("follow_up.compare", language, names=names(asked), period=period), True
            yield asked, say("follow_up.compare", language, names=names(asked),
                             period=say("follow_up.period_month", language)), False
        elif kind == "why":
            mover = max(returns, key=lambda t: abs(returns[t])) if returns else None
            if len(tickers) > 1 and mover is None:
                return            # which of them to ask about is not known
            asked = (mover or tickers[0],)
            if period:
                change = returns.get(asked[0])
                key = "follow_up.why_move" if not change else \
                    "follow_up.why_rise" if change > 0 else "follow_up.why_fall"
                yield asked, say(key, language, name=names(asked), period=period), True
            yield asked, say("follow_up.why_move", language, name=names(asked),
                             period=say("when.recently", language)), False
        elif kind == "longer":
            days = analysis.time_context.days if analysis.time_context.explicit else 0
            if analysis.time_context.forward or days >= YEAR_DAYS:
                return
            longer = say("follow_up.period_six_months" if days < SIX_MONTHS_DAYS else "follow_up.period_year",
                         language)
            if len(tickers) == 1:
                yield tickers, say("follow_up.longer", language, name=names(tickers), period=longer), False
            else:
                yield tickers, say("follow_up.compare", language, names=names(tickers), period=longer), False
        else:
            key = {"analysts": "follow_up.analysts", "results": "follow_up.results", "news": "follow_up.news"}[kind]
            yield tickers, say(key, language, names=names(tickers)), False


def _period(analysis: Analysis) -> str | None:
    """The question's own words for its period, when it named one that has passed."""
    tc = analysis.time_context
    return tc.label if tc.explicit and tc.label and not tc.forward and not tc.anchor else None


def _same_days(read: Analysis, analysis: Analysis) -> bool:
    return (read.time_context.start, read.time_context.end) == (analysis.time_context.start,
                                                                analysis.time_context.end)


def _name(ticker: str, analysis: Analysis, language: Language) -> str:
    """An instrument's name in the question's language: the user's own words for it where they
    named it ("Alphabet", "贵州茅台"), else the table's Chinese name in a Chinese question and its
    English name in an English one, a US share whose name runs to three words or more going by its
    symbol, as US investors say it ("AMD", not "Advanced Micro Devices")."""
    entity = next((e for e in analysis.entities if e.ticker == ticker), None)
    own = entity.mention if entity is not None and entity.read_as == "exact" else ""
    if own and (has_cjk(own) if language == "zh" else not has_cjk(own) and own != own.lower()):
        return own
    known = alias_table().by_ticker.get(ticker.upper())
    name = entity.name if entity is not None else known.name if known is not None else ticker
    if language == "zh":
        return alias_table().chinese_name(ticker, name) or name
    us_share = known is not None and known.kind == "equity" and known.market == "us"
    return ticker if us_share and len(name.split()) > 2 else name


def _symbol(ticker: str, analysis: Analysis, language: Language) -> str:
    return ticker


def _join(names: list[str], language: Language) -> str:
    if len(names) == 1:
        return names[0]
    return say("list.items_sep", language).join(names[:-1]) + say("list.items_and", language) + names[-1]
