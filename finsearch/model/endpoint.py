"""Which model server a run may call, and with whose key.

The rule: a key configured on the server (`OPENAI_API_KEY`) is only ever sent to the
server's own base URL. A visitor who points the app at another model server brings
their own key, or sends none. Whether visitors may do that at all is the operator's
call (`FINSEARCH_VISITOR_MODEL_SERVERS`):

    off      visitors use the server's model server only (the default for a hosted app)
    public   visitors may name public http(s) servers; loopback, private, link-local
             and other internal addresses are refused — checked on the literal address
             here, and again on every resolved address at connect time (`GuardedBackend`),
             so DNS tricks and redirects cannot reach inside either
    any      anything, internal addresses included (a personal instance on loopback)
"""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
import socket
from urllib.parse import urlsplit

from ..evidence import safe_url
from ..settings import Settings, VisitorModelServers

_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


@dataclasses.dataclass(frozen=True)
class Endpoint:
    settings: Settings              # base_url, api_key and model_guard as they may be used
    refusal: str | None = None      # why the visitor's server was not used, when it was not


def for_visitor(server: Settings, base_url: str | None, api_key: str | None,
                policy: VisitorModelServers) -> Endpoint:
    """The settings a visitor's run uses, given the server's settings and what the
    visitor typed (a base URL and a key, either may be empty)."""
    wanted = (base_url or "").strip() or None
    own_key = (api_key or "").strip() or None
    # The visitor's key pays for the server's own model when it stands in for the operator's key
    # (or there is no server of the operator's at all); a keyless server of the operator's (a
    # local model) is the operator's to pay for whatever key is typed: its budget still counts.
    pays = own_key is not None and (server.api_key is not None or server.base_url is None)
    if wanted is None or _same_server(wanted, server.base_url):
        return Endpoint(server.replace(api_key=own_key or server.api_key, model_guard=False, visitor_key=pays))
    refusal = check_visitor_url(wanted, policy)
    if refusal:
        return Endpoint(server.replace(api_key=own_key or server.api_key, model_guard=False, visitor_key=pays),
                        refusal)
    # Another server: never the operator's key; connect only to public addresses unless allowed.
    return Endpoint(server.replace(base_url=wanted, api_key=own_key, visitor_endpoint=True, visitor_key=True,
                                   model_guard=policy != "any"))


def operator_pays(settings: Settings) -> bool:
    """Whether a model call with these settings is on the operator's account (their key, or their
    keyless server), and so counts against the operator's model budget."""
    return not (settings.visitor_endpoint or settings.visitor_key)


def check_visitor_url(url: str, policy: VisitorModelServers) -> str | None:
    """Why a visitor may not use `url` as a model server, or None when they may."""
    if policy == "off":
        return "This server does not let visitors choose another model server; it uses its own."
    try:
        parts = urlsplit(url)
        parts.port                                      # noqa: B018 - raises on a bad port
    except ValueError:
        return "That base URL is not a valid URL."
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "A model server's base URL must start with http:// or https:// and name a host."
    if parts.username or parts.password:
        return "Put the API key in the key field, not in the base URL."
    canonical = safe_url(url)                          # the host as a connection would resolve it
    if canonical is None:
        return "That base URL is not a valid URL."
    host = urlsplit(canonical).hostname
    if policy == "public" and is_internal_host(host):
        return (f"{host} is a loopback or private address; this server only lets visitors use "
                "public model servers.")
    return None


def is_internal_host(host: str) -> bool:
    """Whether a host name or literal address is plainly internal (no DNS lookup: names
    are checked on their resolved addresses when the connection is made)."""
    name = host.strip("[]").rstrip(".").lower()
    if name in _LOCAL_NAMES or name.endswith(".localhost"):
        return True
    address = _literal_address(name)
    return address is not None and not is_public(address)


def _literal_address(name: str):
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        pass
    try:                            # the legacy forms browsers and libc accept: 127.1, 2130706433, 0x7f.1
        return ipaddress.ip_address(socket.inet_aton(name))
    except (OSError, ValueError):
        return None


_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def is_public(address) -> bool:
    """A globally reachable unicast address. An IPv6 address that carries an IPv4 one
    (mapped, compatible, NAT64, 6to4, Teredo, translated) is judged by the IPv4 inside."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.is_site_local:
            return False
        inner = address.ipv4_mapped or address.sixtofour or (address.teredo[1] if address.teredo else None)
        packed = int(address)
        if inner is None and (address in _NAT64 or address in _IPV4_COMPATIBLE
                              or packed >> 32 == 0xFFFF0000):     # ::ffff:0:a.b.c.d, IPv4-translated
            inner = ipaddress.IPv4Address(packed & 0xFFFFFFFF)
        if inner is not None:
            return is_public(inner)
    return address.is_global and not address.is_multicast


def _same_server(a: str, b: str | None) -> bool:
    return b is not None and a.rstrip("/") == b.strip().rstrip("/")


# -- enforcement at connect time -------------------------------------------------------------

@functools.cache
def _refusal():
    """The error a refused connection raises: an httpcore2 ConnectError (so the HTTP stack
    treats it as any failed connect) that `refused_internal` can recognise later."""
    import httpcore2

    class InternalAddressRefused(httpcore2.ConnectError):
        """A visitor's model server resolved to an address they may not reach."""

    return InternalAddressRefused


def guarded_http_client(timeout):
    """An httpx2 client (the openai SDK's transport) that connects only to public
    addresses and follows no redirects."""
    import httpcore2
    import httpx2

    class GuardedBackend(httpcore2.SyncBackend):
        def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
            try:
                infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            except (OSError, UnicodeError, ValueError) as exc:
                raise httpcore2.ConnectError(str(exc)) from exc
            public = [info[4][0] for info in infos if is_public(ipaddress.ip_address(info[4][0].split("%")[0]))]
            if not public or len(public) != len(infos):
                raise _refusal()(f"{host} resolves to an internal address")
            # Connect to the address just vetted (TLS still checks the certificate for `host`).
            return super().connect_tcp(public[0], port, timeout, local_address, socket_options)

    class GuardedTransport(httpx2.HTTPTransport):
        def __init__(self):
            super().__init__()
            # httpx2 offers no public way to choose the network backend; pinned in requirements.
            self._pool = httpcore2.ConnectionPool(ssl_context=httpx2.create_ssl_context(),
                                                  network_backend=GuardedBackend())

    return httpx2.Client(transport=GuardedTransport(), timeout=timeout, follow_redirects=False)


def refused_internal(exc: BaseException) -> bool:
    """Whether an error chain holds a connect-time refusal of an internal address."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, _refusal()):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False
