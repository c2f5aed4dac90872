"""Who is asking: the owner string History, conversations, share links and limits are keyed by.

Two kinds, in separate namespaces so one can never pose as the other:

    anon:<digest>  an anonymous browser, by a digest of its token: 128 random bits from
                   `secrets` that the browser keeps in a cookie (`ui.identity`). Knowing the token
                   is being that visitor, so it is never shown, logged, put in a link or stored:
                   the store holds only the digest, which cannot be turned back into a cookie.
    user:<digest>  a visitor signed in through OIDC; a digest of the provider's issuer and
                   subject (never the e-mail itself, which may change hands and is personal).
    key:<id>       a program calling the HTTP API (or the MCP server over HTTP) with an API key,
                   by the key's id (never the key, of which only a hash is kept).
    local:         whoever works on this machine: an MCP client over stdio, an API call on
                   loopback without a key. One owner, as the command line is one user.

A cookie value is only ever accepted when it has the exact shape of a token, so a visitor who
edits the cookie gets an anonymous identity of their own choosing, never a `user:` one.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Mapping

ANONYMOUS = "anon:"
SIGNED_IN = "user:"
API_KEY = "key:"
LOCAL = "local:"
TOKEN_BYTES = 16                       # 128 bits
TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{22}$")     # token_urlsafe(16) is 22 characters


def new_token() -> str:
    """A fresh anonymous visitor token: 128 random bits, URL- and cookie-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def anonymous_owner(token: str | None) -> str | None:
    """The owner of a browser holding `token`, or None when `token` is not one we could have made."""
    if not isinstance(token, str) or not TOKEN_PATTERN.match(token):
        return None
    return ANONYMOUS + hashlib.sha256(token.encode()).hexdigest()[:32]


def signed_in_owner(claims: Mapping[str, object]) -> str | None:
    """The owner of a signed-in visitor from their OIDC claims: issuer + subject, or the
    e-mail when the provider gives no subject. None when the claims name nobody."""
    subject = claims.get("sub") or claims.get("email")
    if not isinstance(subject, str) or not subject:
        return None
    issuer = claims.get("iss") if isinstance(claims.get("iss"), str) else ""
    digest = hashlib.sha256(f"{issuer}\n{subject}".encode()).hexdigest()[:32]
    return SIGNED_IN + digest


def api_key_owner(key_id: str) -> str:
    """The owner of a program calling with the API key whose id is `key_id`."""
    return API_KEY + key_id
