"""`python -m finsearch mcp [--http --port N [--host H]]` — the MCP server's command: over stdio
by default (an MCP client starts it), or over streamable HTTP at http://H:N/mcp.

Configured as the command line is: `settings.from_env` (FINSEARCH_PACK, FINSEARCH_NOW,
FINSEARCH_OFFLINE, the model variables …). Over stdio, stdout is the protocol: nothing else is
printed there (messages and logs go to stderr)."""

from __future__ import annotations

import argparse

from ..errors import InputError
from ..settings import from_env as settings_from_env

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def add_parser(sub) -> argparse.ArgumentParser:
    """Register the `mcp` subcommand on the main parser's subparsers."""
    p = sub.add_parser(
        "mcp", help="serve FinSearch to MCP clients (Claude Desktop, Cursor …): over stdio, or --http",
        description="The Model Context Protocol server: tools ask, plan, research_report and one per data "
                    "source; resources finsearch://runs/{id} and finsearch://reports/{id}. Configured by the "
                    "same environment as the command line (FINSEARCH_PACK, FINSEARCH_NOW, FINSEARCH_OFFLINE, "
                    "OPENAI_BASE_URL …).")
    p.add_argument("--http", action="store_true",
                   help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"with --http: the address to listen on (default {DEFAULT_HOST}); on any address but "
                        "loopback every call needs an API key (python -m finsearch api-key create)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"with --http: the port (default {DEFAULT_PORT})")
    return p


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes stdin (stdio) or the server is stopped (HTTP)."""
    if not args.http and (args.host != DEFAULT_HOST or args.port != DEFAULT_PORT):
        raise InputError("--host and --port are for --http (over stdio the client starts the server itself)")
    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port}: a port is a number from 1 to 65535")
    settings = settings_from_env()
    if args.http:
        from .http import serve  # the SDK and uvicorn are imported only when the server runs

        serve(settings, args.host, args.port)
    else:
        from .server import build_server

        build_server(settings).run("stdio")
    return 0
