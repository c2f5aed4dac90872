"""Entities: which instruments a question is about, as Yahoo Finance tickers.

Offline readers over the question, in order of trust; each reads only words no earlier one
claimed, and each says how it read them (`Entity.read_as`):
1. currency pairs by their two currencies ("usd to cny", "日元对人民币": `fx_pairs`), codes beside
   a market's word ("HK:2020", "港股700": `codes`), legal names ("Siemens AG", "台湾积体电路制造股份
   有限公司": `legal_names`, whose legal form is never a ticker), then names, nicknames and
   descriptions from the built-in table (`alias_table`, English + Chinese);
2. explicit symbols — `$PLTR`, `0700.HK`, `^GSPC`, `EURUSD=X`, `BRK-B`, bare `NVDA`;
3. lower-case tickers and misspelt names — "msft", "amazn" (`spelling`);
4. bare exchange codes — "600519", "00700", and numbers standing where a ticker would ("1810 vs
   1211"), never a quantity, a price or a year (`codes`: last, as that depends on what else is named);
5. capitalised names the table does not know, left unresolved (ticker None) so the
   planner can send them to the `symbol_search` source.
A name with several readings (SOL the coin or the stock, BABA or 9988.HK) is chosen by the
question's words (`context_choice`); the others become the entity's `alternatives`.

Tickers that are ordinary words or single letters (V, MA, A, IT, ON, ALL, NOW) are taken
only from a company name or a `$` prefix, never from a bare word.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Literal

from ..phrases import Language, say
from . import legal_names
from .alias_table import FINANCE_CUE, AliasTable, Instrument, TableMatch, alias_table, has_cjk
from .codes import bare_codes, cued_codes
from .context_choice import CRYPTO_WORDS, choose, listings_named
from .fx_pairs import find_pairs
from .spelling import lower_case_symbols, near_chinese_names, near_spellings
from .venues import EXCHANGE_OPERATORS
from .wordlists import CAPITALISED_STOPWORDS, COMMON_UPPER_WORDS

# "unlisted": a company with no shares to trade (OpenAI); with ticker None, like a rate with
# no Yahoo symbol (the LPR), it is searched in the news, and the reader is told why.
AssetKind = Literal["equity", "etf", "index", "fx", "crypto", "commodity", "rate", "unlisted", "unknown"]
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
        if language == "zh" and has_cjk(self.mention):
            return self.mention
        return self.name


# -- explicit symbols ---------------------------------------------------------------------

_SYMBOL = re.compile(
    r"\$(?P<dollar>[A-Za-z][A-Za-z0-9]{0,5}(?:[.\-][A-Za-z]{1,2})?)"          # $PLTR, $brk.b
    r"|(?<![A-Za-z0-9])(?P<asia>\d{3,6})\.(?P<exch>(?i:HK|SS|SZ|SH|TW|T))(?![A-Za-z0-9])"  # 0700.HK
    r"|(?P<index>\^[A-Z0-9]{2,9})"                                              # ^GSPC
    r"|(?<![A-Za-z0-9])(?P<fx>[A-Z]{3,6}=X)"                                    # EURUSD=X
    r"|(?<![A-Za-z0-9])(?P<fut>[A-Z]{1,3}=F)"                                   # CL=F
    r"|(?<![A-Za-z0-9])(?P<crypto>[A-Z]{2,6}-(?:USD|USDT|EUR|CNY))(?![A-Za-z0-9])"   # BTC-USD
    r"|(?<![A-Za-z0-9])(?P<cls>[A-Z]{1,4})[.\-](?P<share>[A-B])(?![A-Za-z0-9])"  # BRK-B, BF.B
    # NVDA; never a piece of an ampersand word with a short side (MD&A, R&D, AT&T: the alias
    # table has the companies), while "AMD&NVDA" is still two symbols
    r"|(?<![A-Za-z0-9])(?<!\b[A-Za-z]&)(?<!\b[A-Za-z]{2}&)(?P<bare>[A-Z]{2,5})(?![A-Za-z0-9]|&[A-Za-z]{1,2}\b)"
)


def _symbol(m: re.Match) -> tuple[str, bool] | None:
    """(ticker, trusted) for a symbol match; bare words are trusted only if not ordinary."""
    if m.group("dollar"):
        return m.group("dollar").upper().replace(".", "-"), True
    if m.group("asia"):
        number, exch = m.group("asia"), m.group("exch").upper()
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
_ZH_COMPANY = re.compile(r"([\u4e00-\u9fff]{2,6}?(?P<suffix>股份|集团|控股|科技|银行|证券|汽车|电子|药业|能源))")


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
        if has_known and not FINANCE_CUE.match(text[start + len(" ".join(words)):]):
            continue            # with known entities present, only clearly named companies
        found.append(Entity(name, None, "unknown", name, start))
    for m in _ZH_COMPANY.finditer(text):
        if all(m.end() <= s or m.start() >= e for s, e in taken):
            found.append(Entity(m.group(1), None, "unknown", m.group(1), m.start()))
    return found[:3]


_AMOUNT_BEFORE = re.compile(r"\d\s*$")


# -- the one entry point -----------------------------------------------------------------

# When one instrument is named twice ("老黄的英伟达"), the more trusted reading describes it.
_TRUST = {"exact": 0, "symbol": 0, "code": 0, "context": 1, "description": 2, "nickname": 2, "fuzzy": 3}


def extract(question: str) -> list[Entity]:
    """The instruments a question mentions, in order of first mention, one per ticker."""
    table = alias_table()
    found: list[Entity] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    def add(readings: list[Instrument], start: int, end: int, read_as: ReadAs,
            extra: Sequence[Instrument] = ()) -> None:
        entity = _entity(readings, question, start, end, read_as, extra, table)
        found.append(entity)
        taken.append((start, end))
        # "中国平安A股和港股": one name, two listings asked for.
        named = listings_named(_with_listings([Instrument(entity.ticker, entity.name, entity.kind)]
                                              + [Instrument(r.ticker, r.name, r.kind) for r in entity.alternatives],
                                              table), question) if entity.ticker else []
        for listing in named:
            if listing.ticker != entity.ticker:
                found.append(Entity(listing.name, listing.ticker, listing.kind, entity.mention, start, "context"))

    shouting = _mostly_upper(question)
    for start, end, inst in find_pairs(question, table):       # before the single currencies in it
        add([inst], start, end, "exact")
    for start, end, inst, others in cued_codes(question, table):
        if free(start, end):
            add([inst], start, end, "code", others)
    hits = table.find(question)
    for legal in legal_names.find(question, table, hits):
        if legal.instrument is not None and free(legal.start, legal.end):
            add([legal.instrument], legal.start, legal.end, legal.read_as)
        else:       # "Acme AG": no ticker AG, the name left to the lookup
            taken.extend(span for span in legal.symbol_shaped(question) if free(*span))
    units: list[TableMatch] = []        # "at 90 hkd": what a price is counted in, if anything else is named
    for hit in hits:
        if free(hit.start, hit.end) and hit.instrument.kind == "fx" and _AMOUNT_BEFORE.search(question, 0, hit.start):
            units.append(hit)
            taken.append((hit.start, hit.end))
        elif free(hit.start, hit.end):
            add([hit.instrument], hit.start, hit.end, hit.read_as)
    for m in _SYMBOL.finditer(question):
        if not free(*m.span()):
            continue
        ticker, trusted = _symbol(m)
        readings = table.symbol_readings(ticker)
        if m.group("bare") and (not trusted or (shouting and not readings)):
            continue
        add(readings or [Instrument(ticker, ticker, _kind_of(ticker))], *m.span(), "symbol")
    crypto = bool(CRYPTO_WORDS.search(question)) or any(e.kind == "crypto" for e in found)
    for start, end, readings in lower_case_symbols(question, table, crypto):
        if free(start, end):
            add(readings, start, end, "symbol")
    for start, end, inst, others in near_spellings(question, table, free):
        add([inst], start, end, "fuzzy", others)
    # A slip of a known name never cuts a company-type suffix in two: in "星河动力科技", "动力科"
    # is no slip for 动力煤 (thermal coal), the whole is a company the table lacks; "腾迅控股" is
    # one for 腾讯控股, suffix and all.
    suffixes = [m.span("suffix") for m in _ZH_COMPANY.finditer(question)]
    for start, end, inst in near_chinese_names(
            question, table, lambda s, e: free(s, e) and not any(s < b and a < e and not s <= a < b <= e
                                                                  for a, b in suffixes)):
        add([inst], start, end, "fuzzy")
    # Last of the readers of known things: whether a number stands where a ticker would depends
    # on every instrument named around it ("nvda fell 10% to 120").
    # An exchange's own name ("hkex announcements for 9988") says where, not which: a number
    # beside it may still stand where the ticker would.
    venues = {(e.position, e.position + len(e.mention)) for e in found if e.ticker in EXCHANGE_OPERATORS}
    venues |= {(u.start, u.end) for u in units}
    for start, end, inst, others in bare_codes(question, table, [span for span in taken if span not in venues],
                                               sorted(venues)):
        if free(start, end):
            add([inst], start, end, "code", others)
    if not found:           # "how much is 100 usd": the currency is what is asked about
        for unit in units:
            add([unit.instrument], unit.start, unit.end, unit.read_as)
    found.extend(_unresolved(question, taken, has_known=bool(found)))
    unique: dict[str, Entity] = {}
    for entity in sorted(found, key=lambda e: e.position):
        key = entity.ticker or f"?{entity.name.lower()}"
        kept = unique.setdefault(key, entity)
        if _TRUST[entity.read_as] < _TRUST[kept.read_as]:
            unique[key] = dataclasses.replace(kept, read_as=entity.read_as, alternatives=entity.alternatives)
    return list(unique.values())


def _entity(readings: list[Instrument], question: str, start: int, end: int, read_as: ReadAs,
            extra: Sequence[Instrument], table: AliasTable) -> Entity:
    """One mention as an Entity: its readings (and their other listings) chosen by context,
    except for an exchange code, which names its listing exactly."""
    readings = _with_listings(readings, table)
    typed = next((r for r in readings if read_as == "symbol" and r.ticker == question[start:end].lstrip("$").upper()),
                 None)
    others_typed = typed is not None and any(r.ticker.lower() in question.lower() for r in readings if r is not typed)
    if read_as == "code" or others_typed:
        # An exchange code names its listing exactly; so does a symbol typed next to its
        # other listing's ("BABA vs 9988.HK").
        chosen = typed or readings[0]
        others = list(extra) + [r for r in readings if r is not chosen]
    else:
        chosen, others, by_context = choose(readings, question)
        read_as = "context" if by_context else read_as
    alternatives = tuple(Reading(o.ticker, o.name, o.kind) for o in others if o.ticker and o != chosen)
    return Entity(chosen.name, chosen.ticker, chosen.kind, question[start:end], start, read_as, alternatives)


def _with_listings(readings: list[Instrument], table: AliasTable) -> list[Instrument]:
    """The readings and, after them, their other listings (the same company elsewhere)."""
    listed = [o for inst in readings for o in table.other_listings(inst.ticker)]
    return readings + [o for o in dict.fromkeys(listed) if o not in readings]


def notes(entities: list[Entity] | tuple[Entity, ...], language: Language) -> tuple[str, ...]:
    """What the reader should know about names with no ticker: a private company, a rate."""
    said = []
    for entity in entities:
        if entity.ticker is None and entity.kind == "unlisted":
            said.append(say("note.not_listed", language, name=entity.display(language)))
        elif entity.ticker is None and entity.kind in ("rate", "commodity"):
            said.append(say("note.no_ticker", language, name=entity.display(language)))
    return tuple(said)


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
