"""Reference titles in the answer's language. A finance item's title was written by its
source, in the source's words ("Kweichow Moutai (600519.SS) quote"); the reference a Chinese
answer lists for it reads "贵州茅台（600519.SS）最新行情". So a computed item's title is
built here, when the reference is made, from its ticker, the instrument's name in the answer's
language and the source; news and web titles stay as published."""

from __future__ import annotations

import logging

from ..evidence import Evidence
from ..phrases import Language, phrasebook, say
from ..phrases.dates import DaySpan
from ..plan.alias_table import alias_table
from ..plan.analysis import Analysis

log = logging.getLogger(__name__)


def instrument_names(analysis: Analysis, language: Language) -> dict[str, str]:
    """ticker → the name an answer in `language` calls it by (the user's own Chinese words in
    a Chinese question)."""
    return {e.ticker: e.display(language) for e in analysis.entities if e.ticker}


def instrument(ticker: str, names: dict[str, str], language: Language) -> str:
    """"贵州茅台（600519.SS）": the answer's name for it, else the alias table's (a peer the
    question did not name), else the bare ticker. Plain text: whoever shows it escapes it."""
    known = alias_table().by_ticker.get(ticker.upper())
    name = names.get(ticker) or (known.name if known else ticker)
    return ticker if name == ticker else say("instrument", language, name=name, ticker=ticker)


def reference_title(item: Evidence, names: dict[str, str], language: Language) -> str:
    """The title the references list shows for `item`."""
    key = f"reference.{item.source}"
    if item.kind != "finance" or not item.ticker or key not in phrasebook(language):
        return item.title
    period = item.period or {}
    data = item.data or {}
    interval = data.get("interval") if isinstance(data.get("interval"), str) else "1d"
    if item.payload == "price_history" and interval != "1d":
        key = "reference.price_history_bars"
    statement = data.get("statement")
    statement_key = f"statement.{statement}"
    try:
        return say(key, language, who=instrument(item.ticker, names, language),
                   span=DaySpan(period.get("start"), period.get("end")), end=period.get("end") or "", interval=interval,
                   statement=say(statement_key if statement_key in phrasebook(language) else "statement.all",
                                 language),
                   period=str(data.get("period_label") or "")[:40])
    except (KeyError, ValueError, IndexError):   # a template a translator got wrong: the source's title
        log.exception("could not title a %s reference", item.source)
        return item.title
