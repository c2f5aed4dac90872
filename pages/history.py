"""History: every finished run on this server, newest first, with open and delete."""

import streamlit as st

from finsearch.markdown import escape
from ui import state

st.title("History")
store = state.store()
runs = store.list()
if not runs:
    st.info("No answers yet. Ask something on the Chat page; every finished answer is kept here.")

for summary in runs:
    with st.container(border=True):
        cols = st.columns([6, 2, 1, 1], vertical_alignment="center")
        cols[0].markdown(f"**{escape(summary.question)}**")
        when = summary.asked_at[:16].replace("T", " ")
        cols[0].caption(f"{when} UTC · {escape(summary.backend)}" + (" · sample data" if summary.sample else ""))
        cols[1].link_button("Open", f"/?run={summary.run_id}", icon=":material/open_in_new:")
        cols[2].write("")
        if cols[3].button("Delete", key=f"delete-{summary.run_id}", icon=":material/delete:"):
            store.delete(summary.run_id)
            st.toast("Deleted.")
            st.rerun()
