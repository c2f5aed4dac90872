"""The app shell: page set-up and navigation, shared by `app.py` and every page file.

Streamlit runs a file in `pages/` directly (its old multipage mode) when the very first
request after a server start goes straight to that page's URL, before any session has
registered `st.navigation`. `ensure()` at the top of each page file notices that and
runs the whole app instead, so such a visit gets the same layout and navigation.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import streamlit as st

from finsearch.errors import ConfigError
from finsearch.jobs.shared import schedule_here
from finsearch.phrases import say
from ui import identity, state
from ui.inbox import mine as inbox_mine

_state = threading.local()
STYLE = f"<style>{(Path(__file__).parent / 'app.css').read_text()}</style>"


@st.cache_resource(show_spinner=False)
def _warm_up() -> threading.Thread:
    """Once per server process, off the page's thread: the exchange calendars and plotly's
    first K-line cost seconds, and would otherwise land on the first answer's chart."""
    def work() -> None:
        try:
            from finsearch.answer import charts
            from finsearch.reference import markets

            markets.warm_up()
            charts.warm_up()
        except Exception:  # a warm-up that fails costs only the time it meant to save
            logging.getLogger(__name__).warning("warm-up failed", exc_info=True)

    thread = threading.Thread(target=work, name="finsearch-warm-up", daemon=True)
    thread.start()
    return thread


@st.cache_resource(show_spinner=False)
def _scheduling(data_dir: str, redis_url: str | None) -> bool:
    """Once per server process and data folder: without Redis, watchlists' briefs and alert checks are
    scheduled and run in this process (`jobs.shared.schedule_here`); with Redis, the scheduler service does."""
    return schedule_here(state.server_settings())


def _schedule() -> None:
    try:
        server = state.server_settings()
    except ConfigError:  # a page that needs the settings says what is wrong with them
        return
    _scheduling(str(server.data_dir), server.redis_url)


def run() -> None:
    """Set up the page and run the navigation (the body of `app.py`)."""
    logging.getLogger("yfinance").setLevel(logging.CRITICAL)   # failures reach people as node reasons
    st.set_page_config(page_title="FinSearch", page_icon="📈", layout="wide")
    _warm_up()
    _schedule()
    _state.inside = True
    try:
        visitor = identity.visitor()
        identity.remember(visitor)
        with st.sidebar:
            identity.sign_in_controls(visitor)
        pages = st.navigation([
            st.Page("pages/chat.py", title="Chat", icon=":material/forum:", default=True),
            st.Page("pages/research.py", title="Deep research", icon=":material/article:", url_path="research"),
            st.Page("pages/history.py", title="History", icon=":material/history:", url_path="history"),
            st.Page("pages/watchlist.py", title=say("ui.nav.watchlist", "en"), icon=":material/visibility:",
                    url_path="watchlist"),
            st.Page("pages/inbox.py", title=inbox_title(visitor.owner), icon=":material/inbox:", url_path="inbox"),
            st.Page("pages/settings.py", title="Settings", icon=":material/tune:", url_path="settings"),
            st.Page("pages/evaluate.py", title="Evaluate", icon=":material/leaderboard:", url_path="evaluate"),
        ])
        st.html(STYLE)               # a style alone takes no room on the page
        pages.run()
    finally:
        _state.inside = False


def inbox_title(owner: str) -> str:
    """"Inbox (2)" while two notices are unread, "Inbox" when none are (or the inbox cannot be read)."""
    count = inbox_mine.unread(owner)
    return say("ui.nav.inbox_unread", "en", count=str(count)) if count else say("ui.nav.inbox", "en")


def ensure() -> None:
    """First call in every page file: run through the shell when Streamlit did not."""
    if not getattr(_state, "inside", False):
        run()
        st.stop()
