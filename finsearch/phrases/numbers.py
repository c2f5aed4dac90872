"""Numbers as the rules write them: money with its currency's symbol, in the units each
language counts large amounts in; percentages; plain decimals; English month names (for
dates written out). Anything that is not a finite number (payloads are free-form) is
written "n/a"."""

from __future__ import annotations

import math

from . import Language

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December")
SYMBOLS = {"USD": "$", "HKD": "HK$", "CNY": "¥", "EUR": "€", "GBP": "£", "JPY": "¥"}
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
    """-$1.23B, ¥2.20万亿, 1,234.50 SEK: symbol before, an unknown currency's code after."""
    v = finite(value)
    if v is None:
        return "n/a"
    currency = currency if isinstance(currency, str) else None
    symbol = SYMBOLS.get((currency or "").upper(), "")
    suffix = "" if symbol or not currency else f" {currency}"
    sign = "-" if v < 0 else ""
    v = abs(v)
    unit = next(((scale, name) for scale, name in SCALES[language] if v >= scale), None)
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
