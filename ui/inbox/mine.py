"""The visitor's inbox in the app (DELIVERY's inbox): its unread count for the sidebar, opening a notice."""

from __future__ import annotations

import logging

import streamlit as st

from finsearch.delivery.inbox import Inbox, open_inbox
from finsearch.errors import ConfigError, StoreUnavailable
from ui import state

log = logging.getLogger(__name__)
OPEN_KEY = "finsearch_inbox_open"         # the notice open on the Inbox page


def inbox() -> Inbox:
    return open_inbox(state.server_settings())


def unread(owner: str) -> int | None:
    """How many of `owner`'s notices are unread; None when the inbox cannot be read (no count shown)."""
    try:
        return inbox().unread(owner)
    except ConfigError:                    # the page says what is wrong with the settings
        return None
    except (StoreUnavailable, OSError):
        log.warning("the inbox's unread count could not be read", exc_info=True)
        return None


def open_notice(owner: str, notice_id: str) -> None:
    """A click on a notice (a callback: the sidebar's count, drawn before the page, is then right):
    it is shown and marked read."""
    st.session_state[OPEN_KEY] = notice_id
    try:
        inbox().mark_read(owner, notice_id)
    except (StoreUnavailable, OSError):    # shown all the same; it stays unread
        log.warning("a notice could not be marked read", exc_info=True)


def close_notice() -> None:
    st.session_state.pop(OPEN_KEY, None)
