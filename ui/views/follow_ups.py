"""Suggested follow-ups under a finished answer: three questions (`finsearch.answer.follow_ups`)
as a row of buttons; a click hands the question to `on_ask`, which asks it as the next turn.

The row's key (`st-key-<turn key>-follow-ups`) and each button's (`<turn key>-follow-up-<n>`)
come from the turn's key, so a browser test, or anyone reading the page, finds them by turn.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import streamlit as st

from finsearch.answer.follow_ups import FollowUp, follow_ups
from finsearch.answer.markdown import plain
from finsearch.result import RunResult

log = logging.getLogger(__name__)

OnAsk = Callable[[str], None]


@st.cache_resource(max_entries=256, show_spinner=False)
def _suggested(run_id: str, _result: RunResult) -> tuple[FollowUp, ...]:
    """Chosen once per run: reading each suggestion back takes 2-5 ms a run, and every click
    redraws every finished turn of the conversation. Suggestions are extra: one that cannot be
    made never takes the answer down."""
    try:
        return follow_ups(_result)
    except Exception:
        log.exception("follow-ups failed")
        return ()


def render(result: RunResult, key: str, on_ask: OnAsk, disabled: bool = False) -> None:
    """The suggestions for `result`'s answer (nothing when there are none); `disabled` while
    another run goes, as the chat input is."""
    shown = _suggested(result.run_id, result)
    if not shown:
        return
    with st.container(horizontal=True, key=f"{key}-follow-ups"):
        for n, follow_up in enumerate(shown):
            st.button(plain(follow_up.question), key=f"{key}-follow-up-{n}", on_click=on_ask,
                      args=(follow_up.question,), icon=":material/subdirectory_arrow_right:", disabled=disabled)
