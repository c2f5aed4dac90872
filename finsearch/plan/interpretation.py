"""How a question was read, shown to the user, and the corrections they may make to it.

`Interpretation.of(analysis, now, corrections)` is what the interpretation bar and
`ask --json`'s `"interpretation"` show: each instrument with its name, symbol, how its words
were read and the other readings on offer; the period as dates and whether it was assumed
(the question named none), with a week and a month on offer then, or a guess ("since
earnings" before the earnings calendar dated the report; `dated_by` once it has); the intents.

`Corrections` are the user's answers to those choices — ticker replacements and a period —
and `apply(analysis, corrections)` is the analysis the run then plans from, as if the
question had been read that way.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime

from ..errors import ConfigError
from ..phrases import Language, say
from ..phrases.dates import DaySpan
from ..reference.markets import market_of
from ..surrogates import replace_lone
from ..timecontext import EARLIEST, LATEST, TimeContext, clamp
from . import entities as entity_rules
from . import timectx
from .analysis import Analysis
from .entities import AssetKind, Entity, ReadAs, Reading

# Periods offered when the question named none, in the question's language, read by the
# same time rules a typed question goes through.
PERIOD_CHOICES = {"en": ("past week", "past month"), "zh": ("最近一周", "最近一个月")}

_TICKER = re.compile(r"\^?[A-Z0-9][A-Z0-9.\-]{0,14}(?:=[XF])?")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclasses.dataclass(frozen=True)
class TickerSwap:
    """Read the instrument named `read` (its symbol, or the words that named it) as `ticker`."""
    read: str
    ticker: str


@dataclasses.dataclass(frozen=True)
class Corrections:
    tickers: tuple[TickerSwap, ...] = ()
    period: TimeContext | None = None

    def __bool__(self) -> bool:
        return bool(self.tickers or self.period)

    @classmethod
    def parse(cls, tickers: list[str] = (), period: str | None = None,
              flags: tuple[str, str] = ("--ticker", "--period")) -> Corrections:
        """From the command line's `SOL=SOL-USD` and `2024-09-18:2024-10-15`; ConfigError
        with the reason for a value that is not of that shape, naming it by `flags` (the
        command line's, or the fields of a request)."""
        swaps = tuple(_parse_swap(text, flags[0]) for text in tickers)
        return cls(swaps, _parse_period(period, flags[1]) if period is not None else None)

    def with_ticker(self, read: str, ticker: str) -> Corrections:
        """These corrections, with `read` now read as `ticker` (replacing an earlier choice)."""
        read = replace_lone(read)
        kept = tuple(s for s in self.tickers if s.read.lower() != read.lower())
        return dataclasses.replace(self, tickers=(*kept, TickerSwap(read, ticker)))

    def with_period(self, period: TimeContext) -> Corrections:
        return dataclasses.replace(self, period=period)

    def to_json(self) -> dict:
        return {"tickers": {s.read: s.ticker for s in self.tickers},
                "period": self.period.to_dict() if self.period else None}

    @classmethod
    def from_json(cls, raw: dict | None) -> Corrections:
        raw = raw or {}
        period = raw.get("period")
        return cls(tuple(TickerSwap(k, v) for k, v in (raw.get("tickers") or {}).items()),
                   TimeContext.from_dict(period) if period else None)


def _parse_swap(text: str, flag: str) -> TickerSwap:
    read, sep, ticker = replace_lone(text).partition("=")
    ticker = ticker.strip().upper()
    if not sep or not read.strip() or not _TICKER.fullmatch(ticker):
        raise ConfigError(f"{flag} {text!r}: write it as WORDS=TICKER, for example SOL=SOL-USD "
                          "(the instrument as the question names it, then the Yahoo symbol to use)")
    return TickerSwap(read.strip(), ticker)


def _parse_period(text: str, flag: str) -> TimeContext:
    first, sep, last = text.partition(":")
    shape = (f"{flag} {text!r}: write it as START:END in YYYY-MM-DD, for example "
             "2024-09-18:2024-10-15")
    if not sep or not _DAY.fullmatch(first.strip()) or not _DAY.fullmatch(last.strip()):
        raise ConfigError(shape)
    start, end = (_day(text, words.strip(), flag) for words in (first, last))
    if start > end:
        raise ConfigError(f"{flag} {text!r}: the start ({start}) is after the end ({end})")
    if not (EARLIEST <= start and end <= LATEST):
        raise ConfigError(f"{flag} {text!r}: dates must lie between {EARLIEST} and {LATEST}")
    # The label a question typing these two dates gets from the time rules.
    return TimeContext(start, end, f"{start} … {end}")


def _day(text: str, words: str, flag: str) -> date:
    try:
        return date.fromisoformat(words)
    except ValueError:
        raise ConfigError(f"{flag} {text!r}: {words} is not a day of the calendar") from None


# -- applying them ------------------------------------------------------------------------------

def apply(analysis: Analysis, corrections: Corrections | None, now: datetime | None = None) -> Analysis:
    """The analysis as corrected: each swapped instrument read as its new ticker (its old
    reading kept as the first alternative, so the choice can be undone), the period replaced
    (with `now`, kept within the days that can be searched, as a typed period is).
    ConfigError when a swap names no instrument of this question."""
    if not corrections:
        return analysis
    found = list(analysis.entities)
    for swap in corrections.tickers:
        index = next((i for i, e in enumerate(found) if _names(e, swap.read)), None)
        if index is None:
            read = ", ".join(e.ticker or e.name for e in found) or "none"
            raise ConfigError(f"{swap.read!r} is not an instrument this question was read as (it was read "
                              f"as: {read}); name one of those, by its symbol or the question's words")
        found[index] = _swapped(found[index], swap.ticker)
    unique: dict[str, Entity] = {}
    for entity in found:
        unique.setdefault(entity.ticker or f"?{entity.name.lower()}", entity)
    time_context, notes = analysis.time_context, analysis.notes
    if corrections.period is not None:
        time_context, clamped = (corrections.period, False) if now is None else clamp(corrections.period, now)
        # The question's own dates are no longer used, nor is what was said about moving them.
        notes = tuple(n for n in notes if n != _clamped_note(analysis.language, analysis.time_context))
        notes += (_clamped_note(analysis.language, time_context),) if clamped else ()
    return dataclasses.replace(analysis, entities=tuple(unique.values()), time_context=time_context, notes=notes)


def _clamped_note(language: str, tc: TimeContext) -> str:
    return say("note.dates_clamped", language, span=DaySpan(tc.start, tc.end))


def _names(entity: Entity, read: str) -> bool:
    read = read.strip().lower()
    return read in {(entity.ticker or "").lower(), entity.mention.lower(), entity.name.lower()}


def _swapped(entity: Entity, ticker: str) -> Entity:
    if entity.ticker == ticker:
        return entity
    name, kind = _describe(entity, ticker)
    undo = (Reading(entity.ticker, entity.name, entity.kind),) if entity.ticker else ()
    others = tuple(r for r in entity.alternatives if r.ticker != ticker)
    # The user's words named the old reading: shown for the new one, they would call 五粮液 "贵州茅台".
    return dataclasses.replace(entity, ticker=ticker, name=name, kind=kind, mention="",
                               alternatives=undo + others)


def _describe(entity: Entity, ticker: str) -> tuple[str, AssetKind]:
    """The name and kind of `ticker`: from the reading offered, the alias table, or what the
    symbol's own shape says (`^…` an index, `…=X` a currency, `…-USD` a crypto)."""
    offered = next((r for r in entity.alternatives if r.ticker == ticker), None)
    if offered is not None:
        return offered.name, offered.kind
    read = next((e for e in entity_rules.extract(ticker) if e.ticker == ticker), None)
    return (read.name, read.kind) if read is not None else (ticker, "equity")


# -- what is shown ------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Instrument:
    name: str
    ticker: str | None            # None: not resolved; the search looks the name up
    kind: AssetKind
    mention: str                  # the user's words for it (for a corrected one: as the correction named it)
    read_as: ReadAs
    alternatives: tuple[Reading, ...]
    corrected: bool               # the user chose this reading

    @property
    def guessed(self) -> bool:
        """Read from words that are not its name or symbol (a near spelling, a nickname…)."""
        return self.read_as not in ("exact", "symbol")

    def to_json(self) -> dict:
        return {"name": self.name, "ticker": self.ticker, "kind": self.kind, "mention": self.mention,
                "read_as": self.read_as, "corrected": self.corrected,
                "alternatives": [dataclasses.asdict(r) for r in self.alternatives]}


@dataclasses.dataclass(frozen=True)
class AnchorDay:
    """The day a source gave the event a period hangs on: `ticker`'s last report, by its earnings calendar."""
    ticker: str
    day: date

    def to_json(self) -> dict:
        return {"ticker": self.ticker, "day": self.day.isoformat()}


@dataclasses.dataclass(frozen=True)
class Period:
    time: TimeContext
    assumed: bool                 # the question named no period
    corrected: bool
    alternatives: tuple[TimeContext, ...]
    dated_by: tuple[AnchorDay, ...] = ()    # the days that replaced a guess ("since earnings")

    @property
    def guess(self) -> bool:
        """The dates stand in for an event's day no source has given yet (`time.anchor`)."""
        return self.time.anchor is not None and not self.corrected

    def to_json(self) -> dict:
        out = {**self.time.to_dict(), "assumed": self.assumed, "corrected": self.corrected,
               "alternatives": [tc.to_dict() for tc in self.alternatives]}
        # Only when so, as the time context's own anchor and forward.
        if self.guess:
            out["guess"] = True
        if self.dated_by:
            out["dated_by"] = [d.to_json() for d in self.dated_by]
        return out


@dataclasses.dataclass(frozen=True)
class Interpretation:
    question: str
    instruments: tuple[Instrument, ...]
    period: Period
    intents: tuple[str, ...]
    corrections: Corrections
    language: Language = "en"     # the question's: the bar speaks it

    @classmethod
    def of(cls, analysis: Analysis, now: datetime, corrections: Corrections | None = None,
           dated: tuple[AnchorDay, ...] = ()) -> Interpretation:
        """How `analysis` (already corrected by `corrections`) reads its question; with `dated`
        (what the run's sources said of the event a guessed period hangs on), the period from
        the earliest of those days instead of the guess."""
        corrections = corrections or Corrections()
        chosen = {s.ticker: s.read for s in corrections.tickers}
        instruments = tuple(Instrument(e.name, e.ticker, e.kind, e.mention or chosen.get(e.ticker, ""),
                                       e.read_as, e.alternatives, e.ticker in chosen) for e in analysis.entities)
        tc = analysis.time_context
        alternatives: tuple[TimeContext, ...] = ()
        if not tc.explicit:
            market = market_of(next(iter(analysis.tickers), None))
            alternatives = tuple(timectx.resolve(words, now, market)
                                 for words in PERIOD_CHOICES[analysis.language])
        dated = dated if tc.anchor == "earnings" and not tc.forward and corrections.period is None else ()
        if dated:
            tc = dataclasses.replace(tc, start=min(d.day for d in dated), anchor=None)
        period = Period(tc, not tc.explicit, corrections.period is not None, alternatives, dated)
        return cls(analysis.question, instruments, period, tuple(sorted(analysis.intents)), corrections,
                   analysis.language)

    @property
    def choices(self) -> bool:
        """Whether anything was read by a guess the user may want to change."""
        return self.period.assumed or any(i.alternatives or i.guessed for i in self.instruments)

    def to_json(self) -> dict:
        return {"instruments": [i.to_json() for i in self.instruments], "period": self.period.to_json(),
                "intents": list(self.intents), "corrections": self.corrections.to_json()}
