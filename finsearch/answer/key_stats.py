"""The key-stats card above a single-instrument answer: price and change with its as-of time,
market cap, P/E, 52-week range and next earnings date, as Perplexity Finance shows them.

    key_stats(evidence, references, ticker, language, now) → KeyStats, or None when fewer than two are known
    of_run(result)     → the same from a finished run's graph, for a question about one instrument

Every value is copied from a structured payload the run retrieved (a quote, a price history, a
profile, an A-share's industry valuation, an earnings calendar), never computed, and only from an
item the answer's references list: each stat carries that reference's number, so the card cites
like the answer does and a reader can follow every figure to its source. What the evidence does
not hold is left out. A value older than the market's last full session before the run is
marked stale, with its date.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Literal

from ..evidence import Evidence, parse_utc
from ..phrases import Language, say
from ..phrases.numbers import decimal, finite, money
from ..reference.markets import market_of, sessions, zone_for
from .citations import Reference
from .quantities import Quantity, quantities, stamp_day

if TYPE_CHECKING:
    from ..result import RunResult

StatKind = Literal["price", "market_cap", "pe", "year_range", "next_earnings"]
MIN_STATS = 2            # one figure is no card: the answer's first sentence already says it


@dataclasses.dataclass(frozen=True)
class Stat:
    """One figure of the card, written out in the question's language."""
    kind: StatKind
    label: str
    value: str
    as_of: str | None              # when the value is for, as shown ("2024-10-15 16:00 EDT", "2024-11-14")
    ref_n: int                     # the answer's reference it came from
    change_pct: float | None = None    # the price's change on the day, as the quote states it
    stale: bool = False            # a whole trading session has passed since `as_of`

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class KeyStats:
    ticker: str
    title: str                     # "Key stats · NVIDIA (NVDA)", in the question's language
    stats: tuple[Stat, ...]

    def get(self, kind: StatKind) -> Stat | None:
        return next((s for s in self.stats if s.kind == kind), None)

    def to_json(self) -> dict:
        return {"ticker": self.ticker, "title": self.title, "stats": [s.to_json() for s in self.stats]}


def of_run(result: RunResult) -> KeyStats | None:
    """The card of a finished run: only for a question about exactly one instrument, from the
    evidence its answer cites."""
    analysis = result.analysis
    tickers = set(analysis.tickers)
    if result.answer is None or len(tickers) != 1 or analysis.unresolved:
        return None
    entity = next(e for e in analysis.entities if e.ticker)
    who = say("instrument", analysis.language, name=entity.display(analysis.language), ticker=entity.ticker)
    evidence = [e for node in result.graph for e in node.evidence]
    return key_stats(evidence, result.answer.references, entity.ticker, analysis.language, result.now, who)


def key_stats(evidence: Iterable[Evidence], references: list[Reference], ticker: str, language: Language,
              now: datetime, who: str | None = None) -> KeyStats | None:
    """The stats of `ticker` in the finance `evidence` that `references` cite, labelled in
    `language` (the card's title names `who`); staleness is judged against `now`, the run's clock."""
    numbers = {r.evidence_id: r.n for r in references}
    items = list({e.id: e for e in evidence if e.id in numbers and e.kind == "finance" and e.ticker == ticker}.values())
    reading = _Reading(items, numbers, ticker, language, now)
    found = [s for s in (reading.price(), reading.market_cap(), reading.pe(), reading.year_range(),
                         reading.next_earnings()) if s is not None]
    if len(found) < MIN_STATS:
        return None
    return KeyStats(ticker, say("key_stats.title", language, who=who or ticker), tuple(found))


