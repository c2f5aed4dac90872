"""Session state: one chat object and one settings object per browser session.

Both are created behind a guard and hold plain data and run handles, never element
handles. The API key a user types lives only in `SessionSettings` (this browser
session's memory): it is never written to disk, logged, shown back or put in a link.
Beside them, one process-wide list of the questions still being answered (`IN_FLIGHT`), so a
reload in that time finds its turn before the record is saved.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Mapping
from urllib.parse import urlsplit

import streamlit as st

from finsearch.background.question import BackgroundRun, RunView
from finsearch.hosting.counters import QuestionCounter, open_counter
from finsearch.model.endpoint import Endpoint, for_visitor
from finsearch.plan.analysis import Analysis
from finsearch.plan.interpretation import Corrections
from finsearch.result import RunResult, new_id
from finsearch.settings import ENV_NAMES, Settings, VisitorModelServers, from_env
from finsearch.store import RunStore, open_store

CHAT_KEY = "finsearch_chat"
SETTINGS_KEY = "finsearch_settings"



@dataclasses.dataclass
class Turn:
    question: str
    run: BackgroundRun | None = None       # while it runs (and until the page picks up the result)
    result: RunResult | None = None
    error: str | None = None
    final_view: RunView | None = None      # what a failed run had found
    save_error: str | None = None          # the finished run is only in this page's memory
    key: str = dataclasses.field(default_factory=lambda: new_id()[:10])   # widget keys of this turn
    prior: Analysis | None = None          # the turn it follows up, so a re-plan reads it the same way
    corrections: Corrections = Corrections()    # how the user asked to read the question instead

    @property
    def running(self) -> bool:
        return self.run is not None and self.result is None and self.error is None


@dataclasses.dataclass(frozen=True)
class Asked:
    """A question still being answered: its record is saved only when it ends, so a reload of
    its conversation in that time finds it here (in this process) instead of losing it."""
    conversation: str
    owner: str
    question: str
    run: BackgroundRun
    prior: Analysis | None
    corrections: Corrections


class InFlight:
    """This process's questions still being answered, by conversation and owner."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._asked: list[Asked] = []

    def add(self, asked: Asked) -> None:
        with self._lock:
            self._asked = [a for a in self._asked if not a.run.join(0)] + [asked]

    def of(self, conversation: str, owner: str) -> list[Turn]:
        """The owner's turns of `conversation` still running, as new turns of a restored chat."""
        with self._lock:
            self._asked = [a for a in self._asked if not a.run.join(0)]
            return [Turn(question=a.question, run=a.run, prior=a.prior, corrections=a.corrections)
                    for a in self._asked if a.conversation == conversation and a.owner == owner]


IN_FLIGHT = InFlight()     # every session of this server shares it


@dataclasses.dataclass
class Chat:
    conversation: str
    turns: list[Turn] = dataclasses.field(default_factory=list)
    consumed_q: bool = False               # a ?q= link is read once per session
    linked: str | None = None              # a question that came in a link: in the box, waiting to be sent
    flash: tuple[str, str] | None = None   # (message, the question it is about) shown once
    refusal: str | None = None             # why the last question was not started (a limit), shown once

    def active(self) -> Turn | None:
        return next((t for t in self.turns if t.running), None)

    def prior(self):
        """The analysis of the last finished turn, for follow-up questions."""
        for turn in reversed(self.turns):
            if turn.result is not None:
                return turn.result.analysis
        return None


@dataclasses.dataclass
class SessionSettings:
    """What the settings page changed for this browser session only."""
    overrides: dict = dataclasses.field(default_factory=dict)
    api_key: str | None = None


def chat() -> Chat:
    if CHAT_KEY not in st.session_state:
        st.session_state[CHAT_KEY] = Chat(conversation=new_id())
    return st.session_state[CHAT_KEY]


def new_chat() -> Chat:
    st.session_state[CHAT_KEY] = Chat(conversation=new_id())
    return st.session_state[CHAT_KEY]


def session_settings() -> SessionSettings:
    if SETTINGS_KEY not in st.session_state:
        st.session_state[SETTINGS_KEY] = SessionSettings()
    return st.session_state[SETTINGS_KEY]


def _secrets() -> Mapping[str, str]:
    """Top-level values from .streamlit/secrets.toml, when there is one."""
    try:
        return {name: str(st.secrets[name]) for name in ENV_NAMES if name in st.secrets}
    except Exception:  # no secrets file is the normal case; st.secrets raises then
        return {}


def server_settings() -> Settings:
    """Server-side defaults: the environment, then secrets.toml for what it lacks."""
    env = {**_secrets(), **os.environ}
    return from_env(env)


LOOPBACK = ("127.0.0.1", "localhost", "::1")
FORWARDING_HEADERS = ("X-Forwarded-For", "X-Forwarded-Host", "Forwarded", "X-Real-IP")


def visitor_policy(server: Settings) -> VisitorModelServers:
    """May this session point the app at another model server? The operator's setting, or
    by default: yes (internal addresses included) only when the app listens on loopback and
    this visitor is this machine (a loopback peer, no proxy in between); no otherwise."""
    if server.visitor_model_servers:
        return server.visitor_model_servers
    return "any" if _this_machine() else "off"


def may_browse_folders(server: Settings) -> bool:
    """May this session list the server's folders (the Evaluate page)? The operator's
    FINSEARCH_ADMIN, or by default only a visitor on this machine (as `visitor_policy`)."""
    return server.admin if server.admin is not None else _this_machine()


def _this_machine() -> bool:
    """Bound to loopback, reached from loopback (Streamlit reports no IP then), by a browser
    whose page is on a loopback address (its websocket's Origin), with no proxy headers. A
    proxy that adds no headers still leaves the visitor's Origin (the public address)."""
    if (st.get_option("server.address") or "").strip().lower() not in LOOPBACK:
        return False
    try:
        peer, headers = st.context.ip_address, st.context.headers
        origin = urlsplit(headers.get("Origin") or "").hostname
    except Exception:  # outside a browser session (bare mode, tests): not this machine's browser
        return False
    proxied = any(headers.get(name) for name in FORWARDING_HEADERS)
    return peer is None and origin in LOOPBACK and not proxied


def endpoint() -> Endpoint:
    """The model server this session's runs call, with whose key, and why a server the
    visitor named was refused (a key set on the server goes only to the server's own URL)."""
    server = server_settings()
    mine = session_settings()
    changes = {k: v for k, v in mine.overrides.items() if k not in ("base_url", "api_key")}
    return for_visitor(server.replace(**changes), mine.overrides.get("base_url"), mine.api_key,
                       visitor_policy(server))


def effective_settings() -> Settings:
    """The settings a run in this session uses."""
    return endpoint().settings


def store() -> RunStore:
    """The server's run store: files under the data directory, or Redis (FINSEARCH_REDIS_URL)."""
    return open_store(server_settings())


def counter() -> QuestionCounter:
    """Where questions are counted for the rate limit: files, or Redis (shared by replicas)."""
    return open_counter(server_settings())
