"""The deep research report as a job: a `BackgroundReport` run on a worker (or the in-process one), its
progress said as lines (`background.report_lines`) and the orders of whoever follows it obeyed: stop, hold
the outline (being edited), approve it as drafted or edited. A report asked for by a program (the API, a
schedule) has no editor: its outline is researched as drafted. The report is stored for its owner under
the id it was given when enqueued, so it is in their History whichever process wrote it and whatever
happened to the page that asked. A retry after the report was stored stores nothing again."""

from __future__ import annotations

import dataclasses

from ..background.report import BackgroundReport, ReportView
from ..background.report_lines import STOPPED_EARLY, ReportTeller, outcome_of, unsaved_line
from ..errors import FinSearchError, InputError
from ..research.outline import Outline
from ..service.request import AskRequest
from ..store import open_store, valid_id
from .running import RunningJob
from .settings_args import with_settings_args

POLL_S = 0.25             # how often the report is looked at and its orders read: a click is answered within it


def report_args(question: str, owner: str, report_id: str, now: str | None = None, *, editable: bool = False,
                settings: dict | None = None) -> dict:
    """The JSON arguments of a "report" job (stored as `report_id`: `result.new_id()`). `editable`: its
    outline waits for approval as the app's settings say; `settings`: `settings_args` of the asker's."""
    AskRequest(question, now).checked()             # refused when asked, not on a worker
    if not valid_id(report_id):
        raise InputError("a report id is 8 to 64 letters, digits, _ and -")
    return {"question": question, "owner": owner, "report_id": report_id, "now": now, "editable": editable,
            "settings": settings or {}}


def write_report(job: RunningJob) -> None:
    args = job.args
    report_id, owner = args["report_id"], args["owner"]
    store = open_store(job.settings)
    if store.load(report_id, "report") is not None:     # written by an earlier try that was lost after saving
        job.say({"type": "AlreadyWritten", "report_id": report_id})
        return
    waiting = job.heard()
    if any(order.get("order") == "stop" for order in waiting):     # stopped while queued: not even an outline
        job.say({"type": "State", "status": "stopped", "stopping": True})
        job.say({"type": "Error", "error": STOPPED_EARLY})
        return
    request = AskRequest(args["question"], args.get("now")).checked()
    settings = request.settings(with_settings_args(job.settings, args.get("settings") or {}))
    run = BackgroundReport(request.question, settings, on_finish=lambda report: store.save(report, owner=owner),
                           report_id=report_id).start()
    teller = ReportTeller()
    while True:
        ended = run.join(POLL_S)
        view = run.view()
        waiting = [order for order in waiting + job.heard() if not _obey(run, view, order)]
        if not args.get("editable") and view.status == "outline" and not view.approved:
            run.approve()
        for line in teller.lines(view, run.section_graph):
            job.say(line)
        if ended:
            break
    _finish(job, run.view())


def _obey(run: BackgroundReport, view: ReportView, order: dict) -> bool:
    """Carry out `order`; False when it must wait (an approval before the outline is drafted)."""
    match order.get("order"):
        case "stop":
            run.stop()
        case "hold":
            run.hold()
        case "approve":
            if view.outline is None:
                return False
            edited = order.get("outline")
            # JSON does not carry what drafting the outline cost: the drafted one's, so the report counts it.
            run.approve(dataclasses.replace(Outline.from_json(edited), usage=view.outline.usage) if edited else None)
    return True


def _finish(job: RunningJob, view: ReportView) -> None:
    if view.report is not None and view.save_error:
        job.say(unsaved_line(view.report))
    outcome = outcome_of(view)
    job.say(outcome)
    if outcome.get("type") == "Error" and view.status == "failed":
        raise FinSearchError(outcome["error"])
    if view.save_error:                 # not in History: worth another try
        raise FinSearchError(view.save_error)
