"""History: every finished run on this server, newest first, with open and delete (asked twice)."""

from datetime import datetime, timezone

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import StoreUnavailable
from ui import shell, state

shell.ensure()

CONFIRM_KEY = "finsearch_history_confirm"     # the one run whose deletion is being asked about


def ask_to_delete(run_id: str) -> None:
    st.session_state[CONFIRM_KEY] = run_id


def keep() -> None:
    st.session_state.pop(CONFIRM_KEY, None)


st.title("History")
store = state.store()
try:
    runs = store.list()
except StoreUnavailable as exc:           # Redis down: say so, rather than "no answers yet"
    st.error(plain(f"History cannot be shown right now: {exc}."), icon=":material/cloud_off:")
    st.stop()
if not runs:
    st.info("No answers yet. Ask something on the Chat page; every finished answer is kept here.")

for summary in runs:
    with st.container(border=True):
        text, open_col, delete_col = st.columns([7, 1.3, 1.3], vertical_alignment="center")
        text.markdown(f"**{plain(summary.question)}**")
        asked = datetime.fromtimestamp(summary.saved, timezone.utc)
        as_of = summary.asked_at[:16].replace("T", " ")
        meta = [f"{asked:%Y-%m-%d %H:%M} UTC", plain(summary.backend)]
        if as_of[:10] != f"{asked:%Y-%m-%d}":
            meta.append(f"time pinned to {as_of}")
        if summary.sample:
            meta.append("sample data")
        text.caption(" · ".join(meta))
        open_col.link_button("Open", f"/?run={summary.run_id}", icon=":material/open_in_new:", width="stretch")
        # Deleting cannot be undone (and breaks the answer's share link): the first click only asks.
        if st.session_state.get(CONFIRM_KEY) != summary.run_id:
            delete_col.button("Delete", key=f"delete-{summary.run_id}", icon=":material/delete:", width="stretch",
                              on_click=ask_to_delete, args=(summary.run_id,))
            continue
        st.warning("Delete this answer for good? Its share link will stop working.", icon=":material/warning:")
        really, keep_col, _ = st.columns([1.6, 1.2, 6])
        if really.button("Really delete", key=f"really-delete-{summary.run_id}", type="primary", width="stretch"):
            st.session_state.pop(CONFIRM_KEY, None)
            try:
                store.delete(summary.run_id)
            except StoreUnavailable as exc:
                st.error(plain(f"Not deleted: {exc}."))
            else:
                st.toast("Deleted.")
                st.rerun()
        keep_col.button("Keep it", key=f"keep-{summary.run_id}", width="stretch", on_click=keep)
