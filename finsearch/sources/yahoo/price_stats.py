"""Derived statistics of a price history over its focus period.

Rows are [date, open, high, low, close, volume], oldest first, and may start before the
focus period (context for charts). The period return is measured from the last close
before the focus period (so "last week" runs from the previous Friday's close) to the
last close inside it; daily moves are close-to-close.

Intraday rows are stamped in UTC; they are folded into the exchange's trading days on its
own clock (`zone`), so a Sydney Monday that opens on Sunday in UTC counts as Monday.
"""

from __future__ import annotations

import math
import statistics
from datetime import date, tzinfo

from ...reference.markets import bar_day, zone_for

# Enough for a chart to find its 3 biggest moves no two of which are on neighbouring days
# (each kept move rules out at most two others: 3 + 2 × 2).
MOVES_KEPT = 7


def _row_day(row, zone: tzinfo | None) -> date | None:
    try:
        return bar_day(row[0], zone) if isinstance(row[0], str) else None
    except (TypeError, ValueError, IndexError, KeyError):
        return None


def daily_closes(rows: list[list], zone: tzinfo | None = None) -> list[tuple[date, float, float, float]]:
    """(day, high, low, close) per trading day; intraday bars are folded into the day they
    traded on the exchange's clock `zone` (UTC when None)."""
    days: dict[date, list[float]] = {}
    for row in rows:
        try:
            day, high, low, close = bar_day(row[0], zone), float(row[2]), float(row[3]), float(row[4])
        except (TypeError, ValueError, IndexError, KeyError, OverflowError):
            continue
        if not all(math.isfinite(v) for v in (high, low, close)):
            continue
        if day in days:
            days[day] = [max(days[day][0], high), min(days[day][1], low), close]
        else:
            days[day] = [high, low, close]
    return [(d, *days[d]) for d in sorted(days)]


def compute(rows: list[list], focus_start: date, focus_end: date, zone: tzinfo | None = None) -> dict:
    """Stats for [focus_start, focus_end] in trading days on `zone`'s clock; when no day falls
    inside it, the latest day."""
    days = daily_closes(rows, zone)
    if not days:
        return {}
    inside = [d for d in days if focus_start <= d[0] <= focus_end] or [days[-1]]
    before = [d for d in days if d[0] < inside[0][0]]
    base = before[-1] if before else inside[0]
    closes = [base[3]] + [d[3] for d in inside] if before else [d[3] for d in inside]
    labels = ([base[0]] if before else []) + [d[0] for d in inside]
    # A change too large to be a number (a close of 1e308 after one of 1e-308) is none.
    changes = [(labels[i], change) for i in range(1, len(closes)) if closes[i - 1]
               and math.isfinite(change := (closes[i] / closes[i - 1] - 1) * 100)]
    moves = sorted(changes, key=lambda c: -abs(c[1]))[:MOVES_KEPT]
    peak, drawdown = closes[0], 0.0
    for close in closes:
        peak = max(peak, close)
        drawdown = min(drawdown, (close / peak - 1) * 100 if peak else 0.0)
    volatility = statistics.stdev([c for _, c in changes]) * math.sqrt(252) if len(changes) > 2 else None
    return {
        "focus": {"start": focus_start.isoformat(), "end": focus_end.isoformat()},
        "start_date": base[0].isoformat(), "start_close": round(base[3], 4),
        "end_date": inside[-1][0].isoformat(), "end_close": round(inside[-1][3], 4),
        "return_pct": round((inside[-1][3] / base[3] - 1) * 100, 2) if base[3] else None,
        "high": round(max(d[1] for d in inside), 4), "low": round(min(d[2] for d in inside), 4),
        "biggest_moves": [{"date": d.isoformat(), "change_pct": round(c, 2)} for d, c in moves],
        "volatility_pct": round(volatility, 2) if volatility is not None else None,
        "max_drawdown_pct": round(drawdown, 2),
        "trading_days": len(inside),
    }


def refocus_price_history(items: list, args: dict) -> list:
    """Price-history items recorded for another range, re-measured for `args`' range.

    The replay pack may answer with the nearest recorded range; its rows still hold the
    prices, but its stats and period describe the other range. When the rows cover the
    requested range, stats and period are recomputed for it; when they do not, the item
    is dropped rather than presented as an answer for the wrong dates.
    """
    try:
        start, end = date.fromisoformat(args["start"]), date.fromisoformat(args["end"])
    except (KeyError, TypeError, ValueError):
        return items
    out = []
    for item in items:
        data = item.get("data") if isinstance(item, dict) else None
        if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
            out.append(item)                # nothing to re-measure: the sanitiser will say what is wrong
            continue
        rows = data["rows"]
        zone = zone_for(data.get("timezone"), data.get("ticker"))
        days = daily_closes(rows, zone)
        if not days or days[0][0] > start or not any(start <= d[0] <= end for d in days):
            continue                        # the rows do not cover the requested range
        # Rows after the range go; malformed rows stay for the sanitiser to count and drop.
        kept = [r for r in rows if (_row_day(r, zone) or start) <= end]
        stats = compute(kept, start, end, zone)
        name = str(item.get("title") or "").split(" daily prices")[0] or str(data.get("ticker") or "")
        out.append({**item, "title": f"{name} daily prices {start} to {end}",
                    "period": {"start": start.isoformat(), "end": end.isoformat()},
                    "data": {**data, "rows": kept, "stats": stats}})
    return out
