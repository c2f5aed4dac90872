"""`python -m finsearch scheduler`: a loop that enqueues the scheduled jobs whose time is near, each under
the id its schedule gives it (e.g. "brief-<watchlist>-<slot>"), so any number of schedulers may run: the
queue takes an id once (`enqueue` answers False to the others) and the job runs once.

The seam for what is scheduled: `SOURCES`, dotted paths of functions `(settings, until) -> iterable of
ScheduledJob` — every job due before `until` that should exist. The WATCH part (finsearch/watch) adds its
watchlists' briefs here; `--source` names others (a test's). A source answers from its own store each time,
so a schedule changed in the app is followed at the next look, and gives stable ids per slot: a slot
already enqueued is refused by id (while the queue keeps its record: its kind's `keep_s`)."""

from __future__ import annotations

import dataclasses
import importlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta, timezone

from ..settings import Settings
from .kinds import checked_id, kind_of

log = logging.getLogger(__name__)

SOURCES: tuple[str, ...] = ("finsearch.watch.scheduled.watch_jobs",)   # briefs and alert checks


@dataclasses.dataclass(frozen=True)
class ScheduledJob:
    job_id: str                         # stable per occurrence: the same slot, the same id
    kind: str
    args: dict
    due: datetime                       # aware


@dataclasses.dataclass(frozen=True)
class SchedulerRound:
    enqueued: int
    already: int                        # refused: another scheduler (or an earlier round) enqueued them


def source_functions(names: Iterable[str]) -> list[Callable[[Settings, datetime], Iterable[ScheduledJob]]]:
    found = []
    for name in names:
        module, _, function = name.rpartition(".")
        found.append(getattr(importlib.import_module(module), function))
    return found


def schedule_round(jobs, settings: Settings, sources, ahead_s: float) -> SchedulerRound:
    """Enqueue every job the sources say is due within `ahead_s` (at its time; a late one at once)."""
    now = datetime.now(timezone.utc)
    until = now + timedelta(seconds=ahead_s)
    enqueued = already = 0
    for source in sources:
        for job in source(settings, until):
            kind_of(job.kind)
            checked_id(job.job_id)
            if job.due > until:
                continue
            # One already due is queued at once: it waits on no worker's scheduler to move it.
            if jobs.enqueue(job.kind, job.job_id, job.args, at=job.due if job.due > now else None):
                enqueued += 1
            else:
                already += 1
    return SchedulerRound(enqueued, already)


def run_scheduler(jobs, settings: Settings, sources, every_s: float, ahead_s: float, rounds: int | None = None,
                  stop: threading.Event | None = None, quiet: bool = False) -> int:
    """Look every `every_s` seconds (for `rounds` looks, or until `stop`); prints each round's counts
    (unless `quiet`: a thread in the app's process)."""
    stop = stop or threading.Event()
    done = 0
    while not stop.is_set() and (rounds is None or done < rounds):
        started = time.monotonic()
        try:
            counted = schedule_round(jobs, settings, sources, ahead_s)
            if not quiet:
                print(f"scheduler: enqueued {counted.enqueued}, already enqueued {counted.already}", flush=True)
        except Exception as exc:  # a store or Redis down for a moment: the next round tries again
            log.warning("scheduler round failed: %s", type(exc).__name__)
        done += 1
        if rounds is None or done < rounds:
            stop.wait(max(0.0, every_s - (time.monotonic() - started)))
    return 0
