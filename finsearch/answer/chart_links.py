"""Where a reference with no web address leads on the page: the chart that draws its data.

A price reference has no URL (FinSearch computed it), so the app and the HTML export link
it, and its `[n]` markers, to the K-line of its ticker on the same page. Other computed data
(a quote, a ratio) leads to the References list, which says what it is and where it came from.
"""

from __future__ import annotations

import re

from ..graph import SearchGraph
from .charts import chart_specs
from .citations import Reference


def charted_tickers(graph: SearchGraph, references: list[Reference]) -> dict[int, str]:
    """Reference number → the ticker whose chart shows its data, for every reference to price
    rows of a ticker that has a chart (one chart per ticker, whichever node fetched the rows)."""
    charted = {spec["ticker"] for spec in chart_specs(graph) if spec["ticker"]}
    ticker_of = {item.id: item.ticker or node.args.get("ticker") for node in graph for item in node.evidence
                 if item.prices is not None}
    return {ref.n: ticker_of[ref.evidence_id] for ref in references if ticker_of.get(ref.evidence_id) in charted}


def chart_id(prefix: str, ticker: str) -> str:
    """An element id for the chart of `ticker`; `prefix` keeps two answers on one page apart."""
    return _element_id(f"chart-{prefix}-{ticker}")


def references_id(prefix: str) -> str:
    """An element id for the References list of the answer `prefix`."""
    return _element_id(f"refs-{prefix}")


def _element_id(text: str) -> str:
    """A letter first, then letters, digits, `_` and `-` only, so it is safe in an `id`
    attribute, a `#` link and a CSS selector whatever the prefix and ticker hold (a turn's
    random key may start with a digit)."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text)
