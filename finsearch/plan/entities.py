"""Entities: which instruments a question is about, as Yahoo Finance tickers.

Three offline passes over the question, in order of trust:
1. explicit symbols — `$PLTR`, `0700.HK`, `^GSPC`, `EURUSD=X`, `BRK-B`, bare `NVDA`;
2. names and aliases from the built-in table (`data/aliases.json`, English + Chinese);
3. capitalised names the table does not know, left unresolved (ticker None) so the
   planner can send them to the `symbol_search` source.

Tickers that are ordinary words or single letters (V, MA, A, IT, ON, ALL, NOW) are taken
only from a company name or a `$` prefix, never from a bare word.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Literal

from .wordlists import CAPITALISED_STOPWORDS, COMMON_UPPER_WORDS

AssetKind = Literal["equity", "etf", "index", "fx", "crypto", "commodity", "rate", "unknown"]
# How the words were read: a name or alias as written, a ticker symbol, a near spelling, a
# nickname, a description ("the iPhone maker"), an exchange code ("600519"), or a choice made
# by the question's context (crypto words, 港股/A股) between readings of one symbol.
ReadAs = Literal["exact", "symbol", "fuzzy", "nickname", "description", "code", "context"]


@dataclasses.dataclass(frozen=True)
class Reading:
    """Another way to read an entity's words, offered to the user as a one-click switch."""
    ticker: str
    name: str
    kind: AssetKind = "equity"


@dataclasses.dataclass(frozen=True)
class Entity:
    name: str
    ticker: str | None          # None: unresolved, to be looked up by symbol_search
    kind: AssetKind = "equity"
    mention: str = ""           # the words in the question that named it
    position: int = 0
    read_as: ReadAs = "exact"
    alternatives: tuple[Reading, ...] = ()    # other readings, most likely first

    def to_dict(self) -> dict:
        return {"name": self.name, "ticker": self.ticker}

    @classmethod
    def from_record(cls, raw: dict) -> Entity:
        """An entity as a stored run wrote it (`dataclasses.asdict`), older records included."""
        fields = {f.name for f in dataclasses.fields(cls)} - {"alternatives"}
        return cls(**{k: v for k, v in raw.items() if k in fields},
                   alternatives=tuple(Reading(**r) for r in raw.get("alternatives", ())))

    def display(self, language: str) -> str:
        """The name to show: the user's own Chinese words in a Chinese question."""
        if language == "zh" and _has_cjk(self.mention):
            return self.mention
        return self.name


@dataclasses.dataclass(frozen=True)
class _Instrument:
    ticker: str
    name: str
    kind: str


class AliasTable:
    """The offline name → ticker table, compiled into three matchers."""

    def __init__(self, entries: list[dict]):
        self.by_ticker: dict[str, _Instrument] = {}
        self._by_alias: dict[str, _Instrument] = {}
        self._by_exact: dict[str, _Instrument] = {}
        for entry in entries:
            inst = _Instrument(entry["ticker"], entry["name"], entry["kind"])
            self.by_ticker[inst.ticker.upper()] = inst
            for alias in entry.get("aliases", []):
                self._by_alias[alias.lower()] = inst
            for alias in entry.get("exact_aliases", []):
                self._by_exact[alias] = inst
        latin = [a for a in self._by_alias if not _has_cjk(a)]
        cjk = [a for a in self._by_alias if _has_cjk(a)]
        self._latin = _alternation(latin, re.I, bounded=True)
        self._cjk = _alternation(cjk, 0, bounded=False)
        self._exact = _alternation(list(self._by_exact), 0, bounded=True)

    def __len__(self) -> int:
        return len(self.by_ticker)

    def find(self, text: str) -> list[tuple[int, int, _Instrument]]:
        """Non-overlapping (start, end, instrument) mentions, longest first."""
        hits = []
        for pattern, table, fold in ((self._latin, self._by_alias, True),
                                     (self._cjk, self._by_alias, False),
                                     (self._exact, self._by_exact, False)):
            if pattern is None:
                continue
            for m in pattern.finditer(text):
                key = m.group(0).lower() if fold else m.group(0)
                if table is self._by_exact and _sentence_initial(text, m.start()) \
                        and not _FINANCE_CUE.match(text[m.end():]):
                    continue            # "Target price for NVDA?" is not about Target Corp.
                hits.append((m.start(), m.end(), table[key]))
        return _non_overlapping(hits)


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _alternation(words: list[str], flags: int, bounded: bool) -> re.Pattern | None:
    if not words:
        return None
    body = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    if bounded:
        body = rf"(?<![A-Za-z0-9$^])(?:{body})(?![A-Za-z0-9])"
    return re.compile(body, flags)


def _non_overlapping(hits):
    chosen = []
    for hit in sorted(hits, key=lambda h: (-(h[1] - h[0]), h[0])):
        if all(hit[1] <= c[0] or hit[0] >= c[1] for c in chosen):
            chosen.append(hit)
    return sorted(chosen, key=lambda h: h[0])


def _sentence_initial(text: str, index: int) -> bool:
    return not text[:index].strip() or text[:index].rstrip()[-1:] in ".?!。？！"


_FINANCE_CUE = re.compile(r"(?:'s|’s|\s+(?:stock|shares|Inc|Corp|Corporation|Holdings|earnings|"
                          r"revenue|sales))\b", re.I)


@lru_cache(maxsize=1)
def alias_table() -> AliasTable:
    text = resources.files("finsearch").joinpath("data/aliases.json").read_text("utf-8")
    return AliasTable(json.loads(text))


