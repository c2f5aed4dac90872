"""A conversation back from the address (`?c=<conversation>`) after a reload: the visitor's own only.

It comes back with the questions still being answered; another visitor's is "not found" (only a
share link opens it)."""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import StoreUnavailable
from finsearch.service.records import may_open
from finsearch.store import valid_id
from ui import identity, state


def mine(owner: str | None) -> bool:
    """May this visitor open a run or conversation by its id? Their own, and those saved before
    there were identities (which were open to everyone then, so their old links keep working)."""
    return may_open("run", owner, identity.visitor().owner)


def from_address(chat: state.Chat) -> state.Chat:
    """The chat this page shows: the one the address names when this session has not begun it
    (a reload, or a link of the visitor's own), else `chat` as it is."""
    wanted = st.query_params.get("c")
    if wanted and valid_id(wanted) and wanted != chat.conversation and not chat.turns:
        return restore(wanted)
    return chat


def restore(conversation: str) -> state.Chat:
    """This visitor's conversation back after a reload. Another visitor's is "not found", and
    is not adopted: what this visitor asks next starts a conversation of their own."""
    chat = state.new_chat()
    store = state.store()
    try:
        if not mine(store.conversation_owner(conversation)):
            st.error("This conversation does not exist on this server (the link may be wrong). A shared "
                     "conversation has a share link of its own.")
            del st.query_params["c"]
            return chat
        runs = store.load_conversation(conversation)
    except StoreUnavailable as exc:       # the chat goes on; a reload restores it once the store is back
        st.error(plain(f"This conversation cannot be restored right now: {exc}."))
        runs = []
    chat.conversation = conversation
    chat.turns = [state.Turn(question=r.question, result=r, corrections=r.corrections) for r in runs]
    # A question still being answered is saved when it ends: until then, it is taken from the run.
    chat.turns += state.IN_FLIGHT.of(conversation, identity.visitor().owner)
    return chat
