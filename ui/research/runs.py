"""Where this visitor's report is written: as a job (`QueuedReport`: it outlives this page, this session and
this server process, and any replica can follow it again by its id), or — when the visitor's settings hold
a secret no job may carry, their own model key or SEC contact — in this process (`BackgroundReport`)."""

from __future__ import annotations

from finsearch.background.queued_report import QueuedReport
from finsearch.background.report import BackgroundReport, ReportRun
from finsearch.errors import FinSearchError
from finsearch.jobs.settings_args import settings_args
from finsearch.jobs.shared import jobs_here
from finsearch.result import new_id
from finsearch.store import valid_id
from ui import identity, state
from ui.research import stored


def new_run(question: str) -> ReportRun:
    """A report on `question` for this visitor, not started."""
    server, settings, report_id = state.server_settings(), state.effective_settings(), new_id()
    carried = settings_args(server, settings)
    if carried is None:
        return BackgroundReport(question, settings, on_finish=stored.saver(), report_id=report_id)
    return QueuedReport(question, jobs_here(server), state.store(), identity.visitor().owner, report_id,
                        settings_args=carried)


def following(report_id: str) -> QueuedReport | None:
    """This visitor's report `report_id` while a job still writes it (a reload, or another replica, picks
    it up again); None when it is written, gone, or not theirs."""
    if not valid_id(report_id):
        return None
    try:
        if state.store().owner_of(report_id) is not None:      # written: the page opens it from the store
            return None
        server = state.server_settings()
        found = QueuedReport.of_job(report_id, jobs_here(server), state.store(), identity.visitor().owner)
        return found if found is not None and not found.join(0) else None
    except FinSearchError:         # Redis down: the page then says the report cannot be loaded
        return None
