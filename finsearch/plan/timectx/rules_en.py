"""English time expressions → date spans. Each rule is a regex and a handler.

Handlers take the match and `today` and return (start, end), or None when the match
turns out not to be a time expression (lower-case "may" is a verb, not a month).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from . import calendar_math
from .calendar_math import (
    Span,
    full_year,
    half_span,
    month_span,
    part_of_month,
    quarter_of,
    quarter_span,
    recent_half,
    recent_month_year,
    recent_quarter,
    span_back,
    weekday_on_or_before,
    year_span,
)
from .words import COUNT_RE, MONTH_RE, MONTHS, QUARTER_ORDINALS, UNIT_RE, WEEKDAY_RE, WEEKDAYS, number, unit_of

RULES: list[tuple[re.Pattern, object]] = []


def rule(pattern: str):
    def register(handler):
        RULES.append((re.compile(pattern, re.I), handler))
        return handler
    return register


def _month(match: re.Match) -> int | None:
    word = match.group("month")
    if word == "may" or word == "MAY":   # the verb, or shouting; "May" is the month
        return None
    return MONTHS[word.lower().rstrip(".")]


def _year(match: re.Match, name: str = "year") -> int | None:
    text = match.groupdict().get(name)
    return full_year(text) if text else None


@lru_cache(maxsize=512)
def _dateparser(text: str, today: date, order: str) -> date | None:
    import dateparser  # imported on first use: it is slow to load

    base = datetime(today.year, today.month, today.day, 23, 59)
    parsed = dateparser.parse(
        text, languages=["en"],
        settings={"PREFER_DATES_FROM": "past", "RELATIVE_BASE": base, "DATE_ORDER": order,
                  "REQUIRE_PARTS": ["day", "month"], "RETURN_AS_TIMEZONE_AWARE": False},
    )
    return parsed.date() if parsed else None


def _day(value: date | None) -> Span | None:
    return (value, value) if value else None


# -- explicit dates ---------------------------------------------------------------------

# Digits bound the date, not \b: beside a Chinese character ("自2024-10-08以来") there is no word boundary.
@rule(r"(?<![\d/-])\d{4}-\d{1,2}-\d{1,2}(?![\d/-])|(?<![\d/-])\d{4}/\d{1,2}/\d{1,2}(?![\d/-])")
def iso_date(m, today):
    return _day(_dateparser(m.group(0), today, "YMD"))


@rule(r"\b\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})\b")
def us_date(m, today):
    return _day(_dateparser(m.group(0), today, "MDY"))


@rule(r"\b" + MONTH_RE + r"\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(?P<year>\d{4})\b)?")
def month_day(m, today):
    if _month(m) is None:
        return None
    return _day(_dateparser(m.group(0), today, "MDY"))


@rule(r"\b(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH_RE + r"(?:,?\s+(?P<year>\d{4})\b)?")
def day_month(m, today):
    if _month(m) is None:
        return None
    return _day(_dateparser(m.group(0).replace(" of ", " "), today, "DMY"))


# -- months -----------------------------------------------------------------------------

@rule(r"\b(?P<part>early|mid|middle|late|end\s+of|beginning\s+of|start\s+of)[\s-]+(?:the\s+month\s+of\s+)?"
      + MONTH_RE + r"(?:,?\s+(?P<year>\d{4}))?\b")
def part_month(m, today):
    month = _month(m)
    if month is None:
        return None
    year = _year(m) or recent_month_year(today, month)
    part = m.group("part").lower().split()[0]
    return part_of_month(year, month, "late" if part == "end" else part)


@rule(r"\b" + MONTH_RE + r",?\s+(?:of\s+)?(?P<year>\d{4})\b")
def month_year(m, today):
    month = _month(m)
    return month_span(_year(m), month) if month else None


@rule(r"\b(?:in|during|since|for|through|throughout|over|until|by|of)\s+(?:the\s+month\s+of\s+)?"
      + MONTH_RE + r"(?![\w-])(?!\.?\s*\d)")
def month_alone(m, today):
    month = _month(m)
    if month is None:
        return None
    return month_span(recent_month_year(today, month), month)


# -- quarters, halves, fiscal and calendar years -----------------------------------------

@rule(r"\bQ(?P<q>[1-4])\s*['’]?\s*(?:FY\s*)?(?P<year>\d{4}|\d{2})\b|\b(?P<year2>\d{4})\s*-?\s*Q(?P<q2>[1-4])\b"
      r"|\b(?P<q3>[1-4])Q\s*['’]?(?P<year3>\d{4}|\d{2})\b")
def quarter_year(m, today):
    quarter = int(m.group("q") or m.group("q2") or m.group("q3"))
    year = full_year(m.group("year") or m.group("year2") or m.group("year3"))
    return quarter_span(year, quarter)


@rule(r"\b(?:the\s+)?(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter"
      r"(?:\s+(?:of\s+)?(?:fiscal\s+)?(?P<year>\d{4}))?\b")
def quarter_words(m, today):
    quarter = QUARTER_ORDINALS[m.group("ord").lower()]
    year = _year(m)
    return quarter_span(year, quarter) if year else recent_quarter(today, quarter)


@rule(r"\bQ(?P<q>[1-4])\b")
def quarter_alone(m, today):
    return recent_quarter(today, int(m.group("q")))


@rule(r"\b(?:(?:last|previous|prior|past)\s+quarter|(?:this|current)\s+quarter|quarter[\s-]to[\s-]date|QTD)\b")
def relative_quarter(m, today):
    start, _ = quarter_span(today.year, quarter_of(today))
    if m.group(0).lower().split()[0] in ("last", "previous", "prior", "past"):
        prev = start - timedelta(days=1)
        return quarter_span(prev.year, quarter_of(prev))
    return start, today


@rule(r"\bH(?P<h>[12])\s*['’]?\s*(?P<year>\d{4}|\d{2})\b|\b(?P<year2>\d{4})\s*H(?P<h2>[12])\b"
      r"|\b(?P<h3>[12])H\s*['’]?(?P<year3>\d{4}|\d{2})\b")
def half_year(m, today):
    half = int(m.group("h") or m.group("h2") or m.group("h3"))
    return half_span(full_year(m.group("year") or m.group("year2") or m.group("year3")), half)


@rule(r"\b(?:the\s+)?(?P<which>first|second)\s+half(?:\s+of)?(?:\s+(?P<year>\d{4}))?\b|\bH(?P<h>[12])\b")
def half_words(m, today):
    half = 1 if (m.group("which") or "").lower() == "first" or m.group("h") == "1" else 2
    year = _year(m)
    return half_span(year, half) if year else recent_half(today, half)


@rule(r"\bFY\s*['’]?(?P<year>\d{4}|\d{2})\b|\bfiscal(?:\s+year)?\s+(?P<year2>\d{4})\b"
      r"|\b(?P<year3>\d{4})\s+fiscal\s+year\b")
def fiscal_year(m, today):
    # Fiscal calendars differ by company; the calendar year is the honest approximation
    # for a date filter (the label keeps the words the user wrote).
    return year_span(full_year(m.group("year") or m.group("year2") or m.group("year3")))


@rule(r"\b(?:in|during|for|throughout|since|of|over)\s+(?P<year>(?:19[89]|20\d)\d)\b(?![-/]\d)")
def in_year(m, today):
    return year_span(int(m.group("year")))


@rule(r"(?<![\w$.-])(?P<year>(?:19[89]|20\d)\d)(?![\w%-]|/\d|\.\d)")
def bare_year(m, today):
    year = int(m.group("year"))
    return year_span(year) if year <= today.year + 1 else None


# -- relative to today ------------------------------------------------------------------

@rule(r"\b(?:today|today's|this\s+morning|this\s+afternoon|tonight|intraday|so\s+far\s+today"
      r"|pre-?market|after[\s-]hours|right\s+now|at\s+the\s+moment)\b")
def today_rule(m, today):
    return today, today


@rule(r"\b(?:the\s+)?day\s+before\s+yesterday\b")
def before_yesterday(m, today):
    return _day(today - timedelta(days=2))


@rule(r"\byesterday(?:'s)?\b|\blast\s+night\b|\bovernight\b")
def yesterday(m, today):
    return _day(today - timedelta(days=1))


@rule(r"\b(?:this|current)\s+week\b|\bweek[\s-]to[\s-]date\b|\bWTD\b|\bso\s+far\s+this\s+week\b")
def this_week(m, today):
    return calendar_math.this_week(today)


@rule(r"\b(?:last|previous|prior)\s+week(?:'s)?\b|\ba\s+week\s+earlier\b")
def last_week(m, today):
    return calendar_math.last_week(today)


@rule(r"\b(?:this|current)\s+month\b|\bmonth[\s-]to[\s-]date\b|\bMTD\b|\bso\s+far\s+this\s+month\b")
def this_month(m, today):
    return calendar_math.this_month(today)


@rule(r"\b(?:last|previous|prior)\s+month(?:'s)?\b")
def last_month(m, today):
    return calendar_math.last_month(today)


@rule(r"\b(?:this|current)\s+(?:fiscal\s+|calendar\s+)?year\b|\b(?:fiscal\s+)?year[\s-]to[\s-]date\b"
      r"|\bF?YTD\b|\bso\s+far\s+this\s+year\b|\bsince\s+the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+year\b")
def this_year(m, today):
    return date(today.year, 1, 1), today


@rule(r"\b(?:last|previous|prior)\s+(?:fiscal\s+|calendar\s+)?year(?:'s)?\b|\ba\s+year\s+earlier\b")
def last_year(m, today):
    return year_span(today.year - 1)


@rule(r"(?<![A-Za-z])(?:TTM|LTM)(?![A-Za-z])")
def trailing_twelve_months_reported(m, today):
    """TTM, as a figure is reported: the last four completed quarters."""
    return calendar_math.last_quarters(today, 4)


@rule(r"\b(?:trailing|last|past)[\s-]+(?:twelve|12)[\s-]+months?\b")
def trailing_twelve_months(m, today):
    return span_back(today, 12, "month")


@rule(r"\b(?:(?:over|in|within|during)\s+the\s+)?(?:past|last|previous)\s+half[\s-]+(?:a\s+)?year\b"
      r"|\b(?:past|last)\s+half\s+a\s+year\b")
def past_half_year(m, today):
    return span_back(today, 6, "month")


@rule(r"\btrailing\s+(?P<count>two|three|four|[1-8])\s+quarters\b")
def trailing_quarters(m, today):
    return calendar_math.last_quarters(today, number(m.group("count")))


@rule(r"\b(?:the\s+)?first\s+(?:(?P<q>two|three|2|3)\s+quarters|(?P<months>six|nine|6|9)\s+months)"
      r"(?:\s+of\s+(?:the\s+year|this\s+year|(?:fiscal\s+)?(?P<year>\d{4})))?\b|\b(?P<m2>[69])M\s*['’]?(?P<year2>\d{4}|\d{2})\b")
def first_quarters(m, today):
    months = m.group("months") or m.group("m2")
    count = number(m.group("q")) if m.group("q") else number(months) // 3
    year = _year(m) or _year(m, "year2")
    if year is None:              # the most recent year in which those quarters are over
        year = today.year if quarter_span(today.year, count)[1] < today else today.year - 1
    return calendar_math.first_quarters(year, count)


@rule(r"\b(?:(?:over|in|within|during)\s+the\s+)?(?P<lead>past|last|previous|prior|recent)\s+"
      r"(?:" + COUNT_RE + r"\s+)?" + UNIT_RE + r"\b(?!\s+ago)")
def past_span(m, today):
    count_text = m.group("count")
    unit_text = m.group("unit").lower()
    calendar_unit = unit_text.rstrip("s") in ("week", "month", "quarter", "year")
    if count_text is None and calendar_unit and m.group("lead").lower() != "past" \
            and not m.group(0).lower().startswith(("over", "in", "within", "during")):
        return None            # "last week/month/year" are calendar periods: other rules
    count = number(count_text) if count_text else 1
    if "trading" in unit_text or "session" in unit_text:
        return calendar_math.TradingDays(count)
    if unit_of(unit_text) == "quarter" and count_text:
        return calendar_math.last_quarters(today, count)   # as "last quarter": completed ones
    return span_back(today, count, unit_of(unit_text))


# "1 year chart", "6-month return": the span the chart or return is over, up to today.
@rule(r"\b" + COUNT_RE + r"[\s-]+(?P<unit>days?|weeks?|months?|years?|yrs?)\s+(?:chart|returns?|performance"
      r"|change|trend|gains?|loss(?:es)?|price\s+history)\b")
def span_of_a_chart(m, today):
    return span_back(today, number(m.group("count")), unit_of(m.group("unit")))


@rule(r"\b(?:past|last|previous|over\s+the(?:\s+past|\s+last)?|in\s+the(?:\s+past|\s+last)?)\s+"
      r"(?P<hours>\d{1,3}|twenty[\s-]four)\s+hours\b")
def past_hours(m, today):
    text = m.group("hours")
    hours = 24 if text.startswith("twenty") else int(text)
    return today - timedelta(days=max(1, -(-hours // 24))), today


@rule(r"\b" + COUNT_RE + r"\s+" + UNIT_RE + r"\s+ago\b")
def ago(m, today):
    count = number(m.group("count"))
    start, _ = span_back(today, count, unit_of(m.group("unit")))
    return start, start


@rule(r"\b(?:recently|lately|in\s+recent\s+days|these\s+days)\b")
def recently(m, today):
    return span_back(today, 1, "week")


@rule(r"\b(?:(?P<rel>on|last|this|past|previous)\s+)?" + WEEKDAY_RE + r"(?P<poss>'s)?\b")
def weekday(m, today):
    rel = (m.group("rel") or "").lower()
    if not rel and not m.group("poss"):
        return None            # a bare "Friday" could be anything; "on Friday" is a day
    target = WEEKDAYS[m.group("weekday").lower()]
    return _day(weekday_on_or_before(today, target, strictly_before=rel in ("last", "previous", "past")))


@rule(r"\b(?:this|last|over\s+the)\s+weekend\b")
def weekend(m, today):
    saturday = weekday_on_or_before(today, 5, strictly_before=today.weekday() == 5)
    if m.group(0).lower().startswith("last") and today.weekday() in (5, 6):
        saturday -= timedelta(days=7)
    return saturday, saturday + timedelta(days=1)
