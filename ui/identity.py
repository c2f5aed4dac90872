"""Who this browser session is (`finsearch.hosting.identity`): signed in, or an anonymous browser.

Anonymous: the identity is a random token the browser keeps in a first-party cookie. Streamlit
reads cookies (`st.context.cookies`, the ones sent when the page was loaded) but has no call to
set one, so a first visit makes a token and a two-line script in `st.html` stores it; the next
load sends it back. Until then the token lives in this session, so the first visit is already
one identity. The cookie holds the token alone (nothing derived from the visitor) and is never
shown, logged or put in a link.

Signed in (when `[auth]` is configured in `.streamlit/secrets.toml`): Streamlit's own OIDC
sign-in (`st.login`, `st.user`); history is then keyed by the provider's subject, so it follows
the person to any browser.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Mapping

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.hosting.identity import anonymous_owner, new_token, signed_in_owner
from finsearch.hosting.network import Peer

COOKIE = "finsearch_visitor"
COOKIE_MAX_AGE_S = 400 * 24 * 3600        # the longest browsers keep a cookie (Chrome caps at 400 days)
VISITOR_KEY = "finsearch_visitor"


@dataclasses.dataclass(frozen=True)
class Visitor:
    owner: str                            # the store's `owner` for everything this visitor makes
    signed_in: bool = False
    name: str | None = None               # shown to the visitor themself in the sidebar
    token: str | None = dataclasses.field(default=None, repr=False)   # anonymous: the cookie's value
    remembered: bool = True               # the browser already sent the cookie


def sign_in_providers(secrets: Mapping | None = None) -> tuple[str | None, ...] | None:
    """The sign-in choices `[auth]` in secrets.toml configures: `(None,)` for one unnamed
    provider, provider names for `[auth.<name>]` sections; None when sign-in is not set up
    (Streamlit needs `redirect_uri` and `cookie_secret`, and a provider's `client_id`)."""
    try:
        auth = (st.secrets if secrets is None else secrets).get("auth")
    except Exception:  # no secrets file is the normal case; st.secrets raises then
        return None
    if not isinstance(auth, Mapping) or not auth.get("redirect_uri") or not auth.get("cookie_secret"):
        return None
    if auth.get("client_id"):
        return (None,)
    named = tuple(name for name, value in auth.items() if isinstance(value, Mapping) and value.get("client_id"))
    return named or None


def visitor() -> Visitor:
    """This session's visitor: the signed-in user when there is one, else the browser's token."""
    if sign_in_providers() is not None and st.user.get("is_logged_in"):
        claims = st.user.to_dict()
        owner = signed_in_owner(claims)
        if owner is not None:
            name = claims.get("name") or claims.get("email")
            return Visitor(owner, signed_in=True, name=str(name) if name else None)
    known = st.session_state.get(VISITOR_KEY)
    if isinstance(known, Visitor):
        return known
    sent = _cookie()
    owner = anonymous_owner(sent)
    found = (Visitor(owner, token=sent, remembered=True) if owner is not None and sent is not None
             else _new_anonymous())
    st.session_state[VISITOR_KEY] = found
    return found


def _new_anonymous() -> Visitor:
    token = new_token()
    return Visitor(anonymous_owner(token) or "", token=token, remembered=False)


def _cookie() -> str | None:
    try:
        return st.context.cookies.get(COOKIE)
    except Exception:  # outside a browser session (bare mode): no cookies
        return None


def peer() -> Peer | None:
    """The connection this session came from, for the per-network question limit: its address
    and the X-Forwarded-For it carried (read only when the operator trusts a proxy:
    `finsearch.hosting.network`). None outside a browser session (bare mode, AppTest)."""
    try:
        address, headers = st.context.ip_address, st.context.headers
        forwarded = ", ".join(headers.get_all("X-Forwarded-For")) or None
    except Exception:  # outside a browser session: no connection to read
        return None
    if not headers:                    # a browser's websocket always sends some (Host); AppTest sends none
        return None
    # Streamlit reports a loopback peer as no address at all: every loopback visitor is one network.
    return Peer(address if isinstance(address, str) and address else "127.0.0.1", forwarded)


def remember(current: Visitor) -> None:
    """Have the browser keep an anonymous visitor's token (first visit only). The token is ours:
    22 URL-safe characters, checked again here, so nothing else can reach the script."""
    if current.signed_in or current.remembered or current.token is None or anonymous_owner(current.token) is None:
        return
    script = (f"<script>document.cookie = '{COOKIE}={current.token}; Path=/; Max-Age={COOKIE_MAX_AGE_S}; "
              "SameSite=Lax' + (location.protocol === 'https:' ? '; Secure' : '');</script>")
    st.html(script, unsafe_allow_javascript=True)


def sign_in_controls(current: Visitor) -> None:
    """Sign in / out in the sidebar, when sign-in is configured."""
    providers = sign_in_providers()
    if providers is None:
        return
    if current.signed_in:
        st.caption(f"Signed in as {plain(current.name or 'you')}")
        if st.button("Sign out", icon=":material/logout:", key="finsearch-sign-out", width="stretch"):
            st.logout()
        return
    if importlib.util.find_spec("authlib") is None:     # st.login needs it; say how to get it
        st.caption("Sign-in is configured but Authlib is not installed: pip install \"Authlib>=1.3.2\".")
        return
    for provider in providers:
        label = "Sign in" if provider is None else f"Sign in with {provider.replace('_', ' ').title()}"
        if st.button(label, icon=":material/login:", key=f"finsearch-sign-in-{provider}", width="stretch"):
            st.login(provider) if provider is not None else st.login()
    st.caption("Without signing in, your history stays in this browser.")
