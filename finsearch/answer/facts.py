"""Extractive sentences for the heuristic answer: the figures in one piece of finance
evidence, written out in English or Chinese, each sentence ending with its citation.

Numbers are copied from the evidence as they are, rounded only for display, so every
figure in a heuristic answer is traceable to the item it cites.
"""

from __future__ import annotations

import math

from ..evidence import Evidence
from .markdown import escape

SYMBOLS = {"USD": "$", "HKD": "HK$", "CNY": "¥", "EUR": "€", "GBP": "£", "JPY": "¥"}
LINES_EN = {"revenue": "revenue", "gross_profit": "gross profit", "operating_income": "operating income",
            "net_income": "net income", "eps": "EPS", "free_cash_flow": "free cash flow",
            "operating_cash_flow": "operating cash flow", "cash": "cash", "debt": "total debt"}
LINES_ZH = {"revenue": "营收", "gross_profit": "毛利", "operating_income": "营业利润", "net_income": "净利润",
            "eps": "每股收益", "free_cash_flow": "自由现金流", "operating_cash_flow": "经营现金流",
            "cash": "现金", "debt": "总债务"}


def _dict(value) -> dict:
    """A nested payload field that should be an object (payloads are free-form: anything else
    reads as empty)."""
    return value if isinstance(value, dict) else {}


