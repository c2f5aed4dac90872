"""An A-share's daily bars through akshare (Tencent), in `price_history`'s payload.

    cn_daily_bars     ak.stock_zh_a_hist_tx(symbol, start_date, end_date, adjust="")   Tencent, 日线

Asked when a question wants akshare's bars ("用akshare的日线") and as `price_history`'s
fallback for an A-share when Yahoo is blocked. The evidence is `price_history`'s in every
field (the catalogue's `payload`), so charts, the rewriter and the writer read it unchanged.

Tencent's and not Sina's (`stock_zh_a_daily`): both are non-Eastmoney, but Sina's page is an
obfuscated string decoded by JavaScript, which a changed page breaks without a readable
reason. Prices are as traded (adjust=""), as Yahoo's are here (auto_adjust=False); akshare
turns Tencent's volume in lots (手) into shares. The dates are passed as YYYY-MM-DD: akshare
reads the year of `end_date` as the part before the first "-", and an undashed date would make
it fetch every year up to today.
"""

from __future__ import annotations

from datetime import date, timedelta

from ...errors import NoData
from ...payloads import PRICE_COLUMNS
from ...reference import markets
from ..yahoo import price_stats
from ..yahoo.prices import CONTEXT_DAYS_DAILY, history_snippet
from .adapter import TENCENT, Request
from .builders import SHANGHAI, records, require_columns, to_number

FOCUS_DAYS = 30               # no period asked: the last month, as price_history's default
BAR_COLUMNS = ("date", "open", "close", "high", "low", "volume")


def daily_bars(req: Request) -> list[dict]:
    today = req.now.astimezone(SHANGHAI).date()
    end = date.fromisoformat(req.args["end"]) if req.args.get("end") else today
    start = date.fromisoformat(req.args["start"]) if req.args.get("start") else end - timedelta(days=FOCUS_DAYS)
    market = markets.market_of(req.ticker)
    if markets.closed_throughout(market, start, end):
        span = f"on {start}" if start == end else f"between {start} and {end}"
        raise NoData(f"no trading for {req.ticker} {span}: the {market.name} was closed (weekend or holiday)")
    fetch_start = start - timedelta(days=CONTEXT_DAYS_DAILY)      # the chart's context, the period's base close
    prefix = "sh" if req.ticker.endswith(".SS") else "sz"
    frame = req.ak.stock_zh_a_hist_tx(symbol=f"{prefix}{req.code}", start_date=fetch_start.isoformat(),
                                      end_date=end.isoformat(), adjust="")
    require_columns(frame, BAR_COLUMNS, TENCENT)
    rows = []
    for bar in records(frame):
        close, volume = to_number(bar["close"]), to_number(bar["volume"])
        if close is None:
            continue
        rows.append([str(bar["date"])[:10], *(to_number(bar[c]) for c in ("open", "high", "low")), close,
                     None if volume is None else int(volume)])
    rows.sort(key=lambda row: row[0])
    if not any(start.isoformat() <= row[0] <= end.isoformat() for row in rows):
        raise NoData(f"{TENCENT.name} has no daily bars for {req.ticker} between {start} and {end}")
    timezone = market.timezone if market else "Asia/Shanghai"
    data = {"ticker": req.ticker, "interval": "1d", "currency": "CNY", "timezone": timezone,
            "columns": list(PRICE_COLUMNS), "rows": rows,
            "stats": price_stats.compute(rows, start, end, markets.zone(timezone))}
    return [{"title": f"{req.ticker} daily prices {start} to {end}",
             "url": f"https://gu.qq.com/{prefix}{req.code}/gp",
             "publisher": "腾讯证券 Tencent Securities", "published": None,
             "period": {"start": start.isoformat(), "end": end.isoformat()},
             "snippet": history_snippet(req.ticker, data), "data": data}]
