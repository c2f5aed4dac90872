"""Lines as the HTTP API sends them: one JSON object as `ask --json` prints it, or Server-Sent Events,
one `data:` line per object as `ask --events` prints them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

from sse_starlette.sse import EventSourceResponse
from starlette.responses import Response

from ..terminal import json_text

PING_S = 2.0           # a comment line this often while a run is quiet: a client gone is noticed by it


class JsonText(Response):
    """One JSON object as the command line prints it (`terminal.json_text`: non-ASCII kept, control
    characters escaped, a lone surrogate U+FFFD)."""
    media_type = "application/json"

    def render(self, content) -> bytes:
        return json_text(content).encode("utf-8")


def wants_events(accept: str | None) -> bool:
    """Does an Accept header ask for Server-Sent Events?"""
    return "text/event-stream" in (accept or "").lower()


def event_stream(lines: AsyncIterator[dict], on_close: Callable[[], None] | None = None) -> EventSourceResponse:
    """`lines` as Server-Sent Events; `on_close` is called when the stream ends, whether its lines
    ran out or its client went away (for an answer: stop the run)."""

    async def events() -> AsyncIterator[dict]:
        try:
            async for line in lines:
                yield {"data": json_text(line)}
        finally:
            if on_close is not None:
                on_close()

    async def closed(_message) -> None:
        if on_close is not None:
            on_close()

    return EventSourceResponse(events(), ping=PING_S, client_close_handler_callable=closed,
                               headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
