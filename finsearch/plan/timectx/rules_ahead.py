"""Forward-looking time expressions, in English and Chinese: "next quarter", "next week",
"in the coming months", "下季度", "明年", "未来三个月". Their spans lie after today and are
marked `forward`: what they ask about has not happened, so estimates and announcements
answer them rather than price history."""

from __future__ import annotations

import re
from datetime import timedelta

from . import calendar_math
from .calendar_math import Anchored, half_span, is_count, span_ahead, year_span
from .words import COUNT_RE, UNIT_RE, ZH_NUM_RE, ZH_UNIT_RE, ZH_UNITS, ZH_WEEKDAYS, number, unit_of, zh_number

RULES: list[tuple[re.Pattern, object]] = []


def rule(pattern: str, flags: int = re.I):
    def register(handler):
        RULES.append((re.compile(pattern, flags), handler))
        return handler
    return register


def _ahead(span) -> Anchored:
    return Anchored(span, forward=True)


@rule(r"\b(?:next|the\s+coming|the\s+following|upcoming)\s+quarter(?:'s)?\b|下一?个?季度")
def next_quarter(m, today):
    return _ahead(calendar_math.next_quarter(today))


@rule(r"\b(?:next|the\s+coming)\s+week(?:'s)?\b|(?:下|下一)个?(?:周|星期|礼拜)(?P<day>[一二三四五六日天1-7])?")
def next_week(m, today):
    start, end = calendar_math.next_week(today)
    if m.groupdict().get("day"):
        day = start + timedelta(days=ZH_WEEKDAYS[m.group("day")])
        return _ahead((day, day))
    return _ahead((start, end))


@rule(r"\bnext\s+month(?:'s)?\b|下一?个?月(?!份?[0-9一二三四五六七八九十])")
def next_month(m, today):
    return _ahead(calendar_math.next_month(today))


@rule(r"\bnext\s+(?:fiscal\s+|calendar\s+)?year(?:'s)?\b|(?:明年|下一年|下个?财年)(?!\s*[上下]半年)")
def next_year(m, today):
    return _ahead(year_span(today.year + 1))


@rule(r"明年\s*(?P<half>上|下)半年|\b(?P<which>first|second)\s+half\s+of\s+next\s+year\b")
def next_year_half(m, today):
    half = 1 if (m.group("half") == "上" or (m.group("which") or "").lower() == "first") else 2
    return _ahead(half_span(today.year + 1, half))


@rule(r"\b(?:tomorrow(?:'s)?|tmrw)\b|明天|明日")
def tomorrow(m, today):
    day = today + timedelta(days=1)
    return _ahead((day, day))


@rule(r"\b(?:(?:over|in|within|during)\s+)?(?:the\s+)?(?P<lead>next|coming|upcoming|following)\s+(?:"
      + COUNT_RE + r"\s+)?" + UNIT_RE + r"\b")
def next_span(m, today):
    count_text, unit_text = m.group("count"), m.group("unit").lower()
    plural = unit_text.endswith("s")
    if count_text is None and not plural and m.group("lead").lower() == "next":
        return None            # "next week/month/year" are calendar periods: rules above
    count = number(count_text) if count_text else (3 if plural else 1)   # "the coming weeks"
    return _ahead(span_ahead(today, count, unit_of(unit_text)))


@rule(r"(?:未来|接下来|今后|往后)(?:的)?\s*(?P<count>" + ZH_NUM_RE + r")\s*" + ZH_UNIT_RE
      + r"|(?:未来|接下来|今后)(?:的)?几(?:天|周|个月)")
def next_span_zh(m, today):
    if m.groupdict().get("count"):
        count, unit = zh_number(m.group("count")), ZH_UNITS[m.group("unit")]
    else:
        count, unit = 3, {"天": "day", "周": "week"}.get(m.group(0)[-1], "month")
    return _ahead(span_ahead(today, count, unit)) if is_count(count, unit) else None

