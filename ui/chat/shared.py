"""Answers opened read-only by the address: a share link's (`?s=`) and the visitor's own runs (`?run=`).

A share link opens for anyone, its owner included; `?run=<id>` is History's Open.

Another visitor's run, by id, is "not found": only share tokens open them. A report's share link
that came with the chat's address goes on to the research page."""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import StoreUnavailable
from finsearch.result import RunResult
from finsearch.store import valid_id
from ui import state
from ui.chat.restore import mine
from ui.research import entry as research_entry
from ui.views import turn as turn_view

NOT_FOUND = "This answer does not exist on this server (the link may be wrong, or it was deleted)."


def permalink(run_id: str) -> None:
    """`?run=`: one of this visitor's own runs, read-only."""
    store = state.store()
    try:
        found = store.load(run_id) if valid_id(run_id) else None
        result, unavailable = (found if found is not None and mine(store.owner_of(run_id)) else None), None
    except StoreUnavailable as exc:       # down is not "deleted": say which
        result, unavailable = None, exc
    st.caption("Shared FinSearch answer (read-only)")
    read_only_view([result] if result is not None else [], unavailable)


def shared_view(token: str) -> None:
    """`?s=`: what a share link shares, read-only for everyone (its owner included)."""
    store = state.store()
    try:
        link, unavailable = store.shared(token), None
        if link is not None and link.kind == "report":     # a report's link with the chat's address
            st.switch_page(research_entry.PAGE, query_params={"s": token})
        results = [r for r in (store.load(i) for i in link.run_ids) if r is not None] if link else []
    except StoreUnavailable as exc:
        link, results, unavailable = None, [], exc
    kind = "conversation" if link is not None and link.kind == "conversation" else "answer"
    st.caption(f"Shared FinSearch {kind} (read-only)")
    read_only_view(results, unavailable)


def read_only_view(results: list[RunResult], unavailable: Exception | None) -> None:
    """The runs as question and answer, nothing to ask or change; why there are none if so; and a
    way back to a chat of one's own."""
    if unavailable is not None:
        st.error(plain(f"This answer cannot be loaded right now: {unavailable}."))
    elif not results:
        st.error(NOT_FOUND)
    for result in results:
        with st.chat_message("user"):
            st.markdown(plain(result.question))
        with st.chat_message("assistant"):
            turn_view.finished(result, key=f"p-{result.run_id}", read_only=True)
    if st.button("Ask your own question", icon=":material/add_comment:"):
        st.query_params.clear()
        st.rerun()
