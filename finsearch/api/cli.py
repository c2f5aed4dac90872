"""`python -m finsearch api --host H --port P` (serve the HTTP API) and `python -m finsearch api-key
create|list|revoke` (the operator's API keys) — the edge.

Bad input raises InputError (the main CLI prints it on one line and exits 2). A key is printed once,
on stdout alone, when it is made (`KEY=$(python -m finsearch api-key create)`); nothing else ever shows it.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone

from ..errors import InputError
from ..hosting import api_keys
from ..hosting.api_keys import open_key_store
from ..settings import from_env as settings_from_env
from ..terminal import terminal_text

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def add_parser(sub) -> None:
    """Register the `api` and `api-key` subcommands on the main parser's subparsers."""
    api = sub.add_parser("api", help="serve the HTTP API (POST /v1/ask, /v1/reports; docs at /docs)",
                         description="Serve the HTTP API with the server's settings (FINSEARCH_PACK, FINSEARCH_NOW, "
                                     "FINSEARCH_OFFLINE, the model variables, FINSEARCH_REDIS_URL). On loopback no "
                                     "API key is needed; on any other address every call needs one.")
    api.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    api.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    keys = sub.add_parser("api-key", help="make, list or revoke the HTTP API's keys (only a hash of each is kept)")
    action = keys.add_subparsers(dest="key_action", required=True)
    create = action.add_parser("create", help="make a key and print it once")
    create.add_argument("--label", help="what the key is for, shown by `list` (e.g. the team or the bot)")
    action.add_parser("list", help="the keys' ids, labels and when they were made (never the keys)")
    revoke = action.add_parser("revoke", help="revoke a key: its next call is refused")
    revoke.add_argument("key_id", metavar="ID", help="the key's id, as `list` shows it")


def run(args: argparse.Namespace) -> int:
    """Run `api` or `api-key`; InputError on bad input (exit 2 in the caller)."""
    settings = settings_from_env()
    if args.command == "api":
        # FastAPI and uvicorn only when serving
        from .app import server

        if not 0 < args.port < 65536:
            raise InputError(f"--port must be between 1 and 65535, not {args.port}")
        server(settings, args.host, args.port).run()
        return 0
    store = open_key_store(settings)
    if args.key_action == "create":
        kept, key = api_keys.create(store, args.label)
        _say(f"finsearch: API key {kept.key_id} made{f' ({kept.label})' if kept.label else ''}. "
             "It is shown once, below: keep it now.")
        print(key, flush=True)
        return 0
    if args.key_action == "list":
        for kept in api_keys.listed(store):
            made = datetime.fromtimestamp(kept.created, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            print(terminal_text(f"{kept.key_id}  {made}  {kept.label}".rstrip()))
        return 0
    if not api_keys.revoke(store, args.key_id):
        raise InputError(f"no API key {args.key_id}: `python -m finsearch api-key list` shows them")
    _say(f"finsearch: API key {args.key_id} revoked")
    return 0


def _say(text: str) -> None:
    print(terminal_text(text), file=sys.stderr, flush=True)
