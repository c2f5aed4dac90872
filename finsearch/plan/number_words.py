"""What a number in a question is, read from the words around it: a quantity ("500 shares",
"1000股"), a price or a level ("below 220", "$300", "涨到140", "20000点", "1800买的"), an
amount ("投了200000"), a count ("top 100 stocks", "30天"), a percentage, a year ("in 2023",
"2024年") or a date ("10/15", "924以来") — or none of these, when it may be an exchange code.

`role_of` answers for one number; the code readers (`codes`) ask it before reading a number as
a listing, so "i have 500 shares of msft" or "茅台1800买的" never names a Hong Kong stock.
"""

from __future__ import annotations

import re
from typing import Literal

Role = Literal["quantity", "price", "amount", "count", "percent", "year", "date"]

# Right after the number (spaces allowed), in either language.
_AFTER: tuple[tuple[Role, re.Pattern], ...] = tuple((role, re.compile(pattern, re.I)) for role, pattern in (
    ("percent", r"\s*(?:%|％|percent\b|pct\b|个点|个百分点|bps?\b|basis\s+points?)"),
    ("date", r"[/\-.]\d|:\d|\s*(?:年|月|日(?!线)|号|以来|之后|以后|之前|以前|那天|当天|那周|行情(?:以来|后)|新政)"),
    ("quantity", r"\s*(?:shares?\b(?!\s+price)|股(?![价票份东息本权市指通])|手(?!机)|lots?\b|units?\b|contracts?\b"
                 r"|options?\b|calls?\b|puts?\b|张|份|of\s+(?!the\s+(?:year|month|week|day|quarter)))"),
    ("price", r"\s*(?:元|块|角|毛|美元|美金|港元|港币|人民币|刀|日元|欧元|英镑|dollars?\b|bucks\b|usd\b|hkd\b|cny\b"
              r"|rmb\b|yuan\b|eur\b|点|points?\b|pts\b|level\b|mark\b|handle\b|area\b|zone\b|resistance\b"
              r"|support\b|strike\b|target\b|支撑|压力|关口|整数关|大关|买的|买入|买进|入的|进的|成本|卖的|卖出"
              r"|的价格|的位置|附近|上方|下方|以上|以下)"),
    ("amount", r"\s*(?:万|亿|千|百|k\b|m\b|mm\b|bn\b|b\b|million\b|billion\b|thousand\b|grand\b)"),
    ("count", r"\s*(?:days?\b|weeks?\b|months?\b|years?\b|yrs?\b|quarters?\b|sessions?\b|trading\s+days?\b"
              r"|stocks\b|companies\b|names\b|tickers\b|funds\b|etfs\b|times\b|x\b|倍|天|周|个|只|家|次|位|名|人|岁"
              r"|季|期|条|篇|页|米|公里|度)"),
))

# Right before the number.
_BEFORE: tuple[tuple[Role, re.Pattern], ...] = tuple((role, re.compile(pattern + r"\s*$", re.I)) for role, pattern in (
    ("price", r"(?:[$¥￥€£]|us\$|hk\$|rmb|hkd|usd|cny|jpy|eur"
              r"|\b(?:above|below|over|under|at|near|around|through|break|breaks|broke|breaking|hit|hits"
              r"|hitting|reach|reached|reaches|touch|touched|top|tops|topped|cross|crossed|crosses|between|target"
              r"|targets|strike|level|priced|costs?|worth|sub|hold|holds|held)"
              r"|\b(?:fell|fall|falls|drop|drops|dropped|rose|rise|rises|climb|climbs|climbed|slid|sank|jump|jumps"
              r"|jumped|up|down|back|go|goes|get|gets|got|going|went|come|came)\s+to|(?:%|percent|pct)\s+to"
              r"|涨到|跌到|跌破|突破|站上|站稳|守住|回到|升至|跌至|涨至|涨破|到了|到|破|过|低于|高于|超过|不到|接近|目标价"
              r"|价格|股价|价位|成本|收于|报|收在)"),
    ("amount", r"(?:\b(?:invest|invested|investing|put|spent|spend|spending|paid|pay|lost|made|earned|bet|deposit"
               r"|deposited)|投了|投入|花了|亏了|赚了|本金|资金|投资|存了|拿了)"),
    ("count", r"\b(?:top|first|last|past|next|best|worst|biggest|largest|smallest|every|each|only|about|around"
              r"|approximately|~|number|no\.|#|section|rule|chapter|form|item|model|version|route|flight)"),
    ("year", r"\b(?:in|since|from|during|for|of|until|till|by|before|after|fy|fiscal|year|circa|through|thru"
             r"|between)|自从|自|从|截至|截止|到|至|直到"),
))

_YEAR = range(1900, 2101)


def role_of(text: str, start: int, end: int) -> Role | None:
    """What the number at text[start:end] is by the words around it, a four-digit number from
    1900 to 2100 a year unless they say otherwise; None if nothing says."""
    role = explicit_role(text, start, end)
    return role or ("year" if is_year_like(text[start:end]) else None)


def explicit_role(text: str, start: int, end: int, after_only: bool = False) -> Role | None:
    """What the words around the number say it is (`after_only`: the words after it alone)."""
    after, before = text[end:end + 24], text[max(0, start - 24):start]
    if re.match(r"[.,]\d", after) or (not after_only and re.search(r"\d[.,]$", before)):
        return "price"                      # part of a decimal or a grouped number
    for role, pattern in _AFTER:
        if pattern.match(after):
            return role
    if after_only:
        return None
    year_like = is_year_like(text[start:end])
    for role, pattern in _BEFORE:
        if role == "year" and not year_like:
            continue
        if pattern.search(before):
            return role
    return None


def is_year_like(number: str) -> bool:
    return len(number) == 4 and number.isdigit() and int(number) in _YEAR
