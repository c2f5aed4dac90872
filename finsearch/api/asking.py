"""`POST /v1/ask`: a question answered as `ask --json` prints it, or, asked with
`Accept: text/event-stream`, its `ask --events` lines as Server-Sent Events with the result last.

A run is the service's `RunFeed` (the app's own background run), admitted by the app's limits and
stored for its caller. A caller that goes away stops it: a closed event stream at once, a closed
JSON request when the server next looks (every `POLL_S`)."""

from __future__ import annotations

import anyio
from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ..service.callers import ApiError, admit, hold, identify
from ..service.feed import RunFeed
from .bodies import ERRORS, AskBody, ErrorBody, ask_request, body_schema
from .relay import Relay
from .state import state_of
from .streams import JsonText, event_stream, wants_events

POLL_S = 0.1
CRASHED = "the answer stopped on an error on the server; please try again"
ASK_DOC = """Answer a question with cited evidence: the object `python -m finsearch ask --json` prints.

With `Accept: text/event-stream`: Server-Sent Events, one `data:` line per pipeline event as
`ask --events` prints it (type, at_ms, node, status…), the result object last. Closing the stream
stops the run."""

router = APIRouter()


@router.post("/v1/ask", summary="Ask a question", description=ASK_DOC, openapi_extra=body_schema(AskBody),
             responses={200: {"description": "the `ask --json` object, or its events as text/event-stream",
                              "content": {"text/event-stream": {}}},
                        422: {"model": ErrorBody, "description": "the run could not answer"}, **ERRORS})
async def ask(request: Request) -> Response:
    api = state_of(request)
    caller = await run_in_threadpool(identify, request, api.keys, api.keys_required)
    asked = await ask_request(request)
    await run_in_threadpool(admit, caller, api.settings, api.counter, asked.question)
    store = api.store
    feed = RunFeed(asked, api.settings, on_finish=lambda result: store.save(result, owner=caller.owner)).start()
    hold(caller, feed.run)
    if wants_events(request.headers.get("accept")):
        lines = Relay(feed.lines(), lambda: {"type": "Error", "error": CRASHED}, name="finsearch-api-ask").start()
        return event_stream(lines.follow(), on_close=feed.stop)
    try:
        while not feed.run.join(0):
            if await request.is_disconnected():
                feed.stop()
                return Response(status_code=499)       # nobody is there to read it
            await anyio.sleep(POLL_S)
    except BaseException:           # the server is shutting down, or this task was cancelled: stop the run
        feed.stop()
        raise
    outcome = feed.outcome()
    if outcome.get("type") == "Error":
        raise ApiError(422, outcome["error"])
    return JsonText(outcome)
