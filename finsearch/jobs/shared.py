"""The job queue of this process: one per Redis, or one in-process queue (its worker thread, and its
memory of which ids it took) for the whole process — a page, an API route and the scheduler thread
each asking for it get the same one. Opened with the server's settings: an asker's own travel in
its jobs' arguments (`settings_args`). `schedule_here` starts the in-process scheduler a machine
without Redis needs (with Redis, `python -m finsearch scheduler` does that, as often as you like)."""

from __future__ import annotations

import logging
import threading

from ..settings import Settings
from . import JobQueue, open_jobs

log = logging.getLogger(__name__)

SCHEDULE_EVERY_S = 30.0
SCHEDULE_AHEAD_S = 60.0
_lock = threading.Lock()
_queues: dict[str, JobQueue] = {}
_scheduling: set[str] = set()


def jobs_here(settings: Settings) -> JobQueue:
    """This process's queue for the Redis these settings name (or its in-process one without)."""
    key = settings.redis_url or f"local:{settings.data_dir}"
    with _lock:
        if key not in _queues:
            _queues[key] = open_jobs(settings)
        return _queues[key]


def schedule_here(settings: Settings) -> bool:
    """Without Redis, start this process's scheduler thread (once): the watchlists' briefs and alert
    checks then run here, on the in-process queue. With Redis, nothing (False): the scheduler service does."""
    if settings.redis_url:
        return False
    from .schedule import SOURCES, run_scheduler, source_functions

    key = str(settings.data_dir)
    with _lock:
        if key in _scheduling:
            return True
        _scheduling.add(key)
    jobs = jobs_here(settings)
    thread = threading.Thread(target=run_scheduler, name="finsearch-scheduler", daemon=True,
                              args=(jobs, settings, source_functions(SOURCES), SCHEDULE_EVERY_S, SCHEDULE_AHEAD_S),
                              kwargs={"quiet": True})
    thread.start()
    return True
