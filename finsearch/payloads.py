"""The structured payloads other code relies on, checked where evidence is sanitised.

Charts, answers, the rewriter and the audit read `price_history` rows and `quote` fields
without defending themselves; this is where a malformed payload from a pack, a cache or an
upstream is made safe once: bad rows are dropped and counted, a payload that cannot be
used at all loses its rows, and each problem comes back as a sentence for the node's notes.

    price_history rows: [date, open, high, low, close, volume] with an ISO date (or time),
    finite prices (open/high/low may be missing, close may not, high ≥ low), a volume that
    is missing or a whole number ≥ 0; oldest first, one row per timestamp.
"""

from __future__ import annotations

import math
from datetime import date, datetime

PRICE_COLUMNS = ["date", "open", "high", "low", "close", "volume"]
QUOTE_NUMBERS = ("last", "previous_close", "change_pct", "day_low", "day_high", "year_low", "year_high",
                 "market_cap", "volume", "dividend_yield", "pe_ratio")


def clean_payload(source: str, data: dict | None) -> tuple[dict | None, list[str]]:
    """`data` made safe for the code that reads `source` payloads, and what was wrong."""
    if data is None:
        return None, []
    if source == "price_history":
        return clean_price_history(data)
    if source == "quote":
        return clean_quote(data)
    return data, []


def clean_price_history(data: dict) -> tuple[dict, list[str]]:
    ticker = str(data.get("ticker") or "the instrument")
    rows = data.get("rows")
    out = {**data, "columns": list(PRICE_COLUMNS)}
    problems: list[str] = []
    if rows is None:
        out["rows"] = []
    elif not isinstance(rows, list):
        out["rows"] = []
        problems.append(f"the price rows for {ticker} were not a list and were left out")
    else:
        columns = data.get("columns")
        order = _column_order(columns)
        if order is None:
            out["rows"] = []
            problems.append(f"the price columns for {ticker} were not date/open/high/low/close/volume; "
                            "the rows were left out")
        else:
            kept = {}
            for raw in rows:
                row = _price_row(raw, order)
                if row is not None:
                    kept[row[0]] = row
            out["rows"] = [kept[stamp] for stamp in sorted(kept)]
            dropped = len(rows) - len(out["rows"])
            if dropped:
                problems.append(f"{dropped} of {len(rows)} price rows for {ticker} were malformed and were dropped")
    stats = data.get("stats")
    if stats is not None and not isinstance(stats, dict):
        out["stats"] = {}
    elif isinstance(stats, dict):
        moves = stats.get("biggest_moves")
        good = [m for m in moves if _move(m)] if isinstance(moves, list) else []
        out["stats"] = {**stats, "biggest_moves": good}
    return out, problems


def _column_order(columns) -> list[int] | None:
    """Where each standard column sits in a row (None: unusable columns)."""
    if columns is None:
        return list(range(6))
    if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
        return None
    names = [c.strip().lower() for c in columns]
    try:
        return [names.index(name) for name in PRICE_COLUMNS]
    except ValueError:
        return None


def _price_row(raw, order: list[int]) -> list | None:
    if not isinstance(raw, (list, tuple)) or len(raw) <= max(order):
        return None
    stamp, open_, high, low, close, volume = (raw[i] for i in order)
    stamp = _stamp(stamp)
    prices = [_price(v) for v in (open_, high, low, close)]
    if stamp is None or any(p is False for p in prices) or prices[3] is None:
        return None
    if prices[1] is not None and prices[2] is not None and prices[1] < prices[2]:
        return None                                     # a high below the low is not a bar
    if volume is not None:
        if isinstance(volume, bool) or not isinstance(volume, (int, float)) or not math.isfinite(volume) \
                or volume < 0:
            return None
        volume = int(volume)
    return [stamp, *prices, volume]


def _stamp(value) -> str | None:
    """An ISO date or time as a row's first column, else None."""
    if not isinstance(value, str) or not 10 <= len(value) <= 32:
        return None
    try:
        if len(value) == 10:
            date.fromisoformat(value)
        else:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value


def _price(value):
    """A finite float, None when missing, False when unusable."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return False
    return float(value)


def _move(move) -> bool:
    return isinstance(move, dict) and _stamp(move.get("date")) is not None \
        and _price(move.get("change_pct")) not in (None, False)


def clean_quote(data: dict) -> tuple[dict, list[str]]:
    out = dict(data)
    bad = [name for name in QUOTE_NUMBERS if name in out and out[name] is not None and _price(out[name]) is False]
    for name in bad:
        out[name] = None
    ticker = str(data.get("ticker") or "the instrument")
    return out, [f"the quote for {ticker} had unusable {', '.join(bad)}, left out"] if bad else []
