"""yfinance's answers (DataFrames, Series, numpy scalars, NaN, NaT, tz-aware Timestamps)
turned into plain JSON values.

Every helper takes anything and returns a JSON value or None; none of them raises on
odd input, so a payload built from them is clean or has a null field — never a NaN, a
numpy type or a Timestamp. pandas itself is never imported here: values are read by
duck typing, so importing the finance adapter stays cheap.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from ...evidence import plain_text

TEXT_MAX = 2000


def num(value: Any, digits: int | None = None) -> float | None:
    """A finite float (rounded to `digits`), else None. Text and booleans are not numbers."""
    if value is None or isinstance(value, (bool, str, bytes)):
        return None
    if getattr(getattr(value, "dtype", None), "kind", "") == "b":   # numpy.bool_
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):                   # pd.NA, objects
        return None
    if not math.isfinite(number):
        return None
    return round(number, digits) if digits is not None else number


def integer(value: Any) -> int | None:
    number = num(value)
    return None if number is None else int(round(number))


def pct(fraction: Any, digits: int = 2) -> float | None:
    """A fraction (0.0271) as a percentage (2.71)."""
    number = num(fraction)
    return None if number is None else round(number * 100, digits)


def text(value: Any, limit: int = TEXT_MAX) -> str | None:
    """One line of plain text, or None for empty / NaN values."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None
    if not isinstance(value, str):
        return None
    cleaned = plain_text(value, limit)
    return cleaned or None


def day(value: Any) -> date | None:
    """The calendar date of a value in its own timezone (the exchange's, for prices)."""
    if isinstance(value, datetime):
        return None if value != value else value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def day_iso(value: Any) -> str | None:
    found = day(value)
    return found.isoformat() if found else None


def is_empty(frame: Any) -> bool:
    """True for None, anything that is not a DataFrame/Series, and empty ones."""
    if frame is None or not hasattr(frame, "empty"):
        return True
    try:
        return bool(frame.empty)
    except (TypeError, ValueError):
        return True


def column(frame: Any, name: str) -> list:
    """The values of one column as a list, or Nones when the column is missing."""
    try:
        if name in frame.columns:
            return list(frame[name])
    except (AttributeError, TypeError, KeyError):
        pass
    return [None] * len(frame)


def first_number(frame: Any, labels: Iterable[str], col: Any, digits: int | None = None) -> float | None:
    """The first finite value among row `labels` in column `col` of a statement frame."""
    for label in labels:
        try:
            if label not in frame.index or col not in frame.columns:
                continue
            value = frame.loc[label, col]
        except (AttributeError, KeyError, TypeError, ValueError):
            continue
        if hasattr(value, "dropna"):                # duplicated row label: a Series
            value = next(iter(value.dropna()), None)
        found = num(value, digits)
        if found is not None:
            return found
    return None


def compact(value: Any) -> str:
    """1234567890 → "1.23B": figures for one-line snippets."""
    number = num(value)
    if number is None:
        return "n/a"
    size = abs(number)
    for limit, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if size >= limit:
            return f"{number / limit:.2f}{suffix}"
    return f"{number:,.2f}"
