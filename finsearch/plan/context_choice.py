"""Choosing between readings of one name by the words around it.

"SOL" is Solana and Emeren Group; "BABA" and "阿里巴巴" are listed in New York and Hong Kong;
比亚迪 in Shenzhen and Hong Kong. Crypto words pick the coin, stock words the company, market
words (港股, A股, Hong Kong, 美股 …) the listing. With no such words the first reading (the
most traded) stays and the others are offered as alternatives.
"""

from __future__ import annotations

import re

from .alias_table import Instrument, Market

CRYPTO_WORDS = re.compile(r"crypto|\bcoins?\b|\btokens?\b|币|\bdefi\b|blockchain|web3|staking|altcoin"
                     r"|加密|区块链|链上|on-chain|\bairdrop|\bunlock", re.I)
_STOCK = re.compile(r"\bstocks?\b|\bshares?\b|\bequity\b|\bearnings\b|\bNYSE\b|\bNasdaq\b|\bcompany\b"
                    r"|股票|股价|财报|公司", re.I)
_MARKET: dict[Market, re.Pattern] = {
    "hk": re.compile(r"港股|H股|香港|港交所|联交所|披露易|\bHK\b|\bHKEX(?:news)?\b|hong kong|\bH[- ]shares?\b", re.I),
    "cn": re.compile(r"A股|沪市|深市|上交所|深交所|\bA[- ]shares?\b|shanghai|shenzhen", re.I),
    "us": re.compile(r"美股|中概|\bADRs?\b|\bNYSE\b|US[- ]listed|U\.S\.[- ]listed|in the US\b|美国上市", re.I),
}


def choose(readings: list[Instrument], question: str) -> tuple[Instrument, list[Instrument], bool]:
    """(chosen, the others in order, whether the question's words made the choice)."""
    if len(readings) < 2:
        return readings[0], [], False
    picked = _by_words(readings, question)
    if picked is None:
        return readings[0], readings[1:], False
    return picked, [r for r in readings if r != picked], True


def _by_words(readings: list[Instrument], question: str) -> Instrument | None:
    kinds = {r.kind for r in readings}
    if "crypto" in kinds and len(kinds) > 1:
        if CRYPTO_WORDS.search(question):
            return next(r for r in readings if r.kind == "crypto")
        if _STOCK.search(question):
            return next(r for r in readings if r.kind != "crypto")
    markets = {r.market for r in readings}
    said = [m for m in ("hk", "cn", "us") if m in markets and _MARKET[m].search(question)]
    if len(said) == 1:
        return next(r for r in readings if r.market == said[0])
    return None


def listings_named(readings: list[Instrument], question: str) -> list[Instrument]:
    """The listings of one company the question names by market, when it names two or more
    ("A股和港股", "A shares vs H shares"): the question is about each of them."""
    markets = {r.market for r in readings}
    said = [m for m in ("cn", "hk", "us") if m in markets and _MARKET[m].search(question)]
    if len(said) < 2:
        return []
    return [next(r for r in readings if r.market == m) for m in said]
