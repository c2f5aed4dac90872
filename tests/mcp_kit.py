"""The MCP server as a test meets it, through the SDK's own client: over stdio, the command
`python -m finsearch mcp` started by the client as a subprocess with its own data and cache
folders; over streamable HTTP, a real uvicorn server on a free loopback port in a thread of the
test's process (so a test can look at its store and run slots), stopped cleanly after."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import anyio
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from finsearch.mcp_server.http import PATH, http_server
from finsearch.settings import Settings
from tests.conftest import DEMO_PACK, ROOT
from tests.redis_kit import free_port
from tests.uvicorn_kit import serving

T = TypeVar("T")

NOW = "2024-10-15T20:00:00Z"
QUESTION = "Why did NVDA fall last week?"
REPORT = "Research report on NVDA"


def stdio_server(home: Path, **env: str) -> StdioServerParameters:
    """`python -m finsearch mcp` answering from the demo pack offline at the pack's time, with
    folders of its own under `home` and nothing of the developer's environment."""
    return StdioServerParameters(
        command=sys.executable, args=["-m", "finsearch", "mcp"], cwd=str(ROOT),
        env={"FINSEARCH_PACK": str(DEMO_PACK), "FINSEARCH_OFFLINE": "1", "FINSEARCH_NOW": NOW,
             "FINSEARCH_DATA_DIR": str(home / "data"), "FINSEARCH_CACHE_DIR": str(home / "cache"), **env})


@dataclasses.dataclass(frozen=True)
class ServedMcp:
    url: str

    @contextlib.asynccontextmanager
    async def client(self, key: str | None = None) -> AsyncIterator[Client]:
        """A client session with this server, sending `key` as its API key when given."""
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=120.0)) as http, \
                Client(streamable_http_client(self.url, http_client=http)) as client:
            yield client


@contextlib.contextmanager
def served_mcp(settings: Settings, host: str = "127.0.0.1") -> Iterator[ServedMcp]:
    """`python -m finsearch mcp --http` over `settings`, as its command serves it."""
    port = free_port()
    with serving(http_server(settings, host, port), "MCP server"):
        yield ServedMcp(f"http://127.0.0.1:{port}{PATH}")


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def resource_json(read) -> dict:
    """The JSON object a resource read returned."""
    (content,) = read.contents
    assert content.mime_type == "application/json"
    return json.loads(content.text)


class Progress:
    """The progress notifications of one call, as the client's callback receives them."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, float | None, str]] = []

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.seen.append((progress, total, message or ""))

    @property
    def messages(self) -> list[str]:
        return [message for _, _, message in self.seen]


def in_own_loop(session: Callable[..., Awaitable[T]], *args) -> T:
    """`anyio.run(session, *args)` on a thread of its own: the suite's Playwright (its sync API) keeps an
    event loop running on the main thread, where `anyio.run` refuses to start another."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append((True, anyio.run(session, *args)))
        except BaseException as exc:        # handed to the test's own thread, which re-raises it
            outcome.append((False, exc))

    worker = threading.Thread(target=run, name="mcp-test-session")
    worker.start()
    worker.join()
    ok, value = outcome[0]
    if not ok:
        raise value
    return value
