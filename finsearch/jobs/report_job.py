"""The deep research report as a job: written for its owner as the API's `POST /v1/reports` writes one
(`ReportFeed`, the outline researched as drafted), its progress said line by line in the same form as the
API's event stream, and the report stored under the id it was given when enqueued — so it is in its
owner's History whichever process wrote it. A retry after the report was stored stores nothing again."""

from __future__ import annotations

import dataclasses

from ..errors import FinSearchError, InputError
from ..service.report_feed import ReportFeed
from ..service.request import AskRequest
from ..store import open_store, valid_id
from .running import RunningJob


def report_args(question: str, owner: str, report_id: str, now: str | None = None) -> dict:
    """The JSON arguments of a "report" job (the report is stored as `report_id`: `result.new_id()`)."""
    AskRequest(question, now).checked()             # refused when asked, not on a worker
    if not valid_id(report_id):
        raise InputError("a report id is 8 to 64 letters, digits, _ and -")
    return {"question": question, "owner": owner, "report_id": report_id, "now": now}


def write_report(job: RunningJob) -> None:
    args = job.args
    report_id, owner = args["report_id"], args["owner"]
    store = open_store(job.settings)
    if store.load(report_id, "report") is not None:     # written by an earlier try that was lost after saving
        job.say({"type": "AlreadyWritten", "report_id": report_id})
        return
    feed = ReportFeed(AskRequest(args["question"], args.get("now")).checked(), job.settings,
                      on_finish=lambda report: store.save(dataclasses.replace(report, report_id=report_id),
                                                          owner=owner))
    feed.start()
    for step in feed.progress():
        job.say(step.line | {"done": step.done, "total": step.total})
    outcome = feed.outcome()
    if "report_id" in outcome:
        outcome["report_id"] = report_id
    job.say(outcome)
    if outcome.get("type") == "Error":
        raise FinSearchError(outcome["error"])
    if "save_error" in outcome:        # not in History: worth another try
        raise FinSearchError(outcome["save_error"])
