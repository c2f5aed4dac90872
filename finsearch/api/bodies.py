"""What a call to the HTTP API sends and gets back, as types: the OpenAPI document is generated from
them. A body is read as bytes (at most `MAX_BODY_BYTES`) and checked by the service's `AskRequest`,
so a field is refused with the command line's own message, naming it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field
from starlette.requests import Request

from .. import surrogates
from ..errors import InputError
from ..service.callers import ApiError
from ..service.request import AskRequest

MAX_BODY_BYTES = 64 * 1024      # a question is at most a few thousand characters
NOT_JSON = 'the body is not JSON: send an object, for example {"question": "Why did NVDA fall last week?"}'
TOO_LARGE = f"the body is larger than {MAX_BODY_BYTES // 1024} KiB: a question takes a few thousand characters"


class AskBody(BaseModel):
    """A question, as `python -m finsearch ask` takes it."""
    question: str = Field(description="the question", examples=["Why did NVDA fall last week?"])
    now: str | None = Field(None, description="pin the current time (ISO), as --now", examples=["2024-10-15T20:00:00Z"])
    tickers: list[str] | dict[str, str] | None = Field(
        None, description='read an instrument as another ticker, as --ticker: ["SOL=SOL-USD"] or {"SOL": "SOL-USD"}')
    period: str | None = Field(None, description="the period to search instead of the one read, as --period START:END",
                               examples=["2024-09-18:2024-10-15"])


class ReportBody(BaseModel):
    """A deep research report's request, as `python -m finsearch report` takes it."""
    question: str = Field(description="what the report researches",
                          examples=["Analyse NVIDIA's recent performance and outlook"])
    now: str | None = Field(None, description="pin the current time (ISO), as --now")


class ErrorBody(BaseModel):
    error: str = Field(description="what was wrong, and how to put it right")


class ReportTicket(BaseModel):
    report_id: str = Field(description="the report's id: GET /v1/reports/{report_id}, and its /events")
    status: Literal["running"] = "running"


class ReportProgress(BaseModel):
    done: int = Field(description="sections researched")
    total: int = Field(description="sections in the outline (0 until it is drafted)")


class ReportState(BaseModel):
    """Where a report stands: running with its progress, or ended with the report (`report --json`'s
    object) or the error that ended it."""
    report_id: str
    status: Literal["running", "done", "failed"]
    progress: ReportProgress | None = None
    report: dict[str, Any] | None = None
    error: str | None = None


def body_schema(model: type[BaseModel]) -> dict:
    """The OpenAPI `requestBody` of a route that reads its body itself (to answer 400, not 422)."""
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}}}


ERRORS = {status: {"model": ErrorBody, "description": text} for status, text in (
    (400, "a bad body: the message names the field"), (401, "an API key is needed, or the one sent is not valid"),
    (404, "no such id, or not the caller's"), (413, "the body is too large"),
    (429, "a limit was reached: Retry-After says when to ask again"), (503, "the store cannot be reached"))}


async def ask_request(request: Request) -> AskRequest:
    """The request's body read and checked; ApiError 400 (naming the field) or 413."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise ApiError(413, TOO_LARGE)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise ApiError(413, TOO_LARGE)
    try:
        body = surrogates.loads(bytes(raw).decode("utf-8"))      # a lone surrogate in the JSON: U+FFFD
    except (UnicodeDecodeError, ValueError, RecursionError):    # RecursionError: [[[[… nested past the parser
        raise ApiError(400, NOT_JSON) from None
    try:
        return AskRequest.from_json(body)
    except InputError as exc:
        raise ApiError(400, str(exc)) from None
