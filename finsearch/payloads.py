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

import dataclasses
import math
from datetime import date, datetime

from .catalogue import payload_of

PRICE_COLUMNS = ["date", "open", "high", "low", "close", "volume"]
QUOTE_NUMBERS = ("last", "previous_close", "change_pct", "day_low", "day_high", "year_low", "year_high",
                 "market_cap", "volume", "dividend_yield", "pe_ratio")


def clean_payload(source: str, data: dict | None) -> tuple[dict | None, list[str]]:
    """`data` made safe for the code that reads `source` payloads, and what was wrong."""
    if data is None:
        return None, []
    if payload_of(source) == "price_history":
        return clean_price_history(data)
    if source == "quote":
        return clean_quote(data)
    return data, []


STATS_NUMBERS = ("start_close", "end_close", "return_pct", "high", "low", "volatility_pct", "max_drawdown_pct")
INTERVALS = ("1m", "2m", "5m", "15m", "30m", "60m", "90m", "1h", "1d", "5d", "1wk", "1mo", "3mo")


def _label(value, limit: int = 24) -> str | None:
    """A short text field (a ticker, a currency) as text, or None."""
    if isinstance(value, str) and value.strip():
        return value.strip()[:limit]
    return None


def clean_price_history(data: dict) -> tuple[dict, list[str]]:
    ticker = _label(data.get("ticker"))
    rows = data.get("rows")
    out = {**data, "columns": list(PRICE_COLUMNS), "ticker": ticker, "currency": _label(data.get("currency"), 8),
           "interval": data.get("interval") if data.get("interval") in INTERVALS else "1d"}
    ticker = ticker or "the instrument"
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
    out["stats"] = _stats(data.get("stats"))
    return out, problems


def _stats(stats) -> dict:
    """The derived statistics with every known field of its type (or left out)."""
    if not isinstance(stats, dict):
        return {}
    out = {k: v for k, v in stats.items() if k not in (*STATS_NUMBERS, "start_date", "end_date", "focus",
                                                           "biggest_moves", "trading_days")}
    for name in STATS_NUMBERS:
        value = _price(stats.get(name))
        if value not in (None, False):
            out[name] = value
    for name in ("start_date", "end_date"):
        if _stamp(stats.get(name)):
            out[name] = stats[name]
    focus = stats.get("focus")
    if isinstance(focus, dict) and _stamp(focus.get("start")) and _stamp(focus.get("end")):
        out["focus"] = {"start": focus["start"], "end": focus["end"]}
    days = stats.get("trading_days")
    if isinstance(days, int) and not isinstance(days, bool) and 0 <= days < 100_000:
        out["trading_days"] = days
    moves = stats.get("biggest_moves")
    out["biggest_moves"] = [{"date": m["date"], "change_pct": float(m["change_pct"])} for m in moves
                            if _move(m)] if isinstance(moves, list) else []
    return out


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
        amount = _price(volume)
        if amount in (None, False) or amount < 0:
            return None
        volume = int(amount)
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
    """A finite float, None when missing, False when unusable (text, booleans, infinities,
    integers too large for a float)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        number = float(value)
    except OverflowError:
        return False
    return number if math.isfinite(number) else False


def _move(move) -> bool:
    return isinstance(move, dict) and _stamp(move.get("date")) is not None \
        and _price(move.get("change_pct")) not in (None, False)


def clean_quote(data: dict) -> tuple[dict, list[str]]:
    out = {**data, "ticker": _label(data.get("ticker")), "currency": _label(data.get("currency"), 8)}
    if not isinstance(out.get("as_of"), str):
        out.pop("as_of", None)
    bad = [name for name in QUOTE_NUMBERS if name in out and out[name] is not None and _price(out[name]) is False]
    for name in bad:
        out[name] = None
    ticker = out["ticker"] or "the instrument"
    return out, [f"the quote for {ticker} had unusable {', '.join(bad)}, left out"] if bad else []


# -- typed views, read by charts, answers, the rewriter, the audit and the evidence panel ----------

@dataclasses.dataclass(frozen=True)
class PriceMove:
    date: str
    change_pct: float


@dataclasses.dataclass(frozen=True)
class PriceStats:
    start_close: float | None = None       # the close before the period: returns start from it
    end_close: float | None = None
    return_pct: float | None = None
    high: float | None = None
    low: float | None = None
    volatility_pct: float | None = None
    max_drawdown_pct: float | None = None
    start_date: str | None = None
    end_date: str | None = None
    trading_days: int | None = None
    focus: tuple[str, str] | None = None            # the asked-for days within a longer history
    biggest_moves: tuple[PriceMove, ...] = ()       # largest daily changes first


@dataclasses.dataclass(frozen=True)
class PriceHistory:
    """A cleaned `price_history` payload: rows of PRICE_COLUMNS, oldest first."""
    ticker: str | None
    currency: str | None
    interval: str
    rows: tuple[tuple, ...]
    stats: PriceStats
    timezone: str | None = None            # the exchange's (IANA), whose clock dates intraday rows

    @classmethod
    def of(cls, data: dict) -> PriceHistory:
        """The view of a payload `clean_price_history` has already checked."""
        raw = data.get("stats") or {}
        focus = raw.get("focus")
        stats = PriceStats(
            **{name: raw.get(name) for name in (*STATS_NUMBERS, "start_date", "end_date", "trading_days")},
            focus=(focus["start"], focus["end"]) if focus else None,
            biggest_moves=tuple(PriceMove(m["date"], m["change_pct"]) for m in raw.get("biggest_moves", ())))
        timezone = data.get("timezone")
        return cls(data.get("ticker"), data.get("currency"), data.get("interval", "1d"),
                   tuple(tuple(row) for row in data.get("rows", ())), stats,
                   timezone if isinstance(timezone, str) else None)


@dataclasses.dataclass(frozen=True)
class Quote:
    """A cleaned `quote` payload; every number finite or None."""
    ticker: str | None
    currency: str | None
    as_of: str | None
    last: float | None = None
    previous_close: float | None = None
    change_pct: float | None = None
    day_low: float | None = None
    day_high: float | None = None
    year_low: float | None = None
    year_high: float | None = None
    market_cap: float | None = None
    volume: float | None = None
    dividend_yield: float | None = None
    pe_ratio: float | None = None

    @classmethod
    def of(cls, data: dict) -> Quote:
        """The view of a payload `clean_quote` has already checked."""
        return cls(data.get("ticker"), data.get("currency"), data.get("as_of"),
                   **{name: data.get(name) for name in QUOTE_NUMBERS})
