"""The ways into deep research by the address: `?q=` handed over by the chat's `/report` prompt
starts at once; one that came in a link (another site, a bookmark, a message) waits for a click."""

from __future__ import annotations

import dataclasses

import streamlit as st

from ui.research.session import ResearchSession, session

PREFIX = "/report"
PAGE = "pages/research.py"
PARAM = "q"


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
    if request is None:
        return
    # Marked in this session before leaving: st.session_state survives st.switch_page, while an
    # address arriving from anywhere else (another site's redirect, a link in a message, a
    # bookmark) opens a session of its own without the mark. The Referer is not asked: a page
    # can set or hide it, and the app's own pages send none on a switch.
    session().handed = request or None
    st.switch_page(PAGE, query_params={PARAM: request} if request else None)


@dataclasses.dataclass(frozen=True)
class Arrival:
    """A request the address brought to the research page."""
    request: str
    handed: bool    # typed as `/report …` in this session's chat: it starts at once; else it came in a link


def arrival(mine: ResearchSession) -> Arrival | None:
    """The request in the address (`?q=`), taken out of it; None when there is none, or when a
    link's request was read already in this session (a rerun can bring the old address back)."""
    request = st.query_params.get(PARAM)
    if not request:
        return None
    st.query_params.pop(PARAM, None)
    handed, mine.handed = request == mine.handed, None
    if not handed and mine.consumed_q:
        return None
    mine.consumed_q = True
    return Arrival(request, handed)
