"""The China-market sites' own Chinese words said in an English answer: a dividend plan's period
("2024年报" → "FY2024 final"), progress ("董事会预案" → "proposed by the board") and terms
("10派9.43元(含税)" → "¥9.43 per 10 shares, before tax"), an amount written in 亿 or 万
("845.02亿" → "¥84.50B") and a CSRC industry by its code or name (data/csrc_industries.json).

A Chinese answer keeps the sites' words as they are; so does an English one for a term nobody
foresaw (a plan paid in kind), which is rarer than an English reader given a made-up reading.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

from ..phrases import Language, say
from ..phrases.numbers import money
from .markdown import escape

_NUMBER = r"(\d+(?:\.\d+)?)"
# "10送3转4派5.2元(含税)", "10转增4股", "10派9.43元(含税,扣税后8.49元)": per 10 shares, each part optional.
_PER_TEN = re.compile(rf"^10\s*股?\s*(?:送(?:红股)?{_NUMBER}股?)?\s*(?:转(?:增)?{_NUMBER}股?)?\s*"
                      rf"(?:派(?:发)?(?:现金)?(?:红利)?{_NUMBER}\s*元)?\s*(?P<tax>[(（]含税[^)）]*[)）])?\s*$")
# "每股派2.4港元", "每股派发现金股息0.5元(含税)": per share.
_PER_SHARE = re.compile(rf"^每股\s*派(?:发)?(?:现金)?(?:股息|红利)?\s*{_NUMBER}\s*(港元|美元|人民币|元)"
                        rf"\s*(?P<tax>[(（]含税[^)）]*[)）])?\s*$")
_CURRENCY = {"港元": "HKD", "美元": "USD", "人民币": "CNY", "元": "CNY"}
_REPORT_PERIOD = re.compile(r"^\s*(\d{4})\s*(年报|年度|中报|半年报|一季报|三季报)\s*$")
_PERIOD_KEYS = {"年报": "annual", "年度": "annual", "中报": "interim", "半年报": "interim", "一季报": "q1",
                "三季报": "q3"}
_HK_PERIODS = {"末期": "final", "中期": "half", "特别": "special"}
_PROGRESS = ((re.compile(r"停止|终止|取消|未通过"), "stopped"), (re.compile(r"待实施|未实施|尚未"), "pending"),
             (re.compile(r"实施"), "done"), (re.compile(r"股东大会"), "approved"),
             (re.compile(r"预案|董事会"), "proposed"))
_AMOUNT = re.compile(r"^\s*(-?\d[\d,]*(?:\.\d+)?)\s*(万亿|亿|万)\s*(?:元)?\s*$")
_SCALE = {"万亿": 1e12, "亿": 1e8, "万": 1e4}


def _english(language: Language) -> bool:
    return language == "en"


def _count(value: str) -> str:
    return f"{float(value):g}"


def plan_terms(text: str, language: Language, currency: str | None = "CNY") -> str:
    """A plan's terms, escaped: in an English answer read part by part, else as the site wrote them."""
    if not _english(language):
        return escape(text)
    found = _PER_TEN.match(text)
    if found and any(found.groups()[:3]):
        bonus, transfer, cash = found.groups()[:3]
        parts = ([say("cn.plan.bonus_per_ten", language, shares=_count(bonus))] if bonus else []) + \
                ([say("cn.plan.transfer_per_ten", language, shares=_count(transfer))] if transfer else []) + \
                ([say("cn.plan.cash_per_ten", language, cash=money(float(cash), currency or "CNY", language))]
                 if cash else [])
        terms = say("list.sep", language).join(parts)
    elif (found := _PER_SHARE.match(text)) is not None:
        terms = say("cn.plan.cash_per_share", language, cash=money(float(found.group(1)),
                                                                      _CURRENCY[found.group(2)], language))
    else:
        return escape(text)
    return say("cn.plan.before_tax", language, terms=terms) if found.group("tax") else terms


def plan_period(text: str, language: Language) -> str:
    """"2024年报" → "FY2024 final", "末期" → "final" in English; escaped."""
    if not _english(language):
        return escape(text)
    found = _REPORT_PERIOD.match(text)
    if found:
        return say(f"cn.period.{_PERIOD_KEYS[found.group(2)]}", language, year=found.group(1))
    key = _HK_PERIODS.get(text.strip())
    return say(f"cn.period.{key}", language) if key else escape(text)


def plan_progress(text: str, language: Language) -> str:
    """"董事会预案" → "proposed by the board", "实施方案" → "implemented" in English; escaped."""
    if not _english(language):
        return escape(text)
    for pattern, key in _PROGRESS:
        if pattern.search(text):
            return say(f"cn.progress.{key}", language)
    return escape(text)


def amount(text: str, language: Language, currency: str = "CNY") -> str:
    """"845.02亿" → "¥84.50B" in English; anything else (a percentage, "—") as written, escaped."""
    found = _AMOUNT.match(text) if _english(language) else None
    if found is None:
        return escape(text)
    return money(float(found.group(1).replace(",", "")) * _SCALE[found.group(2)], currency, language)


def industry(name: str, code: str | None, language: Language) -> str:
    """A CSRC industry in the answer's language (by its code, else its Chinese name); escaped."""
    if not _english(language) or name.isascii():
        return escape(name)
    table = _industries()
    found = table.get((code or "").strip().upper()) or next((v for v in table.values() if v[0] == name.strip()), None)
    return escape(found[1]) if found else escape(name)


@functools.cache
def _industries() -> dict[str, list[str]]:
    text = resources.files("finsearch").joinpath("data/csrc_industries.json").read_text("utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}
