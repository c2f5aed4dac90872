"""Numbers as the rules write them: money in the units each language counts large amounts
in, with its currency as that language writes it (English: the symbol before, "$705.00B";
Chinese: the currency word after, "7,050亿美元", "1.96万亿元"); percentages; plain decimals;
English month names (for dates written out). Anything that is not a finite number
(payloads are free-form) is written "n/a"."""

from __future__ import annotations

import math

from . import Language

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December")
SYMBOLS = {"USD": "$", "HKD": "HK$", "CNY": "¥", "EUR": "€", "GBP": "£", "JPY": "¥"}
# Chinese writes the currency as a word after the amount; "元" alone is the renminbi.
CURRENCY_WORDS_ZH = {"USD": "美元", "HKD": "港元", "CNY": "元", "EUR": "欧元", "GBP": "英镑", "JPY": "日元"}
# (from, unit), largest first: English counts in millions, billions and trillions; Chinese
# in 亿 (10^8) and 万亿 (10^12), and writes anything below 亿 in full.
SCALES: dict[Language, tuple[tuple[float, str], ...]] = {
    "en": ((1e12, "T"), (1e9, "B"), (1e6, "M")),
    "zh": ((1e12, "万亿"), (1e8, "亿")),
}


def finite(value) -> float | None:
    """A payload field as a number, or None for anything else (booleans, text, NaN, ∞)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def money(value, currency: str | None, language: Language) -> str:
    """-$1.23B, 1,234.50 SEK (en); 2.20万亿元, 7,050亿美元, 1,560.00元 (zh): a known currency
    as the language writes it, an unknown currency's code after."""
    v = finite(value)
    if v is None:
        return "n/a"
    code = currency.upper() if isinstance(currency, str) else ""
    sign = "-" if v < 0 else ""
    v = abs(v)
    unit = next(((scale, name) for scale, name in SCALES[language] if v >= scale), None)
    if language == "zh":
        # 亿 counts are large: "7,050亿", "705.3亿", "34.00亿" keep about four figures.
        scaled = v / unit[0] if unit else v
        digits = 2 if not unit or scaled < 100 else 1 if scaled < 1000 else 0
        text = f"{scaled:,.{digits}f}{unit[1] if unit else ''}"
        word = CURRENCY_WORDS_ZH.get(code)
        return f"{sign}{text}{word}" if word else f"{sign}{text}{' ' + currency if code else ''}"
    symbol = SYMBOLS.get(code, "")
    suffix = "" if symbol or not code else f" {currency}"
    text = f"{v / unit[0]:.2f}{unit[1]}" if unit else f"{v:,.2f}"
    return f"{sign}{symbol}{text}{suffix}"


def pct(value, signed: bool = True) -> str:
    """+1.23% (signed) or 1.23% (the size only)."""
    v = finite(value)
    if v is None:
        return "n/a"
    return f"{v:+.2f}%" if signed else f"{abs(v):.2f}%"


def decimal(value) -> str:
    """Two decimals (EPS, ratios)."""
    v = finite(value)
    return "n/a" if v is None else f"{v:.2f}"
