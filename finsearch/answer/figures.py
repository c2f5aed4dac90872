"""Figures in text, and the values evidence holds, in comparable form.

    figures_in(text)   → the numbers, percentages, money amounts and dates a text states
    values_in(item)    → every number and date one evidence item holds (text and data)

A figure keeps how precisely it was written (`tolerance`: half a unit of its last digit,
scaled), so "7.27%" matches 7.2699 but not 7.3, and "$3.4 billion" matches 3,412,000,000.
Units are scaled to base units: B/bn/billion, M/mn/million, K, T/trillion, 万, 亿, 万亿.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Iterator
from datetime import date, datetime, timedelta, timezone
from typing import Literal

from ..evidence import Evidence
from ..plan.timectx.words import MONTHS
from .dividend_plans import cash_of_the_year, per_share_of_plan

SCALES = {"k": 1e3, "thousand": 1e3, "千": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9,
          "billion": 1e9, "t": 1e12, "tn": 1e12, "trillion": 1e12, "万": 1e4, "亿": 1e8, "万亿": 1e12}
CURRENCY = r"(?:US\$|HK\$|\$|€|£|¥|￥)"


FigureKind = Literal["number", "percent", "money", "date"]


@dataclasses.dataclass(frozen=True)
class Figure:
    text: str            # as written
    kind: FigureKind
    value: float = 0.0   # base units (percent: the percent number itself)
    tolerance: float = 0.0
    day: date | None = None
    start: int = 0       # position in the text it came from


def on_or_after(month: int, day: int, published: date) -> date | None:
    """A month-day written without its year, in the year that puts it on or after `published`."""
    for year in (published.year, published.year + 1):
        try:
            dated = date(year, month, day)
        except ValueError:
            return None
        if dated >= published:
            return dated
    return None


# -- figures in answer text ---------------------------------------------------------------------

_MONTH_WORDS = "|".join(sorted(MONTHS, key=len, reverse=True))
_DATE_PATTERNS = [
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), "ymd"),
    (re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "ymd"),
    (re.compile(r"(?<![\d年])(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "md"),
    (re.compile(r"\b(" + _MONTH_WORDS + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b", re.I), "mon"),
]
_NUMBER = re.compile(
    r"(?P<sign>[-−–+])?\s*(?P<cur>" + CURRENCY + r")?\s*(?P<sign2>[-−–+])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s*(?P<unit>万亿|亿|万|千|trillion|billion|million|thousand|tn|bn|mn|[TBMK])(?![A-Za-z]))?"
    r"(?P<pct>\s*%)?")


def figures_in(text: str) -> list[Figure]:
    """Every figure a text states, in order; dates first claim their digits."""
    found: list[Figure] = []
    taken: list[tuple[int, int]] = []
    for pattern, shape in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            day = _date_of(m, shape)
            if day is not None:
                found.append(Figure(m.group(0), "date", day=day, start=m.start()))
                taken.append(m.span())
    for m in _NUMBER.finditer(text):
        if any(m.start("num") < e and s < m.end("num") for s, e in taken):
            continue
        figure = _number_figure(text, m)
        if figure is not None:
            found.append(figure)
    return sorted(found, key=lambda f: f.start)


def _date_of(m: re.Match, shape: str) -> date | None:
    try:
        if shape == "ymd":
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if shape == "md":
            return date(2000, int(m.group(1)), int(m.group(2)))          # year unknown: matched by month-day
        month = MONTHS[m.group(1).lower().rstrip(".")]
        return date(int(m.group(3)) if m.group(3) else 2000, month, int(m.group(2)))
    except ValueError:
        return None


def _number_figure(text: str, m: re.Match) -> Figure | None:
    raw = m.group("num")
    if _not_a_figure(text, m):
        return None
    decimals = len(raw.split(".")[1]) if "." in raw else 0
    number = float(raw.replace(",", ""))
    unit = m.group("unit") or ""
    scale = SCALES.get(unit.lower() if unit.isascii() else unit, 1.0)
    negative = (m.group("sign") or m.group("sign2") or "") in ("-", "−", "–")
    value = (-number if negative else number) * scale
    tolerance = 0.5 * 10 ** (-decimals) * scale
    money = m.group("cur") or unit in ("亿", "万", "万亿") or _CURRENCY_AFTER.match(text, m.end())
    kind = "percent" if m.group("pct") else "money" if money else "number"
    return Figure(m.group(0).strip(), kind, value, tolerance, start=m.start("num"))


# A currency written after the amount: "95.99美元", "155.23港元", "86.6 billion yuan".
_CURRENCY_AFTER = re.compile(r"\s*(?:美元|港元|港币|日元|欧元|英镑|人民币|元|(?:yuan|renminbi|dollars?|euros?|yen"
                             r"|USD|HKD|CNY|RMB|EUR|JPY|GBP)\b)", re.I)


def _not_a_figure(text: str, m: re.Match) -> bool:
    """Citation markers [3], parts of symbols (MA20, Q3, 600519.SS), SEC form names (10-K),
    bare years, list numbers, counts of what was read."""
    start, end = m.start("num"), m.end("num")
    raw, before, after = m.group("num"), text[start - 1:start], text[end:end + 2]
    qualified = m.group("pct") or m.group("cur") or m.group("unit")
    if before == "[" and after[:1] == "]":
        return True
    if not qualified and before and ((before.isascii() and before.isalpha()) or before in "^_/"):
        return True
    signed_at = m.start("sign") if m.group("sign") else None
    if signed_at is not None and signed_at > 0 and text[signed_at - 1].isalnum() and not qualified:
        return True                               # "top-10", "COVID-19": a word's hyphen, not a minus
    if not qualified and after[:1].isascii() and after[:1].isalpha():
        return True
    if after[:1] == "." and after[1:2].isalpha():
        return True
    if not qualified and re.match(r"-[KQ]\b|-[KQ]$", text[end:end + 3]):
        return True                               # a form's name: the 10-K, a 10-Q, an 8-K
    if not qualified and re.fullmatch(r"(?:19|20)\d{2}", raw):
        return True                               # a bare year labels a period; it is not a figure
    if not qualified and _COUNT_OF_READING.match(text, end):
        return True                               # how many items the answer read: its own count
    line_start = start == 0 or text[start - 1] == "\n"
    return line_start and after[:1] == "." and len(raw) <= 2


# "(6 in all)", "读到的 4 条资料", "3 篇报道": the answer counting what it read, not a claim.
_COUNT_OF_READING = re.compile(r"\s*(?:in all\b|条|篇)")


# -- values held by evidence --------------------------------------------------------------------

@dataclasses.dataclass
class Values:
    numbers: list[float] = dataclasses.field(default_factory=list)
    levels: list[float] = dataclasses.field(default_factory=list)    # prices, amounts (not rows), for derived figures
    percents: list[float] = dataclasses.field(default_factory=list)  # percentages, for point differences
    days: set[date] = dataclasses.field(default_factory=set)
    runs: list[list[float]] = dataclasses.field(default_factory=list)   # each item's percents, its levels: for sums

    def extend(self, other: Values) -> None:
        self.numbers += other.numbers
        self.levels += other.levels
        self.percents += other.percents
        self.days |= other.days
        self.runs += other.runs

    def add(self, value: float, percent: bool, in_rows: bool) -> None:
        self.numbers.append(value)
        if not in_rows:
            (self.percents if percent else self.levels).append(value)


_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")


def values_in(item: Evidence) -> Values:
    out = Values()
    published = _day_of(item.published)
    for text in (item.title, item.snippet):
        for figure in figures_in(text or ""):
            if figure.kind == "date":
                out.days.add(figure.day)
                if figure.day.year == 2000 and published is not None:
                    # Written without its year: the story's year, or the next when that puts it
                    # before the story (a November story announcing "January 29").
                    out.days |= {d for d in (_in_year(figure.day, published.year),
                                             on_or_after(figure.day.month, figure.day.day, published)) if d}
            else:
                out.add(figure.value, figure.kind == "percent", False)
    for stamp in (item.published, (item.period or {}).get("start"), (item.period or {}).get("end")):
        _add_day(out, stamp)
    out.days |= _market_days(item.published)
    for value, in_rows, percent in _walk(item.data, False, False):
        if isinstance(value, str):
            _add_day(out, value)
        else:
            out.add(value, percent, in_rows)
    plans = (item.data or {}).get("plans") if isinstance(item.data, dict) else None
    if isinstance(plans, list) and plans and all(isinstance(p, dict) for p in plans):
        year_cash, year = cash_of_the_year(plans)
        if year is not None:        # what the answer says a twice-a-year payer pays in its year
            out.add(year_cash, False, False)
    out.runs = [run for run in (list(out.percents), list(out.levels)) if len(run) > 1]
    return out


# An answer dates a story on the clock of its instrument's market (a cninfo notice stamped 16:00 UTC
# is the next day in Beijing; a US story at 02:00 UTC is the evening before in New York).
_MARKET_OFFSETS = (timedelta(hours=-5), timedelta(hours=8), timedelta(hours=9))


def _market_days(stamp) -> set[date]:
    """The days a published time falls on in New York, Beijing/Hong Kong and Tokyo."""
    if not isinstance(stamp, str) or len(stamp) <= 10:
        return set()
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return set()
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return {(when.astimezone(timezone.utc) + offset).date() for offset in _MARKET_OFFSETS}


def _in_year(day: date, year: int) -> date | None:
    try:
        return day.replace(year=year)
    except ValueError:       # 29 February
        return None


def _day_of(stamp) -> date | None:
    try:
        return date.fromisoformat(stamp[:10]) if isinstance(stamp, str) else None
    except ValueError:
        return None


def _add_day(out: Values, text) -> None:
    if isinstance(text, str):
        m = _ISO_DAY.match(text)
        if m:
            try:
                out.days.add(date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
            except ValueError:
                pass


# "payout_ratio" is a percentage; "ratios" (a profile's P/E, P/B …) holds levels as well.
_PERCENT_KEY = re.compile(r"pct|percent|yield|margin|ratio\b|change|return|growth|volatility|drawdown", re.I)


def _walk(value, in_rows: bool, percent: bool) -> Iterator[tuple[float | str, bool, bool]]:
    """(value, inside price rows, is a percentage) for every number and date string in data."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)):
        if math.isfinite(value):
            yield float(value), in_rows, percent
    elif isinstance(value, str):
        if _ISO_DAY.match(value):
            yield value, in_rows, percent
        else:
            for figure in figures_in(value):
                if figure.kind == "date":
                    yield figure.day.isoformat(), in_rows, False
                else:
                    yield figure.value, in_rows, figure.kind == "percent"
            per_share = per_share_of_plan(value)
            if per_share is not None:
                yield per_share, in_rows, False
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from _walk(inner, in_rows or key == "rows", percent or bool(_PERCENT_KEY.search(str(key))))
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from _walk(inner, in_rows, percent)