@dataclasses.dataclass
class _Reading:
    items: list[Evidence]
    numbers: dict[str, int]           # evidence id → reference number
    ticker: str
    language: Language
    now: datetime

    def __post_init__(self):
        self.found = [q for q in quantities(self.items, []) if q.structured and q.ticker == self.ticker]
        self.quotes = sorted((e for e in self.items if e.quote is not None and e.quote.last is not None),
                             key=lambda e: stamp_day(e.quote.as_of or e.published) or date.min)

    def _stat(self, kind: StatKind, value: str, item: Evidence, as_of: date | None, shown: str | None = None,
              **extra) -> Stat:
        return Stat(kind, say(f"key_stats.{kind}", self.language), value, shown or _iso(as_of),
                    self.numbers[item.id], stale=self._stale(as_of), **extra)

    def _stale(self, as_of: date | None) -> bool:
        """Whether a whole trading session of the market lies between `as_of` and the run's day
        (a Friday quote read on Sunday is current; one from before a Monday session is not)."""
        if as_of is None:
            return False
        where = zone_for(None, self.ticker)
        today = self.now.astimezone(where).date() if where else self.now.date()
        return bool(sessions(market_of(self.ticker), as_of + timedelta(days=1), today - timedelta(days=1)))

    def price(self) -> Stat | None:
        """The latest quote, with its change and time; a daily close newer than it instead."""
        quote = self.quotes[-1] if self.quotes else None
        closes = [q for q in self.found if q.kind == "price" and q.item.payload == "price_history"]
        close = max(closes, key=lambda q: q.as_of or date.min) if closes else None
        if quote is not None:
            q = quote.quote
            stamp = q.as_of or quote.published
            day = self._market_day(stamp)
            if close is None or close.as_of is None or day is None or day >= close.as_of:
                return self._stat("price", money(q.last, q.currency, self.language), quote, day,
                                  self._market_time(stamp), change_pct=finite(q.change_pct))
        if close is None:
            return None
        return self._stat("price", money(close.value, close.currency, self.language), close.item, close.as_of)

    def market_cap(self) -> Stat | None:
        best = self._freshest("market_cap")
        if best is None:
            return None
        return self._stat("market_cap", money(best.value, best.currency, self.language), best.item, best.as_of)

    def pe(self) -> Stat | None:
        best = self._freshest("pe_trailing")
        if best is None:
            return None
        return self._stat("pe", decimal(best.value), best.item, best.as_of)

    def year_range(self) -> Stat | None:
        for item in reversed(self.quotes):
            q = item.quote
            if q.year_low is not None and q.year_high is not None and 0 < q.year_low <= q.year_high:
                low, high = (money(v, q.currency, self.language) for v in (q.year_low, q.year_high))
                return self._stat("year_range", f"{low} – {high}", item, self._market_day(q.as_of or item.published))
        return None

    def next_earnings(self) -> Stat | None:
        """The next report date an earnings calendar gives, if it is still ahead of the run."""
        today = self.now.date()
        dated = [(day, item) for item in self.items if item.source == "earnings"
                 if (day := stamp_day((item.data or {}).get("next_date"))) is not None and day >= today]
        if not dated:
            return None
        day, item = min(dated, key=lambda pair: pair[0])
        return Stat("next_earnings", say("key_stats.next_earnings", self.language), day.isoformat(), None,
                    self.numbers[item.id])

    def _freshest(self, kind: str) -> Quantity | None:
        """The newest value of `kind`; on the same day a quote's, which the answer's quote sentence cites."""
        mine = [q for q in self.found if q.kind == kind]
        return max(mine, key=lambda q: (q.as_of or date.min, q.item.source == "quote"), default=None)

    def _market_day(self, stamp: str | None) -> date | None:
        when = parse_utc(stamp) if isinstance(stamp, str) and len(stamp) > 10 else None
        where = zone_for(None, self.ticker)
        return when.astimezone(where).date() if when and where else (when.date() if when else stamp_day(stamp))

    def _market_time(self, stamp: str | None) -> str | None:
        """A quote's time on the market's clock ("2024-10-15 16:00 EDT"); a bare date as it is."""
        when = parse_utc(stamp) if isinstance(stamp, str) and len(stamp) > 10 else None
        if when is None:
            return _iso(stamp_day(stamp))
        where = zone_for(None, self.ticker)
        local = when.astimezone(where) if where else when
        return f"{local:%Y-%m-%d %H:%M} {local.tzname() or 'UTC'}"


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None
