"""Chinese time expressions → date spans (same rule shape as rules_en)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from ...reference.markets import SHANGHAI, closure_around
from . import calendar_math
from .calendar_math import (
    full_year,
    half_span,
    is_count,
    month_span,
    part_of_month,
    quarter_of,
    quarter_span,
    recent_day,
    recent_half,
    recent_month_year,
    recent_quarter,
    span_back,
    week_start,
    weekday_on_or_before,
    year_span,
)
from .words import ZH_NUM_RE, ZH_UNIT_RE, ZH_UNITS, ZH_WEEKDAYS, zh_number

RULES: list[tuple[re.Pattern, object]] = []

MONTH_NUM = r"(?P<month>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])"
YEAR = r"(?P<year>(?:19|20)\d{2})\s*年"


def rule(pattern: str):
    def register(handler):
        RULES.append((re.compile(pattern), handler))
        return handler
    return register


def _month(m) -> int | None:
    value = zh_number(m.group("month"))
    return value if 1 <= value <= 12 else None


# -- dates and months --------------------------------------------------------------------

DAY_NUM = r"(?P<day>[0-9]{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"


@rule(r"(?:" + YEAR + r")?" + MONTH_NUM + r"\s*月\s*" + DAY_NUM + r"\s*[日号]")
def month_day(m, today):
    month, day = _month(m), zh_number(m.group("day"))
    if month is None:
        return None
    if m.group("year"):
        try:
            value = date(int(m.group("year")), month, day)
        except ValueError:
            return None
    else:
        value = recent_day(today, month, day)
    return (value, value) if value else None


@rule(r"(?:" + YEAR + r")?(?<![个近去前第])" + MONTH_NUM + r"\s*月份?\s*(?P<part>初|上旬|中旬|中|下旬|底|末)")
def part_month(m, today):
    month = _month(m)
    if month is None:
        return None
    year = int(m.group("year")) if m.group("year") else recent_month_year(today, month)
    part = {"底": "late", "末": "late", "下旬": "late"}.get(m.group("part"), m.group("part"))
    return part_of_month(year, month, part)


@rule(r"(?:" + YEAR + r")?(?<![个近去前第0-9一二三四五六七八九十])" + MONTH_NUM + r"\s*月份?"
      r"(?![0-9一二三四五六七八九十]|初|中|底|末|下旬|上旬)")
def month(m, today):
    month_value = _month(m)
    if month_value is None:
        return None
    year = int(m.group("year")) if m.group("year") else recent_month_year(today, month_value)
    return month_span(year, month_value)


# -- quarters, halves, years -------------------------------------------------------------

_RELATIVE_YEARS = {"今年": 0, "去年": -1, "明年": 1, "前年": -2}

@rule(r"(?:" + YEAR + r"\s*度?|(?P<rel>今年|去年|明年|前年))?\s*"
      r"(?:第\s*(?P<q>[一二三四1-4])\s*季度?|(?<![上下前近个这])(?P<q2>[一二三四1-4])\s*季度|Q(?P<q3>[1-4]))")
def quarter(m, today):
    q = zh_number(m.group("q") or m.group("q2") or m.group("q3"))
    if m.group("year"):
        return quarter_span(int(m.group("year")), q)
    if m.group("rel"):          # "今年四季度", "去年一季度"
        return quarter_span(today.year + _RELATIVE_YEARS[m.group("rel")], q)
    if m.group("q3"):
        return None            # a bare "Q3" is handled by the English rules
    return recent_quarter(today, q)


@rule(r"(?:" + YEAR + r"\s*)?(?:(?P<q>[一三])季报|(?P<half>中报|半年报|半年度报告)|(?P<annual>年报|年度报告))")
def report(m, today):
    """一季报, 三季报, 中报, 年报: the period of a report; with no year, the latest one whose
    period has ended (a report follows its period)."""
    year = int(m.group("year")) if m.group("year") else None
    if m.group("annual"):
        return calendar_math.year_span(year or today.year - 1)
    span = (lambda y: calendar_math.half_span(y, 1)) if m.group("half") else \
        (lambda y: calendar_math.quarter_span(y, zh_number(m.group("q"))))
    if year is not None:
        return span(year)
    return span(today.year) if span(today.year)[1] < today else span(today.year - 1)


@rule(r"上个?一?季度|本季度|这[个一]?季度|当季")
def relative_quarter(m, today):
    start, _ = quarter_span(today.year, quarter_of(today))
    if m.group(0).startswith("上"):
        prev = start - timedelta(days=1)
        return quarter_span(prev.year, quarter_of(prev))
    return start, today


@rule(r"(?:" + YEAR + r"|(?P<rel>今年|去年))?\s*(?P<half>上|下)半年")
def half(m, today):
    which = 1 if m.group("half") == "上" else 2
    if m.group("year"):
        return half_span(int(m.group("year")), which)
    if m.group("rel") == "去年":
        return half_span(today.year - 1, which)
    if m.group("rel") == "今年":
        return half_span(today.year, which)
    return recent_half(today, which)


@rule(r"(?:" + YEAR + r"|(?P<rel>今年|去年))?\s*前\s*(?P<n>[一二两三1-3])\s*个?季度")
def first_quarters(m, today):
    """前三季度: January to the end of the third quarter (of the latest year in which it is over)."""
    count = zh_number(m.group("n"))
    if m.group("year"):
        year = int(m.group("year"))
    elif m.group("rel"):
        year = today.year if m.group("rel") == "今年" else today.year - 1
    else:
        year = today.year if quarter_span(today.year, count)[1] < today else today.year - 1
    return calendar_math.first_quarters(year, count)


@rule(r"(?:最近|近|过去|这(?=\s*\S+\s*个))\s*(?P<count>" + ZH_NUM_RE + r")\s*个?\s*季度")
def last_quarters(m, today):
    count = zh_number(m.group("count"))
    return calendar_math.last_quarters(today, count) if count > 0 else None


@rule(r"(?:最近|近|过去|这)\s*半\s*年(?:以来|来|内)?|半年(?:以)?来")
def past_half_year(m, today):
    return span_back(today, 6, "month")


@rule(r"本财年|本会计年度|今年财年|当前财年")
def this_fiscal_year(m, today):
    return date(today.year, 1, 1), today


@rule(r"上一?个?财年|上一?会计年度")
def last_fiscal_year(m, today):
    return year_span(today.year - 1)


@rule(r"(?P<year>(?:19|20)\d{2})\s*(?:财年|财政年度|会计年度)|FY\s*(?P<year2>\d{2,4})财年")
def fiscal_year(m, today):
    return year_span(full_year(m.group("year") or m.group("year2")))


@rule(YEAR + r"(?!\s*(?:[0-9一二三四五六七八九十]+\s*月|第|上半年|下半年|[一二三四1-4]\s*季度|Q\d|度))")
def year(m, today):
    return year_span(int(m.group("year")))


@rule(r"今年以来|年初至今|今年迄今|年初以来|本年度|今年")
def this_year(m, today):
    return date(today.year, 1, 1), today


@rule(r"去年(?!上半年|下半年)|上一年")
def last_year(m, today):
    return year_span(today.year - 1)


@rule(r"前年")
def year_before_last(m, today):
    return year_span(today.year - 2)


# -- relative to today -------------------------------------------------------------------

@rule(r"今天|今日|今早|盘中|早盘|午盘|尾盘|目前|当前|现在")
def today_rule(m, today):
    return today, today


@rule(r"昨天|昨日|昨晚")
def yesterday(m, today):
    day = today - timedelta(days=1)
    return day, day


@rule(r"前天")
def before_yesterday(m, today):
    day = today - timedelta(days=2)
    return day, day


@rule(r"(?P<which>本|这|上|上一)(?:个)?(?:周|星期|礼拜)(?P<day>[一二三四五六日天1-7])?")
def week(m, today):
    start = week_start(today)
    if m.group("which").startswith("上"):
        start -= timedelta(days=7)
    if m.group("day"):
        day = start + timedelta(days=ZH_WEEKDAYS[m.group("day")])
        return day, day
    if m.group("which").startswith("上"):
        return start, start + timedelta(days=6)
    return start, today


@rule(r"(?<![上本这])(?:周|星期|礼拜)(?P<day>[一二三四五六日天])")
def weekday(m, today):
    day = weekday_on_or_before(today, ZH_WEEKDAYS[m.group("day")])
    return day, day


@rule(r"本月|这个月|当月|本月以来")
def this_month(m, today):
    return calendar_math.this_month(today)


@rule(r"上个?月")
def last_month(m, today):
    return calendar_math.last_month(today)


@rule(r"(?:最近|近|过去|前|这)\s*(?P<count>" + ZH_NUM_RE + r")\s*" + ZH_UNIT_RE + r"(?:以来|来|内)?")
def past_span(m, today):
    count = zh_number(m.group("count"))
    unit = ZH_UNITS[m.group("unit")]
    if not is_count(count, unit):
        return None
    if "交易日" in m.group("unit"):
        return calendar_math.TradingDays(count)
    return span_back(today, count, unit)


@rule(r"(?:最近|近期|近来|近日|这几天|这段时间)(?![0-9一二两三四五六七八九十])")
def recently(m, today):
    return span_back(today, 1, "week")


@rule(r"(?P<count>" + ZH_NUM_RE + r")\s*" + ZH_UNIT_RE + r"前")
def ago(m, today):
    count, unit = zh_number(m.group("count")), ZH_UNITS[m.group("unit")]
    if not is_count(count, unit):
        return None
    start, _ = span_back(today, count, unit)
    return start, start


# -- holidays ----------------------------------------------------------------------------

# 十一 is National Day only next to a holiday word ("十一以来", "十一长假"); alone it is eleven.
@rule(r"(?:国庆|十一(?=\s*(?:节|长假|假期|黄金周|后|之后|以后|以来|前|之前|期间)))"
      r"(?:节|长假|假期|黄金周)?\s*(?P<when>后|之后|以后|以来|前|之前|期间)?")
def national_day(m, today):
    year = today.year if today >= date(today.year, 10, 1) else today.year - 1
    when = m.group("when") or "期间"
    if when in ("后", "之后", "以后", "以来"):
        start = date(year, 10, 8)
        return start, max(start, today) if today.year == year else date(year, 10, 31)
    if when in ("前", "之前"):
        return date(year, 9, 23), date(year, 9, 30)
    return date(year, 10, 1), date(year, 10, 7)


@rule(r"春节\s*(?P<when>后|之后|以后|以来|前|之前|期间)?")
def spring_festival(m, today):
    """The Spring Festival closure of the Shanghai exchange (the lunar new year's day from
    exchange_calendars' table, the closed days around it from its XSHG calendar); before it,
    the ten days up to the closure; after it, from the first trading day on."""
    year = today.year if (festival := lunar_new_year(today.year)) and today >= festival else today.year - 1
    festival = lunar_new_year(year)
    if festival is None:
        return None
    # Outside the calendar's years: the public holiday runs from the eve for a week.
    first, last = closure_around(SHANGHAI.calendar, festival) or \
        (festival - timedelta(days=1), festival + timedelta(days=6))
    when = m.group("when") or "期间"
    if when in ("后", "之后", "以后", "以来"):
        start = last + timedelta(days=1)
        return start, max(start, min(today, start + timedelta(days=60)))
    if when in ("前", "之前"):
        return first - timedelta(days=10), first - timedelta(days=1)
    return first, last


def lunar_new_year(year: int) -> date | None:
    """Spring Festival of `year`, from exchange_calendars' precomputed table (1960–2049)."""
    try:
        from exchange_calendars.lunisolar_holidays import chinese_lunar_new_year_dates
    except ImportError:
        return None
    found = [stamp.date() for stamp in chinese_lunar_new_year_dates if stamp.year == year]
    return found[0] if found else None
