"""The chat page: ask, watch the search graph fill in, read the cited answer.

URL parameters: `?c=<conversation>` restores one of this visitor's conversations after a
refresh (ui.chat.restore), `?s=<token>` opens what a share link shares (read-only), `?run=<id>`
opens one of this visitor's finished runs read-only (History's Open; both ui.chat.shared),
`?q=<question>` puts a question in the box, to be sent by the visitor (any site can link here,
and asking spends the visitor's quota: ui.chat.prompt).
Another visitor's conversation or run, by id, is "not found": only share tokens open them.
"""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.model.llm import choose_backend
from ui import sharing, shell, state
from ui.chat import ask, prompt, restore, shared, turns

shell.ensure()

EXAMPLES = ("Why did NVDA fall last week?", "Compare AAPL and MSFT year to date",
            "What's the latest news on Tesla?", "贵州茅台最近一个月表现如何？")


def main() -> None:
    chat = state.chat()
    params = st.query_params
    if params.get("s"):
        shared.shared_view(params["s"])
        return
    if params.get("run"):
        shared.permalink(params["run"])
        return
    chat = restore.from_address(chat)
    prompt.from_link(chat)

    with st.sidebar:
        if st.button("New chat", icon=":material/add_comment:", width="stretch"):
            st.query_params.clear()
            state.new_chat()
            st.rerun()
        settings = state.effective_settings()
        backend = plain(settings.model) if choose_backend(settings) == "openai" else "heuristic (no LLM)"
        st.caption(f"Backend: {backend}")
        sharing.conversation_share(chat.conversation, [t.result for t in chat.turns
                                                       if t.result is not None and not t.save_error])

    if not chat.turns:
        st.title("FinSearch")
        st.markdown("Ask about stocks, indices, currencies, commodities or crypto. Every figure in the answer "
                    "is cited; click a node of the search graph to see the evidence behind it.")
        cols = st.columns(len(EXAMPLES))
        for col, example in zip(cols, EXAMPLES, strict=True):
            if col.button(example, key=f"example-{example}", width="stretch"):
                ask.start(chat, example)
                st.rerun()

    for turn in chat.turns:
        turns.draw(turn)

    prompt.box(chat)


main()
