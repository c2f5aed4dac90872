"""What the scheduler enqueues for the watchlists (a `jobs.schedule.SOURCES` function): each brief when its
slot comes (`schedule.due_briefs`) and, every quarter hour, one alert check of each watchlist with rules.

An alert check's id names its UTC quarter hour ("alerts-<watchlist>-20241031T2100Z"), so schedulers looking
several times within one quarter enqueue it once; what it fires is delivered once however often it fires."""

from __future__ import annotations

from datetime import datetime, timezone

from ..evidence import to_iso
from ..jobs.schedule import ScheduledJob
from ..settings import Settings
from .jobs import alerts_job_id, brief_args
from .lists import open_watchlists
from .schedule import due_briefs

ALERT_EVERY_MIN = 15


def alert_slot(moment: datetime) -> datetime:
    """The quarter hour (UTC) `moment` falls in."""
    moment = moment.astimezone(timezone.utc)
    return moment.replace(minute=moment.minute - moment.minute % ALERT_EVERY_MIN, second=0, microsecond=0)


def watch_jobs(settings: Settings, until: datetime) -> list[ScheduledJob]:
    """Every watch job due before `until`: the briefs due by then, and this quarter hour's alert checks."""
    watchlists = open_watchlists(settings)
    found = [ScheduledJob(due.job_id, "brief", brief_args(due), due.due_at) for due in due_briefs(watchlists, until)]
    slot = alert_slot(until)
    found += [ScheduledJob(alerts_job_id(w.watchlist_id, slot), "alerts",
                           {"watchlist_id": w.watchlist_id, "owner": w.owner, "slot": to_iso(slot)}, slot)
              for w in watchlists.every() if w.alerts]
    return found

