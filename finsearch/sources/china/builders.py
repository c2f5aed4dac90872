"""The China-market builders: one akshare function each, its DataFrame read into evidence.

    cn_top_holders    ak.stock_main_stock_holder(stock)            Sina Finance, 主要股东
    cn_announcements  ak.stock_zh_a_disclosure_report_cninfo(...)  cninfo, 公告 (titles, dates, links)
    cn_business       ak.stock_zyjs_ths(symbol)                    10jqka, 主营介绍
    cn_dividends      ak.stock_fhps_detail_ths(symbol)             10jqka, 分红情况
    cn_financial_abstract ak.stock_financial_abstract_ths(symbol, indicator)  10jqka, 主要指标
    cn_profit_forecast    ak.stock_profit_forecast_ths(symbol, indicator)     10jqka, 盈利预测
    hk_dividends      ak.stock_hk_fhpx_detail_ths(symbol)          10jqka, 港股分红派息 (0700.HK)

Columns are checked by name before they are read: a frame without them means the page
changed under akshare, which is Unreachable with that reason, never "no data". Shapes as
akshare 1.19.5 returns them (read in its source; the tests run that source on recorded-shape
pages). Rows are read as plain values (`records`), never as pandas rows, whose type pandas infers
from the cells (a lone surrogate beside a number made that raise); a cell of the wrong type, NaN
or infinity reads as no value.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from ...errors import NoData, UnknownSymbol, Unreachable
from ...evidence import iso_utc
from ..upstream.resilience import Upstream
from .adapter import CNINFO, SINA, THS, Request

SHANGHAI = ZoneInfo("Asia/Shanghai")
ANNOUNCEMENT_DAYS = 30        # "the latest announcements": the last month of them
CATEGORY_DAYS = 365           # one kind of announcement (业绩预告): the last year of them
MAX_ANNOUNCEMENT_DAYS = 366
MAX_ANNOUNCEMENTS = 20
TOP_HOLDERS = 10


def require_columns(frame, columns: tuple[str, ...], upstream: Upstream) -> None:
    missing = [c for c in columns if c not in getattr(frame, "columns", ())]
    if missing:
        raise Unreachable(f"{upstream.name} changed its page: akshare's table has no {', '.join(missing)} column")


def records(frame) -> list[dict]:
    """The frame's rows as {column: value} (a column named twice: its first), values as they are."""
    columns = list(dict.fromkeys(frame.columns))
    at = {column: list(frame.columns).index(column) for column in columns}
    return [{column: row[at[column]] for column in columns} for row in frame.itertuples(index=False, name=None)]


