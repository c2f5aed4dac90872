"""The offline name → instrument table (`data/aliases.json`, English + Chinese), compiled.

An entry is one instrument. Besides its `aliases` (names as written, any case) and
`exact_aliases` (case-sensitive, e.g. "SOX"), it may carry:
- `nicknames` ("宁王", "鹅厂") and `descriptions` ("the iPhone maker"), read as such;
- `symbols`: bare symbols it also answers to, ahead of the entry whose ticker that symbol is
  ("SOL" is Solana before Emeren Group: the more traded reading comes first);
- `other_listings`: the same company on another exchange (BABA ↔ 9988.HK, A/H shares),
  linked both ways;
- `makes`, `led_by`: what it makes or owns and who runs it, which `maker_phrases` finds phrases
  around ("the Wegovy maker", "the one that makes the A320", "微信的母公司", "Jeff Bezos company");
- `tenor_years`: a Treasury yield's tenor, which `alias_forms` turns into names ("美债十年期");
  `alias_forms` also derives the short forms of company names ("taiwan semi", "palo alto");
- `not_before`: words after which its names mean something else ("cable" is the pound, but
  not in "cable companies"; "亚麻" is Amazon, but not in "亚麻籽");
- `names_only`: found by its names alone, its ticker never read as a typed symbol (the bundled
  index companies of `index_names`: "aple" stays a slip for Apple, not Apple Hospitality's APLE);
- `ticker: null`: a thing with no Yahoo symbol (a private company, the LPR, rebar), named so
  the planner searches news for it rather than a ticker that does not exist.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Literal

from .alias_forms import derived_aliases, derived_short_names, derived_symbols, has_cjk
from .index_names import index_entries
from .maker_phrases import MakerPhrases

Market = Literal["us", "hk", "cn"]
# How a table match was read; the other ReadAs values come from the other readers.
TableRead = Literal["exact", "nickname", "description"]


@dataclasses.dataclass(frozen=True)
class Instrument:
    ticker: str | None
    name: str
    kind: str

    @property
    def market(self) -> Market:
        """Where it is listed, from Yahoo's suffix: the market words of a question pick by it."""
        suffix = (self.ticker or "").rpartition(".")[2]
        return "hk" if suffix == "HK" else "cn" if suffix in ("SS", "SZ") else "us"


@dataclasses.dataclass(frozen=True)
class TableMatch:
    start: int
    end: int
    instrument: Instrument
    read_as: TableRead


def _not_before(words: list[str]) -> re.Pattern:
    """The words after which a name means something else: a separate English word ("cable
    companies"), or Chinese characters right after it ("亚麻籽" is flaxseed, not Amazon)."""
    latin = "|".join(re.escape(w) for w in words if not has_cjk(w))
    cjk = "|".join(re.escape(w) for w in words if has_cjk(w))
    return re.compile("|".join(p for p in (latin and rf"\s+(?:{latin})\b", cjk and rf"\s*(?:{cjk})") if p), re.I)


