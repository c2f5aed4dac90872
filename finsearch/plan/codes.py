"""Bare exchange codes: "600519", "510300", "00700" → the Yahoo ticker, by the code's range.

Shanghai and Shenzhen number their listings in blocks (the exchanges' code rules):
Shanghai 600–605 main board and 688/689 STAR shares, 50/51/52/56/58 funds; Shenzhen 000–003
main board, 300/301 ChiNext, 15/16 funds, 399 indices. Hong Kong codes are written with a
leading zero ("0700", "00700", "09988"); a four-digit number without one is far more often
a year than a stock, so it is left alone.
"""

from __future__ import annotations

import re

from .alias_table import AliasTable, Instrument

# Not part of a longer number, a price, an amount or a time ("600519.5", "600000元", "12:00").
_CODE = re.compile(r"(?<![\d.,$¥￥:])(?P<code>\d{6}|0\d{3,4})"
                   r"(?![\d%]|[.,:]\d|\s*(?:元|块|万|亿|点|美元|港元|dollars?\b))")

_RANGES: tuple[tuple[str, str, str], ...] = (     # (code prefix, suffix, kind)
    ("60", "SS", "equity"), ("688", "SS", "equity"), ("689", "SS", "equity"),
    ("50", "SS", "etf"), ("51", "SS", "etf"), ("52", "SS", "etf"), ("56", "SS", "etf"), ("58", "SS", "etf"),
    ("000", "SZ", "equity"), ("001", "SZ", "equity"), ("002", "SZ", "equity"), ("003", "SZ", "equity"),
    ("300", "SZ", "equity"), ("301", "SZ", "equity"), ("15", "SZ", "etf"), ("16", "SZ", "etf"),
    ("399", "SZ", "index"),
)


def find_codes(text: str, table: AliasTable) -> list[tuple[int, int, Instrument, list[Instrument]]]:
    """(start, end, instrument, other readings) for each bare code in the text."""
    found = []
    for m in _CODE.finditer(text):
        code = m.group("code")
        readings = _readings(code, table)
        if readings:
            found.append((m.start(), m.end(), readings[0], readings[1:]))
    return found


def _readings(code: str, table: AliasTable) -> list[Instrument]:
    if len(code) < 6:
        return [_known(f"{code.lstrip('0').rjust(4, '0')}.HK", "equity", table)]
    by_range = next((_known(f"{code}.{suffix}", kind, table) for prefix, suffix, kind in _RANGES
                     if code.startswith(prefix)), None)
    # Shanghai's indices reuse Shenzhen's stock numbers ("000001" is Ping An Bank and the SSE
    # Composite): the table says which of the two people mean, the range breaks the tie.
    index = table.by_ticker.get(f"{code}.SS") if code.startswith("000") else None
    if by_range is None:
        return []
    if index is None:
        return [by_range]
    return [by_range, index] if by_range.ticker in table.by_ticker else [index]


def _known(ticker: str, kind: str, table: AliasTable) -> Instrument:
    return table.by_ticker.get(ticker) or Instrument(ticker, ticker, kind)