def clean_text(value, limit: int = 400) -> str:
    """A cell as one line of at most `limit` characters ("" for none or NaN); of a huge cell
    only the start is read, as much as the limit could need."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return " ".join(str(value)[: limit * 4 + 64].split())[:limit]


def to_number(value) -> float | None:
    """A finite number, or None (text that is not one, NaN, infinity, anything else)."""
    if isinstance(value, (bool, bytes)):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _scaled(value, scale: float) -> float | None:
    number = to_number(value)
    return None if number is None else round(number * scale, 2)


def iso_day(value) -> str | None:
    text = clean_text(value, 10)
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        return None


# -- top-10 shareholders (Sina) ---------------------------------------------------------

HOLDER_COLUMNS = ("股东名称", "持股数量", "持股比例", "截至日期", "公告日期")


def top_holders(req: Request) -> list[dict]:
    frame = req.ak.stock_main_stock_holder(stock=req.code)
    if frame is None or len(frame) == 0:
        raise NoData(f"{SINA.name} lists no shareholders for {req.ticker}")
    require_columns(frame, HOLDER_COLUMNS, SINA)
    rows = records(frame)
    dates = [d for d in (iso_day(row["截至日期"]) for row in rows) if d]
    if not dates:
        raise NoData(f"{SINA.name} gives no reporting date for {req.ticker}'s shareholders")
    as_of = max(dates)
    latest = [row for row in rows if iso_day(row["截至日期"]) == as_of][:TOP_HOLDERS]
    holders = [{"rank": i, "name": clean_text(row["股东名称"], 120), "shares": to_number(row["持股数量"]),
                "pct": to_number(row["持股比例"]), "share_type": clean_text(row.get("股本性质"), 40) or None}
               for i, row in enumerate(latest, start=1) if clean_text(row["股东名称"])]
    if not holders:
        raise NoData(f"{SINA.name} lists no shareholders for {req.ticker} on {as_of}")
    first = latest[0]
    announced = iso_day(first["公告日期"])
    count = to_number(first.get("股东总数"))
    listed = "; ".join(f"{h['name']} {h['pct']}%" for h in holders[:5])
    return [{
        "title": f"{req.ticker} 十大股东 / top shareholders as of {as_of}",
        "url": f"https://vip.stock.finance.sina.com.cn/corp/go.php/vCI_StockHolder/stockid/{req.code}.phtml",
        "publisher": "新浪财经 Sina Finance",
        "published": iso_utc(f"{announced}T00:00:00+08:00") if announced else None,
        "period": {"start": as_of, "end": as_of},
        "snippet": f"Top shareholders of {req.ticker} on {as_of}: {listed}",
        "data": {"ticker": req.ticker, "as_of": as_of, "announced": announced,
                 "holder_count": int(count) if count is not None else None, "holders": holders},
    }]


# -- announcements (cninfo) -------------------------------------------------------------

ANNOUNCEMENT_COLUMNS = ("公告标题", "公告时间", "公告链接")
_HIGHLIGHT = re.compile(r"</?em>", re.I)


def announcements(req: Request) -> list[dict]:
    today = req.now.astimezone(SHANGHAI).date()
    category = req.args.get("category") or ""
    end = date.fromisoformat(req.args["end"]) if req.args.get("end") else today
    default_days = CATEGORY_DAYS if category else ANNOUNCEMENT_DAYS
    start = date.fromisoformat(req.args["start"]) if req.args.get("start") else end - timedelta(days=default_days)
    # akshare fetches every page of the period (30 a page): a long period is many requests.
    start = max(start, end - timedelta(days=MAX_ANNOUNCEMENT_DAYS))
    try:
        frame = req.ak.stock_zh_a_disclosure_report_cninfo(
            symbol=req.code, market="沪深京", keyword="", category=category,
            start_date=start.strftime("%Y%m%d"), end_date=end.strftime("%Y%m%d"))
    except KeyError as exc:
        if exc.args == (req.code,):      # akshare looks the code up in cninfo's list of listed companies
            raise UnknownSymbol(f"{CNINFO.name} lists no company with the code {req.code}") from exc
        raise
    require_columns(frame, ANNOUNCEMENT_COLUMNS, CNINFO)
    items = []
    for row in records(frame):
        name = clean_text(row.get("简称"), 40) or req.ticker
        # cninfo highlights the company's name in titles (<em>…</em>, isHLtitle=true).
        title, link = _HIGHLIGHT.sub("", clean_text(row["公告标题"], 400))[:300], clean_text(row["公告链接"], 2000)
        if not title or not link:
            continue
        published = shanghai_time(row["公告时间"])
        items.append({"title": title, "url": link, "publisher": "巨潮资讯 cninfo", "published": published,
                      "snippet": title if name in title else f"{name} {title}",
                      "data": None})
    if not items:
        what = f"{category} " if category else ""
        raise NoData(f"{CNINFO.name} has no {what}announcements for {req.ticker} between {start} and {end}")
    items.sort(key=lambda i: i["published"] or "", reverse=True)
    return items[:MAX_ANNOUNCEMENTS]


def shanghai_time(value) -> str | None:
    """akshare's "2024-10-26 00:00:00" (Beijing time, naive) → UTC ISO."""
    try:
        local = datetime.fromisoformat(clean_text(value, 30)).replace(tzinfo=SHANGHAI)
    except ValueError:
        return None
    return iso_utc(local.isoformat())


# -- main business (10jqka) -------------------------------------------------------------

BUSINESS_COLUMNS = ("主营业务",)


