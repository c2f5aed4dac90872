"""The chat box, with the notices above it, where a question is asked or handed to deep research.

The notices: a limit's refusal, a question put back to shorten, a question that came in a link
(`?q=`, put in the box to be sent by the visitor: any site can link here, and asking spends the
visitor's quota). A `/report …` prompt opens deep research instead."""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.phrases import say
from finsearch.plan.analysis import language_of
from ui import state
from ui.chat import ask
from ui.research import entry as research_entry

ASK_KEY = "ask"


def from_link(chat: state.Chat) -> None:
    """`?q=`: the question a link carries, put in the box once (and off the address)."""
    params = st.query_params
    question = params.get("q")
    if question and not chat.consumed_q:
        chat.consumed_q = True
        del params["q"]
        st.session_state[ASK_KEY] = chat.linked = question


def box(chat: state.Chat) -> None:
    """The notices the last draw left, then the chat box (closed while a turn runs); a question
    sent starts its turn and redraws the page."""
    if chat.refusal:
        st.warning(plain(chat.refusal), icon=":material/hourglass_top:")
        chat.refusal = None

    if chat.flash:
        message, text = chat.flash
        st.warning(plain(message) + " Your question is back in the box below, to shorten and send again.",
                   icon=":material/warning:")
        st.session_state[ASK_KEY] = text           # put back where it was typed, not lost
        chat.flash = None

    if chat.linked:
        st.info(say("ui.linked.question", language_of(chat.linked)), icon=":material/link:")

    # In the language of the conversation so far (its last question's), English to begin with.
    language = language_of(chat.turns[-1].question) if chat.turns else "en"
    prompt = st.chat_input(say("ui.ask", language), key=ASK_KEY, disabled=chat.active() is not None,
                           max_chars=None)
    if prompt is not None:
        chat.linked = None
        research_entry.hand_off(prompt)        # "/report …" opens deep research instead
        ask.start(chat, prompt)
        st.rerun()
