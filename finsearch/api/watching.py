"""Watchlists and the inbox over HTTP, for the caller (an API key's owner, or this machine's user): `GET
/v1/watchlist`, `PUT` / `DELETE /v1/watchlist/instruments/{ticker}`, `PUT /v1/watchlist/schedule`, `GET /v1/inbox`
and `POST /v1/briefs` (a brief now, as a job, into the inbox). The edits are `watch.mine`'s, as the app's are:
one watchlist per owner, each change atomic; another caller's watchlist and inbox are never reached."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Literal

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ..delivery.inbox import open_inbox
from ..errors import InputError
from ..phrases import say
from ..service.callers import ApiError, Caller, admit, identify
from ..watch import mine
from ..watch.brief_now import asked_id, brief_now_args
from ..watch.lists import open_watchlists
from ..watch.watchlist import MAX_INSTRUMENTS, Schedule, instrument_of
from .bodies import ERRORS, body_schema
from .state import ApiState, state_of
from .streams import JsonText
from .watch_bodies import BriefTicket, InboxBody, InboxItemBody, ScheduleBody, WatchlistBody

NO_WATCHLIST = "you have no watchlist yet: add an instrument with PUT /v1/watchlist/instruments/{ticker}"
NOT_WATCHED = "{ticker} is not on your watchlist"
FULL = f"your watchlist holds {MAX_INSTRUMENTS} instruments, the most it may: remove one first"
NOT_A_SCHEDULE = ('the body is not a schedule: send {"cadence": "daily" or "weekly", "at": "HH:MM", '
                  '"timezone": an IANA name such as "America/New_York", "weekday": 0 (Monday) to 6, weekly only}')
MAX_SCHEDULE_BYTES = 4096
MAX_INBOX = 200

router = APIRouter()


async def _caller(request: Request) -> tuple[ApiState, Caller]:
    api = state_of(request)
    return api, await run_in_threadpool(identify, request, api.keys, api.keys_required)


def _ticker(text: str, language: Literal["en", "zh"]) -> str:
    try:
        return instrument_of(text, language)
    except InputError as exc:
        raise ApiError(400, str(exc)) from None


def _shown(watchlist, settings) -> Response:
    return JsonText(WatchlistBody.of(watchlist, settings.now).model_dump())


@router.get("/v1/watchlist", response_model=WatchlistBody, summary="Your watchlist", responses=ERRORS,
            description="The instruments you watch, when your brief is due and where your notices go.")
async def watchlist(request: Request) -> Response:
    api, caller = await _caller(request)
    owner = caller.owner
    found = await run_in_threadpool(mine.mine, open_watchlists(api.settings), owner)
    if found is None:
        raise ApiError(404, NO_WATCHLIST)
    return _shown(found, api.settings)


@router.put("/v1/watchlist/instruments/{ticker}", response_model=WatchlistBody, summary="Watch an instrument",
            description="Adds the instrument (a ticker or a company's name, read as a question's are: NVDA, 0700.HK, "
                        "600519, 茅台). The first makes your watchlist: a daily brief at 08:00 on its market's clock, "
                        "written in `language`. 201 when made, 200 when added or already watched.",
            responses=ERRORS)
async def watch(ticker: str, request: Request, language: Literal["en", "zh"] = "en") -> Response:
    api, caller = await _caller(request)
    owner = caller.owner
    done = await run_in_threadpool(mine.watch, open_watchlists(api.settings), owner, _ticker(ticker, language),
                                   language)
    if done.outcome == "full":
        raise ApiError(400, FULL)
    response = _shown(done.watchlist, api.settings)
    response.status_code = 201 if done.outcome == "created" else 200
    return response


@router.delete("/v1/watchlist/instruments/{ticker}", response_model=WatchlistBody, summary="Stop watching",
               description="Removes the instrument; removing the last deletes your watchlist (204).",
               responses={204: {"description": "that was the last: the watchlist is deleted"}, **ERRORS})
async def unwatch(ticker: str, request: Request) -> Response:
    api, caller = await _caller(request)
    owner = caller.owner
    symbol = _ticker(ticker, "en")
    done = await run_in_threadpool(mine.unwatch, open_watchlists(api.settings), owner, symbol)
    if done.outcome == "not_watched":
        raise ApiError(404, NOT_WATCHED.format(ticker=symbol))
    return _shown(done.watchlist, api.settings) if done.watchlist is not None else Response(status_code=204)


@router.put("/v1/watchlist/schedule", response_model=WatchlistBody, summary="When your brief comes",
            description="Daily or weekly, at a local time in an IANA time zone; on trading days of your "
                        "instruments' markets unless `closed_days`.",
            openapi_extra=body_schema(ScheduleBody), responses=ERRORS)
async def reschedule(request: Request) -> Response:
    api, caller = await _caller(request)
    owner = caller.owner
    schedule = _schedule(await _small_body(request))
    kept = await run_in_threadpool(mine.reschedule, open_watchlists(api.settings), owner, schedule)
    if kept is None:
        raise ApiError(404, NO_WATCHLIST)
    return _shown(kept, api.settings)


@router.get("/v1/inbox", response_model=InboxBody, summary="Your notices", responses=ERRORS,
            description="Your briefs and alerts, newest first, each with whether it was read.")
async def inbox(request: Request, limit: int = 50) -> Response:
    api, caller = await _caller(request)
    owner = caller.owner
    box = open_inbox(api.settings)
    items = await run_in_threadpool(box.items, owner, max(0, min(limit, MAX_INBOX)))
    unread = await run_in_threadpool(box.unread, owner)
    return JsonText(InboxBody(unread=unread, items=[InboxItemBody.of(i) for i in items]).model_dump())


@router.post("/v1/briefs", status_code=202, response_model=BriefTicket, summary="Brief me now",
             description="Writes the brief on your watchlist's instruments now, as a job (it counts as one question "
                          "for your limits); it arrives in GET /v1/inbox. Your scheduled brief still comes.",
             responses=ERRORS)
async def brief_now(request: Request) -> Response:
    api, caller = await _caller(request)
    owner = caller.owner
    found = await run_in_threadpool(mine.mine, open_watchlists(api.settings), owner)
    if found is None:
        raise ApiError(404, NO_WATCHLIST)
    question = say("brief_now.question", found.language, names=", ".join(found.instruments))
    await run_in_threadpool(admit, caller, api.settings, api.counter, question)
    job_id = asked_id(found, datetime.now(timezone.utc))
    await run_in_threadpool(api.jobs.enqueue, "brief_now", job_id, brief_now_args(found))
    return JsonText(BriefTicket(job_id=job_id).model_dump(), status_code=202)     # asked twice a second: one job


async def _small_body(request: Request) -> object:
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_SCHEDULE_BYTES:
            raise ApiError(413, NOT_A_SCHEDULE)
    try:
        return json.loads(bytes(raw).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(400, NOT_A_SCHEDULE) from None


def _schedule(body: object) -> Schedule:
    try:
        shape = ScheduleBody.model_validate(body)
        at = datetime.strptime(shape.at, "%H:%M").time()
        return Schedule(shape.cadence, at, shape.timezone, shape.weekday, shape.closed_days)
    except (ValidationError, ValueError, TypeError):
        raise ApiError(400, NOT_A_SCHEDULE) from None
