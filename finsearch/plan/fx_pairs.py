"""Currency pairs named by their two currencies, in any order and either language: "pound to
dollar", "usd to cny", "dollar yen", "yen vs yuan", "人民币兑美元", "日元对人民币", "欧元英镑".

The pair is quoted the way the market quotes it, whichever currency came first: the one higher
in `_QUOTE_ORDER` is the base (EUR before GBP before AUD … before USD … before CNY), and Yahoo
writes a pair with the dollar as base as the other currency alone ("USD/JPY" is `JPY=X`).
"""

from __future__ import annotations

import re

from .alias_table import AliasTable, Instrument

_NAMES: dict[str, tuple[str, ...]] = {
    "USD": ("us dollar", "u.s. dollar", "american dollar", "dollar", "usd", "greenback", "美元", "美金"),
    "EUR": ("euro", "eur", "欧元"),
    "GBP": ("british pound", "pound sterling", "pound", "sterling", "gbp", "英镑"),
    "JPY": ("japanese yen", "yen", "jpy", "日元", "日圆", "日币"),
    "CNH": ("offshore yuan", "offshore renminbi", "offshore rmb", "cnh", "离岸人民币"),
    "CNY": ("chinese yuan", "yuan", "renminbi", "rmb", "cny", "人民币", "在岸人民币"),
    "HKD": ("hong kong dollar", "hk dollar", "hkd", "港元", "港币"),
    "AUD": ("australian dollar", "aussie dollar", "aud", "澳元", "澳币"),
    "NZD": ("new zealand dollar", "kiwi dollar", "nzd", "纽元", "新西兰元"),
    "CAD": ("canadian dollar", "loonie", "cad", "加元", "加拿大元", "加币"),
    "CHF": ("swiss franc", "franc", "chf", "瑞郎", "瑞士法郎"),
    "KRW": ("korean won", "south korean won", "krw", "韩元", "韩币"),
    "INR": ("indian rupee", "rupee", "inr", "印度卢比", "卢比"),
    "SGD": ("singapore dollar", "sgd", "新加坡元", "新元"),
    "TWD": ("new taiwan dollar", "taiwan dollar", "twd", "新台币", "台币"),
    "MXN": ("mexican peso", "peso", "mxn", "墨西哥比索"),
}
# Which currency of a pair is the base, as the market quotes it.
_QUOTE_ORDER = ("EUR", "GBP", "AUD", "NZD", "USD", "CAD", "CHF", "HKD", "SGD", "JPY", "KRW", "INR", "TWD",
                "MXN", "CNY", "CNH")

_BY_NAME = {name: code for code, names in _NAMES.items() for name in names}
_NAME = "|".join(re.escape(n) for n in sorted(_BY_NAME, key=len, reverse=True))
_PAIR = re.compile(
    rf"(?<![A-Za-z])(?P<a>{_NAME})(?![A-Za-z])"
    r"(?:\s*(?:to|against|vs\.?|versus|into|in)\s+(?:the\s+)?|\s*[/\-]\s*|\s+|\s*(?:兑换|兑|对|换)\s*|)"
    rf"(?<![A-Za-z])(?P<b>{_NAME})(?![A-Za-z])", re.I)


def find_pairs(text: str, table: AliasTable) -> list[tuple[int, int, Instrument]]:
    """(start, end, instrument) for each pair of currencies named together."""
    found = []
    for m in _PAIR.finditer(text):
        codes = {_BY_NAME[m.group("a").lower()], _BY_NAME[m.group("b").lower()]}
        if len(codes) < 2 or codes == {"CNY", "CNH"}:
            continue
        base, quote = sorted(codes, key=_QUOTE_ORDER.index)
        ticker = f"{quote}=X" if base == "USD" else f"{base}{quote}=X"
        found.append((m.start(), m.end(), table.by_ticker.get(ticker) or Instrument(ticker, f"{base}/{quote}", "fx")))
    return found
