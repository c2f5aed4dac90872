"""Deep research reports kept in the run store: saved when they finish, opened again by
`?report=<id>` (the owner's own only: anyone else gets "not found") or by a share link
(`?s=<token>`, read-only for anyone), and shared by their owner.

The worker thread saves through the callback `saver` returns, which holds the store and the
owner (a worker never touches Streamlit)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import StoreUnavailable
from finsearch.research.result import Report
from finsearch.service.records import may_open
from finsearch.store import valid_id
from ui import identity, sharing, state

NOT_FOUND = "This report does not exist on this server (the link may be wrong, or it was deleted)."
REPORT_PARAM = "report"
CHAT_PAGE = "pages/chat.py"
SHARE_PARAM = "s"


def saver() -> Callable[[Report], None]:
    """The on-finish callback that stores a report for this visitor."""
    store, owner = state.store(), identity.visitor().owner
    return lambda report: store.save(report, owner=owner)


def own(report_id: str) -> Report | None:
    """`?report=`: this visitor's own report, or None after saying why there is none."""
    store = state.store()
    try:
        found = store.load(report_id, "report") if valid_id(report_id) else None
        if found is not None and not may_open("report", store.owner_of(report_id), identity.visitor().owner):
            found = None                  # another visitor's report is "not found", as a run is
    except StoreUnavailable as exc:       # down is not "deleted": say which
        st.error(plain(f"This report cannot be loaded right now: {exc}."), icon=":material/cloud_off:")
        return None
    if found is None:
        st.error(NOT_FOUND, icon=":material/search_off:")
    return found


def shared(token: str) -> Report | None:
    """`?s=`: the report a share link shares, for anyone who has the link; None after saying why."""
    store = state.store()
    try:
        link = store.shared(token)
        found = store.load(link.run_ids[0], "report") if link is not None and link.kind == "report" else None
    except StoreUnavailable as exc:
        st.error(plain(f"This report cannot be loaded right now: {exc}."), icon=":material/cloud_off:")
        return None
    if link is not None and link.kind != "report":      # an answer's link with the research page's address
        st.switch_page(CHAT_PAGE, query_params={"s": token})
    if found is None:
        st.error(NOT_FOUND, icon=":material/search_off:")
        return None
    st.caption("Shared FinSearch report (read-only)")
    return found


def widget_key(prefix: str, report: Report) -> str:
    """The widget keys of a stored report on the page: a letter, then its id's letters and digits
    (keys end up in CSS classes, which the browser tests read)."""
    return prefix + "".join(c for c in report.report_id if c.isalnum())[:12]


def share(report: Report, key: str) -> None:
    """The owner's Share popover under their saved report."""
    with st.popover("Share", icon=":material/link:"):
        sharing.one_share("report", report.report_id, report.question, key)
