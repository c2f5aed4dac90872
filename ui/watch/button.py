"""The "Watch NVDA" buttons under a finished answer, one per instrument it is about.

One per entity of its analysis with a ticker. A click adds it to the visitor's watchlist and says so in
a toast; one already watched reads "Watching NVDA", disabled."""

from __future__ import annotations

import streamlit as st

from finsearch.phrases import Language, say
from finsearch.result import RunResult
from ui import identity
from ui.watch import mine


def tickers_of(result: RunResult) -> list[str]:
    """The answer's instruments, in the order the question named them, each once."""
    return list(dict.fromkeys(e.ticker for e in result.analysis.entities if e.ticker))


def _watch(ticker: str, language: Language) -> None:
    _, message = mine.watch(identity.visitor().owner, ticker, language)
    st.toast(message, icon=":material/visibility:")


def render(result: RunResult, key: str, watched: frozenset[str]) -> None:
    """The buttons of `result` (drawn in the caller's row); `watched`: the visitor's tickers now."""
    language = result.analysis.language
    for ticker in tickers_of(result):
        if ticker in watched:
            st.button(say("ui.watch.watching", language, ticker=ticker), icon=":material/visibility:",
                      key=f"{key}-watch-{ticker}", disabled=True)
        else:
            st.button(say("ui.watch.button", language, ticker=ticker), icon=":material/visibility:",
                      key=f"{key}-watch-{ticker}", on_click=_watch, args=(ticker, language))
