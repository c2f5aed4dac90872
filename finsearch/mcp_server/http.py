"""The MCP server over streamable HTTP, at `/mcp`, served by uvicorn until SIGINT or SIGTERM.

Every request shows who it is before the MCP session sees it (`KeyCheck`): an API key, needed
unless the server listens on loopback only (`service.callers.keys_required`, as for the HTTP API;
`FINSEARCH_API_KEYS_REQUIRED` decides otherwise). On loopback the SDK's DNS-rebinding guard also
refuses a Host or Origin that is not a loopback one, so a web page in the user's browser cannot
call the server either."""

from __future__ import annotations

import sys

import anyio
import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import StoreUnavailable
from ..hosting.api_keys import ApiKeyStore, open_key_store
from ..service.callers import ApiError, identify, keys_required
from ..settings import Settings
from ..terminal import terminal_text
from .callers import HttpCallers
from .server import build_server

PATH = "/mcp"


class KeyCheck:
    """An HTTP request reaches the MCP app only once its caller is known; otherwise 401 (a key
    missing or wrong) or 503 (the keys' store is down), as the HTTP API answers them."""

    def __init__(self, app: ASGIApp, keys: ApiKeyStore, required: bool):
        self.app, self.keys, self.required = app, keys, required

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = await anyio.to_thread.run_sync(self._refusal, Request(scope))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, request: Request) -> JSONResponse | None:
        try:
            identify(request, self.keys, self.required)
        except ApiError as exc:
            return JSONResponse({"error": exc.message}, exc.status, headers=exc.headers)
        except StoreUnavailable as exc:
            return JSONResponse({"error": str(exc)}, 503)
        return None


def http_server(settings: Settings, host: str, port: int) -> uvicorn.Server:
    """The MCP server for `settings` at http://host:port/mcp, ready to `run()` (until SIGINT or
    SIGTERM, or `should_exit`)."""
    keys, required = open_key_store(settings), keys_required(host, settings)
    server = build_server(settings, HttpCallers(keys, required))
    app = KeyCheck(server.streamable_http_app(streamable_http_path=PATH, host=host), keys, required)
    return uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on"))


def serve(settings: Settings, host: str, port: int) -> None:
    """Serve until stopped, saying where on stderr."""
    served = http_server(settings, host, port)
    shown = f"[{host}]" if ":" in host else host
    required = keys_required(host, settings)
    print(terminal_text(f"finsearch: MCP server at http://{shown}:{port}{PATH}"
                        f"{' (API keys required)' if required else ''}; Ctrl-C stops it"), file=sys.stderr, flush=True)
    served.run()
