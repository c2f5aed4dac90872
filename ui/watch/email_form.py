"""The e-mail address of the visitor's watchlist: saved unconfirmed, a code mailed to it, the code typed back to
confirm it — until then nothing else is mailed there.

Mailing a code sends mail at once to an address nobody has confirmed, so saving a new address and "Send a new
code" each count as a question (the visitor's and their network's limits), as a test notice does. The edits are
`finsearch.watch.channel_edits`' and `finsearch.watch.email_confirm`'; this draws them, in button callbacks.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import InputError
from finsearch.hosting.limits import admit_if_countable
from finsearch.phrases import Language, say
from finsearch.watch.channel_edits import with_email
from finsearch.watch.email_code import MAX_WRONG, masked
from finsearch.watch.email_confirm import mail_code, with_new_code, with_typed_code
from finsearch.watch.watchlist import Channels, Watchlist
from ui import identity, state
from ui.watch import mine
from ui.watch.amend import amend
from ui.watch.said import Said, draw_said

SAID_KEY = "finsearch_email_said"


def _tell(text: str, ok: bool) -> None:
    st.session_state[SAID_KEY] = Said(text, ok)


def _now() -> datetime:
    return state.server_settings().now or datetime.now(timezone.utc)


def _admitted(owner: str, language: Language) -> bool:
    """Whether one more code may be mailed: it counts as a question; said why not when it may not."""
    refusal = admit_if_countable(owner, state.server_settings(), state.counter(), peer=identity.peer(),
                                 question=say("ui.channels.code", language))
    if refusal is not None:
        _tell(refusal.message, False)
    return refusal is None


def _with_code(owner: str, language: Language, edit) -> None:
    """Save `edit` of the channels with a new code issued, then mail the code of what was saved."""
    codes: list[str | None] = []

    def change(channels: Channels) -> Channels:       # may run twice: the last run's code is the saved one
        changed, code = with_new_code(edit(channels), _now())
        codes.append(code)
        return changed

    saved, why_not = amend(owner, lambda w: dataclasses.replace(w, channels=change(w.channels)), language)
    if saved is None:
        _tell(why_not, False)
    elif codes[-1] is None or saved.channels.email is None:       # confirmed meanwhile, or cleared
        _tell(say("ui.channels.email_same", language), True)
    else:
        mailed = mail_code(saved, codes[-1], state.server_settings())
        if mailed.outcome == "no_mail":
            _tell(say("watch.channels.no_mail", language), False)
        else:
            _tell(say(f"ui.channels.code_mail.{mailed.outcome}", language, email=masked(saved.channels.email),
                      why=mailed.detail), mailed.outcome == "sent")


def save_email(language: Language) -> None:
    """The address typed saved, unconfirmed, and a code mailed to it (cleared when blank; the same one: kept)."""
    typed = st.session_state.get("channel-email") or ""
    settings, owner = state.server_settings(), identity.visitor().owner
    current = mine.mine(owner)
    if current is None:
        _tell(say("ui.watch.none_yet", language), False)
        return
    try:
        wanted = with_email(current.channels, typed, settings, language)     # refused before anything counts
    except InputError as exc:
        _tell(str(exc), False)
        return
    if wanted.email is None:
        clear_email(language)
    elif wanted.email == current.channels.email:
        _tell(say("ui.channels.email_same", language), True)
    elif _admitted(owner, language):
        _with_code(owner, language, lambda c: with_email(c, typed, settings, language))


def clear_email(language: Language) -> None:
    owner = identity.visitor().owner
    saved, why_not = amend(owner, lambda w: dataclasses.replace(
        w, channels=with_email(w.channels, "", state.server_settings(), language)), language)
    _tell(say("ui.channels.email_cleared", language) if saved is not None else why_not, saved is not None)


def _send_again(language: Language) -> None:
    owner = identity.visitor().owner
    if _admitted(owner, language):
        _with_code(owner, language, lambda c: c)


def _confirm(language: Language) -> None:
    typed = st.session_state.get("channel-code") or ""
    st.session_state["channel-code"] = ""
    outcomes: list = []

    def change(channels: Channels) -> Channels:
        checked, outcome = with_typed_code(channels, typed, _now())
        outcomes.append((outcome, checked.email_check.wrong))
        return checked

    owner = identity.visitor().owner
    saved, why_not = amend(owner, lambda w: dataclasses.replace(w, channels=change(w.channels)), language)
    if saved is None:
        _tell(why_not, False)
        return
    outcome, wrong = outcomes[-1]
    _tell(say(f"ui.channels.code_check.{outcome}", language, email=saved.channels.email or "",
              left=str(MAX_WRONG - wrong)), outcome == "confirmed")


def render_confirmation(watchlist: Watchlist) -> None:
    """What the last e-mail change came to; under an unconfirmed address, the code's field while one is
    waiting, and "Send a new code"."""
    language, channels = watchlist.language, watchlist.channels
    draw_said(SAID_KEY, "email-said")
    if channels.email is None or channels.email_confirmed:
        return
    with st.container(border=True, key="email-confirm"):
        if channels.email_check.pending(_now()):
            st.markdown(plain(say("ui.channels.code_pending", language, email=masked(channels.email))))
            with st.form("channel-code-form", border=False):
                st.text_input(say("ui.channels.code", language), key="channel-code", max_chars=12,
                              placeholder="123456")
                st.form_submit_button(say("ui.channels.code_confirm", language), icon=":material/verified:",
                                      on_click=_confirm, args=(language,))
        else:
            st.markdown(plain(say("ui.channels.code_none", language, email=masked(channels.email))))
        st.button(say("ui.channels.code_again", language), key="email-code-again", icon=":material/refresh:",
                  on_click=_send_again, args=(language,))


def render_address(watchlist: Watchlist) -> None:
    """The address's form."""
    language = watchlist.language
    with st.form("channel-email-form", border=True):
        st.text_input(say("ui.channels.email", language), value=watchlist.channels.email or "", key="channel-email",
                      max_chars=254, placeholder="name@example.com")
        st.form_submit_button(say("ui.channels.email_save", language), icon=":material/mail:",
                              on_click=save_email, args=(language,))
