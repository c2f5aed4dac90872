"""What an answer's lead reads, per intent: the searches whose evidence must be in before a model may begin writing.

The opening (`lead`) answers the question's intents one by one from a few kinds of evidence;
the detail paragraphs after it read the rest. A model writes its answer in that order too, so
it may begin once the searches its lead reads have ended, while others (a node the model's
plan adds, a follow-up, a slow filing) are still running: those extend the answer after its
text (`late`). The table is read off the lead's writers:

    intent            the lead reads                                  written by
    why               the period's prices (the move) and the stories   causes, moves
                      of the move's window
    price, high_low   the quote and the price history                  lead_value, lead_worried
    compare           prices, and the metric a ranking asks for        lead_rank, lead
                      (profile ratios, dividends, analysts' targets)
    worried           prices, the latest stories, analysts, earnings   lead_worried
    analyst           analysts' targets and the price they are        lead_value
                      measured against
    dividend          the dividend history or plan, the payout ratio,  lead_value
                      the price
    valuation …       the quote, profile ratios, the industry's P/E,   lead_value
                      analysts
    calendar,         the earnings calendar and the stories            lead, lead_news
    surprise,
    guidance
    response,         the stories (a company's own filings among       lead_news, lead_worried
    remarks, news,    them)
    risks
    insiders          the Form 4 summary                               lead

A question with an intent the table does not hold (its answer is the detail's: statements,
holders, filings, a profile …), or with no intent at all, has no early lead: its answer waits
for every search, as before.
"""

from __future__ import annotations

from ..catalogue import CATALOGUE
from ..graph import SearchGraph, SearchNode
from ..plan.analysis import Analysis

# Every source of stories (news, web pages, announcements and filings lists).
STORIES = frozenset(spec.id for spec in CATALOGUE.values() if spec.kind != "finance")
PRICES = frozenset({"quote", "price_history", "cn_daily_bars"})
_VALUES = PRICES | {"profile", "cn_industry_compare", "analyst", "cn_profit_forecast"}

LEAD_READS: dict[str, frozenset[str]] = {
    "why": frozenset({"price_history", "cn_daily_bars"}) | STORIES,
    "price": PRICES,
    "high_low": PRICES,
    "compare": _VALUES | {"dividends", "cn_dividends", "hk_dividends"},
    "worried": PRICES | STORIES | {"analyst", "earnings"},
    "analyst": PRICES | {"analyst", "cn_profit_forecast"},
    "dividend": PRICES | {"dividends", "cn_dividends", "hk_dividends", "profile"},
    "valuation": _VALUES,
    "expensive": _VALUES,
    "peers": _VALUES,
    "calendar": STORIES | {"earnings"},
    "surprise": STORIES | {"earnings"},
    "guidance": STORIES | {"earnings", "cn_announcements"},
    "response": STORIES,
    "remarks": STORIES,
    "news": STORIES,
    "risks": STORIES | {"sec_section"},
    "insiders": frozenset({"sec_insiders", "holders", "quote"}),
}
# Readings that change where data comes from, not what the lead says ("用akshare的日线").
NOT_ASKED = frozenset({"cn_bars"})


def lead_sources(analysis: Analysis) -> frozenset[str] | None:
    """The sources the lead of `analysis`'s answer reads; None when its answer has no early lead
    (an intent the table does not hold, or none)."""
    intents = set(analysis.intents) - NOT_ASKED
    if not intents or not intents <= LEAD_READS.keys():
        return None
    return frozenset().union(*(LEAD_READS[intent] for intent in intents))


def lead_nodes(graph: SearchGraph, analysis: Analysis) -> list[SearchNode] | None:
    """The searches of `graph` that the lead reads once every one of them has ended (and at least
    one exists): a model may begin the answer from them, the rest arriving after its text. None
    while one is still to end, or when the answer has no early lead."""
    sources = lead_sources(analysis)
    if sources is None:
        return None
    needed = [node for node in graph if node.source in sources]
    return needed if needed and all(node.status.finished for node in needed) else None
