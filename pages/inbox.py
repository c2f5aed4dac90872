"""Inbox: the briefs and alerts FinSearch wrote for this visitor, newest first, unread ones marked.

Opening one shows it as an answer (cited, with its references) and marks it read."""

import hashlib
from datetime import datetime, timezone

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import StoreUnavailable
from finsearch.phrases import say
from ui import identity, shell
from ui.inbox import mine as inbox_mine
from ui.inbox import notice as notice_view
from ui.watch import mine as watch_mine

shell.ensure()

owner = identity.visitor().owner
language = watch_mine.language(owner)
st.title(say("ui.inbox.title", language))
try:
    items = inbox_mine.inbox().items(owner)
except (StoreUnavailable, OSError) as exc:
    st.error(plain(say("ui.inbox.unavailable", language, why=str(exc))), icon=":material/cloud_off:")
    st.stop()
if not items:
    st.info(say("ui.inbox.empty", language), icon=":material/inbox:")
    st.stop()

opened = st.session_state.get(inbox_mine.OPEN_KEY)
for item in items:
    notice = item.notice
    key = "n" + hashlib.sha256(notice.notice_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    state = "read" if item.read else "unread"
    with st.container(border=True, key=f"inbox-{key}-{state}"):
        text, open_col = st.columns([8, 1.4], vertical_alignment="center")
        badge = say(f"ui.inbox.kind.{notice.kind}", language)
        title = plain(notice.title)
        text.markdown(f":blue-badge[{plain(badge)}] " + (f"**{title}**" if not item.read else title))
        arrived = datetime.fromtimestamp(item.arrived, timezone.utc)
        text.caption(say("ui.inbox.unread" if not item.read else "ui.inbox.read", language,
                         when=f"{arrived:%Y-%m-%d %H:%M} UTC"))
        if opened == notice.notice_id:
            open_col.button(say("ui.inbox.close", language), key=f"close-{key}", width="stretch",
                            on_click=inbox_mine.close_notice)
            notice_view.render(item, key)
        else:
            open_col.button(say("ui.inbox.open", language), key=f"open-{key}", icon=":material/open_in_new:",
                            width="stretch", on_click=inbox_mine.open_notice, args=(owner, notice.notice_id))
