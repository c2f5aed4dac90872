"""The bundled index companies the alias table lacks, as its entries ("wec energy", "garmin", "deckers")

Each is found by its full name, and by a name's distinctive first word before its line of
business ("deckers" for Deckers Brands).

The table is written by hand for the companies people ask about most; the indices' lists
(`listings`: pytickersymbols' S&P 500, NASDAQ 100, DAX, CAC 40, FTSE 100, Nikkei … members) name
about 1,500 more. A name is taken only where it cannot be anything else: its full name (legal
form left out) of two words or more, or of one word that is no English word; its first word alone
only when every other word says what line the company is in, the word as written is no English
word nor a place, at least five letters long, and no other company's name starts with it.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .alias_forms import LINE_OF_BUSINESS
from .legal_forms import core
from .listings import index_companies
from .wordlists import CAPITALISED_STOPWORDS, RECENT_WORDS, is_ordinary_word, is_word_form


def index_entries(table_entries: list[dict]) -> list[dict]:
    """Alias-table entries for the index companies `table_entries` do not hold (by ticker or name)."""
    return [dict(entry) for entry in _entries(frozenset(_known(table_entries)))]


def _known(entries: list[dict]) -> set[str]:
    names = {(e["ticker"] or "").upper() for e in entries}
    for entry in entries:
        for field in ("aliases", "nicknames", "descriptions", "exact_aliases"):
            names.update(a.lower() for a in entry.get(field, ()))
    return names


@lru_cache(maxsize=1)
def _entries(known: frozenset[str]) -> tuple[dict, ...]:
    places = {w.lower() for w in CAPITALISED_STOPWORDS}
    companies = [(name, ticker, core(name)) for name, ticker in index_companies().items()]
    first_words = Counter(c.split()[0] for _, _, c in companies if c)
    out = []
    for name, ticker, full in companies:
        words = full.split()
        if not words or ticker.upper() in known or full in known:
            continue
        aliases = [full] if len(words) > 1 or (len(full) >= 4 and not is_word_form(full) and full not in places) else []
        first = words[0]
        nicknames = [first] if (len(words) > 1 and all(w in LINE_OF_BUSINESS for w in words[1:])
                                and len(first) >= 5 and first.isalpha() and first_words[first] == 1
                                and first not in known and first not in places and not _a_word(first)) else []
        if aliases or nicknames:
            out.append({"ticker": ticker, "name": name.split(" (")[0], "kind": "equity", "aliases": aliases,
                        "nicknames": nicknames, "names_only": True})
    return tuple(out)


def _a_word(first: str) -> bool:
    # The word as written, not its stem: "Deckers" is a name though a "decker" is a thing.
    return is_ordinary_word(first) or first in RECENT_WORDS
