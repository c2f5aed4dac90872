"""What a change on the Watchlist page came to (its sentence, and whether it went through), kept in session state
by a button's callback and drawn once by the form that owns it."""

from __future__ import annotations

import dataclasses

import streamlit as st

from finsearch.answer.markdown import plain


@dataclasses.dataclass(frozen=True)
class Said:
    text: str
    ok: bool


def draw_said(said_key: str, container_key: str) -> None:
    """Draw, once, what was kept under `said_key` (a success or an error, keyed `<container_key>-ok|-error`)."""
    said = st.session_state.pop(said_key, None)
    if isinstance(said, Said):
        with st.container(key=f"{container_key}-ok" if said.ok else f"{container_key}-error"):
            (st.success if said.ok else st.error)(plain(said.text),
                                                  icon=":material/check:" if said.ok else ":material/error:")
