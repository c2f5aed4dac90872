"""quote and price_history from yfinance: the latest price snapshot, and OHLCV bars with
the focus period's statistics. Built for `finance.YahooFinance`, which runs them with
retries; each raises NoData when Yahoo has nothing usable.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from ..evidence import iso_utc
from ..payloads import PRICE_COLUMNS
from . import price_stats
from .frames import column, compact, day_iso, is_empty, num, text
from .yahoo import Request, item

# Bars Yahoo keeps per intraday interval, in days back from today (30m is fetched as 15m).
INTRADAY_DAYS = {"1m": 29, "5m": 59, "15m": 59, "30m": 59, "1h": 729}
AUTO_INTRADAY_SPAN_DAYS = 5      # a focus this short gets 30-minute bars…
CONTEXT_DAYS_DAILY = 45          # …otherwise daily bars, with this much chart context before
CONTEXT_DAYS_INTRADAY = 4        # enough to include the previous session's close


# -- quote -------------------------------------------------------------------------------

# field → (fast_info attributes, .info keys), tried in order
QUOTE_FIELDS = {
    "currency": (("currency",), ("currency",)),
    "last": (("last_price",), ("regularMarketPrice", "currentPrice")),
    "previous_close": (("regular_market_previous_close", "previous_close"),
                       ("regularMarketPreviousClose", "previousClose")),
    "day_low": (("day_low",), ("regularMarketDayLow", "dayLow")),
    "day_high": (("day_high",), ("regularMarketDayHigh", "dayHigh")),
    "year_low": (("year_low",), ("fiftyTwoWeekLow",)),
    "year_high": (("year_high",), ("fiftyTwoWeekHigh",)),
    "market_cap": (("market_cap",), ("marketCap",)),
}


def quote(req: Request) -> list[dict]:
    tkr = req.ticker()
    fast = req.optional(lambda: tkr.fast_info)
    found: dict[str, Any] = {}
    for field, (attrs, _keys) in QUOTE_FIELDS.items():
        for attr in attrs:
            value = req.optional(lambda attr=attr: getattr(fast, attr))
            value = text(value, 12) if field == "currency" else num(value)
            if value is not None:
                found[field] = value
                break
    if len(found) < len(QUOTE_FIELDS):               # fill the gaps from the slower .info
        info = req.optional(lambda: tkr.info)
        info = info if isinstance(info, dict) else {}
        for field, (_attrs, keys) in QUOTE_FIELDS.items():
            values = (text(info.get(key), 12) if field == "currency" else num(info.get(key)) for key in keys)
            value = next((v for v in values if v is not None), None)
            if field not in found and value is not None:
                found[field] = value
    last, prev = found.get("last"), found.get("previous_close")
    if last is None or last <= 0:
        raise req.no_data()
    change = round((last / prev - 1) * 100, 2) if prev else None
    data = {"ticker": req.symbol, "currency": found.get("currency")}
    for field in ("last", "previous_close"):
        data[field] = num(found.get(field), 4)
    data["change_pct"] = change
    for field in ("day_low", "day_high", "year_low", "year_high"):
        data[field] = num(found.get(field), 4)
    data["market_cap"] = num(found.get("market_cap"), 0)
    data["as_of"] = req.now_iso
    currency = data["currency"] or ""
    snippet = f"{req.symbol} last {data['last']} {currency}".rstrip()
    if change is not None:
        snippet += f" ({change:+.2f}% vs previous close {data['previous_close']})"
    if data["day_low"] is not None and data["day_high"] is not None:
        snippet += f"; day range {data['day_low']}–{data['day_high']}"
    if data["market_cap"] is not None:
        snippet += f"; market cap {compact(data['market_cap'])}"
    return [item(f"{req.symbol} quote", snippet, data, url=req.url, published=req.now_iso)]


# -- price history -----------------------------------------------------------------------

def plan_bars(start: date, end: date, today: date, interval: str | None) -> tuple[str, date, date]:
    """(interval, fetch_start, fetch_end_exclusive) for a focus period.

    No interval asked for: 30-minute bars when the focus spans at most 5 days within
    Yahoo's intraday window, else daily bars. Intraday bars older than Yahoo keeps them
    are replaced by daily bars rather than failing.
    """
    if not interval:
        short = (end - start).days < AUTO_INTRADAY_SPAN_DAYS
        interval = "30m" if short and (today - start).days <= INTRADAY_DAYS["30m"] else "1d"
    oldest_days = INTRADAY_DAYS.get(interval)
    if oldest_days is not None:
        oldest = today - timedelta(days=oldest_days)
        if start >= oldest:
            return interval, max(start - timedelta(days=CONTEXT_DAYS_INTRADAY), oldest), end + timedelta(days=1)
        interval = "1d"
    return interval, start - timedelta(days=CONTEXT_DAYS_DAILY), end + timedelta(days=1)


def price_history(req: Request) -> list[dict]:
    start, end = req.focus(default_days=30)
    interval, fetch_start, fetch_end = plan_bars(start, end, req.today, req.args.get("interval"))
    tkr = req.ticker()
    # auto_adjust=False: "close" is the price that traded that day — the figure quotes and
    # news cite — and it does not shift each time a later dividend is paid.
    frame = tkr.history(start=fetch_start.isoformat(), end=fetch_end.isoformat(), interval=interval,
                        auto_adjust=False, timeout=req.timeout_s)
    rows = price_rows(frame, intraday=interval in INTRADAY_DAYS)
    if not rows:
        raise req.no_data(f"no price history for {req.symbol} between {start} and {end}")
    meta = req.optional(lambda: tkr.history_metadata)
    currency = text(req.optional(lambda: meta.get("currency")), 12)
    stats = price_stats.compute(rows, start, end)
    data = {"ticker": req.symbol, "interval": interval, "currency": currency,
            "columns": list(PRICE_COLUMNS), "rows": rows, "stats": stats}
    kind = "daily" if interval == "1d" else f"{interval} bar"
    return [item(f"{req.symbol} {kind} prices {start} to {end}", _history_snippet(req.symbol, data),
                 data, period=(start, end))]


def price_rows(frame: Any, intraday: bool) -> list[list]:
    """[[date, open, high, low, close, volume], …] oldest first; rows without a close dropped.

    Daily bars are dated by the exchange's calendar day (the index is exchange-local
    midnight); intraday bars by their UTC start time.
    """
    if is_empty(frame):
        return []
    label = iso_utc if intraday else day_iso
    cols = [column(frame, name) for name in ("Open", "High", "Low", "Close", "Volume")]
    rows = []
    for when, open_, high, low, close, volume in zip(frame.index, *cols, strict=True):
        stamp, close = label(when), num(close, 4)
        if stamp is None or close is None:
            continue
        volume = num(volume)
        rows.append([stamp, num(open_, 4), num(high, 4), num(low, 4), close,
                     None if volume is None else int(volume)])
    rows.sort(key=lambda row: row[0])
    return rows


def _history_snippet(symbol: str, data: dict) -> str:
    stats, currency = data["stats"], data["currency"] or ""
    bars = f"{len(data['rows'])} {data['interval']} bars"
    if not stats:
        return f"{symbol}: {bars}"
    focus = stats["focus"]
    close = f"{stats['end_close']} {currency}".strip()
    line = f"{symbol} {focus['start']} to {focus['end']}: close {close} on {stats['end_date']}"
    if stats.get("return_pct") is not None:
        line += f", {stats['return_pct']:+.2f}% from {stats['start_close']} on {stats['start_date']}"
    return f"{line}; range {stats['low']}–{stats['high']}; {bars}"