def _records(value) -> list[dict]:
    """A nested payload field that should be a list of objects, with anything else left out."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _num(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def money(value, currency: str | None, zh: bool = False) -> str:
    v = _num(value)
    if v is None:
        return "n/a"
    currency = currency if isinstance(currency, str) else None
    symbol = SYMBOLS.get((currency or "").upper(), "")
    suffix = "" if symbol or not currency else f" {currency}"
    sign = "-" if v < 0 else ""
    v = abs(v)
    if zh and v >= 1e8:
        text = f"{v / 1e12:.2f}万亿" if v >= 1e12 else f"{v / 1e8:.2f}亿"
    elif not zh and v >= 1e12:
        text = f"{v / 1e12:.2f}T"
    elif not zh and v >= 1e9:
        text = f"{v / 1e9:.2f}B"
    elif not zh and v >= 1e6:
        text = f"{v / 1e6:.2f}M"
    else:
        text = f"{v:,.2f}"
    return f"{sign}{symbol}{text}{suffix}"


def pct(value, signed: bool = True) -> str:
    v = _num(value)
    if v is None:
        return "n/a"
    return f"{v:+.2f}%" if signed else f"{abs(v):.2f}%"


def label(data: dict, names: dict[str, str], zh: bool) -> str:
    ticker = str(data.get("ticker") or "")
    name = names.get(ticker, ticker)
    if not name or name == ticker:
        return escape(ticker)
    return escape(f"{name}（{ticker}）" if zh else f"{name} ({ticker})")


def price_history(item: Evidence, r: int, names: dict, zh: bool, when: str) -> list[str]:
    data, stats = item.data or {}, (item.data or {}).get("stats") or {}
    cur = data.get("currency")
    who = label(data, names, zh)
    ret, start_close, end_close = stats.get("return_pct"), stats.get("start_close"), stats.get("end_close")
    out = []
    if _num(ret) is not None and _num(start_close) is not None and _num(end_close) is not None:
        focus = stats.get("focus") or item.period or {}
        span = f"{focus.get('start')} → {focus.get('end')}"
        if zh:
            verb = "上涨" if ret >= 0 else "下跌"
            start_date, end_date = stats.get("start_date", ""), stats.get("end_date", "")
            out.append(f"{who}{escape(when)}（{span}）{verb} {pct(ret, False)}，从 {start_date} 的 "
                       f"{money(start_close, cur, zh)} 到 {end_date} 的 {money(end_close, cur, zh)} [{r}]。")
        else:
            verb = "rose" if ret >= 0 else "fell"
            out.append(f"{who} {verb} {pct(ret, False)} {escape(when)} ({span}), from "
                       f"{money(start_close, cur)} on {stats.get('start_date', '')} to {money(end_close, cur)} "
                       f"on {stats.get('end_date', '')} [{r}].")
    moves = [m for m in stats.get("biggest_moves") or [] if _num(m.get("change_pct")) is not None]
    if moves:
        top = moves[:2]
        if zh:
            parts = "，".join(f"{m.get('date')} {pct(m['change_pct'])}" for m in top)
            out.append(f"期间最大的单日波动：{parts} [{r}]。")
        else:
            parts = " and ".join(f"{pct(m['change_pct'])} on {m.get('date')}" for m in top)
            out.append(f"The biggest daily moves were {parts} [{r}]." if len(top) > 1
                       else f"The biggest daily move was {parts} [{r}].")
    if _num(stats.get("high")) is not None and _num(stats.get("low")) is not None:
        if zh:
            out.append(f"区间最高 {money(stats['high'], cur, zh)}，最低 {money(stats['low'], cur, zh)} [{r}]。")
        else:
            out.append(f"It traded between {money(stats['low'], cur)} and {money(stats['high'], cur)} [{r}].")
    return out


def comparison(histories: list[tuple[Evidence, int]], names: dict, zh: bool, when: str) -> str:
    """One sentence ranking several instruments by period return, best first."""
    ranked = []
    for item, r in histories:
        ret = _num(((item.data or {}).get("stats") or {}).get("return_pct"))
        if ret is not None:
            ranked.append((ret, label(item.data or {}, names, zh), r))
    ranked.sort(key=lambda x: -x[0])
    if len(ranked) < 2:
        return ""
    refs = "".join(f"[{r}]" for _, _, r in ranked)
    if zh:
        parts = "，".join(f"{who} {pct(ret)}" for ret, who, _ in ranked)
        return f"{escape(when)}涨跌幅排序：{parts}，{ranked[0][1]}表现最好 {refs}。"
    parts = ", ".join(f"{who} {pct(ret)}" for ret, who, _ in ranked)
    return f"Ranked by return {escape(when)}: {parts}; {ranked[0][1]} did best {refs}."


def quote(item: Evidence, r: int, names: dict, zh: bool) -> list[str]:
    d = item.data or {}
    cur, who = d.get("currency"), label(d, names, zh)
    if _num(d.get("last")) is None:
        return []
    as_of = str(d.get("as_of") or item.published or "")[:10]
    cap = f"，市值 {money(d['market_cap'], cur, zh)}" if zh and _num(d.get("market_cap")) else ""
    cap_en = f", market cap {money(d['market_cap'], cur)}" if not zh and _num(d.get("market_cap")) else ""
    if zh:
        return [f"{who}最新价 {money(d['last'], cur, zh)}（当日 {pct(d.get('change_pct'))}）{cap}，"
                f"截至 {as_of} [{r}]。"]
    return [f"{who} last traded at {money(d['last'], cur)} ({pct(d.get('change_pct'))} on the day){cap_en}, "
            f"as of {as_of} [{r}]."]


def financials(item: Evidence, r: int, names: dict, zh: bool) -> list[str]:
    d = item.data or {}
    lines = _dict(d.get("lines"))
    cur, who = d.get("currency"), label(d, names, zh)
    table = LINES_ZH if zh else LINES_EN
    parts = []
    for key, word in table.items():
        value = _num(lines.get(key))
        if value is None:
            continue
        shown = f"{value:.2f}" if key == "eps" else money(value, cur, zh)
        parts.append(f"{word} {shown}")
        if len(parts) == 4:
            break
    if not parts:
        return []
    period = escape(str(d.get("period_label") or (item.period or {}).get("end") or ""))
    if zh:
        return [f"{who}{period}：" + "，".join(parts) + f" [{r}]。"]
    return [f"For {period}, {who} reported " + ", ".join(parts) + f" [{r}]."]


def earnings(item: Evidence, r: int, names: dict, zh: bool) -> list[str]:
    d = item.data or {}
    who, out = label(d, names, zh), []
    reported = [h for h in _records(d.get("history")) if _num(h.get("eps_reported")) is not None]
    if reported:
        last = max(reported, key=lambda h: str(h.get("date")))
        est, rep, surprise = last.get("eps_estimate"), last.get("eps_reported"), last.get("surprise_pct")
        if zh:
            out.append(f"{who}在 {str(last.get('date'))[:10]} 公布每股收益 {rep:.2f}，预期 "
                       f"{_fmt(est)}，超预期幅度 {pct(surprise)} [{r}]。")
        else:
            out.append(f"{who} reported EPS of {rep:.2f} on {str(last.get('date'))[:10]} against an estimate of "
                       f"{_fmt(est)} (surprise {pct(surprise)}) [{r}].")
    if isinstance(d.get("next_date"), str) and d["next_date"]:
        out.append(f"下一次财报日期为 {str(d['next_date'])[:10]} [{r}]。" if zh
                   else f"The next report is expected on {str(d['next_date'])[:10]} [{r}].")
    return out


def analyst(item: Evidence, r: int, names: dict, zh: bool) -> list[str]:
    d = item.data or {}
    cur, who, out = d.get("currency"), label(d, names, zh), []
    t = _dict(d.get("targets"))
    if _num(t.get("mean")) is not None:
        low, high = money(t.get("low"), cur, zh), money(t.get("high"), cur, zh)
        out.append(f"分析师平均目标价 {money(t['mean'], cur, zh)}（区间 {low} – {high}）[{r}]。" if zh
                   else f"Analysts' mean price target for {who} is {money(t['mean'], cur)} "
                        f"(range {low} – {high}) [{r}].")
    rec = _dict(d.get("recommendations"))
    if rec:
        buy = int((_num(rec.get("strong_buy")) or 0) + (_num(rec.get("buy")) or 0))
        hold = int(_num(rec.get("hold")) or 0)
        sell = int((_num(rec.get("sell")) or 0) + (_num(rec.get("strong_sell")) or 0))
        out.append(f"评级分布：{buy} 买入，{hold} 持有，{sell} 卖出 [{r}]。" if zh
                   else f"Ratings: {buy} buy, {hold} hold, {sell} sell [{r}].")
    return out


def dividends(item: Evidence, r: int, names: dict, zh: bool) -> list[str]:
    d = item.data or {}
    cur, who, out = d.get("currency"), label(d, names, zh), []
    paid = _records(d.get("dividends"))
    if paid:
        last = paid[-1]
        out.append(f"{who}最近一次分红为每股 {money(last.get('amount'), cur, zh)}（{last.get('date')}）[{r}]。" if zh
                   else f"{who}'s latest dividend was {money(last.get('amount'), cur)} per share on "
                        f"{last.get('date')} [{r}].")
    if _num(d.get("trailing_yield_pct")) is not None:
        out.append(f"过去十二个月股息率 {pct(d['trailing_yield_pct'], False)} [{r}]。" if zh
                   else f"The trailing twelve-month dividend yield is {pct(d['trailing_yield_pct'], False)} [{r}].")
    return out


def profile(item: Evidence, r: int, names: dict, zh: bool) -> list[str]:
    d = item.data or {}
    who, out = label(d, names, zh), []
    if d.get("sector") or d.get("industry"):
        sector, industry = escape(str(d.get("sector") or "")), escape(str(d.get("industry") or ""))
        out.append(f"{who}属于 {sector} 板块、{industry} 行业 [{r}]。" if zh
                   else f"{who} is in the {sector} sector ({industry}) [{r}].")
    ratios = _dict(d.get("ratios"))
    if _num(ratios.get("trailing_pe")) is not None:
        out.append(f"市盈率（TTM）{ratios['trailing_pe']:.2f} [{r}]。" if zh
                   else f"Its trailing P/E is {ratios['trailing_pe']:.2f} [{r}].")
    return out


def holders(item: Evidence, r: int, names: dict, zh: bool) -> list[str]:
    d = item.data or {}
    who, out = label(d, names, zh), []
    major = _dict(d.get("major"))
    if _num(major.get("institutions_pct")) is not None:
        out.append(f"机构持股比例 {pct(major['institutions_pct'], False)} [{r}]。" if zh
                   else f"Institutions hold {pct(major['institutions_pct'], False)} of {who} [{r}].")
    top = _records(d.get("institutional"))[:1]
    if top and top[0].get("holder"):
        holder = escape(str(top[0]["holder"]))
        share = pct(top[0].get("pct"), False)
        out.append(f"最大机构股东为 {holder}（{share}）[{r}]。" if zh
                   else f"The largest institutional holder is {holder} ({share}) [{r}].")
    return out


def _fmt(value) -> str:
    v = _num(value)
    return "n/a" if v is None else f"{v:.2f}"


WRITERS = {"quote": quote, "financials": financials, "earnings": earnings, "analyst": analyst,
           "dividends": dividends, "profile": profile, "holders": holders}