def business(req: Request) -> list[dict]:
    frame = req.ak.stock_zyjs_ths(symbol=req.code)
    require_columns(frame, BUSINESS_COLUMNS, THS)
    rows = records(frame)
    if not rows or not clean_text(rows[0]["主营业务"]):
        raise NoData(f"{THS.name} describes no main business for {req.ticker}")
    row = rows[0]
    data = {"ticker": req.ticker, "main_business": clean_text(row["主营业务"], 600),
            "product_types": clean_text(row.get("产品类型"), 300) or None,
            "products": clean_text(row.get("产品名称"), 600) or None,
            "scope": clean_text(row.get("经营范围"), 1200) or None}
    return [{"title": f"{req.ticker} 主营业务 / main business",
             "url": f"https://basic.10jqka.com.cn/new/{req.code}/operate.html",
             "publisher": "同花顺 10jqka", "published": None,
             "snippet": data["main_business"], "data": data}]


# -- dividends (10jqka) -----------------------------------------------------------------

DIVIDEND_COLUMNS = ("报告期", "董事会日期", "分红方案说明", "方案进度")
MAX_DIVIDENDS = 6


def dividends(req: Request) -> list[dict]:
    frame = req.ak.stock_fhps_detail_ths(symbol=req.code)
    require_columns(frame, DIVIDEND_COLUMNS, THS)
    plans = []
    for row in records(frame):
        plan = clean_text(row["分红方案说明"], 120)
        if not plan or plan in ("--", "不分配不转增"):
            continue
        plans.append({"period": clean_text(row["报告期"], 40), "board_date": iso_day(row["董事会日期"]), "plan": plan,
                      "record_date": iso_day(row.get("A股股权登记日")), "ex_date": iso_day(row.get("A股除权除息日")),
                      "progress": clean_text(row["方案进度"], 40) or None,
                      "payout_ratio": clean_text(row.get("股利支付率"), 20).replace("--", "") or None})
    if not plans:
        raise NoData(f"{THS.name} lists no dividend plans for {req.ticker}")
    plans.sort(key=lambda p: p["board_date"] or "", reverse=True)      # newest plan first
    plans = plans[:MAX_DIVIDENDS]
    latest = plans[0]
    return [{"title": f"{req.ticker} 分红 / dividend plans",
             "url": f"https://basic.10jqka.com.cn/new/{req.code}/bonus.html",
             "publisher": "同花顺 10jqka",
             "published": iso_utc(f"{latest['board_date']}T00:00:00+08:00") if latest["board_date"] else None,
             "snippet": "; ".join(f"{p['period']} {p['plan']} ({p['progress'] or '?'})" for p in plans[:3]),
             "data": {"ticker": req.ticker, "plans": plans}}]


HK_DIVIDEND_COLUMNS = ("公告日期", "方案", "除净日", "派息日", "类型", "进度")


def hk_dividends(req: Request) -> list[dict]:
    """A Hong Kong stock's plans in cn_dividends' shape (its writer reads both): 类型 (末期,
    中期, 特别) as the period, 除净日 as the ex-date, 过户 (book close) start as the record date."""
    frame = req.ak.stock_hk_fhpx_detail_ths(symbol=req.code)
    require_columns(frame, HK_DIVIDEND_COLUMNS, THS)
    plans = [{"period": clean_text(row["类型"], 20), "board_date": iso_day(row["公告日期"]),
              "plan": clean_text(row["方案"], 120),
              "record_date": iso_day(row.get("过户日期起止日-起始")), "ex_date": iso_day(row["除净日"]),
              "pay_date": iso_day(row["派息日"]), "progress": clean_text(row["进度"], 40) or None, "payout_ratio": None}
             for row in records(frame) if clean_text(row["方案"])]
    if not plans:
        raise NoData(f"{THS.name} lists no dividend plans for {req.ticker}")
    plans.sort(key=lambda p: p["board_date"] or "", reverse=True)
    plans = plans[:MAX_DIVIDENDS]
    latest = plans[0]
    return [{"title": f"{req.ticker} 分红派息 / dividend plans",
             "url": f"https://basic.10jqka.com.cn/176/HK{req.code}/bonus.html",
             "publisher": "同花顺 10jqka",
             "published": iso_utc(f"{latest['board_date']}T00:00:00+08:00") if latest["board_date"] else None,
             "snippet": "; ".join(f"{p['period']} {p['plan']} (ex {p['ex_date'] or '?'})" for p in plans[:3]),
             "data": {"ticker": req.ticker, "plans": plans}}]


# -- financial abstract (10jqka) --------------------------------------------------------

