"""A question about the market as a whole ("how's the market today", "股市怎么样") names no
instrument, yet means one: its market's benchmark index. Read as that index it gets prices, a
return and a chart; read as nothing it searched the news for its own words, and after another
question it took that question's company ("how is the market doing" after NVDA answered NVDA).

Only a question that names no instrument is read this way: "NVDA vs the market" keeps NVDA
(and the comparison reads the benchmark there as it always did), "the market cap of X" is X's.
"""

from __future__ import annotations

import re

from finsearch.plan.entities import Entity, alias_table

# Words for a whole market, each with the index that stands for it. "Market" must not be a
# market cap, value, share or order; "stocks" alone is the market only as the subject.
_WHOLE_MARKET = (
    (re.compile(r"美股|美国股市|华尔街"), "^GSPC"),
    (re.compile(r"港股|香港股市"), "^HSI"),
    (re.compile(r"股市|[aA]股|沪深|大市"), "000001.SS"),
    (re.compile(r"\b(?:wall\s+street|(?:the\s+)?(?:(?:us|u\.s\.|american|stock|equity)\s+)?markets?"
                r"(?!\s*(?:cap|capitali[sz]ation|value|share|order|maker|price)s?\b)|stocks(?=\s+(?:are\s+)?(?:doing|today|down|up|"
                r"overall|in general|this|last|been|do|did|going|fall|fell|rise|rose|drop|dropped|rall(?:y|ied)|"
                r"slump(?:ed)?|tumbled?|surged?|jump(?:ed)?|sank|sink)\b))", re.I), "^GSPC"),
)
# A market of something else: "emerging markets", "the bond market", "the job market".
_OTHER_MARKET = re.compile(r"\b(?:emerging|developed|frontier|bond|credit|debt|crypto|commodit(?:y|ies)|oil|energy|"
                           r"forex|fx|currency|currencies|housing|property|real estate|job|jobs|labou?r|options?|"
                           r"futures|private|capital|money|treasury|rates?)\s+$", re.I)


def benchmark_for(question: str) -> Entity | None:
    """The index a question about "the market" means, named by the words that said so."""
    for pattern, ticker in _WHOLE_MARKET:
        m = pattern.search(question)
        if m and not _OTHER_MARKET.search(question[:m.start()]):
            index = alias_table().by_ticker[ticker]
            return Entity(index.name, index.ticker, index.kind, m.group(0), m.start(), "description")
    return None
