"""Exchange codes: "600519", "00700", "HK:2020", "港股700", "1810 vs 1211" → the Yahoo ticker.

Shanghai, Shenzhen and Beijing number their listings in blocks (the exchanges' code rules):
Shanghai 600–605 main board, 688/689 STAR shares, 900 B shares, 50/51/52/56/58 funds; Shenzhen
000–003 main board, 300/301 ChiNext, 200 B shares, 15/16 funds, 399 indices; Beijing 43, 83, 87
and 920. Hong Kong numbers its listings from 1 and writes them in four or five digits ("0700",
"00700"); Yahoo writes four (0700.HK).

A code is read
- beside a market's word (`cued_codes`, before any other reader): "HK:2020", "HKEX:700",
  "hk 1299", "700 hk", "港股700", "SH600519", "830799.BJ";
- in its written shape (`bare_codes`): six digits in an A-share block, a Hong Kong code with its
  leading zero;
- as a bare number of three or four digits where it stands as a ticker would: the question's
  only subject ("3690今天涨了还是跌了", "1810 vs 1211 this month"), or beside another instrument
  with "vs", "和", "and" between them ("600036和3968").
Never where the words around make the number a quantity, a price, an amount, a count, a year or
a date (`number_words`): "500 shares", "below 220", "茅台1800买的", "in 2020", "2024年". A
year-like number standing alone is not read as a code, and `unsure_notes` says how to ask for
the stock. The company's name comes from the alias table, else from the bundled A-share list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..phrases import Language, say
from .alias_table import AliasTable, Instrument
from .listings import a_share_name
from .number_words import explicit_role, is_year_like, role_of

Found = tuple[int, int, Instrument, list[Instrument]]    # (start, end, reading, other readings)

_RANGES: tuple[tuple[str, str, str], ...] = (     # (code prefix, suffix, kind)
    ("60", "SS", "equity"), ("688", "SS", "equity"), ("689", "SS", "equity"),
    ("50", "SS", "etf"), ("51", "SS", "etf"), ("52", "SS", "etf"), ("56", "SS", "etf"), ("58", "SS", "etf"),
    ("000", "SZ", "equity"), ("001", "SZ", "equity"), ("002", "SZ", "equity"), ("003", "SZ", "equity"),
    ("300", "SZ", "equity"), ("301", "SZ", "equity"), ("15", "SZ", "etf"), ("16", "SZ", "etf"),
    ("399", "SZ", "index"),
    ("43", "BJ", "equity"), ("83", "BJ", "equity"), ("87", "BJ", "equity"), ("920", "BJ", "equity"),
)
# B shares trade in dollars (Shanghai) or Hong Kong dollars (Shenzhen) and are seldom asked for;
# a number in their blocks ("200000") is read as one only if the list names that share.
_B_SHARES = (("900", "SS"), ("200", "SZ"))
_EXCHANGES = {"SH": "SS", "SS": "SS", "SHSE": "SS", "SZ": "SZ", "SZSE": "SZ", "BJ": "BJ"}
_HK_GROUPS = ("hk1", "hk2", "hk3", "hk4", "hk5")

# -- codes beside a market's word ----------------------------------------------------------

_CUED = re.compile(
    r"(?<![A-Za-z])(?:HKEX|HKG|SEHK|HK)\s*[:：.]\s*(?P<hk1>\d{1,5})(?!\d)"                # HK:2020, HK.00700
    r"|(?<![A-Za-z])HK\s+(?P<hk2>\d{1,5})(?![\d.,])"                                     # hk 1299
    r"|港股(?:通)?(?:代码)?\s*[:：]?\s*(?P<hk3>\d{1,5})(?!\d)"                              # 港股700
    r"|(?<![\w.$¥￥])(?P<hk4>\d{1,5})\s*HK(?![A-Za-z$])(?!\s*(?:dollars?|\$|元|币))"     # 700 hk
    r"|(?<![\w.])(?P<hk5>\d{1,2})\.HK(?![A-Za-z0-9])"                                   # 5.HK
    r"|(?<![A-Za-z])(?P<ex>SHSE|SZSE|SH|SZ|SS|BJ)\s*[:：.]?\s*(?P<a1>\d{6})(?!\d)"        # SH600519
    r"|(?<![\w.])(?P<a2>\d{6})\.(?P<ex2>BJ)(?![A-Za-z0-9])",                             # 830799.BJ
    re.I)


def cued_codes(text: str, table: AliasTable) -> list[Found]:
    """Codes a market's word names ("HK:2020", "港股700", "hk 1299", "SH600519"); a year beside
    the word alone stays a year ("港股2024表现"), written as a symbol ("HK:2020") it is the code."""
    found = []
    for m in _CUED.finditer(text):
        hk = next((m.group(g) for g in _HK_GROUPS if m.group(g)), None)
        number = hk or m.group("a1") or m.group("a2")
        start, end = m.span(next(g for g in (*_HK_GROUPS, "a1", "a2") if m.group(g)))
        if hk is not None and int(hk) == 0 or explicit_role(text, start, end, after_only=True):
            continue                 # "HK 300 dollars", "港股2023年"
        if hk is not None and not m.group("hk1") and is_year_like(hk):
            continue                 # "hk 2024 outlook", "港股2024表现": the year, not ANTA Sports
        if hk is not None:
            found.append((*m.span(), _hong_kong(hk, table), []))
            continue
        suffix = _EXCHANGES[(m.group("ex") or m.group("ex2")).upper()]
        kind = next((k for prefix, s, k in _RANGES if number.startswith(prefix) and s == suffix), "equity")
        found.append((*m.span(), _known(f"{number}.{suffix}", kind, table), []))
    return found


# -- codes in their written shape, and bare numbers that stand where a ticker would -------------

_NUMBER = re.compile(r"(?<![A-Za-z0-9.$¥￥€£:/#\-])(?P<code>\d{3,6})(?![0-9]|[A-Za-z])")
# Between two instruments of a list or a comparison.
_JOIN = re.compile(r"\s*(?:vs\.?|versus|v\.?|and|or|&|,|，|、|/|和|跟|与|及|同|或|还是|对比|比较|对|比|pk)\s*", re.I)
# What may come before a bare number that is the question's subject …
_LEAD = re.compile(r"(?:^|[,，。.?？!！:：;；(（\"“'‘]|\b(?:what['’]?s|whats|what\s+is|how['’]?s|hows|how\s+is"
                   r"|how\s+did|how\s+does|how\s+about|what\s+about|is|did|does|was|has|why\s+is|why\s+did|why\s+was|compare"
                   r"|check|show(?:\s+me)?|quote|chart|buy|sell|about|to|on|for|of|stock|ticker|code|symbol)|看看|看下|看一下|查查|查下|查一下|查询|关注"
                   r"|请问|分析|分析下|分析一下|说说|聊聊|介绍下|介绍一下|对比|比较|代码|股票)\s*$", re.I)
# … and after it.
_FOLLOW = re.compile(r"\s*(?:$|[,，。.?？!！:：;；)）]|[\u4e00-\u9fff]|(?:vs\.?|versus|and|or|at|cost|costs|today"
                     r"|now|this|last|past|ytd|mtd|since|over|in|on|stock|share\s+price|price|prices|quote|chart|news|trading"
                     r"|traded|up|down|performance|perf|dividends?|yield|earnings|results|revenue|profit|valuation"
                     r"|pe|p/e|outlook|target|rating|announcements?|filings?|report|moved?|fell|rose|jumped|dropped"
                     r"|rall(?:y|ied)|crash(?:ed)?|closed?|opened?|doing|do|done|been|going|look|looks|worth|a|an"
                     r"|buy|sell|hold|cheap|expensive|overvalued|undervalued|still|higher|lower)\b)",
                     re.I)


def bare_codes(text: str, table: AliasTable, named: Sequence[tuple[int, int]],
               venues: Sequence[tuple[int, int]] = ()) -> list[Found]:
    """Six-digit A-share codes, Hong Kong codes with their leading zero, and bare three- or
    four-digit numbers standing where a ticker would (`named`: the spans of the instruments
    already read; `venues`: those of exchanges named, which a number may be compared with but
    which do not take the subject's place: "hkex announcements for 9988")."""
    found: list[Found] = []
    bare: list[tuple[int, int, str]] = []
    years: list[tuple[int, int, str]] = []      # year-like, with nothing around saying so
    for m in _NUMBER.finditer(text):
        code, (start, end) = m.group("code"), m.span()
        if is_year_like(code) and not explicit_role(text, start, end):
            years.append((start, end, code))
        if role_of(text, start, end):
            continue
        if len(code) == 6:
            readings = _a_share(code, table)
            if readings:
                found.append((start, end, readings[0], readings[1:]))
        elif code.startswith("0") and len(code) >= 4:
            found.append((start, end, _hong_kong(code, table), []))
        elif not code.startswith("0") and len(code) <= 4:
            bare.append((start, end, code))
    spans = [*named, *venues, *((f[0], f[1]) for f in found), *((s, e) for s, e, _ in bare)]
    for start, end, code in bare:
        others = [(s, e) for s, e in spans if (s, e) != (start, end)]
        if _joined(text, start, end, others) or (not named and _stands_alone(text, start, end)):
            found.append((start, end, _hong_kong(code, table), []))
    # In a list of codes a year-like number is one too ("2015 vs 9866 vs 9868"); among years, a year.
    codes = [(f[0], f[1]) for f in found]
    found += [(start, end, _hong_kong(code, table), []) for start, end, code in years
              if _joined(text, start, end, codes)]
    return sorted(found, key=lambda f: f[0])


def _joined(text: str, start: int, end: int, others: Sequence[tuple[int, int]]) -> bool:
    return any((e <= start and _JOIN.fullmatch(text[e:start])) or (s >= end and _JOIN.fullmatch(text[end:s]))
               for s, e in others)


def _stands_alone(text: str, start: int, end: int) -> bool:
    return bool(_LEAD.search(text[:start]) and _FOLLOW.match(text, end))


def unsure_notes(text: str, instruments_named: bool, language: Language) -> tuple[str, ...]:
    """A note for each year-like number standing where a ticker would in a question that names
    no instrument, read as no code: "2020 最近一个月" may be the year or ANTA Sports (2020.HK)."""
    if instruments_named:
        return ()
    notes = []
    for m in _NUMBER.finditer(text):
        start, end = m.span()
        if is_year_like(m.group("code")) and not explicit_role(text, start, end) and _stands_alone(text, start, end):
            notes.append(say("note.number_not_code", language, number=m.group("code")))
    return tuple(notes)


# -- readings ------------------------------------------------------------------------------

def _hong_kong(code: str, table: AliasTable) -> Instrument:
    return _known(f"{code.lstrip('0').rjust(4, '0')}.HK", "equity", table)


def _a_share(code: str, table: AliasTable) -> list[Instrument]:
    """The listing a six-digit code names, and (for 000xxx) the Shanghai index of that number."""
    by_range = next((_known(f"{code}.{suffix}", kind, table) for prefix, suffix, kind in _RANGES
                     if code.startswith(prefix)), None)
    if by_range is None and a_share_name(code):
        by_range = next((_known(f"{code}.{suffix}", "equity", table) for prefix, suffix in _B_SHARES
                         if code.startswith(prefix)), None)
    # Shanghai's indices reuse Shenzhen's stock numbers ("000001" is Ping An Bank and the SSE
    # Composite): the table says which of the two people mean, the range breaks the tie.
    index = table.by_ticker.get(f"{code}.SS") if code.startswith("000") else None
    if by_range is None:
        return []
    if index is None:
        return [by_range]
    return [by_range, index] if by_range.ticker in table.by_ticker else [index]


def a_share_ticker(code: str) -> str | None:
    """The Yahoo ticker of an A-share code by its block ("600036" → "600036.SS"), or None."""
    suffix = next((s for prefix, s, _kind in _RANGES if code.startswith(prefix)), None)
    suffix = suffix or next((s for prefix, s in _B_SHARES if code.startswith(prefix)), None)
    return f"{code}.{suffix}" if suffix else None


def _known(ticker: str, kind: str, table: AliasTable) -> Instrument:
    """The table's instrument for the ticker, else one named from the A-share list (or by the ticker)."""
    known = table.by_ticker.get(ticker)
    if known is not None:
        return known
    code, _, suffix = ticker.partition(".")
    name = a_share_name(code) if suffix in ("SS", "SZ", "BJ") and kind == "equity" else None
    return Instrument(ticker, name or ticker, kind)
