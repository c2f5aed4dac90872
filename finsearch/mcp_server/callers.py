"""Who is calling the MCP server: the owner its runs and reports are saved under and its limits
are counted by (`hosting.identity`), and the network it calls from.

Over stdio the caller is this machine's own user (`LOCAL`), as the command line is. Over HTTP the
caller is told apart as the HTTP API tells its callers apart (`service.callers.identify`, one home):
an API key's owner (`Authorization: Bearer …`, `python -m finsearch api-key create`), needed
unless the server listens on loopback only; without one, this machine's user, and only for a
call from loopback that no proxy forwarded."""

from __future__ import annotations

import dataclasses
from typing import Protocol

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from starlette.requests import Request

from ..hosting.api_keys import ApiKeyStore
from ..hosting.identity import LOCAL
from ..service.callers import ApiError, Caller, identify


class Callers(Protocol):
    def of(self, ctx: Context) -> Caller:
        """The caller of the request `ctx` belongs to."""


class LocalCallers:
    """Over stdio: the client that started the server is this machine's user."""

    def of(self, ctx: Context) -> Caller:
        return Caller(LOCAL, None)


@dataclasses.dataclass(frozen=True)
class HttpCallers:
    """Over HTTP: by the request's API key, or as this machine's user where none is `required`.
    A request without a valid key never reaches a tool (`http.KeyCheck` answers it 401 first);
    this reads the owner again from the request the tool was called in."""
    keys: ApiKeyStore
    required: bool

    def of(self, ctx: Context) -> Caller:
        request = ctx.request_context.request
        if not isinstance(request, Request):
            raise ToolError("this call came without its HTTP request, so its caller is unknown")
        try:
            return identify(request, self.keys, self.required)
        except ApiError as exc:
            raise ToolError(exc.message) from exc
