"""The quantities an answer is built from, read out of every retrieved item: the structured
payloads (a quote's price, a profile's ratios, a dividend plan's payout ratio …) and the
sentences of the stories ("a payout ratio of 64%", "股息率3.4%", "21 times forward earnings").

    quantities(view)       → every Quantity found, with the item that holds it and its date
    (freshness.current picks the newest value of a kind for an instrument)

Values are copied as the evidence states them (percentages in percent); nothing here is
computed but a dividend per share from a plan written per 10 shares ("10派9.43元" → 0.943),
which is marked `per_ten` so the writer says how it was read.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date
from typing import Literal

from ..evidence import Evidence
from ..phrases.numbers import finite
from .dividend_plans import cash_of_the_year
from .reader import Passage

Kind = Literal["price", "market_cap", "pe_trailing", "pe_forward", "pe_static", "industry_pe", "industry_pe_median",
               "pb", "dividend_yield", "payout_ratio", "dividend_per_share", "target_mean", "target_low",
               "target_high", "target_one", "eps_reported", "eps_estimate"]


@dataclasses.dataclass(frozen=True)
class Quantity:
    kind: Kind
    ticker: str | None
    value: float
    item: Evidence
    as_of: date | None               # the day the value is for
    text: str | None = None          # the sentence it was read from (None: a payload field)
    currency: str | None = None
    per_ten: bool = False            # read from a plan per 10 shares
    year: str | None = None          # the fiscal year whose plans it adds up (None: one payment or plan)

    @property
    def structured(self) -> bool:
        return self.text is None


def stamp_day(value) -> date | None:
    """The day of an ISO stamp or date ("2024-10-15T20:00:00Z" → 2024-10-15); None for anything else."""
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _number(value) -> float | None:
    """A payload number, or a number written as text ("70.32%", "1.3280")."""
    number = finite(value)
    if number is not None:
        return number
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*%?\s*", value)
        return float(match.group(1)) if match else None
    return None


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _records(value) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


# -- structured payloads --------------------------------------------------------------------------

def _from_payload(item: Evidence) -> list[Quantity]:
    d, ticker = item.data or {}, item.ticker
    published = stamp_day(item.published) or stamp_day((item.period or {}).get("end"))
    out: list[Quantity] = []

    def add(kind: Kind, value, as_of: date | None = published, currency=None, per_ten=False, year=None) -> None:
        number = _number(value)
        if number is not None and (number > 0 or kind in ("eps_reported", "eps_estimate")):
            out.append(Quantity(kind, ticker, number, item, as_of, None, currency or d.get("currency"), per_ten,
                                year))

    if item.payload == "price_history" and item.prices is not None:
        stats = item.prices.stats
        if item.prices.rows:
            last = item.prices.rows[-1]
            add("price", last[4], stamp_day(str(last[0])), item.prices.currency)
        elif stats.end_close is not None:
            add("price", stats.end_close, stamp_day(stats.end_date), item.prices.currency)
    elif item.source == "quote" and item.quote is not None:
        q = item.quote
        as_of = stamp_day(q.as_of) or published
        add("price", q.last, as_of, q.currency)
        add("market_cap", q.market_cap, as_of, q.currency)
        add("pe_trailing", q.pe_ratio, as_of)
        add("dividend_yield", q.dividend_yield, as_of)
    elif item.source == "profile":
        ratios = {**d, **_dict(d.get("ratios"))}
        add("pe_trailing", ratios.get("trailing_pe"))
        add("pe_forward", ratios.get("forward_pe"))
        add("pb", ratios.get("price_to_book"))
        add("market_cap", ratios.get("market_cap"))
        add("dividend_yield", ratios.get("dividend_yield"))
        payout = _number(ratios.get("payout_ratio"))
        if payout is not None:          # Yahoo's own field is a fraction; ours is in percent
            add("payout_ratio", payout * 100 if payout <= 1.5 and not _whole_percent(ratios) else payout)
    elif item.source == "dividends":
        paid = _records(d.get("dividends"))
        add("dividend_yield", d.get("trailing_yield_pct"))
        if paid:
            add("dividend_per_share", paid[-1].get("amount"), stamp_day(paid[-1].get("date")))
    elif item.source in ("cn_dividends", "hk_dividends"):
        plans = _records(d.get("plans"))
        if plans:
            latest = plans[0]
            add("payout_ratio", latest.get("payout_ratio"), stamp_day(latest.get("board_date")) or published)
            per_share, year = cash_of_the_year(plans)
            if per_share is not None:
                add("dividend_per_share", per_share,
                    stamp_day(latest.get("board_date")) or published,
                    "CNY" if item.source == "cn_dividends" else None, per_ten=True, year=year)
    elif item.source == "analyst":
        targets = _dict(d.get("targets"))
        add("target_mean", targets.get("mean"))
        add("target_low", targets.get("low"))
        add("target_high", targets.get("high"))
    elif item.source == "earnings":
        history = [h for h in _records(d.get("history")) if finite(h.get("eps_reported")) is not None]
        if history:
            last = max(history, key=lambda h: str(h.get("date")))
            add("eps_reported", last.get("eps_reported"), stamp_day(last.get("date")))
            add("eps_estimate", last.get("eps_estimate"), stamp_day(last.get("date")))
    elif item.source == "cn_industry_compare":
        as_of = stamp_day(d.get("valued_on")) or stamp_day(d.get("as_of")) or published
        add("pe_static", d.get("pe_static"), as_of)
        add("pe_trailing", d.get("pe_ttm"), as_of)
        add("pb", d.get("pb"), as_of)
        add("industry_pe", d.get("industry_pe_weighted"), as_of)
        add("industry_pe_median", d.get("industry_pe_median"), as_of)
    elif item.source == "cn_financial_abstract":
        periods = _records(d.get("periods"))
        if periods:
            add("eps_reported", periods[0].get("eps"), stamp_day(periods[0].get("period")))
    return out


# Payload fields by other names (a pack written by hand, another provider's words): read when the
# source's own fields gave no value of the kind.
_FIELD_NAMES: tuple[tuple[Kind, re.Pattern], ...] = tuple((k, re.compile(p, re.I)) for k, p in (
    ("payout_ratio", r"^payout(?:_?ratio)?(?:_?pct)?$|^payoutRatio$|^股利支付率$|^分红率$"),
    ("dividend_yield", r"^(?:trailing_?|forward_?)?(?:annual_?)?dividend_?yield(?:_?pct)?$|^yield_?pct$|^股息率$"),
    ("pe_forward", r"^forward_?pe(?:_?ratio)?$|^forwardPE$|^pe_?forward$"),
    ("pe_trailing", r"^(?:trailing_?)?pe(?:_?ratio)?$|^trailingPE$|^pe_?ttm$|^市盈率(?:TTM)?$"),
    ("target_mean", r"^(?:target_?mean|mean_?target|target_?price|targetMeanPrice|price_?target)$"),
    ("market_cap", r"^market_?cap(?:italization)?$|^marketCap$|^市值$"),
))


def _by_field_name(item: Evidence, found: list[Quantity]) -> list[Quantity]:
    have = {q.kind for q in found}
    out: list[Quantity] = []
    published = stamp_day(item.published) or stamp_day((item.period or {}).get("end"))

    def walk(value, depth: int) -> None:
        if not isinstance(value, dict) or depth > 3:
            return
        for key, inner in value.items():
            kind = next((k for k, pattern in _FIELD_NAMES if pattern.match(str(key))), None)
            number = _number(inner) if kind is not None else None
            if kind is not None and kind not in have and number is not None and number > 0:
                if kind == "payout_ratio" and number <= 1.5 and isinstance(inner, float):
                    number *= 100                     # written as a fraction
                currency = (item.data or {}).get("currency")
                out.append(Quantity(kind, item.ticker, number, item, published, None, currency))
                have.add(kind)
            elif isinstance(inner, dict):
                walk(inner, depth + 1)
    walk(item.data, 0)
    return out


def _whole_percent(ratios: dict) -> bool:
    """Whether a profile writes its percentages as percent (profit_margin 25.9): then a
    payout_ratio of 0.9 is 0.9 %, not 90 %."""
    margin = _number(ratios.get("profit_margin"))
    return margin is not None and abs(margin) > 1.5


# -- sentences ------------------------------------------------------------------------------------

_N = r"(\d{1,3}(?:\.\d+)?)"
TEXT_PATTERNS: tuple[tuple[Kind, re.Pattern], ...] = (
    ("payout_ratio", re.compile(
        rf"\bpayout\s+ratio\b[^.;\d]{{0,25}}{_N}\s*%|{_N}\s*%\s+of\s+(?:its\s+|the\s+company's\s+)?(?:net\s+|adjusted\s+)?"
        rf"(?:profit|earnings|income)\b|(?:分红|派息|现金分红)(?:比例|率)[^。；\d]{{0,8}}{_N}\s*%"
        rf"|股利支付率[^。；\d]{{0,6}}{_N}\s*%|占[^。；\d]{{0,8}}净利润的?\s*{_N}\s*%", re.I)),
    ("dividend_yield", re.compile(
        rf"\b(?:dividend\s+)?yield\b[^.;\d]{{0,20}}{_N}\s*%|{_N}\s*%\s+(?:dividend\s+)?yield|股息率[^。；\d]{{0,6}}{_N}\s*%",
        re.I)),
    # One broker's target in a story ("cuts target to $450", "目标价上调至180港元"): not the consensus.
    ("target_one", re.compile(
        r"\b(?:price\s+)?target\b(?:\s+price)?(?:\s+(?:on|for)\s+[\w.&'-]+(?:\s+[\w.&'-]+)?)?"
        r"\s+(?:to|of|at|from\s+\$?\d[\d,.]*\s+to)\s+(?:US|HK)?\$?\s*(\d[\d,]*(?:\.\d+)?)"
        r"|目标价(?:为|至|上调至|下调至|调整至|定为)?\s*(\d+(?:\.\d+)?)\s*(?:元|港元|美元)", re.I)),
    ("pe_forward", re.compile(
        rf"{_N}\s*(?:times|x)\s+forward\s+(?:earnings|profits?|eps)|\bforward\s+(?:p/?e|price[- ]to[- ]earnings)\b"
        rf"[^.;\d]{{0,20}}{_N}|(?:预期|远期|动态)市盈率[^。；\d]{{0,6}}{_N}", re.I)),
    ("pe_trailing", re.compile(
        rf"{_N}\s*(?:times|x)\s+(?:trailing\s+)?(?:earnings|profits?)\b(?!\s+(?:next|for\s+next))"
        rf"|\b(?:trailing\s+)?(?:p/?e|price[- ]to[- ]earnings)(?:\s+ratio)?\b[^.;\d]{{0,20}}{_N}"
        rf"|(?<![预远动])市盈率(?:TTM)?[^。；\d]{{0,6}}{_N}", re.I)),
)


def _from_text(passage: Passage) -> list[Quantity]:
    out = []
    for kind, pattern in TEXT_PATTERNS:
        for match in pattern.finditer(passage.text):
            value = next((float(g.replace(",", "")) for g in match.groups() if g), None)
            if value is None or (kind == "pe_trailing" and "forward" in match.group(0).lower()):
                continue
            out.append(Quantity(kind, passage.about, value, passage.item, passage.day, passage.text))
    return out


def quantities(finance: list[Evidence], passages: list[Passage]) -> list[Quantity]:
    """Every quantity in the finance items' payloads, then in the stories' sentences."""
    found = []
    for item in finance:
        own = _from_payload(item)
        found += own + _by_field_name(item, own)
    return found + [q for p in passages for q in _from_text(p)]
