"""An A-share's company profile and where its valuation stands in its industry (cninfo, Baidu).

    cn_profile           ak.stock_profile_cninfo(symbol)                    cninfo, 公司概况
    cn_industry_compare  ak.stock_profile_cninfo(symbol)                    its industry (证监会行业分类)
                         ak.stock_industry_pe_ratio_cninfo("证监会行业分类", date)  the industry's P/E
                         ak.stock_zh_valuation_baidu(symbol, indicator, "近一年")  its own P/E and P/B

The industry's P/E is cninfo's static one (price over the last annual profit), so the stock's
is compared on the same basis (Baidu's 市盈率(静)); its TTM P/E and P/B are given beside it.
akshare 1.19.5 has no non-Eastmoney list of an industry's members with their ratios
(`stock_zh_valuation_comparison_em` is Eastmoney's; 10jqka's industry boards give no members),
so the industry is described by its count of companies and its weighted and median P/E,
not by named peers.
"""

from __future__ import annotations

from datetime import timedelta

from ...errors import NoData, Unreachable
from .adapter import BAIDU, CNINFO, Request
from .builders import SHANGHAI, clean_text, iso_day, records, require_columns, to_number

PROFILE_COLUMNS = ("公司名称", "A股简称", "所属行业", "上市日期")
INDUSTRY_COLUMNS = ("行业名称", "行业编码", "公司数量", "纳入计算公司数量", "静态市盈率-加权平均", "静态市盈率-中位数")
CSRC = "证监会行业分类"           # the classification cninfo's profile names the industry in
TABLE_DAYS_BACK = 4               # weekdays tried back from today for cninfo's latest industry table


def _profile_row(req: Request) -> dict:
    frame = req.ak.stock_profile_cninfo(symbol=req.code)
    require_columns(frame, PROFILE_COLUMNS, CNINFO)
    if len(frame) == 0:                    # cninfo's count 0: it has no profile of this code
        raise NoData(f"{CNINFO.name} has no company profile for {req.ticker}")
    return records(frame)[0]


def profile(req: Request) -> list[dict]:
    row = _profile_row(req)
    data = {"ticker": req.ticker, "name": clean_text(row["公司名称"], 120),
            "short_name": clean_text(row["A股简称"], 40),
            "english_name": clean_text(row.get("英文名称"), 160) or None,
            "industry": clean_text(row["所属行业"], 80) or None, "market": clean_text(row.get("所属市场"), 40) or None,
            "listed": iso_day(row["上市日期"]), "founded": iso_day(row.get("成立日期")),
            "chairman": clean_text(row.get("法人代表"), 40) or None,
            "region": clean_text(row.get("注册地址"), 160) or None,
            "website": clean_text(row.get("官方网站"), 120) or None,
            "main_business": clean_text(row.get("主营业务"), 600) or None,
            "summary": clean_text(row.get("机构简介"), 1200) or None}
    return [{"title": f"{req.ticker} 公司概况 / company profile",
             "url": f"https://webapi.cninfo.com.cn/#/company?companyid={req.code}",
             "publisher": "巨潮资讯 cninfo", "published": None,
             "snippet": f"{data['name']}: {data['industry'] or '—'}, listed {data['listed'] or '—'}",
             "data": data}]


def industry_compare(req: Request) -> list[dict]:
    row = _profile_row(req)
    industry = clean_text(row["所属行业"], 80)
    if not industry:
        raise NoData(f"{CNINFO.name} names no industry for {req.ticker}")
    table_day, table = _industry_table(req)
    require_columns(table, INDUSTRY_COLUMNS, CNINFO)
    matches = [r for r in records(table) if clean_text(r["行业名称"], 80) == industry]
    if not matches:
        raise NoData(f"{CNINFO.name}'s industry P/E table of {table_day} has no row for {industry}")
    line = matches[0]
    own = {key: _latest_value(req, indicator) for key, indicator in
           (("pe_static", "市盈率(静)"), ("pe_ttm", "市盈率(TTM)"), ("pb", "市净率"))}
    data = {"ticker": req.ticker, "name": clean_text(row["A股简称"], 40), "classification": CSRC,
            "industry": industry, "industry_code": clean_text(line["行业编码"], 12),
            "as_of": table_day.isoformat(), "companies": _count(line["公司数量"]),
            "companies_counted": _count(line["纳入计算公司数量"]),
            "industry_pe_weighted": to_number(line["静态市盈率-加权平均"]),
            "industry_pe_median": to_number(line["静态市盈率-中位数"]),
            "pe_static": own["pe_static"][1], "pe_ttm": own["pe_ttm"][1], "pb": own["pb"][1],
            "valued_on": own["pe_static"][0]}
    return [{"title": f"{req.ticker} 行业估值对比 / valuation against its industry ({industry})",
             "url": "https://webapi.cninfo.com.cn/#/thematicStatistics",
             "publisher": "巨潮资讯 cninfo; 百度股市通 Baidu Gushitong", "published": None,
             "period": {"start": data["as_of"], "end": data["as_of"]},
             "snippet": f"{data['name']} static P/E {data['pe_static']} vs {industry} weighted "
                        f"{data['industry_pe_weighted']}, median {data['industry_pe_median']}",
             "data": data}]


def _industry_table(req: Request):
    """cninfo's latest industry P/E table: today's, else each weekday back (it is published
    for a trading day in the evening, and not at all on holidays)."""
    day = req.now.astimezone(SHANGHAI).date()
    tried = []
    while len(tried) < TABLE_DAYS_BACK:
        if day.weekday() < 5:
            tried.append(day)
            try:
                return day, req.ak.stock_industry_pe_ratio_cninfo(symbol=CSRC, date=day.strftime("%Y%m%d"))
            except ValueError:
                # akshare names the columns of cninfo's records: an empty answer (no table that
                # day) cannot take them.
                pass
        day -= timedelta(days=1)
    raise Unreachable(f"{CNINFO.name} gave no industry P/E table for {tried[-1]}…{tried[0]} "
                      "(none published, or the page changed)")


def _latest_value(req: Request, indicator: str) -> tuple[str | None, float | None]:
    frame = req.ak.stock_zh_valuation_baidu(symbol=req.code, indicator=indicator, period="近一年")
    require_columns(frame, ("date", "value"), BAIDU)
    points = [(str(row["date"]), to_number(row["value"])) for row in records(frame)
              if to_number(row["value"]) is not None]
    if not points:
        raise NoData(f"{BAIDU.name} has no {indicator} for {req.ticker}")
    day, value = max(points)
    return iso_day(day), round(value, 2)


def _count(value) -> int | None:
    number = to_number(value)
    return None if number is None else int(number)
