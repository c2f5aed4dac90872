"""Leads that answer with a value and a verdict on it, for one instrument at a time:

    price_now  → the freshest price with its day; a quote left days behind named with its age
    valuation  → the multiple against the industry's (an A-share: cninfo's CSRC industry P/E),
                 else the trailing and forward P/E with the growth the gap implies (derived)
    dividend   → the yield and the payout ratio, and whether earnings cover the payout; a yield
                 from the latest plan and the price when no yield is given (derived)
    targets    → the analysts' mean target, how far it lies from the freshest price (derived),
                 the range, and the latest rating change

Every figure is the freshest of its kind (`freshness`), cited with the items it came from.
"""

from __future__ import annotations

from ..phrases import say
from ..phrases.numbers import decimal, finite, money, pct
from . import cn_terms, company_facts
from . import facts as answer_facts
from .asked import Asked
from .cause_sentences import quote
from .derived import implied_growth, share_of, upside
from .markdown import escape
from .quantities import Quantity
from .view import AnswerView

HIGH_PE, LOW_PE = 30.0, 12.0             # a multiple above / below these reads as high / low by market standards
IN_LINE = 0.05                           # within 5 % of the industry's P/E is in line with it
COVER = ((60.0, "comfortable"), (80.0, "limited"), (100.0, "stretched"))     # payout ratio → its cover


def _refs(view: AnswerView, *quantities: Quantity | None) -> str:
    return view.refs(q.item for q in quantities if q is not None)


def _money(view: AnswerView, q: Quantity) -> str:
    return money(q.value, q.currency, view.language)


def _day(q: Quantity) -> str:
    return q.as_of.isoformat() if q.as_of else ""


# -- the price now ------------------------------------------------------------------------------------

def price_now(view: AnswerView) -> list[str]:
    out, language = [], view.language
    for ticker in view.tickers:
        current = view.current("price", ticker)
        if current is None:
            continue
        price = current.value
        if price.item.source == "quote":
            out += answer_facts.quote(price.item, view.ref(price.item), view.names, language)
        else:
            out.append(say("lead.price_close", language, who=view.who(ticker), price=_money(view, price),
                           date=_day(price), refs=_refs(view, price)))
        if current.stale is not None:
            out.append(say("lead.stale_value", language, price=_money(view, current.stale), date=_day(current.stale),
                           days=str(current.age_days), fresh_date=_day(price), refs=_refs(view, price, current.stale)))
    return out


# -- valuation ------------------------------------------------------------------------------------------

def valuation(view: AnswerView) -> list[str]:
    out = []
    for ticker in view.tickers:
        out += industry_valuation(view, ticker) or multiples(view, ticker)
    return out


def industry_valuation(view: AnswerView, ticker: str) -> list[str]:
    """An A-share's static P/E against its industry's weighted P/E, with the verdict."""
    item = view.first("cn_industry_compare", ticker)
    d = (item.data or {}) if item is not None else {}
    pe, weighted = finite(d.get("pe_static")), finite(d.get("industry_pe_weighted"))
    if item is None or pe is None or weighted is None or weighted <= 0:
        return []
    level = "dear" if pe > weighted * (1 + IN_LINE) else "cheap" if pe < weighted * (1 - IN_LINE) else "in_line"
    median = finite(d.get("industry_pe_median"))
    out = [say("lead.industry_pe", view.language, who=view.who(ticker), pe=decimal(pe),
               verdict=say(f"lead.vs_industry.{level}", view.language), weighted=decimal(weighted),
               industry=cn_terms.industry(str(d.get("industry") or ""), d.get("industry_code"), view.language),
               median=decimal(median) if median is not None else "—",
               level=say(f"lead.industry_level.{level}", view.language), ref=view.ref(item))]
    ttm, pb = finite(d.get("pe_ttm")), finite(d.get("pb"))
    if ttm is not None:
        out.append(say("lead.pe_ttm", view.language, pe=decimal(ttm), ref=view.ref(item),
                       pb=say("lead.pb", view.language, pb=decimal(pb)) if pb is not None else ""))
    return out


def multiples(view: AnswerView, ticker: str) -> list[str]:
    """The trailing and forward P/E, how high they are, and the growth the gap implies."""
    language = view.language
    trailing, forward = view.current("pe_trailing", ticker), view.current("pe_forward", ticker)
    if trailing is None:
        return []
    t = trailing.value
    level = "high" if t.value >= HIGH_PE else "low" if t.value <= LOW_PE else "moderate"
    if forward is None:
        return [say("lead.multiple", language, who=view.who(ticker), pe=decimal(t.value),
                    level=say(f"lead.pe_level.{level}", language), refs=_refs(view, t))]
    f = forward.value
    out = [say("lead.multiples", language, who=view.who(ticker), trailing=decimal(t.value), forward=decimal(f.value),
               level=say(f"lead.pe_level.{level}", language), refs=_refs(view, t, f))]
    growth = implied_growth(t, f)
    if growth is not None and growth.value > 0:
        out.append(say("lead.implied_growth", language, growth=pct(growth.value, False), refs=_refs(view, t, f)))
    return out


# -- dividends ------------------------------------------------------------------------------------------

