"""The HTTP API served for a test: a real uvicorn server on a free loopback port, in a thread of the
test's process (so a test can look at its run slots and stores), stopped cleanly after; and the
reading of a Server-Sent Events stream line by line, as a client does."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator

import httpx
import uvicorn

from finsearch.api.app import server
from finsearch.api.state import ApiState
from finsearch.settings import Settings
from tests.redis_kit import free_port
from tests.uvicorn_kit import serving

NOW = "2024-10-15T20:00:00Z"
QUESTION = "Why did NVDA fall last week?"


@dataclasses.dataclass(frozen=True)
class ServedApi:
    url: str
    server: uvicorn.Server

    @property
    def state(self) -> ApiState:
        return self.server.config.app.state.finsearch

    def client(self, key: str | None = None, **options) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=options.pop("timeout", 60.0), **options)


@contextlib.contextmanager
def served_api(settings: Settings, host: str = "127.0.0.1") -> Iterator[ServedApi]:
    """The API over `settings`, listening on `host` (reached through 127.0.0.1 either way)."""
    port = free_port()
    api = server(settings, host, port)
    with serving(api, "API server"):
        yield ServedApi(f"http://127.0.0.1:{port}", api)


def sse_lines(response: httpx.Response) -> Iterator[dict]:
    """Each `data:` line of a Server-Sent Events response, parsed, as it arrives (pings skipped)."""
    for text in response.iter_lines():
        if text.startswith("data:"):
            yield json.loads(text[len("data:"):].strip())
