"""Where the visitor's notices go, edited: the inbox (always), an e-mail address (when the operator has a mail
server; `email_form` confirms it), webhooks added and removed, and a test notice per channel.

The edits are `finsearch.watch.channel_edits`'; this draws them. Changes run in button callbacks (before the
page is drawn, so the list below shows them) and leave what to say in session state for the drawing. A generic
webhook's signing secret is kept there for one drawing only: popped when shown, never shown again.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.hosting.limits import admit_if_countable
from finsearch.phrases import Language, say
from finsearch.watch.channel_edits import with_webhook, without_webhook
from finsearch.watch.trial import send_trial
from finsearch.watch.watchlist import WEBHOOK_KINDS, Channels, Watchlist, WebhookTarget
from ui import identity, state
from ui.watch import email_form, mine
from ui.watch.amend import amend
from ui.watch.said import Said, draw_said

SAID_KEY = "finsearch_channels_said"        # what the last change or test came to
SECRET_KEY = "finsearch_new_webhook_secret"   # a new generic hook's secret, until it is drawn once


def _say(text: str, ok: bool) -> None:
    st.session_state[SAID_KEY] = Said(text, ok)


def _change(language: Language, change, done: str) -> None:
    """Save `change` of the visitor's channels; say `done`, or why not."""
    owner = identity.visitor().owner
    saved, why_not = amend(owner, lambda w: dataclasses.replace(w, channels=change(w.channels)), language)
    _say(done if saved is not None else why_not, saved is not None)


def _add_hook(language: Language) -> None:
    kind = st.session_state.get("hook-kind") or "generic"
    url, secret = st.session_state.get("hook-url") or "", st.session_state.get("hook-secret") or ""
    made: list = []

    def change(channels: Channels) -> Channels:
        added = with_webhook(channels, kind, url, secret, state.server_settings(), language)
        made.append(added)
        return added.channels

    owner = identity.visitor().owner
    saved, why_not = amend(owner, lambda w: dataclasses.replace(w, channels=change(w.channels)), language)
    if saved is None:
        _say(why_not, False)
        return
    hook = made[-1].hook
    st.session_state["hook-url"] = st.session_state["hook-secret"] = ""      # kept after a refusal, to be fixed
    _say(say("ui.channels.added", language, kind=say(f"ui.channels.kind.{hook.kind}", language),
             host=hook.shown()["host"]), True)
    if made[-1].generated_secret:
        st.session_state[SECRET_KEY] = made[-1].generated_secret


def _remove_hook(language: Language, key: str, host: str) -> None:
    _change(language, lambda c: without_webhook(c, key), say("ui.channels.removed", language, host=host))


def _try(language: Language, key: str, label: str) -> None:
    owner = identity.visitor().owner
    watchlist = mine.mine(owner)
    if watchlist is None:
        _say(say("ui.watch.none_yet", language), False)
        return
    # A test sends mail or calls a hook at once, to an address nobody has confirmed: it counts as a question,
    # so the visitor's and their network's limits bound what a script could send through this server.
    refusal = admit_if_countable(owner, state.server_settings(), state.counter(), peer=identity.peer(),
                                 question=say("watch.trial.title", language))
    if refusal is not None:
        _say(refusal.message, False)
        return
    trial = send_trial(watchlist, key, state.server_settings())
    _say(say(f"ui.channels.trial.{trial.outcome}", language, channel=label, why=trial.detail), trial.outcome == "sent")


def _row(label: str, key: str, language: Language, *, test: tuple | None = None, remove: tuple | None = None) -> None:
    with st.container(border=True, key=f"channel-row-{key}"):
        name, test_col, remove_col = st.columns([6, 2.6, 1.4], vertical_alignment="center")
        name.markdown(plain(label))
        if test is not None:
            test_col.button(say("ui.channels.test", language), key=f"test-{key}", icon=":material/send:",
                            width="stretch", on_click=_try, args=test)
        if remove is not None:
            remove_col.button(say("ui.watchlist.remove", language), key=f"remove-{key}", icon=":material/delete:",
                              width="stretch", on_click=remove[0], args=remove[1:])


def _hook_label(hook: WebhookTarget, language: Language) -> str:
    shown = hook.shown()
    return say("ui.channels.webhook_row", language, kind=say(f"ui.channels.kind.{hook.kind}", language),
               host=shown["host"])


def render(watchlist: Watchlist) -> None:
    language, channels = watchlist.language, watchlist.channels
    mail = state.server_settings().mail
    st.subheader(say("ui.channels.title", language))
    st.caption(say("ui.channels.caption", language))
    _row(say("ui.channels.inbox", language), "inbox", language)
    if channels.email:
        label = say("ui.channels.email_row", language, email=channels.email)
        # Not confirmed yet: no test either (it would mail the address), the code's field instead.
        _row(label if channels.email_confirmed else say("ui.channels.email_waiting", language, email=channels.email),
             "email", language, test=(language, "email", label) if mail is not None and channels.email_confirmed
             else None, remove=(email_form.clear_email, language))
    for hook in channels.webhooks:
        label = _hook_label(hook, language)
        _row(label, hook.key, language, test=(language, hook.key, label),
             remove=(_remove_hook, language, hook.key, hook.shown()["host"]))
    draw_said(SAID_KEY, "channel-said")
    secret = st.session_state.pop(SECRET_KEY, None)
    if secret:
        with st.container(border=True, key="webhook-secret-once"):
            st.warning(say("ui.channels.secret_once", language), icon=":material/key:")
            st.code(secret, language=None)
            st.caption(say("ui.channels.verify", language))
    if mail is None:
        st.info(say("watch.channels.no_mail", language), icon=":material/mail:")
    else:
        email_form.render_confirmation(watchlist)
        email_form.render_address(watchlist)
    with st.form("channel-hook-form", border=True):
        st.markdown(f"**{say('ui.channels.add_hook', language)}**")
        st.selectbox(say("ui.channels.format", language), WEBHOOK_KINDS, key="hook-kind",
                     format_func=lambda k: say(f"ui.channels.kind.{k}", language))
        st.text_input(say("ui.channels.url", language), key="hook-url", placeholder="https://",
                      max_chars=2000)
        st.text_input(say("ui.channels.secret", language), key="hook-secret", type="password",
                      help=say("ui.channels.secret_help", language))
        st.form_submit_button(say("ui.channels.add", language), icon=":material/webhook:", on_click=_add_hook,
                              args=(language,))

