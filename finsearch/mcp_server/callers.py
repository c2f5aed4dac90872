"""Who is calling the MCP server: the owner its runs and reports are saved under and its limits
are counted by (`hosting.identity`), and the connection it came from.

Over stdio, and over HTTP bound to a loopback address, the caller is this machine's own user
(`LOCAL`), as the command line is. Over HTTP on any other address a caller must show an API key
(`Authorization: Bearer …`); until the API keys of the HTTP API exist (`hosting.api_keys`) the
server refuses to listen there at all (`http.serve`) rather than answer strangers as `LOCAL`.
"""

from __future__ import annotations

import dataclasses
import ipaddress

from mcp.server.mcpserver import Context

from ..hosting.identity import LOCAL
from ..hosting.network import Peer


@dataclasses.dataclass(frozen=True)
class Caller:
    owner: str
    peer: Peer | None = None        # where an HTTP request came from; None over stdio


class LocalCallers:
    """Every caller is this machine's user: stdio, or HTTP listening on loopback only."""

    def of(self, ctx: Context) -> Caller:
        return Caller(LOCAL)


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach a server listening on `host`."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:                       # a name other than localhost: it may resolve anywhere
        return False