class AliasTable:
    """The entries compiled into matchers: alias patterns, tickers, symbols, listings."""

    def __init__(self, entries: list[dict]):
        self._count = len(entries)
        self.by_ticker: dict[str, Instrument] = {}
        self._by_alias: dict[str, tuple[Instrument, TableRead]] = {}
        self._by_exact: dict[str, Instrument] = {}
        self._symbols: dict[str, list[Instrument]] = {}
        listed_with: dict[str, list[str]] = {}
        derived: list[tuple[Instrument, TableRead, str]] = []
        products: dict[str, Instrument] = {}
        leaders: dict[str, Instrument] = {}
        self._chinese: dict[str, str] = {}
        self._not_before: dict[Instrument, re.Pattern] = {}
        for entry in entries:
            inst = Instrument(entry["ticker"], entry["name"], entry["kind"])
            if inst.ticker and not entry.get("names_only"):
                self.by_ticker[inst.ticker.upper()] = inst
            if entry.get("not_before"):
                self._not_before[inst] = _not_before(entry["not_before"])
            chinese = next((a for a in entry.get("aliases", ()) if has_cjk(a)), None)
            if chinese:
                self._chinese.setdefault(inst.ticker or f"?{inst.name}", chinese)
            for field, read_as in (("aliases", "exact"), ("nicknames", "nickname"),
                                   ("descriptions", "description")):
                for alias in entry.get(field, ()):
                    self._by_alias[_fold(alias).lower()] = (inst, read_as)
            derived.extend((inst, "exact", form) for form in derived_aliases(entry))
            for fact, owners in (("makes", products), ("led_by", leaders)):
                for name in entry.get(fact, ()):
                    owners.setdefault(_fold(name).lower(), inst)
            for alias in entry.get("exact_aliases", ()):
                self._by_exact[alias] = inst
            for symbol in entry.get("symbols", ()):
                self._symbols.setdefault(symbol, []).append(inst)
            for other in entry.get("other_listings", ()):
                listed_with.setdefault(inst.ticker, []).append(other)
                listed_with.setdefault(other, []).append(inst.ticker)
        instruments = [Instrument(e["ticker"], e["name"], e["kind"]) for e in entries]
        derived.extend((instruments[index], "nickname" if shortened else "exact", form)
                       for index, form, shortened in derived_short_names(entries))
        for index, symbol in derived_symbols(entries):
            self._symbols.setdefault(symbol, []).append(instruments[index])
        for inst, read_as, form in derived:      # a name the table writes out wins
            self._by_alias.setdefault(form, (inst, read_as))
        written = {_fold(a).lower() for e in entries for f in ("aliases", "nicknames") for a in e.get(f, ())}
        self._listings = {t: [self.by_ticker[o.upper()] for o in others] for t, others in listed_with.items()}
        latin = [a for a in self._by_alias if not has_cjk(a)]
        cjk = [a for a in self._by_alias if has_cjk(a)]
        self._latin = _Lexicon(latin, bounded=True)
        self._cjk = _Lexicon(cjk, bounded=False)     # "iPhone制造商"
        self._makers = MakerPhrases(products, leaders)
        self._exact = _alternation(list(self._by_exact), 0, bounded=True)
        self._exact_any_case = _alternation(list(self._by_exact), re.I, bounded=True)
        self._exact_folded = {a.lower(): inst for a, inst in self._by_exact.items()}
        # Latin names a misspelling may be near: four letters or more, names and nicknames the
        # table writes out (not the derived forms: "3-year yield" is no slip for "2-year yield").
        self.spellings = {a: inst for a, (inst, read_as) in self._by_alias.items()
                          if not has_cjk(a) and len(a) >= 4 and a in written}
        # Chinese names a one-character slip may be near ("英伟大", "宁得时代", "腾迅").
        self.cjk_spellings = {a: inst for a, (inst, read_as) in self._by_alias.items()
                              if has_cjk(a) and len(a) >= 2 and a.isalpha() and a in written}
        # Two-character company names written in the table (not nicknames, not 黄金 or 原油):
        # the only short names a homophone slip is looked for in.
        self.short_company_names = frozenset(
            _fold(a).lower() for e in entries if e["kind"] == "equity" for a in e.get("aliases", ())
            if len(a) == 2 and has_cjk(a))

    def chinese_name(self, ticker: str | None, name: str) -> str | None:
        """The first Chinese name the table writes for an instrument (by ticker, else by name)."""
        return self._chinese.get(ticker or f"?{name}")

    def __len__(self) -> int:
        return self._count

    def find(self, text: str) -> list[TableMatch]:
        """Non-overlapping mentions, longest first, in order of position."""
        text = _fold(text)      # same length: positions still index the question
        hits = []
        for lexicon in (self._latin, self._cjk):
            for start, end, name in lexicon.finditer(text):
                inst, read_as = self._by_alias[name]
                if inst in self._not_before and self._not_before[inst].match(text, end):
                    continue        # "cable companies" are not the pound
                hits.append(TableMatch(start, end, inst, read_as))
        # After the names, so a name the table writes out wins over a phrase of the same words.
        for phrase in self._makers.find(_lower(text)):
            hits.append(TableMatch(phrase.start, phrase.end, phrase.owner, "description"))
        for m in self._exact.finditer(text) if self._exact else ():
            if _sentence_initial(text, m.start()) and not FINANCE_CUE.match(text[m.end():]):
                continue            # "Target price for NVDA?" is not about Target Corp.
            hits.append(TableMatch(m.start(), m.end(), self._by_exact[m.group(0)], "exact"))
        # A name that is also a word, typed in lower case ("snowflake", "target"), is the
        # company only where nothing else can be meant: "snowflake earnings", "what does block do".
        for m in self._exact_any_case.finditer(text) if self._exact_any_case else ():
            after = text[m.end():]
            asked_what_it_does = _WHAT_DOES.search(text[:m.start()]) and _DO.match(after)
            if m.group(0) not in self._by_exact and (FINANCE_CUE.match(after) or asked_what_it_does):
                hits.append(TableMatch(m.start(), m.end(), self._exact_folded[m.group(0).lower()], "exact"))
        chosen: list[TableMatch] = []
        for hit in sorted(hits, key=lambda h: (-(h.end - h.start), h.start)):
            if all(hit.end <= c.start or hit.start >= c.end for c in chosen):
                chosen.append(hit)
        return sorted(chosen, key=lambda h: h.start)

    def symbol_readings(self, symbol: str) -> list[Instrument]:
        """Every instrument a bare symbol may mean, the most traded first ([] if unknown)."""
        readings = list(self._symbols.get(symbol, ()))
        if symbol in self.by_ticker:
            readings.append(self.by_ticker[symbol])
        return readings

    def other_listings(self, ticker: str | None) -> list[Instrument]:
        return list(self._listings.get(ticker, ())) if ticker else []


