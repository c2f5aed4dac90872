"""Whole-day calendar arithmetic for time rules. All functions are pure; trading days
are counted on the market's exchange calendar (finsearch.reference.markets)."""

from __future__ import annotations

import calendar
import dataclasses
from datetime import date, timedelta

from ...reference import markets
from ...reference.markets import Market

Span = tuple[date, date]


def month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def month_span(year: int, month: int) -> Span:
    return date(year, month, 1), month_end(year, month)


def add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month0 = divmod(index, 12)
    month = month0 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def quarter_of(day: date) -> int:
    return (day.month - 1) // 3 + 1


def quarter_span(year: int, quarter: int) -> Span:
    first = 3 * (quarter - 1) + 1
    return date(year, first, 1), month_end(year, first + 2)


def half_span(year: int, half: int) -> Span:
    return (date(year, 1, 1), date(year, 6, 30)) if half == 1 else (date(year, 7, 1), date(year, 12, 31))


def year_span(year: int) -> Span:
    return date(year, 1, 1), date(year, 12, 31)


def recent_quarter(today: date, quarter: int) -> Span:
    """The most recent quarter number `quarter` that has begun by `today`."""
    start, end = quarter_span(today.year, quarter)
    return (start, end) if start <= today else quarter_span(today.year - 1, quarter)


def recent_half(today: date, half: int) -> Span:
    start, end = half_span(today.year, half)
    return (start, end) if start <= today else half_span(today.year - 1, half)


def recent_month_year(today: date, month: int) -> int:
    """The year of the most recent `month` that has begun by `today`."""
    return today.year if month <= today.month else today.year - 1


def recent_day(today: date, month: int, day: int) -> date | None:
    """The most recent `month`/`day` on or before `today` (None if no such day)."""
    for year in (today.year, today.year - 1, today.year - 4):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= today:
            return candidate
    return None


def full_year(text: str) -> int:
    value = int(text)
    return value + 2000 if value < 100 else value


def week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def weekday_on_or_before(today: date, weekday: int, strictly_before: bool = False) -> date:
    back = (today.weekday() - weekday) % 7
    if back == 0 and strictly_before:
        back = 7
    return today - timedelta(days=back)


def span_back(today: date, count: int, unit: str) -> Span:
    """"past N units": from N units before today up to today."""
    if unit == "day":
        return today - timedelta(days=count), today
    if unit == "week":
        return today - timedelta(weeks=count), today
    if unit == "month":
        return add_months(today, -count), today
    if unit == "quarter":
        return add_months(today, -3 * count), today
    return add_months(today, -12 * count), today


def is_count(count: int, unit: str) -> bool:
    """Whether "N年" counts years: in "2024年前三季度" it is a year's number, and no market
    is a thousand years old (nor are dates that far out representable)."""
    return count > 0 and (unit != "year" or count < 1000)


def span_ahead(today: date, count: int, unit: str) -> Span:
    """"the next N units": from today up to N units after it."""
    if unit == "day":
        return today, today + timedelta(days=count)
    if unit == "week":
        return today, today + timedelta(weeks=count)
    return today, add_months(today, count * {"month": 1, "quarter": 3}.get(unit, 12))


def part_of_month(year: int, month: int, part: str) -> Span:
    """Early (1–10), mid (11–20) or late (21–end) part of a month."""
    if part in ("early", "beginning", "start", "初", "上旬"):
        return date(year, month, 1), date(year, month, 10)
    if part in ("mid", "middle", "中", "中旬"):
        return date(year, month, 11), date(year, month, 20)
    return date(year, month, 21), month_end(year, month)


# -- named periods both languages share ---------------------------------------------------------

def this_week(today: date) -> Span:
    return week_start(today), today


def last_week(today: date) -> Span:
    start = week_start(today) - timedelta(days=7)
    return start, start + timedelta(days=6)


def this_month(today: date) -> Span:
    return today.replace(day=1), today


def last_month(today: date) -> Span:
    first = add_months(today.replace(day=1), -1)
    return month_span(first.year, first.month)


def next_week(today: date) -> Span:
    start = week_start(today) + timedelta(days=7)
    return start, start + timedelta(days=6)


def next_month(today: date) -> Span:
    first = add_months(today.replace(day=1), 1)
    return month_span(first.year, first.month)


def next_quarter(today: date) -> Span:
    after = quarter_span(today.year, quarter_of(today))[1] + timedelta(days=1)
    return quarter_span(after.year, quarter_of(after))


def last_quarters(today: date, count: int) -> Span:
    """The last `count` completed calendar quarters ("last four quarters" = the four before
    the current one, as "last quarter" is the one before it)."""
    current = quarter_span(today.year, quarter_of(today))[0]
    first = add_months(current, -3 * count)
    return first, current - timedelta(days=1)


def first_quarters(year: int, count: int) -> Span:
    """The first `count` quarters of `year` ("前三季度", "first nine months")."""
    return date(year, 1, 1), quarter_span(year, count)[1]


def trading_days_back(today: date, count: int, market: Market | None = None) -> Span:
    """The last `count` trading days up to today: sessions of `market`'s exchange (holidays
    skipped), or weekdays when the market or its calendar is unknown."""
    return markets.sessions_back(market, today, count), today


@dataclasses.dataclass(frozen=True)
class TradingDays:
    """"The past N trading days": what a rule reads from the words; only the market the
    question is about can turn it into dates (`span`)."""
    count: int

    def span(self, today: date, market: Market | None) -> Span:
        return trading_days_back(today, self.count, market)


@dataclasses.dataclass(frozen=True)
class Anchored:
    """A span with more to say than its dates: it looks ahead (`forward`), or it hangs on an
    event the words do not date (`anchor`, the span then a provisional guess); see TimeContext."""
    span: Span
    anchor: str | None = None
    forward: bool = False
