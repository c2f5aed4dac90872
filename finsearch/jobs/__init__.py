"""Long work as jobs: `open_jobs(settings).enqueue(kind, job_id, args, at=None)` and `.read(job_id, after)`
for its progress. RQ on Redis when `FINSEARCH_REDIS_URL` is set (run `python -m finsearch worker`), else a
worker thread in this process (`local`); the same job code runs on both (`running.perform`).

    kinds.py      what each kind is: function, queue, time limit, retries
    running.py    one job run: JobStarted, the kind's function, JobDone / JobFailed
    progress.py   a job's progress lines (a capped, expiring Redis stream, or memory)
    rq_queue.py   the Redis backend        local.py     the in-process backend
    worker.py     `python -m finsearch worker`   schedule.py  `python -m finsearch scheduler`
    report_job.py the deep research report as a job
"""

from __future__ import annotations

from typing import Protocol

from ..settings import Settings
from .progress import START, ProgressLine


class JobQueue(Protocol):
    def enqueue(self, kind: str, job_id: str, args: dict, at=None) -> bool:
        """Queue job `job_id` of `kind` with JSON `args`, to run now or at `at` (an aware datetime);
        False when a job with this id is already queued, running or kept (it is not queued again).
        InputError for an unknown kind or a bad id; TypeError for arguments that are not JSON."""

    def read(self, job_id: str, after: str = START, wait_s: float = 0.0) -> list[ProgressLine]:
        """The job's progress lines after line id `after`."""

    def args_of(self, job_id: str) -> dict | None:
        """The arguments job `job_id` was enqueued with, while its record is kept; None when there is none."""

    def given_up(self, job_id: str) -> bool:
        """Whether the queue has given job `job_id` up without its code saying so: its worker was lost on its
        last try (a killed container), or its record is gone. A follower then stops waiting for its lines."""

    def tell(self, job_id: str, order: dict) -> None:
        """Ask something of the job while it runs (a report's stop, its outline approved): `RunningJob.heard`."""

    def close(self) -> None: ...


def open_jobs(settings: Settings) -> JobQueue:
    """The job queue these settings name (opening contacts nothing)."""
    if settings.redis_url:
        from .rq_queue import RqJobs

        return RqJobs(settings.redis_url)
    from .local import LocalJobs

    return LocalJobs(settings)


__all__ = ["START", "JobQueue", "ProgressLine", "open_jobs"]
