"""Words for dates and counts, in English and Chinese, as regex fragments and lookups."""

from __future__ import annotations

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11,
    "nov": 11, "december": 12, "dec": 12,
}
MONTH_RE = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"

WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
    "sunday": 6, "sun": 6,
}
WEEKDAY_RE = r"(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"

NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "couple of": 2, "a couple of": 2, "three": 3,
    "few": 3, "a few": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "eighteen": 18,
    "twenty": 20, "thirty": 30, "sixty": 60, "ninety": 90,
}
COUNT_RE = r"(?P<count>\d{1,3}|" + "|".join(
    sorted((w.replace(" ", r"\s+") for w in NUMBER_WORDS), key=len, reverse=True)) + r")"

UNIT_RE = r"(?P<unit>trading\s+days?|(?:trading\s+)?sessions?|days?|weeks?|months?|quarters?|years?|yrs?)"

QUARTER_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
                    "fourth": 4, "4th": 4}

ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
ZH_NUM_RE = r"[0-9零〇一二两三四五六七八九十百]+"
ZH_WEEKDAYS = {"一": 0, "1": 0, "二": 1, "2": 1, "三": 2, "3": 2, "四": 3, "4": 3,
               "五": 4, "5": 4, "六": 5, "6": 5, "日": 6, "天": 6, "7": 6}


def number(text: str) -> int:
    """'3' → 3, 'three' → 3, 'a couple of' → 2."""
    key = " ".join(text.lower().split())
    if key.isdigit():
        return int(key)
    return NUMBER_WORDS[key]


def zh_number(text: str) -> int:
    """Chinese or Arabic numerals up to the hundreds: '十二' → 12, '三十' → 30, '12' → 12."""
    if text.isdigit():
        return int(text)
    total, current = 0, 0
    for ch in text:
        if ch in ZH_DIGITS:
            current = ZH_DIGITS[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
        elif ch.isdigit():
            current = current * 10 + int(ch)
    return total + current


def unit_of(text: str) -> str:
    word = text.lower().split()[-1]
    if word.startswith(("day", "session")):
        return "day"
    if word.startswith("quarter"):
        return "quarter"
    if word.startswith("week"):
        return "week"
    if word.startswith("month"):
        return "month"
    return "year"


ZH_UNITS = {"天": "day", "日": "day", "个交易日": "day", "交易日": "day", "周": "week",
            "星期": "week", "个星期": "week", "月": "month", "个月": "month", "年": "year"}
ZH_UNIT_RE = r"(?P<unit>个交易日|交易日|个星期|个月|星期|天|日|周|月|年)"
