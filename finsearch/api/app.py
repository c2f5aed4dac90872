"""The HTTP API's application: FastAPI (its OpenAPI document and /docs come from the request types)
with the routes, every error as `{"error": message}` and never a traceback, CORS only for the
origins the operator lists; and how uvicorn serves it."""

from __future__ import annotations

import logging

import uvicorn
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response

from ..errors import StoreUnavailable
from ..service.callers import ApiError, keys_required
from ..settings import Settings
from . import asking, reports, watching
from .state import ApiState
from .streams import JsonText

log = logging.getLogger(__name__)

VERSION = "1"
GRACE_S = 3            # on shutdown, open streams are given this long to end before they are closed
UNEXPECTED = "something went wrong on the server ({name}); please try again"


def create_app(settings: Settings, *, keys_required: bool) -> FastAPI:
    """The API over `settings` (the server's own: its pack, model, store, limits); `keys_required`:
    whether every call must carry an API key (`service.callers.keys_required` decides it from where it listens)."""
    app = FastAPI(title="FinSearch API", version=VERSION, docs_url="/docs", redoc_url=None,
                  openapi_url="/openapi.json",
                  description="Real-time financial search over HTTP: the command line's `ask --json`, "
                              "`ask --events` and `report --json`, with API keys for hosted use.")
    app.state.finsearch = ApiState.open(settings, keys_required)
    app.include_router(asking.router)
    app.include_router(reports.router)
    app.include_router(watching.router)
    if settings.api_cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.api_cors_origins),
                           allow_methods=["GET", "POST"], allow_headers=["Authorization", "Content-Type", "Accept"],
                           max_age=600)
    app.add_exception_handler(ApiError, _refused)
    app.add_exception_handler(StoreUnavailable, _store_down)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _bad_request)
    app.add_exception_handler(Exception, _unexpected)
    return app


async def _refused(request: Request, exc: ApiError) -> Response:
    return JsonText({"error": exc.message}, status_code=exc.status, headers=exc.headers)


async def _store_down(request: Request, exc: StoreUnavailable) -> Response:
    return JsonText({"error": str(exc)}, status_code=503, headers={"Retry-After": "20"})


async def _http_error(request: Request, exc: HTTPException) -> Response:
    return JsonText({"error": str(exc.detail).lower()}, status_code=exc.status_code, headers=exc.headers)


async def _bad_request(request: Request, exc: RequestValidationError) -> Response:
    return JsonText({"error": "the request's path or query is not what this endpoint takes"}, status_code=400)


async def _unexpected(request: Request, exc: Exception) -> Response:
    log.error("%s %s failed: %s", request.method, request.url.path, type(exc).__name__, exc_info=exc)
    return JsonText({"error": UNEXPECTED.format(name=type(exc).__name__)}, status_code=500)


def server(settings: Settings, host: str, port: int) -> uvicorn.Server:
    """A uvicorn server of the API on `host`:`port`. The peer is the socket's own (no proxy headers
    read here: `hosting.network` reads X-Forwarded-For as far as FINSEARCH_TRUSTED_PROXIES says)."""
    app = create_app(settings, keys_required=keys_required(host, settings))
    return uvicorn.Server(uvicorn.Config(app, host=host, port=port, proxy_headers=False, server_header=False,
                                         timeout_graceful_shutdown=GRACE_S, log_level="info"))
