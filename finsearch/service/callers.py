"""Who calls the HTTP API or the MCP server, and whether they may start a run: an API key's owner
or this machine's user, the network they call from, the app's limits.

Keys are needed unless the server listens on loopback only with no proxy in front
(`keys_required`). Without keys, a call is this machine's user (`identity.LOCAL`) only when it
comes from loopback carrying no proxy's headers: a proxy on the same machine would otherwise turn
every caller on the internet into the local user. A key that is sent is always checked, so a
wrong one is refused even where none is needed.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import time

from starlette.requests import Request

from ..hosting import api_keys
from ..hosting.api_keys import ApiKeyStore
from ..hosting.counters import QuestionCounter
from ..hosting.identity import LOCAL, api_key_owner
from ..hosting.limits import SLOTS, Running, admit_if_countable
from ..hosting.network import Peer
from ..settings import Settings

FORWARDING_HEADERS = ("x-forwarded-for", "x-forwarded-host", "forwarded", "x-real-ip")
RETRY_BUSY_S = 5          # a refusal for runs at once: a run takes seconds, so look again in a few

KEY_NEEDED = ("this server needs an API key: send the header 'Authorization: Bearer <key>' "
              "(the operator makes one with: python -m finsearch api-key create)")
KEY_WRONG = "this API key is not valid (it was revoked, or mistyped): ask the operator for another"
KEY_SHAPE = "send the API key as 'Authorization: Bearer <key>'"
PROXIED = ("a call from another machine or through a proxy needs an API key: send the header "
           "'Authorization: Bearer <key>' (or set FINSEARCH_API_KEYS_REQUIRED=1 so the server says so for every call)")


class ApiError(Exception):
    """A call refused, with its HTTP status and a message for the caller (`{"error": message}`)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


@dataclasses.dataclass(frozen=True)
class Caller:
    owner: str            # "key:<id>", or "local:" for this machine's user
    peer: Peer | None     # where an HTTP request came from; None over stdio (this machine)


def loopback_only(host: str) -> bool:
    """Does listening on `host` take calls from this machine alone?"""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def keys_required(host: str, settings: Settings) -> bool:
    """The operator's `FINSEARCH_API_KEYS_REQUIRED`, or by default: unless the server listens on
    loopback only and no trusted proxy stands in front of it."""
    if settings.api_keys_required is not None:
        return settings.api_keys_required
    return not loopback_only(host) or bool(settings.trusted_proxies)


def identify(request: Request, keys: ApiKeyStore, required: bool) -> Caller:
    """The caller of `request`, or ApiError 401. Raises StoreUnavailable when the keys' store is down."""
    peer = Peer(request.client.host if request.client else "", request.headers.get("x-forwarded-for"))
    sent = request.headers.get("authorization")
    if sent is not None:
        scheme, _, key = sent.partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            raise ApiError(401, KEY_SHAPE, {"WWW-Authenticate": "Bearer"})
        found = api_keys.check(keys, key.strip())
        if found is None:
            raise ApiError(401, KEY_WRONG, {"WWW-Authenticate": "Bearer"})
        return Caller(api_key_owner(found.key_id), peer)
    if required:
        raise ApiError(401, KEY_NEEDED, {"WWW-Authenticate": "Bearer"})
    if not loopback_only(peer.address) or any(request.headers.get(name) for name in FORWARDING_HEADERS):
        raise ApiError(401, PROXIED, {"WWW-Authenticate": "Bearer"})
    return Caller(LOCAL, peer)


def admit(caller: Caller, settings: Settings, counter: QuestionCounter, question: str) -> None:
    """The app's limits for a run `caller` asks for; ApiError 429 with when to ask again when refused.
    A counter that cannot be reached admits (as in the app: answering matters more than counting)."""
    refusal = admit_if_countable(caller.owner, settings, counter, peer=caller.peer, question=question)
    if refusal is None:
        return
    wait = RETRY_BUSY_S if refusal.resets_at is None else max(1, math.ceil(refusal.resets_at - time.time()))
    raise ApiError(429, refusal.message, {"Retry-After": str(wait)})


def hold(caller: Caller, run: Running) -> None:
    """A started run holds one of its caller's slots until it ends (`limits.RunSlots`)."""
    SLOTS.hold(caller.owner, run)