# -- explicit symbols ---------------------------------------------------------------------

_SYMBOL = re.compile(
    r"\$(?P<dollar>[A-Za-z][A-Za-z0-9]{0,5}(?:[.\-][A-Za-z]{1,2})?)"          # $PLTR, $brk.b
    r"|(?<![A-Za-z0-9])(?P<asia>\d{3,6})\.(?P<exch>HK|SS|SZ|SH|TW|T)(?![A-Za-z0-9])"  # 0700.HK
    r"|(?P<index>\^[A-Z0-9]{2,9})"                                              # ^GSPC
    r"|(?<![A-Za-z0-9])(?P<fx>[A-Z]{3,6}=X)"                                    # EURUSD=X
    r"|(?<![A-Za-z0-9])(?P<fut>[A-Z]{1,3}=F)"                                   # CL=F
    r"|(?<![A-Za-z0-9])(?P<crypto>[A-Z]{2,6}-(?:USD|USDT|EUR|CNY))(?![A-Za-z0-9])"   # BTC-USD
    r"|(?<![A-Za-z0-9])(?P<cls>[A-Z]{1,4})[.\-](?P<share>[A-B])(?![A-Za-z0-9])"  # BRK-B, BF.B
    r"|(?<![A-Za-z0-9])(?P<bare>[A-Z]{2,5})(?![A-Za-z0-9])"                      # NVDA
)


def _symbol(m: re.Match) -> tuple[str, bool] | None:
    """(ticker, trusted) for a symbol match; bare words are trusted only if not ordinary."""
    if m.group("dollar"):
        return m.group("dollar").upper().replace(".", "-"), True
    if m.group("asia"):
        number, exch = m.group("asia"), m.group("exch")
        exch = "SS" if exch == "SH" else exch
        if exch == "HK":
            number = number.lstrip("0").rjust(4, "0")
        return f"{number}.{exch}", True
    for name in ("index", "fx", "fut", "crypto"):
        if m.group(name):
            return m.group(name), True
    if m.group("cls"):
        return f"{m.group('cls')}-{m.group('share')}", True
    word = m.group("bare")
    return word, word not in COMMON_UPPER_WORDS


def _mostly_upper(text: str) -> bool:
    letters = [ch for ch in text if "A" <= ch.upper() <= "Z"]
    return len(letters) >= 8 and sum(ch.isupper() for ch in letters) / len(letters) > 0.6


# -- unresolved names ----------------------------------------------------------------------

_CAPITALISED = re.compile(r"(?<![A-Za-z0-9$])([A-Z][a-z][A-Za-z&'.-]*(?:\s+[A-Z][a-z][A-Za-z&.-]*){0,2})")
_ZH_COMPANY = re.compile(r"([\u4e00-\u9fff]{2,6}?(?:股份|集团|控股|科技|银行|证券|汽车|电子|药业|能源))")


def _unresolved(text: str, taken: list[tuple[int, int]], has_known: bool) -> list[Entity]:
    found = []
    for m in _CAPITALISED.finditer(text):
        start, end = m.span(1)
        words = m.group(1).split()
        while words and words[0].strip("'s") in CAPITALISED_STOPWORDS:
            start += len(words[0]) + 1
            words = words[1:]
        while words and words[-1].rstrip("'s’") in CAPITALISED_STOPWORDS:
            words = words[:-1]
        if not words or any(s < start + len(" ".join(words)) and start < e for s, e in taken):
            continue
        name = " ".join(words).removesuffix("'s").removesuffix("’s")
        if has_known and not _FINANCE_CUE.match(text[start + len(" ".join(words)):]):
            continue            # with known entities present, only clearly named companies
        found.append(Entity(name, None, "unknown", name, start))
    for m in _ZH_COMPANY.finditer(text):
        if all(m.end() <= s or m.start() >= e for s, e in taken):
            found.append(Entity(m.group(1), None, "unknown", m.group(1), m.start()))
    return found[:3]


# -- the one entry point -----------------------------------------------------------------

def extract(question: str) -> list[Entity]:
    """The instruments a question mentions, in order of first mention, one per ticker."""
    table = alias_table()
    found: list[Entity] = []
    taken: list[tuple[int, int]] = []
    shouting = _mostly_upper(question)
    for start, end, inst in table.find(question):
        found.append(Entity(inst.name, inst.ticker, inst.kind, question[start:end], start))
        taken.append((start, end))
    for m in _SYMBOL.finditer(question):
        if any(m.start() < e and s < m.end() for s, e in taken):
            continue
        ticker, trusted = _symbol(m)
        known = table.by_ticker.get(ticker)
        if m.group("bare") and (not trusted or (shouting and known is None)):
            continue
        name = known.name if known else ticker
        kind = known.kind if known else _kind_of(ticker)
        found.append(Entity(name, ticker, kind, m.group(0), m.start()))
        taken.append(m.span())
    found.extend(_unresolved(question, taken, has_known=bool(found)))
    unique: dict[str, Entity] = {}
    for entity in sorted(found, key=lambda e: e.position):
        unique.setdefault(entity.ticker or f"?{entity.name.lower()}", entity)
    return list(unique.values())


def _kind_of(ticker: str) -> str:
    if ticker.startswith("^"):
        return "index"
    if ticker.endswith("=X"):
        return "fx"
    if ticker.endswith("=F"):
        return "commodity"
    if "-USD" in ticker:
        return "crypto"
    return "equity"