# Our frequency → 10jqka's table: cumulative to each report date, per fiscal year, per quarter.
ABSTRACT_BASIS = {"report": "按报告期", "annual": "按年度", "quarterly": "按单季度"}
ABSTRACT_LINES = {"revenue": "营业总收入", "revenue_yoy": "营业总收入同比增长率", "net_profit": "净利润",
                  "net_profit_yoy": "净利润同比增长率", "eps": "基本每股收益", "gross_margin": "销售毛利率",
                  "roe": "净资产收益率"}
ABSTRACT_PERIODS = 4


def financial_abstract(req: Request) -> list[dict]:
    basis = req.args.get("basis") or "report"
    frame = req.ak.stock_financial_abstract_ths(symbol=req.code, indicator=ABSTRACT_BASIS[basis])
    require_columns(frame, ("报告期", "营业总收入", "净利润"), THS)
    periods = []
    for row in records(frame):
        # Figures as 10jqka prints them ("1231.23亿", "16.91%"): copied, never recomputed.
        line = {key: clean_text(row.get(column), 24) or None for key, column in ABSTRACT_LINES.items()}
        line = {key: (None if value in ("--", "False") else value) for key, value in line.items()}
        if line["revenue"] or line["net_profit"]:
            periods.append({"period": clean_text(row["报告期"], 20), **line})
    if not periods:
        raise NoData(f"{THS.name} has no financial abstract for {req.ticker}")
    periods.sort(key=lambda p: p["period"], reverse=True)               # newest first
    periods = periods[:ABSTRACT_PERIODS]
    latest = periods[0]
    return [{"title": f"{req.ticker} 财务摘要 / financial abstract ({ABSTRACT_BASIS[basis]})",
             "url": f"https://basic.10jqka.com.cn/new/{req.code}/finance.html",
             "publisher": "同花顺 10jqka", "published": None,
             "period": {"start": latest["period"], "end": latest["period"]} if iso_day(latest["period"]) else None,
             "snippet": f"{latest['period']}: 营业总收入 {latest['revenue']}, 净利润 {latest['net_profit']}",
             "data": {"ticker": req.ticker, "basis": basis, "periods": periods}}]


# -- analysts' profit forecasts (10jqka) ------------------------------------------------

FORECAST_COLUMNS = ("年度", "预测机构数", "最小值", "均值", "最大值")
NO_FORECAST = "no analyst has published a forecast for this year"


def profit_forecast(req: Request) -> list[dict]:
    tables = {}
    for key, indicator in (("eps", "预测年报每股收益"), ("net_profit", "预测年报净利润")):
        frame = req.ak.stock_profit_forecast_ths(symbol=req.code, indicator=indicator)
        if frame is None or len(frame) == 0:
            # akshare returns an empty frame only for 10jqka's "本年度暂无机构做出业绩预测".
            raise NoData(f"{THS.name}: {NO_FORECAST} for {req.ticker}")
        require_columns(frame, FORECAST_COLUMNS, THS)
        # Net profit is printed in 亿 (10^8 yuan); kept in yuan, as every other money figure is.
        scale = 1e8 if key == "net_profit" else 1.0
        tables[key] = {clean_text(row["年度"], 8): {"analysts": to_number(row["预测机构数"]),
                                              **{name: _scaled(row[column], scale) for name, column in
                                                 (("low", "最小值"), ("mean", "均值"), ("high", "最大值"))}}
                       for row in records(frame)}
    years = sorted(set(tables["eps"]) | set(tables["net_profit"]))
    forecasts = [{"year": year, "eps": tables["eps"].get(year), "net_profit": tables["net_profit"].get(year)}
                 for year in years]
    first = forecasts[0]
    return [{"title": f"{req.ticker} 盈利预测 / analysts' profit forecasts",
             "url": f"https://basic.10jqka.com.cn/new/{req.code}/worth.html",
             "publisher": "同花顺 10jqka", "published": None,
             "snippet": f"{first['year']}: EPS mean {(first['eps'] or {}).get('mean')}, "
                        f"net profit mean {(first['net_profit'] or {}).get('mean')} yuan",
             "data": {"ticker": req.ticker, "currency": "CNY", "forecasts": forecasts}}]
