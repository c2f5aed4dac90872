""""Brief me now" on the Watchlist page: the brief written as a job, polled, put in the inbox.

The following is `finsearch.background.brief`'s; the job is the API's `POST /v1/briefs` one.

A job rather than a spinner: on replay data it takes a fraction of a second, but on live sources it
is two pipeline runs per instrument, which would hold the page (and its Stop-less script run) for minutes.
It counts as one question for the visitor's limits and holds one of their run slots while it writes.
The state shows in a container's key (`brief-now-writing`, `-done`, `-failed`) for tests and readers.
"""

from __future__ import annotations

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.background.brief import QueuedBrief
from finsearch.delivery.inbox import open_inbox
from finsearch.hosting.limits import SLOTS, admit_if_countable
from finsearch.jobs.shared import jobs_here
from finsearch.phrases import say
from finsearch.watch.watchlist import Watchlist
from ui import identity, state

BRIEF_KEY = "finsearch_brief_now"       # this session's brief being written (or the last one written)
POLL_S = 0.5


def start(watchlist: Watchlist) -> str | None:
    """Start the brief; None, or why it was not started (a limit), for the visitor."""
    owner = identity.visitor().owner
    question = say("brief_now.question", watchlist.language, names=", ".join(watchlist.instruments))
    refusal = admit_if_countable(owner, state.server_settings(), state.counter(), peer=identity.peer(),
                                 question=question)
    if refusal is not None:
        return refusal.message
    server = state.server_settings()
    brief = QueuedBrief(watchlist, jobs_here(server), open_inbox(server)).start()
    SLOTS.hold(owner, brief)
    st.session_state[BRIEF_KEY] = brief
    return None


def _poll() -> None:
    brief = st.session_state.get(BRIEF_KEY)
    if isinstance(brief, QueuedBrief) and brief.view().status != "writing":
        st.rerun()                       # the whole app: the sidebar's unread count changes too
    queued = isinstance(brief, QueuedBrief) and brief.view().queued
    with st.container(key="brief-now-writing"):
        st.caption(say("ui.brief_now.queued" if queued else "ui.brief_now.writing",
                       brief.watchlist.language if brief else "en"))


def render(watchlist: Watchlist) -> None:
    """The button and how the last brief asked for in this session went."""
    language = watchlist.language
    brief = st.session_state.get(BRIEF_KEY)
    writing = isinstance(brief, QueuedBrief) and brief.view().status == "writing"
    if st.button(say("ui.brief_now.button", language), icon=":material/bolt:", type="primary", key="brief-now",
                 disabled=writing):
        refused = start(watchlist)
        if refused is not None:
            st.warning(plain(refused), icon=":material/hourglass_top:")
            return
        brief, writing = st.session_state[BRIEF_KEY], True
    if not isinstance(brief, QueuedBrief):
        return
    if writing:
        st.fragment(run_every=POLL_S)(_poll)()
        return
    view = brief.view()
    with st.container(key=f"brief-now-{view.status}"):
        if view.status == "done":
            st.success(say("ui.brief_now.done", language, title=plain(view.notice.title)), icon=":material/inbox:")
            st.page_link("pages/inbox.py", label=say("ui.inbox.open_inbox", language), icon=":material/inbox:")
        else:
            st.error(plain(view.error or ""), icon=":material/error:")