def dividend(view: AnswerView, asked: Asked) -> list[str]:
    out = []
    for ticker in view.tickers:
        yields, payout = _yield(view, ticker), _payout(view, ticker, asked)
        first_payout = asked.metric == "payout_ratio" or asked.safety
        out += (payout + yields) if first_payout else (yields + payout)
    return out


def _yield(view: AnswerView, ticker: str) -> list[str]:
    return _yield_figure(view, ticker) + _latest_dividend(view, ticker)


def _latest_dividend(view: AnswerView, ticker: str) -> list[str]:
    """The latest dividend paid (the dividend history), else the latest plan (10jqka's)."""
    language = view.language
    for source in ("dividends", "cn_dividends", "hk_dividends"):
        item = view.first(source, ticker)
        if item is not None:
            writer = answer_facts.dividends if source == "dividends" else company_facts.dividend_plans
            said = writer(item, view.ref(item), view.names, language)[:1]
            if said:
                return said
    return []


def _yield_figure(view: AnswerView, ticker: str) -> list[str]:
    language = view.language
    current = view.current("dividend_yield", ticker)
    if current is not None:
        return [say("lead.yield", language, who=view.who(ticker), share=pct(current.value.value, False),
                    refs=_refs(view, current.value))]
    per_share, price = view.current("dividend_per_share", ticker), view.current("price", ticker)
    if per_share is None or price is None:
        return []
    derived = share_of(per_share.value, price.value)
    if derived is None:
        return []
    key = "lead.yield_derived_year" if per_share.value.year else "lead.yield_derived"
    return [say(key, language, who=view.who(ticker), share=pct(derived.value, False), year=per_share.value.year,
                amount=money(per_share.value.value, per_share.value.currency or price.value.currency, language),
                price=_money(view, price.value), date=_day(price.value), refs=view.refs(derived.items))]


def _payout(view: AnswerView, ticker: str, asked: Asked) -> list[str]:
    language = view.language
    current = view.current("payout_ratio", ticker)
    if current is None:
        return [view.not_found("payout_ratio", ticker)] if asked.metric == "payout_ratio" or asked.safety else []
    payout = current.value
    cover = next((name for bound, name in COVER if payout.value < bound), "uncovered")
    return [say("lead.payout", language, who=view.who(ticker), share=pct(payout.value, False),
                cover=say(f"lead.cover.{cover}", language), refs=_refs(view, payout))]


# -- analysts' targets ----------------------------------------------------------------------------------

def upsides(view: AnswerView) -> list[str]:
    """The analysts' mean target against the freshest price (derived), where both were found."""
    out = []
    for ticker in view.tickers:
        target, price = view.current("target_mean", ticker), view.current("price", ticker)
        gap = upside(target.value, price.value) if target and price else None
        if gap is not None:
            out.append(say("lead.upside", view.language, who=view.who(ticker), target=_money(view, target.value),
                           share=pct(abs(gap.value), False),
                           direction=say("lead.above" if gap.value >= 0 else "lead.below", view.language),
                           price=_money(view, price.value), date=_day(price.value), refs=view.refs(gap.items)))
    return out


def targets(view: AnswerView) -> list[str]:
    out, language = [], view.language
    for ticker in view.tickers:
        item = view.first("analyst", ticker)
        target, price = view.current("target_mean", ticker), view.current("price", ticker)
        gap = upside(target.value, price.value) if target and price else None
        if gap is not None:
            low, high = view.current("target_low", ticker), view.current("target_high", ticker)
            out.append(say("lead.upside", language, who=view.who(ticker), target=_money(view, target.value),
                           share=pct(abs(gap.value), False),
                           direction=say("lead.above" if gap.value >= 0 else "lead.below", language),
                           price=_money(view, price.value), date=_day(price.value), refs=view.refs(gap.items)))
            if low and high:
                out.append(say("lead.target_range", language, low=_money(view, low.value),
                               high=_money(view, high.value), refs=_refs(view, low.value)))
        elif item is not None:
            out += answer_facts.analyst(item, view.ref(item), view.names, language)[:1]
        elif (one := view.current("target_one", ticker)) is not None and one.value.text:
            q = one.value                   # no consensus, but a story names one broker's target
            out.append(say("lead.target_story", language, who=view.who(ticker), date=_day(q),
                           target=money(q.value, price.value.currency if price else None, language),
                           publisher=view.publisher(q.item),
                           text=quote(q.text), ref=view.ref(q.item)))
            continue
        else:
            out.append(say("lead.no_analyst", language, who=view.who(ticker)))
            continue
        change = _latest_change(item)
        if change is not None and item is not None:
            out.append(say("lead.rating_change", language, firm=escape(str(change.get("firm"))),
                           action=say(f"lead.rating_action.{change['action']}", language),
                           grade=escape(str(change.get("to") or "")), date=str(change.get("date"))[:10],
                           ref=view.ref(item)))
    return out


def _latest_change(item) -> dict | None:
    if item is None:
        return None
    changes = [c for c in (item.data or {}).get("changes") or [] if isinstance(c, dict)]
    moves = [c for c in changes if c.get("action") in ("upgrade", "downgrade") and c.get("firm") and c.get("date")]
    return max(moves, key=lambda c: str(c["date"])) if moves else None