def _fold(text: str) -> str:
    """Curly apostrophes as straight ones, so "Google’s parent" meets "google's parent"."""
    return text.replace("\u2019", "'")


def _lower(text: str) -> str:
    """Lower case of the same length, so positions still index the question."""
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


class _Lexicon:
    """Lower-case names found in a text: at each place the longest name that starts there, found
    by looking each length up in a set (one regular expression of the table's tens of thousands
    of names would be slow). Names may overlap ("the dow" and "dow transports"): `find` keeps
    the longest."""

    def __init__(self, names: list[str], bounded: bool):
        self._names = frozenset(names)
        self._lengths = sorted({len(n) for n in names}, reverse=True)
        self._bounded = bounded     # a Latin name is a whole word: not inside "applesauce"

    def finditer(self, text: str):
        """(start, end, name) for the longest name starting at each place."""
        lower = _lower(text)
        for i in range(len(text)):
            end = self._longest_at(lower, i) if not self._bounded or _word_starts(text, i) else None
            if end is not None:
                yield i, end, lower[i:end]

    def _longest_at(self, lower: str, i: int) -> int | None:
        for length in self._lengths:
            end = i + length
            if end <= len(lower) and lower[i:end] in self._names and (not self._bounded or _word_ends(lower, end)):
                return end
        return None


def _word_starts(text: str, i: int) -> bool:
    return i == 0 or not (text[i - 1].isascii() and (text[i - 1].isalnum() or text[i - 1] in "$^"))


def _word_ends(text: str, end: int) -> bool:
    return end == len(text) or not (text[end].isascii() and text[end].isalnum())


def _alternation(words: list[str], flags: int, bounded: bool) -> re.Pattern | None:
    if not words:
        return None
    body = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    if bounded:
        body = rf"(?<![A-Za-z0-9$^])(?:{body})(?![A-Za-z0-9])"
    return re.compile(body, flags)


def _sentence_initial(text: str, index: int) -> bool:
    return not text[:index].strip() or text[:index].rstrip()[-1:] in ".?!。？！"


FINANCE_CUE = re.compile(r"(?:'s|’s|\s+(?:stock|shares|Inc|Corp|Corporation|Holdings|earnings|"
                         r"revenue|sales))\b", re.I)


_WHAT_DOES = re.compile(r"\bwhat\s+(?:does|do)\s+(?:the\s+company\s+)?$", re.I)
_DO = re.compile(r"\s+do\b", re.I)


@lru_cache(maxsize=1)
def alias_table() -> AliasTable:
    text = resources.files("finsearch").joinpath("data/aliases.json").read_text("utf-8")
    entries = json.loads(text)
    return AliasTable(entries + index_entries(entries))     # the table's own entries first: they win
