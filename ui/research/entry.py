"""The chat's way into deep research: a prompt that starts with `/report` opens the research
page with the rest of the prompt as its request (`?q=`), where the report starts at once."""

from __future__ import annotations

import streamlit as st

PREFIX = "/report"
PAGE = "pages/research.py"


def request_of(prompt: str) -> str | None:
    """The research request in a `/report …` prompt; None for any other prompt."""
    text = prompt.strip()
    if not text.lower().startswith(PREFIX):
        return None
    rest = text[len(PREFIX):]
    if rest and not rest[0].isspace():          # "/reports", "/reporting": not the command
        return None
    return rest.strip()


def hand_off(prompt: str) -> None:
    """Go to the research page with a `/report` prompt's request; any other prompt: nothing."""
    request = request_of(prompt)
    if request is not None:
        st.switch_page(PAGE, query_params={"q": request} if request else None)
