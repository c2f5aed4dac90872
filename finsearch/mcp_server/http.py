"""The MCP server over streamable HTTP, at `/mcp`, served by uvicorn until SIGINT or SIGTERM.

It listens on loopback only unless API keys can be checked: the callers there are this machine's
user (`callers.LocalCallers`), and the SDK's DNS-rebinding guard refuses requests whose Host or
Origin is not a loopback one, so a web page in the user's browser cannot call it either."""

from __future__ import annotations

import sys

import uvicorn
from mcp.server.mcpserver import MCPServer

from ..errors import InputError
from ..terminal import terminal_text
from .callers import is_loopback

PATH = "/mcp"
NO_KEYS = ("the MCP server listens on loopback only (127.0.0.1, ::1 or localhost) until API keys can be "
           "checked for callers from other machines; to reach it from elsewhere, put it behind an SSH tunnel "
           "or a proxy of your own that authenticates")


def serve(server: MCPServer, host: str, port: int) -> None:
    """Serve `server` at http://host:port/mcp until stopped. InputError for an address it may not
    listen on."""
    if not is_loopback(host):
        raise InputError(f"--host {host}: {NO_KEYS}")
    app = server.streamable_http_app(streamable_http_path=PATH, host=host)
    shown = f"[{host}]" if ":" in host else host
    print(terminal_text(f"finsearch: MCP server at http://{shown}:{port}{PATH} (Ctrl-C stops it)"),
          file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")).run()
