"""History: every finished run on this server, newest first, with open and delete."""

from datetime import datetime, timezone

import streamlit as st

from finsearch.answer.markdown import plain
from ui import shell, state

shell.ensure()

st.title("History")
store = state.store()
runs = store.list()
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
        if delete_col.button("Delete", key=f"delete-{summary.run_id}", icon=":material/delete:", width="stretch"):
            store.delete(summary.run_id)
            st.toast("Deleted.")
            st.rerun()
