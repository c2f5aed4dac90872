"""Which network a visitor asks from: the peer's address, or the one a trusted proxy saw; an IPv4
address alone, an IPv6 address by its /64 — the key the per-network question limit counts by.

A cookie is the visitor's to drop, an address is not: a script that mints a new identity for every
question still asks from the same network. IPv6 hands one subscriber a whole /64 (2^64
addresses), so counting single IPv6 addresses would be shed as easily as a cookie.

X-Forwarded-For is written by whoever sends the request, so it is read only when the operator
says which proxies stand in front of the app (`Settings.trusted_proxies`), and then only as far
as those proxies wrote it: each proxy appends the address that connected to it, so the header is
read from the right, one trusted hop at a time, and the first address no trusted proxy stands
for is the visitor (what a client wrote to the left of it is ignored).

    trusted_proxies = 0          the peer is the visitor; the header is ignored (the default)
    trusted_proxies = N          N proxies in front: the visitor is the N-th address from the right
    trusted_proxies = (nets…)    a peer in those networks is a proxy, and so is each address to the
                                 right that is in them; the first that is not is the visitor
"""

from __future__ import annotations

import dataclasses
import ipaddress

IPV6_PREFIX = 64


@dataclasses.dataclass(frozen=True)
class Peer:
    """What the app knows of a connection: the address it came from, and the X-Forwarded-For
    header it carried (None when it carried none)."""
    address: str
    forwarded_for: str | None = None


def client_network(peer: Peer | None, trusted: int | tuple[str, ...] = 0) -> str | None:
    """The network key of the visitor behind `peer` ("net:203.0.113.7", "net:2001:db8:1:2::/64"),
    or None when no address can be read (the network limit then does not apply)."""
    if peer is None:
        return None
    address = _address(peer.address)
    if address is None:
        return None
    hops = [a for a in (_address(part) for part in (peer.forwarded_for or "").split(",")) if a is not None] \
        if trusted else []
    visitor = _visitor(address, hops, trusted)
    return "net:" + network_of(visitor)


def network_of(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """"203.0.113.7" for an IPv4 address (an IPv4 address inside an IPv6 one is read as IPv4),
    its /64 for an IPv6 one."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = address.ipv4_mapped
        if inner is None:
            return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
        address = inner
    return str(address)


def _visitor(peer, hops: list, trusted: int | tuple[str, ...]):
    if isinstance(trusted, int):
        if trusted <= 0 or not hops:
            return peer
        # Fewer addresses than proxies: every one was written by a trusted proxy; the leftmost is
        # the nearest to the visitor that any of them saw.
        return hops[-trusted] if len(hops) >= trusted else hops[0]
    networks = [ipaddress.ip_network(n, strict=False) for n in trusted]
    current = peer
    for hop in reversed(hops):
        if not _in(current, networks):
            return current
        current = hop
    return current


def _in(address, networks: list) -> bool:
    # Streamlit reports no loopback peer at all (the edge writes it as 127.0.0.1), so a trusted
    # loopback stands for every loopback address.
    return any(address in n or (address.is_loopback and n.network_address.is_loopback) for n in networks)


def _address(text: str | None):
    """An address as a proxy or the server writes it ("203.0.113.7", "203.0.113.7:5123",
    "[2001:db8::1]:443", "fe80::1%eth0"), or None when it is not one."""
    raw = (text or "").strip().strip('"')
    if raw.startswith("["):
        raw = raw[1:].split("]", 1)[0]
    elif raw.count(":") == 1:                  # IPv4 with a port
        raw = raw.split(":", 1)[0]
    raw = raw.split("%", 1)[0]
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address
