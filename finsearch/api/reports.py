"""Deep research reports and stored runs over HTTP: `POST /v1/reports` starts one (202 with its id),
`GET /v1/reports/{id}` says where it stands (the report itself once written, from the store, so any
replica answers), `GET /v1/reports/{id}/events` streams its progress with the report last,
`DELETE /v1/reports/{id}` stops it (written from the sections as they stand, marked cancelled). A report
is a job (`service.report_feed`): any replica follows it by its id, and it outlives the one that took it;
`GET /v1/runs/{id}` opens a stored answer. Each opens only what its caller may (`service.records`):
another's id is "not found"."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ..errors import InputError
from ..service.callers import ApiError, Caller, admit, hold, identify
from ..service.records import stored
from ..service.report_feed import ReportFeed
from .bodies import ERRORS, ReportBody, ReportProgress, ReportState, ReportTicket, ask_request, body_schema
from .relay import Relay
from .state import ApiState, state_of
from .streams import JsonText, event_stream

NOT_FOUND = "no {kind} with this id (it may belong to someone else, or be gone)"
WRITTEN = "this report is already written: there is nothing to stop"
CRASHED = "the report stopped on an error on the server; please try again"

router = APIRouter()


async def _caller(request: Request) -> tuple[ApiState, Caller]:
    api = state_of(request)
    return api, await run_in_threadpool(identify, request, api.keys, api.keys_required)


@router.post("/v1/reports", status_code=202, response_model=ReportTicket, summary="Start a deep research report",
             description="Research a request section by section, as `python -m finsearch report` does (the outline "
                         "is researched as drafted), as a job: on a worker when the server has Redis, so any "
                         "replica follows it and a restarted one loses nothing. Answers at once with the report's id.",
             openapi_extra=body_schema(ReportBody), responses=ERRORS)
async def start_report(request: Request) -> Response:
    api, caller = await _caller(request)
    asked = await ask_request(request)
    try:
        feed = ReportFeed.asked(asked, api.jobs, api.store, caller.owner)
    except InputError as exc:
        raise ApiError(400, str(exc)) from None
    await run_in_threadpool(admit, caller, api.settings, api.counter, asked.question)
    await run_in_threadpool(feed.start)
    hold(caller, feed.report)
    return JsonText(ReportTicket(report_id=feed.report_id).model_dump(), status_code=202,
                    headers={"Location": f"/v1/reports/{feed.report_id}"})


@router.get("/v1/reports/{report_id}", response_model=ReportState, summary="Where a report stands",
            description="`running` with sections done of the outline's, then `done` with `report --json`'s object "
                        "(or `failed` with the error).", responses=ERRORS)
async def report_state(report_id: str, request: Request) -> Response:
    api, caller = await _caller(request)
    found = await run_in_threadpool(stored, api.store, "report", report_id, caller.owner)
    if found is not None:
        return JsonText(ReportState(report_id=report_id, status="done", report=found.to_dict()).model_dump())
    feed = await run_in_threadpool(ReportFeed.following, report_id, api.jobs, api.store, caller.owner)
    if feed is None:
        raise ApiError(404, NOT_FOUND.format(kind="report"))
    if not await run_in_threadpool(feed.ended):
        done, total = await run_in_threadpool(feed.where)
        return JsonText(ReportState(report_id=report_id, status="running",
                                    progress=ReportProgress(done=done, total=total)).model_dump())
    outcome = feed.outcome()
    if outcome.get("type") == "Error":
        return JsonText(ReportState(report_id=report_id, status="failed", error=outcome["error"]).model_dump())
    return JsonText(ReportState(report_id=report_id, status="done", report=outcome).model_dump())   # not stored


@router.get("/v1/reports/{report_id}/events", summary="A report's progress as Server-Sent Events",
            description="One `data:` line per step: OutlineReady (the sections), SectionStarted and SectionDone "
                        "(with `done` of `total`), then `report --json`'s object (or an Error line). Closing the "
                        "stream leaves the report running.",
            responses={200: {"content": {"text/event-stream": {}}, "description": "the progress, the report last"},
                       **ERRORS})
async def report_events(report_id: str, request: Request) -> Response:
    api, caller = await _caller(request)
    feed = await run_in_threadpool(ReportFeed.following, report_id, api.jobs, api.store, caller.owner)
    if feed is not None:
        relay = Relay(feed.report.lines(), lambda: {"type": "Error", "error": CRASHED}, name="finsearch-api-report")
        return event_stream(relay.start().follow())
    found = await run_in_threadpool(stored, api.store, "report", report_id, caller.owner)
    if found is None:
        raise ApiError(404, NOT_FOUND.format(kind="report"))
    return event_stream(_one(found.to_dict()))


@router.delete("/v1/reports/{report_id}", status_code=202, response_model=ReportState, summary="Stop a report",
               description="Stops a report being written: it is written from the sections researched so far, "
                           "marked `cancelled`, and stored (follow it with GET). A report already written is left "
                           "as it is (409).", responses=ERRORS)
async def stop_report(report_id: str, request: Request) -> Response:
    api, caller = await _caller(request)
    found = await run_in_threadpool(stored, api.store, "report", report_id, caller.owner)
    feed = None if found is not None else await run_in_threadpool(ReportFeed.following, report_id, api.jobs,
                                                                   api.store, caller.owner)
    if feed is None:
        raise ApiError(404, NOT_FOUND.format(kind="report")) if found is None else ApiError(409, WRITTEN)
    if await run_in_threadpool(feed.ended):
        raise ApiError(409, WRITTEN)
    await run_in_threadpool(feed.stop)
    done, total = await run_in_threadpool(feed.where)
    return JsonText(ReportState(report_id=report_id, status="running",
                                progress=ReportProgress(done=done, total=total)).model_dump(), status_code=202)


@router.get("/v1/runs/{run_id}", summary="A stored answer",
            description="An answer asked earlier by the same caller (its `run_id`), as `ask --json` printed it.",
            responses={200: {"description": "the `ask --json` object"}, **ERRORS})
async def run(run_id: str, request: Request) -> Response:
    api, caller = await _caller(request)
    found = await run_in_threadpool(stored, api.store, "run", run_id, caller.owner)
    if found is None:
        raise ApiError(404, NOT_FOUND.format(kind="answer"))
    return JsonText(found.to_dict(with_answer=True))


async def _one(line: dict):
    yield line