# -- matching -----------------------------------------------------------------------------------

def matches(figure: Figure, values: Values) -> bool:
    """Whether `values` state `figure` (within its precision; sign-insensitive; % also as a fraction)."""
    if figure.kind == "date":
        if figure.day.year == 2000:                     # written without a year
            return any((d.month, d.day) == (figure.day.month, figure.day.day) for d in values.days)
        return figure.day in values.days
    targets = [abs(figure.value)]
    if figure.kind == "percent":
        targets.append(abs(figure.value) / 100)
    for target in targets:
        tolerance = figure.tolerance if target == abs(figure.value) else figure.tolerance / 100
        slack = tolerance + 1e-9 * max(1.0, target)
        if any(abs(abs(v) - target) <= slack for v in values.numbers):
            return True
    return False


def derived(figure: Figure, values: Values, limit: int = 300) -> bool:
    """Whether cited values give the figure: a % change between two levels (prices, amounts:
    an upside to a target), one level as a % of another (a dividend over the price: a yield), a
    difference between two levels or two percentages (points), or the sum of a run of one item's
    values in order (the top five holders' shares together)."""
    if figure.kind == "date":
        return False
    target, slack = abs(figure.value), figure.tolerance + 1e-9 * max(1.0, abs(figure.value))
    levels = [v for v in _unique(values.levels) if v > 0][:limit]
    if _a_sum(target, slack, values.runs):
        return True
    if figure.kind == "percent":
        for i, a in enumerate(levels):
            for b in levels[i + 1:]:
                if abs(abs((b / a - 1) * 100) - target) <= slack or abs(abs((a / b - 1) * 100) - target) <= slack:
                    return True
                small, large = min(a, b), max(a, b)
                if target <= 100 and abs(small / large * 100 - target) <= slack:
                    return True
        pools = [_unique(values.percents)[:limit]]         # "11.1% ahead" as a point difference
    else:
        pools = [levels, _unique(values.percents)[:limit]]  # "2.57 points more"
    for pool in pools:
        for i, a in enumerate(pool):
            if any(abs(abs(a - b) - target) <= slack for b in pool[i + 1:]):
                return True
    return False


MAX_RUN = 12          # values summed at most (a top-ten list and a little more)


def _a_sum(target: float, slack: float, runs: list[list[float]]) -> bool:
    for run in runs:
        for start in range(len(run)):
            total = 0.0
            for count, value in enumerate(run[start:start + MAX_RUN], start=1):
                total += value
                if count > 1 and abs(abs(total) - target) <= slack:
                    return True
    return False


def _unique(numbers: Iterable[float]) -> list[float]:
    return list(dict.fromkeys(round(n, 10) for n in numbers if n))
