"""A visitor's alert rules: what they typed read into an `AlertRule` (or refused, in their language), added
to or removed from a watchlist, and each rule said back in a line ("NVDA: a daily move of 4% or more").

Numbers are read as people type them: "4", "4.5", "4,5", "4 %", full-width "４％"; a price "1,234.5".
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata

from ..errors import InputError
from ..phrases import Language, say
from .watchlist import ALERT_KINDS, AlertRule, Watchlist

MAX_ALERTS = 20                # each rule is checked per instrument every quarter hour
MAX_PCT = 1000.0
MAX_PRICE = 1e9
MAX_DAYS = 366
MAX_FILING_KINDS = 10
MAX_FILING_KIND = 40
_KIND_SEPARATORS = re.compile(r"[,，、;；\n]+")


@dataclasses.dataclass(frozen=True)
class RuleInput:
    """What the visitor typed for a new rule; the fields its kind does not use are ignored."""
    kind: str
    instrument: str | None = None      # one of the watchlist's tickers, or None for each
    pct: str = ""
    price: str = ""
    kinds: str = ""
    days: str = ""


def alert_rule(typed: RuleInput, watchlist: Watchlist) -> AlertRule:
    """The rule `typed` describes for `watchlist`; InputError in its language naming what is wrong."""
    language = watchlist.language
    if typed.kind not in ALERT_KINDS:
        raise InputError(say("watch.rules.bad_kind", language))
    if typed.instrument is not None and typed.instrument not in watchlist.instruments:
        raise InputError(say("ui.watch.not_watched", language, ticker=typed.instrument[:30]))
    if typed.kind == "daily_move":
        return AlertRule("daily_move", pct=_pct(typed.pct, language), instrument=typed.instrument)
    if typed.kind == "from_price":
        return AlertRule("from_price", pct=_pct(typed.pct, language), price=_price(typed.price, language),
                         instrument=typed.instrument)
    if typed.kind == "filing":
        return AlertRule("filing", kinds=_filing_kinds(typed.kinds, language), instrument=typed.instrument)
    return AlertRule("earnings_within", days=_days(typed.days, language), instrument=typed.instrument)


def with_rule(watchlist: Watchlist, rule: AlertRule) -> Watchlist:
    """`watchlist` with `rule` added; InputError when it is there already or the list is full."""
    if rule in watchlist.alerts:
        raise InputError(say("watch.rules.twice", watchlist.language))
    if len(watchlist.alerts) >= MAX_ALERTS:
        raise InputError(say("watch.rules.too_many", watchlist.language, most=str(MAX_ALERTS)))
    return dataclasses.replace(watchlist, alerts=(*watchlist.alerts, rule))


def without_rule(watchlist: Watchlist, rule: AlertRule) -> Watchlist:
    """`watchlist` without `rule` (found by its values, so a list changed in another tab loses the right one)."""
    return dataclasses.replace(watchlist, alerts=tuple(a for a in watchlist.alerts if a != rule))


def described(rule: AlertRule, language: Language) -> str:
    """One line saying what fires `rule`: "NVDA: a daily move of 4% or more"."""
    if rule.kind == "daily_move":
        what = say("watch.rules.says.daily_move", language, pct=_number(rule.pct))
    elif rule.kind == "from_price":
        what = say("watch.rules.says.from_price", language, pct=_number(rule.pct), price=_number(rule.price))
    elif rule.kind == "filing":
        what = say("watch.rules.says.filing", language, kinds=", ".join(rule.kinds)) if rule.kinds \
            else say("watch.rules.says.any_filing", language)
    else:
        what = say("watch.rules.says.earnings_within", language, days=str(rule.days))
    who = rule.instrument or say("watch.rules.every_instrument", language)
    return say("watch.rules.says", language, who=who, what=what)


def _number(value: float | None) -> str:
    """4 → "4", 4.5 → "4.5", 1234.5 → "1,234.5": as the visitor would have typed it."""
    return f"{value:,.6f}".rstrip("0").rstrip(".") if value is not None else ""


def _read_number(text: str) -> float | None:
    cleaned = unicodedata.normalize("NFKC", text or "").strip().rstrip("%").strip()
    if re.fullmatch(r"\d+,\d+", cleaned) and not re.fullmatch(r"\d{1,3}(,\d{3})+", cleaned):
        cleaned = cleaned.replace(",", ".")          # a decimal comma: 4,5
    cleaned = cleaned.replace(",", "").replace(" ", "")
    if not re.fullmatch(r"\d+(\.\d+)?|\.\d+", cleaned):
        return None
    value = float(cleaned)
    return value if math.isfinite(value) else None


def _pct(text: str, language: Language) -> float:
    value = _read_number(text)
    if value is None or not 0 < value <= MAX_PCT:
        raise InputError(say("watch.rules.bad_pct", language, text=(text or "").strip()[:30], most=_number(MAX_PCT)))
    return value


def _price(text: str, language: Language) -> float:
    value = _read_number(text)
    if value is None or not 0 < value < MAX_PRICE:
        raise InputError(say("watch.rules.bad_price", language, text=(text or "").strip()[:30]))
    return value


def _days(text: str, language: Language) -> int:
    cleaned = unicodedata.normalize("NFKC", text or "").strip()
    if not re.fullmatch(r"\d{1,3}", cleaned) or int(cleaned) > MAX_DAYS:
        raise InputError(say("watch.rules.bad_days", language, text=cleaned[:30], most=str(MAX_DAYS)))
    return int(cleaned)


def _filing_kinds(text: str, language: Language) -> tuple[str, ...]:
    """ "8-K, 10-Q" → ("8-K", "10-Q"); Chinese separators too ("年度报告、分红"); empty: any filing."""
    kinds = tuple(dict.fromkeys(k.strip() for k in _KIND_SEPARATORS.split(unicodedata.normalize("NFKC", text or ""))
                                if k.strip()))
    if len(kinds) > MAX_FILING_KINDS or any(len(k) > MAX_FILING_KIND for k in kinds):
        raise InputError(say("watch.rules.bad_kinds", language, most=str(MAX_FILING_KINDS)))
    return kinds
