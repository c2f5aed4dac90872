"""One notice of the inbox, shown as an answer: its title, its cited markdown and its references list.

Drawn by the answer's own view (`ui.views.answer`): citations linked, the retrieved text in it literal."""

from __future__ import annotations

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.delivery.inbox import InboxItem
from finsearch.phrases import say
from ui.views import answer as answer_view


def render(item: InboxItem, key: str) -> None:
    notice = item.notice
    references = list(notice.references)
    listed = f"{key}-references"
    with st.container(key=f"notice-{key}", border=True):
        st.markdown(f"### {plain(notice.title)}")
        st.caption(say("ui.inbox.written", notice.language, when=f"{notice.created_at:%Y-%m-%d %H:%M} UTC"))
        answer_view.render_answer(notice.markdown, references, anchors=answer_view.citation_targets(references, {},
                                                                                                      listed))
        answer_view.render_references(references, None, listed, notice.language)
