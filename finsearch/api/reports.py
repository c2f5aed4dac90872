"""Deep research reports and stored runs over HTTP: `POST /v1/reports` starts one (202 with its id),
`GET /v1/reports/{id}` says where it stands (the report itself once written, from the store, so any
replica answers), `GET /v1/reports/{id}/events` streams its progress with the report last,
`DELETE /v1/reports/{id}` stops it (written from the sections as they stand, marked cancelled);
`GET /v1/runs/{id}` opens a stored answer. Each opens only what its caller may (`service.records`):
another's id is "not found"."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ..errors import InputError
from ..result import new_id
from ..service.callers import ApiError, Caller, admit, hold, identify
from ..service.records import stored
from ..service.report_feed import ReportFeed
from .bodies import ERRORS, ReportBody, ReportProgress, ReportState, ReportTicket, ask_request, body_schema
from .desk import ReportOnDesk
from .state import ApiState, state_of
from .streams import JsonText, event_stream

NOT_FOUND = "no {kind} with this id (it may belong to someone else, or be gone)"
WRITTEN = "this report is already written: there is nothing to stop"

router = APIRouter()


async def _caller(request: Request) -> tuple[ApiState, Caller]:
    api = state_of(request)
    return api, await run_in_threadpool(identify, request, api.keys, api.keys_required)


@router.post("/v1/reports", status_code=202, response_model=ReportTicket, summary="Start a deep research report",
             description="Research a request section by section, as `python -m finsearch report` does (the outline "
                         "is researched as drafted). Answers at once with the report's id.",
             openapi_extra=body_schema(ReportBody), responses=ERRORS)
async def start_report(request: Request) -> Response:
    api, caller = await _caller(request)
    asked = await ask_request(request)
    try:
        report_id = new_id()
        store = api.store
        feed = ReportFeed(asked, api.settings, on_finish=lambda report: store.save(
            dataclasses.replace(report, report_id=report_id), owner=caller.owner))
    except InputError as exc:
        raise ApiError(400, str(exc)) from None
    await run_in_threadpool(admit, caller, api.settings, api.counter, asked.question)
    on_desk = api.reports.start(report_id, caller.owner, feed)
    hold(caller, feed.report)
    return JsonText(ReportTicket(report_id=on_desk.report_id).model_dump(), status_code=202,
                    headers={"Location": f"/v1/reports/{report_id}"})


@router.get("/v1/reports/{report_id}", response_model=ReportState, summary="Where a report stands",
            description="`running` with sections done of the outline's, then `done` with `report --json`'s object "
                        "(or `failed` with the error).", responses=ERRORS)
async def report_state(report_id: str, request: Request) -> Response:
    api, caller = await _caller(request)
    on_desk = api.reports.find(report_id, caller.owner)
    if on_desk is not None and not on_desk.lines.ended:
        done, total = on_desk.progress()
        return JsonText(ReportState(report_id=report_id, status="running",
                                    progress=ReportProgress(done=done, total=total)).model_dump())
    found = await run_in_threadpool(stored, api.store, "report", report_id, caller.owner)
    if found is not None:
        return JsonText(ReportState(report_id=report_id, status="done", report=found.to_dict()).model_dump())
    outcome = on_desk.outcome() if on_desk is not None else None
    if outcome is None:
        raise ApiError(404, NOT_FOUND.format(kind="report"))
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
    on_desk: ReportOnDesk | None = api.reports.find(report_id, caller.owner)
    if on_desk is not None:
        return event_stream(on_desk.lines.follow())
    found = await run_in_threadpool(stored, api.store, "report", report_id, caller.owner)
    if found is None:
        raise ApiError(404, NOT_FOUND.format(kind="report"))
    return event_stream(_one(found.to_dict()))


@router.delete("/v1/reports/{report_id}", status_code=202, response_model=ReportState, summary="Stop a report",
               description="Stops a report this server is writing: it is written from the sections researched so far, "
                           "marked `cancelled`, and stored (follow it with GET). A report already written is left "
                           "as it is (409).", responses=ERRORS)
async def stop_report(report_id: str, request: Request) -> Response:
    api, caller = await _caller(request)
    on_desk = api.reports.find(report_id, caller.owner)
    if on_desk is None:
        found = await run_in_threadpool(stored, api.store, "report", report_id, caller.owner)
        raise ApiError(404, NOT_FOUND.format(kind="report")) if found is None else ApiError(409, WRITTEN)
    if on_desk.lines.ended:
        raise ApiError(409, WRITTEN)
    on_desk.feed.stop()
    done, total = on_desk.progress()
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
