"""quote and price_history from yfinance: the latest price snapshot, and OHLCV bars with
the focus period's statistics. Built for `finance.YahooFinance`, which runs them with
retries; each raises NoData when Yahoo has nothing usable.
"""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta
from typing import Any

from ...evidence import iso_utc
from ...payloads import PRICE_COLUMNS
from ...reference import markets
from . import price_stats
from .frames import column, compact, day_iso, is_empty, num, text
from .request import Request, item


@dataclasses.dataclass(frozen=True)
class IntervalLimit:
    """How much of one intraday bar size Yahoo serves."""
    days_back: int                        # bars exist only this many days back from today
    days_per_request: int | None = None   # and one request may span at most this many days


# yfinance 1.7 knows the same limits (scrapers/history.py): for period="max" it asks for
# 8 days of 1m, 60 days of 2m–90m and 730 days of 1h; its repair step refuses finer bars
# older than 30 days for 1m, 60 for 2m–30m, 730 for 1h. Yahoo answers a longer 1m request
# with an error ("only 7 days worth of 1m granularity data … per request"), so 7 it is.
INTRADAY_LIMITS = {
    "1m": IntervalLimit(30, 7),
    **{size: IntervalLimit(60) for size in ("2m", "5m", "15m", "30m", "90m")},
    "60m": IntervalLimit(730), "1h": IntervalLimit(730),
}
COARSER = ("2m", "1h", "1d")     # finest first, each served further back than the one before
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

@dataclasses.dataclass(frozen=True)
class BarPlan:
    """The bars to ask Yahoo for: their size and the days [start, end) to fetch."""
    interval: str
    start: date
    end: date                  # exclusive
    note: str | None = None    # why the asked-for bar size could not be used

    @property
    def intraday(self) -> bool:
        return self.interval in INTRADAY_LIMITS


def _oldest(interval: str, today: date) -> date | None:
    limit = INTRADAY_LIMITS.get(interval)
    return None if limit is None else today - timedelta(days=limit.days_back - 1)   # a day's margin


def _fits(interval: str, start: date, end: date, today: date) -> bool:
    """Whether Yahoo serves `interval` bars for the whole focus [start, end] in one request."""
    limit, oldest = INTRADAY_LIMITS.get(interval), _oldest(interval, today)
    if limit is None:
        return True
    per_request = limit.days_per_request
    return start >= oldest and (per_request is None or (end - start).days + 1 <= per_request)


def plan_bars(start: date, end: date, today: date, interval: str | None) -> BarPlan:
    """The bars for a focus period [start, end].

    No interval asked for: 30-minute bars when the focus spans at most 5 days within
    Yahoo's intraday window, else daily bars. An asked-for intraday size Yahoo does not
    serve for the focus (too far back, or more days of 1m than one request may span) is
    replaced by the finest coarser one it does serve, with a note saying so.
    """
    note = None
    if not interval:
        short = (end - start).days < AUTO_INTRADAY_SPAN_DAYS
        interval = "30m" if short and _fits("30m", start, end, today) else "1d"
    elif not _fits(interval, start, end, today):
        reach = INTRADAY_LIMITS[interval].days_back
        coarser = [c for c in COARSER if c not in INTRADAY_LIMITS or INTRADAY_LIMITS[c].days_back > reach]
        chosen = next(c for c in coarser if _fits(c, start, end, today))
        limit = INTRADAY_LIMITS[interval]
        served = f"{interval} bars only for the last {limit.days_back} days"
        if limit.days_per_request:
            served += f", at most {limit.days_per_request} days per request"
        note = f"Yahoo Finance serves {served}; {chosen} bars are shown instead"
        interval = chosen
    oldest = _oldest(interval, today)
    if oldest is None:
        return BarPlan(interval, start - timedelta(days=CONTEXT_DAYS_DAILY), end + timedelta(days=1), note)
    fetch_start = max(start - timedelta(days=CONTEXT_DAYS_INTRADAY), oldest)
    per_request = INTRADAY_LIMITS[interval].days_per_request
    if per_request:            # less context rather than a request Yahoo refuses
        fetch_start = max(fetch_start, end + timedelta(days=1 - per_request))
    return BarPlan(interval, fetch_start, end + timedelta(days=1), note)


def price_history(req: Request) -> list[dict]:
    start, end = req.focus(default_days=30)
    market = markets.market_of(req.symbol)
    if markets.closed_throughout(market, start, end):      # no request: there is nothing to fetch
        span = f"on {start}" if start == end else f"between {start} and {end}"
        raise req.no_data(f"no trading for {req.symbol} {span}: the {market.name} was closed "
                          "(weekend or holiday)")
    plan = plan_bars(start, end, req.today, req.args.get("interval"))
    tkr = req.ticker()
    # auto_adjust=False: "close" is the price that traded that day — the figure quotes and
    # news cite — and it does not shift each time a later dividend is paid.
    frame = tkr.history(start=plan.start.isoformat(), end=plan.end.isoformat(), interval=plan.interval,
                        auto_adjust=False, timeout=req.timeout_s)
    rows = price_rows(frame, intraday=plan.intraday)
    if not rows:
        raise req.no_data(f"no price history for {req.symbol} between {start} and {end}")
    meta = req.optional(lambda: tkr.history_metadata)
    currency = text(req.optional(lambda: meta.get("currency")), 12)
    # The exchange's clock decides which trading day an intraday bar belongs to.
    timezone = text(req.optional(lambda: meta.get("exchangeTimezoneName")), 64) \
        or (market.timezone if market else None)
    stats = price_stats.compute(rows, start, end, markets.zone(timezone))
    data = {"ticker": req.symbol, "interval": plan.interval, "currency": currency, "timezone": timezone,
            "columns": list(PRICE_COLUMNS), "rows": rows, "stats": stats}
    if plan.note:
        data["note"] = plan.note
    kind = "daily" if plan.interval == "1d" else f"{plan.interval} bar"
    return [item(f"{req.symbol} {kind} prices {start} to {end}", history_snippet(req.symbol, data),
                 data, period=(start, end))]


def price_rows(frame: Any, intraday: bool) -> list[list]:
    """[[date, open, high, low, close, volume], …] oldest first; rows without a close dropped.

    Daily bars are dated by the exchange's calendar day (the index is exchange-local
    midnight); intraday bars by their UTC start time (their trading day is read back on
    the exchange's clock: markets.bar_day).
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


def history_snippet(symbol: str, data: dict) -> str:
    stats, currency = data["stats"], data["currency"] or ""
    bars = f"{len(data['rows'])} {data['interval']} bars"
    if not stats:
        return f"{symbol}: {bars}"
    focus = stats["focus"]
    close = f"{stats['end_close']} {currency}".strip()
    line = f"{symbol} {focus['start']} to {focus['end']}: close {close} on {stats['end_date']}"
    if stats.get("return_pct") is not None:
        line += f", {stats['return_pct']:+.2f}% from {stats['start_close']} on {stats['start_date']}"
    line = f"{line}; range {stats['low']}–{stats['high']}; {bars}"
    return f"{line}. {data['note']}." if data.get("note") else line
