"""Setting values as the environment writes them, read strictly: flags, numbers, limits, trusted
proxies, CORS origins, freshness overrides — each refused with a message naming its variable and
quoting the value back safely (`shown`), never a traceback."""

from __future__ import annotations

import ipaddress
import math
import re

from .errors import ConfigError


def shown(text) -> str:
    """A user's value quoted back safely: printable characters only, short."""
    clean = "".join(ch for ch in str(text) if ch.isprintable())
    return repr(clean[:60] + ("…" if len(clean) > 60 else ""))


def flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def number(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {shown(text)}") from None
    if not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number")
    return value


def positive(name: str, text: str) -> float:
    value = number(name, text)
    if value <= 0:
        raise ConfigError(f"{name} must be a positive number")
    return value


def count(name: str, text: str) -> int:
    """A limit: a whole number, 0 or more (0: no limit)."""
    return max(0, int(number(name, text)))


def proxies(text: str) -> int | tuple[str, ...]:
    """"2" → 2 trusted hops; "10.0.0.5, 172.16.0.0/12" → those proxies (networks as written, normalised)."""
    raw = text.strip()
    if raw.isdigit():
        return int(raw)
    found = []
    for part in raw.replace(" ", ",").split(","):
        if not part:
            continue
        try:
            found.append(str(ipaddress.ip_network(part, strict=False)))
        except ValueError:
            raise ConfigError("FINSEARCH_TRUSTED_PROXIES wants a number of proxy hops or proxy addresses "
                              f"(example: 10.0.0.5, 172.16.0.0/12), not {shown(part)}") from None
    return tuple(found)


ORIGIN = re.compile(r"^https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$")


def origins(text: str) -> tuple[str, ...]:
    """"https://a.example, http://localhost:3000" → those origins (a browser's Origin header: scheme,
    host and port, no path), lower-cased as browsers send them."""
    found = []
    for part in text.replace(" ", ",").split(","):
        origin = part.strip().rstrip("/").lower()
        if not origin:
            continue
        if not ORIGIN.match(origin):
            raise ConfigError("FINSEARCH_API_CORS_ORIGINS wants origins such as https://dashboard.example.com "
                              f"(scheme, host and port, no path), not {shown(part)}")
        found.append(origin)
    return tuple(found)


def freshness(text: str) -> dict[str, float]:
    """"quote=30,news=600" → {"quote": 30.0, "news": 600.0} (seconds)."""
    out = {}
    for part in text.split(","):
        name, _, seconds = part.partition("=")
        if not seconds.strip():
            raise ConfigError(f"FINSEARCH_FRESHNESS wants source=seconds pairs, not {shown(part)}")
        out[name.strip()] = number("FINSEARCH_FRESHNESS", seconds)
    return out
