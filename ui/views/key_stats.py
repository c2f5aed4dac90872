"""The key-stats card above a single-instrument answer (`finsearch.answer.key_stats`): each figure
with its label, its `[n]` linked as the answer's citations are, the quote's time, and a stale
value marked with its date. Nothing is drawn when the run has no card."""

from __future__ import annotations

import streamlit as st

from finsearch.answer import key_stats
from finsearch.answer.chart_style import ChartStyle, chart_style
from finsearch.answer.citations import Reference
from finsearch.answer.markdown import plain
from finsearch.phrases import Language, say
from finsearch.phrases.numbers import pct
from finsearch.result import RunResult
from ui import state
from ui.views import answer as answer_view


def card_key(key: str) -> str:
    """The card's key: its class (`st-key-<key>-key-stats`) is how a browser test finds it."""
    return f"{key}-key-stats"


def render(result: RunResult, key: str, references: list[Reference], anchors: dict[int, str]) -> None:
    """The card of a finished run, its citations leading where the answer's do (`anchors`: n → the
    element id of a reference with no web address)."""
    card = key_stats.of_run(result)
    if card is None:
        return
    language = result.analysis.language
    style = chart_style(language, state.effective_settings().candle_colours)
    with st.container(border=True, key=card_key(key)):
        st.markdown(f"**{plain(card.title)}**")
        with st.container(horizontal=True, gap="medium"):
            for stat in card.stats:
                with st.container(key=f"{card_key(key)}-{stat.kind}", width="content", gap=None):
                    st.markdown(_stat(stat, references, anchors, language, style))


def _stat(stat: key_stats.Stat, references: list[Reference], anchors: dict[int, str], language: Language,
          style: ChartStyle) -> str:
    # The citation goes through the answer's own renderer, so `[n]` links exactly as it does there.
    citation = answer_view.display_markdown(f"[{stat.ref_n}]", references, (), anchors)
    value = f"**{plain(stat.value)}**"
    if stat.change_pct is not None:
        rising = stat.change_pct > 0
        colour = "gray" if stat.change_pct == 0 else ("red" if rising == style.red_up else "green")
        value += f" :{colour}[{plain(pct(stat.change_pct))}]"
    lines = [f":gray[{plain(stat.label)}]", f"{value} {citation}"]
    if stat.stale:
        lines.append(f":orange[{plain(say('key_stats.stale', language, when=stat.as_of))}]")
    elif stat.kind == "price" and stat.as_of:
        lines.append(f":gray[{plain(say('key_stats.as_of', language, when=stat.as_of))}]")
    return "  \n".join(lines)
