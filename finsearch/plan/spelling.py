"""Symbols and names as people type them: lower case ("msft") and misspelt ("amazn", "nvidea",
"英伟大").

Both readers run after the exact ones and only on words nothing else claimed. A lower-case
word is a ticker only if the alias table knows that ticker and the word is no English word
("cost", "low", "well" stay words). A misspelling is matched with rapidfuzz against the
table's Latin names: at most one edit (a transposition counts as one) for words of up to
seven letters, two for longer ones, same first letter, and never for an English word. A
Chinese name of three characters or more may have one character wrong (a homophone picked
by the input method), never its first, and in a three-character name only its last.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from rapidfuzz import process
from rapidfuzz.distance import OSA

from .alias_table import AliasTable, Instrument, has_cjk
from .wordlists import CJK_TERMS_NOT_NAMES, COMMON_UPPER_WORDS, is_ordinary_word, is_word_form

_WORD = re.compile(r"(?<![A-Za-z0-9$^.\-])[A-Za-z][A-Za-z]*(?:'s|’s)?(?![A-Za-z0-9])")
_TICKER_KINDS = ("equity", "etf")


# Right after a word, these make it a ticker even if it is short or an English word ("ko stock",
# "spy ytd": only an instrument has a year-to-date).
_STOCK_AFTER = re.compile(r"\s*(?:stock|shares|ytd)\b|\s*(?:股价|股票)", re.I)


# After a question's first word, these make it the subject of a market question ("spy past 5
# trading days", "ko this year", "cat since the fed cut").
_PERIOD_AFTER = re.compile(r"\s+(?:past|last|this|since|over\s+the|today|yesterday|year\s+to\s+date|vs\.?|versus"
                           r"|dividends?|earnings|最近|今年|今天|本周|本月)\b", re.I)


def _opens_with_symbol(text: str, m: re.Match) -> bool:
    return not text[:m.start()].strip(" \"'“‘") and bool(_PERIOD_AFTER.match(text, m.end()))


# The subject of a question about a move ("how has coin done", "why did cat fall", "is ko up"):
# nothing but an instrument can fill that place, except the words that stand for anything.
_MOVE_BEFORE = re.compile(r"(?:^|\b)(?:how\s+(?:has|have|did|is|was|does|do|are)|why\s+(?:did|is|was|has|does)"
                          r"|what\s+(?:did|has)|is|did|has)\s+$", re.I)
_MOVE_AFTER = re.compile(r"\s+(?:done|doing|performed|performing|fared|faring|moved|moving|traded|trading|been\s+doing"
                         r"|fall|fell|drop|dropped|dropping|falling|rise|rose|rising|jump|jumped|rally|rallied|crash"
                         r"|crashed|tank|tanked|surge|surged|soar|soared|slump|slumped|up|down)\b", re.I)
_ANY_THING = frozenset("it its this that these those they them he she we you one all any each everything anything "
                       "something nothing market markets stock stocks".split())


def _subject_of_a_move(text: str, m: re.Match) -> bool:
    return (m.group(0).lower() not in _ANY_THING and bool(_MOVE_BEFORE.search(text, 0, m.start()))
            and bool(_MOVE_AFTER.match(text, m.end())))


def lower_case_symbols(text: str, table: AliasTable, crypto: bool) -> list[tuple[int, int, list[Instrument]]]:
    """(start, end, readings) for known symbols written in lower or mixed case ("msft", "Nvda").

    A word that is also an English word is a symbol only when the question can only mean the
    symbol: "ko stock", "sol" among crypto words (`crypto`: the question speaks of crypto), or
    symbols listed together in a question about markets ("ko and pep dividends", "xom vs cvx",
    "jpm, bac and wfc"): one symbol next to another reads as a list of tickers."""
    found = []
    listed = _listed_symbols(text, table)
    for m in _WORD.finditer(text):
        word = _bare(m.group(0))        # "msft's": the possessive is no part of the symbol
        if word.isupper() or not 2 <= len(word) <= 5 or word.upper() in COMMON_UPPER_WORDS:
            continue
        readings = [r for r in table.symbol_readings(word.upper()) if r.kind in _TICKER_KINDS + ("crypto",)]
        if not readings:
            readings = _plural_symbol(word, table)
            if readings:        # "my amds", "AAPLs": shares of it, counted
                found.append((m.start(), m.start() + len(word), readings))
            continue
        plain = len(word) >= 3 and not is_ordinary_word(word) and readings[0].kind != "crypto"
        as_stock = bool(_STOCK_AFTER.match(text, m.end())) or (readings[0].kind != "crypto" and (
            _opens_with_symbol(text, m) or _subject_of_a_move(text, m)))
        as_coin = crypto and any(r.kind == "crypto" for r in readings)
        if plain or as_stock or as_coin or m.start() in listed:
            found.append((m.start(), m.start() + len(word), readings))
    return found


def _plural_symbol(word: str, table: AliasTable) -> list[Instrument]:
    """A company's or fund's symbol of three letters or more with a plural -s ("amds", "AAPLs",
    "nvdas"), when the word is no English word or form of one ("cats", "coins" stay words)."""
    if not word.endswith("s") or len(word) < 4:
        return []
    symbol = word[:-1]
    if symbol.upper() in COMMON_UPPER_WORDS or is_word_form(word) or is_ordinary_word(symbol):
        return []
    return [r for r in table.symbol_readings(symbol.upper()) if r.kind in _TICKER_KINDS]


# Between symbols of a list: "ko and pep", "xom vs cvx", "jpm, bac & wfc", "spy/qqq".
_JOINER = re.compile(r"\s*(?:,|/|&|\+|\band\b|\bor\b|\bvs\.?|\bversus\b)\s*(?:and\s+)?", re.I)
_MARKET_WORDS = re.compile(r"\bstocks?\b|\bshares?\b|\bprices?\b|\bdividends?\b|\byields?\b|\bearnings\b"
                           r"|\brevenue|\bvs\.?\b|\bversus\b|\bcompar|\bperform|\breturns?\b|\bchart|\bytd\b"
                           r"|\banalysts?\b|\btargets?\b|\bvaluation|\bp/?e\b|\bmarket cap|\bquotes?\b|\btrading\b"
                           r"|\bbuy\b|\bsell\b|\bholders?\b|\betfs?\b|\btickers?\b|\bportfolio|\bmargins?\b"
                           r"|\bguidance\b|\bbeta\b|\bvolatility\b|\bowns?\b|\bdoing\b|\btoday\b"
                           r"|\b(?:week|month|year|quarter)\b|股|财报|分红|走势|对比", re.I)


def _listed_symbols(text: str, table: AliasTable) -> set[int]:
    """Start positions of symbol-shaped words that stand in a list with another symbol, in a
    question with market words. Words that are never tickers ("it", "on", "all", "and") break
    a list, so "it and on" is still two words."""
    if not _MARKET_WORDS.search(text):
        return set()
    words = [m.span() for m in _WORD.finditer(text) if 1 < len(m.group(0)) <= 5
             and m.group(0).upper() not in COMMON_UPPER_WORDS and table.symbol_readings(m.group(0).upper())]
    members = sorted(words + [m.span() for m in _LISTING.finditer(text)])       # "baba vs 9988.hk"
    listed: set[int] = set()
    for (a_start, a_end), (b_start, _) in zip(members, members[1:], strict=False):
        if _JOINER.fullmatch(text, a_end, b_start):
            listed.update((a_start, b_start))
    return listed


_LISTING = re.compile(r"(?<![\w.])\d{3,6}\.(?:hk|ss|sz|sh)(?![\w])", re.I)


def near_spellings(text: str, table: AliasTable, free) -> list[tuple[int, int, Instrument, list[Instrument]]]:
    """(start, end, best instrument, other close instruments) for misspelt names.

    `free(start, end)` says whether the span is still unclaimed by a more trusted reader;
    two-word names ("berkshre hathaway") are tried before single words."""
    words = [m for m in _WORD.finditer(text)]
    found = []
    claimed: list[tuple[int, int]] = []
    for size in (2, 1):
        for i in range(len(words) - size + 1):
            span = words[i:i + size]
            start, end = span[0].start(), span[-1].end()
            if not free(start, end) or any(start < e and s < end for s, e in claimed):
                continue
            query = " ".join(_bare(m.group(0)) for m in span)
            owner = _owner_without_apostrophe(span, text, table)
            if owner is not None:
                found.append((start, end, owner, []))
                claimed.append((start, end))
                continue
            if any(_skip(_bare(m.group(0))) for m in span) and not _named_as_stock(span, text):
                continue
            matches = _close_names(query, table)
            if matches:
                found.append((start, end, matches[0], matches[1:]))
                claimed.append((start, end))
    return sorted(found, key=lambda f: f[0])


def unknown_names(text: str, table: AliasTable) -> list[tuple[str, list[Instrument]]]:
    """Words that look like a name but are no instrument and no word (“zorblax”), each with
    the nearest names the table knows (a looser match than a misspelling, for "did you mean")."""
    out = []
    for m in _WORD.finditer(text):
        word = _bare(m.group(0))
        if len(word) < 4 or word.isupper() or is_word_form(word):
            continue
        out.append((word, _nearest(word.lower(), table, edits=3)))
    return out


# A word right before these names a company ("goggle stock" is Google misspelt): singular, for
# "tech stocks" and "bank shares" name sectors.
_AS_STOCK = re.compile(r"\s+(?:stock|share\s+price|earnings)\b(?!s)", re.I)


def _named_as_stock(span: list[re.Match], text: str) -> bool:
    """A single ordinary word of five letters or more, followed by words only a company has."""
    word = _bare(span[0].group(0))
    return len(span) == 1 and len(word) >= 5 and not word.isupper() and bool(_AS_STOCK.match(text, span[0].end()))


# What a company has, after its name: "metas latest 8-k", "apples earnings", "targets ceo"; or a
# Chinese sentence going on about it ("手里的apples今年涨了多少").
_HAS_AFTER = re.compile(r"\s+(?:latest|last|newest|most\s+recent|recent|next|q[1-4]|stock|shares|share\s+price"
                        r"|earnings|revenue|sales|profit|margins?|10-?[kq]|8-?k|filings?|annual\s+report|dividends?"
                        r"|guidance|results|ceo|cfo|p/?e|valuation|market\s+cap)\b|\s*(?=[\u4e00-\u9fff])", re.I)


def _owner_without_apostrophe(span: list[re.Match], text: str, table: AliasTable) -> Instrument | None:
    """A name that is also a word, with the possessive's s but no apostrophe, before what a
    company has ("metas latest 8-k"): the company. Without such words it stays a word ("apples")."""
    word = span[0].group(0)
    stem = word.lower()[:-1]
    if len(span) != 1 or not word.lower().endswith("s") or stem not in table.spellings:
        return None
    return table.spellings[stem] if _HAS_AFTER.match(text, span[0].end()) else None


def _bare(word: str) -> str:
    return word.removesuffix("'s").removesuffix("’s")


def _skip(word: str) -> bool:
    # Short words and symbol-shaped capitals ("XYZQ") are not names to correct, nor words and
    # their plurals ("apples and oranges", "cats": not Apple, not CATL).
    return len(word) < 4 or (word.isupper() and len(word) <= 5) or is_ordinary_word(word) or _plural_of_a_word(word)


def _plural_of_a_word(word: str) -> bool:
    lower = word.lower()
    stems = [lower[:-1]] if lower.endswith("s") else []
    stems += [lower[:-2]] if lower.endswith("es") else []
    stems += [lower[:-3] + "y"] if lower.endswith("ies") else []
    return any(is_ordinary_word(stem) for stem in stems)


def _close_names(query: str, table: AliasTable) -> list[Instrument]:
    """The instruments whose names are within the edit limit, nearest first, one per ticker."""
    lower = query.lower()
    limit = 1 if len(lower) <= 7 else 2
    plural = lower.removesuffix("s") if lower.endswith("s") else None
    if plural in table.spellings and not is_ordinary_word(plural):
        return [table.spellings[plural]]        # "teslas", "nvidias"
    return _nearest(lower, table, edits=limit)


def _nearest(lower: str, table: AliasTable, edits: int) -> list[Instrument]:
    """Up to three instruments whose names are within `edits` of `lower` (same first letter,
    same number of words), nearest first, one per ticker."""
    hits = process.extract(lower, list(table.spellings), scorer=OSA.distance, score_cutoff=edits, limit=8)
    ordered: list[Instrument] = []
    for name, _distance, _index in sorted(hits, key=lambda h: (h[1], -len(h[0]))):
        inst = table.spellings[name]
        if name[0] == lower[0] and name.count(" ") == lower.count(" ") and inst not in ordered:
            ordered.append(inst)
    return ordered[:3]


def near_chinese_names(text: str, table: AliasTable, free) -> list[tuple[int, int, Instrument]]:
    """(start, end, instrument) for Chinese names typed with one wrong character, longest
    names first; `free(start, end)` says whether the span is still unclaimed.

    The wrong character may be one that sounds the same (the input method's slip: "腾迅",
    "茅苔", "英伟哒"), anywhere in the name; in a name of four characters or more any character
    but the first may be wrong, in one of three only the last ("英伟大"), since ordinary words
    match a short name's first two far too often ("天天气"). In a two-character company name
    only the last may be a homophone, and the word must stand apart from the words around it
    ("小朋友" is no slip for 小鹏, nor "未来" for 蔚来)."""
    found: list[tuple[int, int, Instrument]] = []
    claimed: list[tuple[int, int]] = []
    if not has_cjk(text):
        return found
    index = _one_character_masks(table)
    for size in sorted({len(n) for n in table.cjk_spellings}, reverse=True):
        for start in range(len(text) - size + 1):
            window = text[start:start + size].lower()
            if not window.isalpha() or window in CJK_TERMS_NOT_NAMES or window in table.cjk_spellings:
                continue
            end = start + size
            for wrong in range(size):
                for name in index.get(window[:wrong] + "\0" + window[wrong + 1:], ()):
                    if not _slip(window, name, wrong):
                        continue
                    if size == 2 and not (wrong == 1 and name in table.short_company_names
                                          and _stands_apart(text, start, end)):
                        continue
                    if free(start, end) and not any(start < e and s < end for s, e in claimed):
                        found.append((start, end, table.cjk_spellings[name]))
                        claimed.append((start, end))
    return sorted(found)


@lru_cache(maxsize=4)
def _one_character_masks(table: AliasTable) -> dict[str, list[str]]:
    """Each Chinese name under every form with one character blanked ("腾\0" → ["腾讯"]), so a
    window of the question finds the names one character from it by a few look-ups."""
    index: dict[str, list[str]] = {}
    for name in table.cjk_spellings:
        for i in range(len(name)):
            index.setdefault(name[:i] + "\0" + name[i + 1:], []).append(name)
    return index


def _slip(window: str, name: str, index: int) -> bool:
    if window[index] in homophones().get(name[index], ""):
        return True
    return len(name) >= 3 and index > 0 and (len(name) > 3 or index == 2)


# What may come right before or after a short name: not a character of a longer word.
_BEFORE_NAME = set("的和与跟对比看问请把将买卖说查及或同于关注持有")
_AFTER_NAME = set("的股最今近财走市营分怎呢和与跟对比为是还能会在吗这年本上下业估涨跌现有目")


def _stands_apart(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return (not has_cjk(before) or before in _BEFORE_NAME) and (not has_cjk(after) or after in _AFTER_NAME)


@lru_cache(maxsize=1)
def homophones() -> dict[str, str]:
    """For each character of the table's Chinese names, the common characters that sound the
    same (`data/homophones.json`, written by scripts/make_homophones.py)."""
    raw = resources.files("finsearch").joinpath("data/homophones.json").read_text("utf-8")
    return json.loads(raw)["homophones"]
