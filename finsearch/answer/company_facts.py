"""Extractive sentences for a company's own documents: an A-share's top-10 shareholders,
main business, profile, valuation against its industry, dividend plans, financial abstract and
analysts' forecasts (akshare's sites), and a US company's
figures as filed and the passages of a 10-K section (SEC EDGAR).

Same contract as `facts.WRITERS` (item, reference number, names, language → sentences, each
ending with its citation); figures and quotations are copied from the evidence as they are.
Announcements and filing lists are news-kind items: the answer lists them as headlines.
"""

from __future__ import annotations

import re

from ..evidence import Evidence
from ..phrases import Language, say
from ..phrases.numbers import decimal, finite, money, pct
from . import cn_terms
from .facts import label
from .markdown import escape

QUOTED_PASSAGES = 3
QUOTE_CHARS = 320
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s")


def _records(value) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def top_holders(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    holders = [h for h in _records(d.get("holders")) if h.get("name")]
    if not holders:
        return []
    who, first = label(item.ticker, names, language), holders[0]
    shares = [finite(h.get("pct")) for h in holders]
    total = sum(s for s in shares if s is not None)
    count = finite(d.get("holder_count"))
    out = [say("facts.cn_top_holder", language, who=who, as_of=escape(str(d.get("as_of") or "")),
               holder=escape(str(first["name"])), share=pct(first.get("pct"), False),
               top=len(holders), total=pct(round(total, 2), False), ref=r)]
    rest = say("list.sep", language).join(f"{escape(str(h['name']))} {pct(h.get('pct'), False)}"
                                          for h in holders[1:5])
    if rest:
        out.append(say("facts.cn_next_holders", language, holders=rest, ref=r))
    if count is not None:
        out.append(say("facts.cn_holder_count", language, count=f"{int(count):,}", ref=r))
    return out


def business(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    if not d.get("main_business"):
        return []
    out = [say("facts.cn_business", language, who=label(item.ticker, names, language),
               business=escape(str(d["main_business"]).rstrip("。.")), ref=r)]
    if d.get("products"):
        out.append(say("facts.cn_products", language, products=escape(str(d["products"])[:200]), ref=r))
    return out


def profile(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    if not d.get("name") or not d.get("industry"):
        return []
    listed = say("facts.cn_listed", language, market=escape(str(d.get("market") or "")),
                 listed=escape(str(d["listed"]))) if d.get("listed") and d.get("market") else ""
    out = [say("facts.cn_profile", language, who=label(item.ticker, names, language), name=escape(str(d["name"])),
               industry=cn_terms.industry(str(d["industry"]), d.get("industry_code"), language), listed=listed, ref=r)]
    if d.get("region"):
        founded = say("facts.cn_founded", language, founded=escape(str(d["founded"]))) if d.get("founded") else ""
        out.append(say("facts.cn_seat", language, region=escape(str(d["region"])), founded=founded, ref=r))
    return out


IN_LINE = 0.05        # within 5 % of the industry's weighted P/E reads as in line with it


def industry_compare(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    pe, weighted = finite(d.get("pe_static")), finite(d.get("industry_pe_weighted"))
    if pe is None or weighted is None or weighted <= 0 or not d.get("industry"):
        return []
    verdict = "facts.cn_industry_above" if pe > weighted * (1 + IN_LINE) else \
        "facts.cn_industry_below" if pe < weighted * (1 - IN_LINE) else "facts.cn_industry_in_line"
    median, companies = finite(d.get("industry_pe_median")), finite(d.get("companies"))
    out = [say("facts.cn_industry_pe", language, who=label(item.ticker, names, language), pe=decimal(pe),
               valued_on=escape(str(d.get("valued_on") or "")), verdict=say(verdict, language),
               industry=cn_terms.industry(str(d["industry"]), d.get("industry_code"), language),
               companies=int(companies) if companies is not None else "—",
               weighted=decimal(weighted), median=decimal(median) if median is not None else "—",
               as_of=escape(str(d.get("as_of") or "")), ref=r)]
    ttm, pb = finite(d.get("pe_ttm")), finite(d.get("pb"))
    if ttm is not None and pb is not None:
        out.append(say("facts.cn_own_ratios", language, ttm=decimal(ttm), pb=decimal(pb), ref=r))
    return out


def dividend_plans(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    plans = [p for p in _records((item.data or {}).get("plans")) if p.get("plan")]
    if not plans:
        return []
    latest = plans[0]
    ex = say("facts.cn_ex_date", language, date=escape(str(latest["ex_date"]))) if latest.get("ex_date") else ""
    return [say("facts.cn_dividend", language, who=label(item.ticker, names, language),
                period=cn_terms.plan_period(str(latest.get("period") or ""), language),
                progress=cn_terms.plan_progress(str(latest.get("progress") or ""), language),
                plan=cn_terms.plan_terms(str(latest["plan"]), language, (item.data or {}).get("currency") or "CNY"),
                ex=ex, ref=r)]


def financial_abstract(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    periods = [p for p in _records((item.data or {}).get("periods")) if p.get("revenue") or p.get("net_profit")]
    if not periods:
        return []
    latest, unknown = periods[0], "—"
    return [say("facts.cn_abstract", language, who=label(item.ticker, names, language),
                period=escape(str(latest.get("period") or "")),
                **{key: cn_terms.amount(str(latest.get(key) or unknown), language)
                   for key in ("revenue", "revenue_yoy", "net_profit", "net_profit_yoy", "eps")}, ref=r)]


def filed_figures(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    periods = _records(d.get("periods"))
    if not periods:
        return []
    latest, currency = periods[0], d.get("currency")
    parts = []
    for line in ("revenue", "net_income", "eps_diluted"):
        value = finite(latest.get(line))
        if value is not None:
            shown = decimal(value) if line == "eps_diluted" else money(value, currency, language)
            parts.append(f"{say(f'facts.line.{line}', language)} {shown}")
    if not parts:
        return []
    return [say("facts.sec_facts", language, who=label(item.ticker, names, language),
                form=escape(str(latest.get("form") or "")), filed=escape(str(latest.get("filed") or "")),
                end=escape(str(latest.get("end") or "")), lines=say("list.sep", language).join(parts), ref=r)]


def profit_forecast(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    forecasts = [f for f in _records((item.data or {}).get("forecasts")) if isinstance(f.get("eps"), dict)]
    if not forecasts or finite(forecasts[0]["eps"].get("mean")) is None:
        return []
    first, eps = forecasts[0], forecasts[0]["eps"]
    profit = first.get("net_profit") if isinstance(first.get("net_profit"), dict) else {}
    profit_text = say("facts.cn_forecast_profit", language, mean=money(profit["mean"], "CNY", language)) \
        if finite(profit.get("mean")) is not None else ""
    return [say("facts.cn_forecast", language, who=label(item.ticker, names, language),
                analysts=int(finite(eps.get("analysts")) or 0), year=escape(str(first.get("year") or "")),
                mean=decimal(eps["mean"]), low=decimal(eps.get("low")), high=decimal(eps.get("high")),
                profit=profit_text, ref=r)]


def _opening(text: str) -> str:
    """A passage's first sentence (or its first QUOTE_CHARS characters)."""
    first = _SENTENCE_END.split(text.strip(), maxsplit=1)[0]
    return first if len(first) <= QUOTE_CHARS else first[:QUOTE_CHARS].rsplit(" ", 1)[0] + "…"


def filing_section(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    passages = [p for p in _records(d.get("passages")) if isinstance(p.get("text"), str) and p["text"].strip()]
    if not passages:
        return []
    quotes = say("list.sep", language).join(f"“{escape(_opening(p['text']))}”" for p in passages[:QUOTED_PASSAGES])
    return [say("facts.filing_section", language, who=label(item.ticker, names, language),
                form=escape(str(d.get("form") or "")), filed=escape(str(d.get("filed") or "")),
                item=escape(str(d.get("item") or "")), title=escape(str(d.get("section_title") or "")),
                quotes=quotes, ref=r)]


WRITERS = {"cn_top_holders": top_holders, "cn_business": business, "cn_dividends": dividend_plans,
           "cn_financial_abstract": financial_abstract, "sec_section": filing_section, "sec_facts": filed_figures,
           "cn_profit_forecast": profit_forecast, "cn_profile": profile, "cn_industry_compare": industry_compare,
           "hk_dividends": dividend_plans}
