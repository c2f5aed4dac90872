"""Running one job, the same way on either backend: its kind's function is called with a `RunningJob`
(its id, its JSON arguments, the settings, and `say` for its progress), between a JobStarted line (which
attempt this is) and a JobDone or JobFailed line. `run_job` is what RQ calls in a worker."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from ..errors import FinSearchError
from ..settings import Settings
from ..settings import from_env as settings_from_env
from .kinds import kind_of
from .progress import START, ProgressBoard, RedisProgress

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class RunningJob:
    job_id: str
    kind: str
    args: dict                             # as enqueued: JSON
    settings: Settings
    attempt: int                           # 1 for the first try
    say: Callable[[dict], object]          # adds a line to the job's progress
    # Queues a follow-up job on the same queue (`JobQueue.enqueue(kind, job_id, args)`): a brief's deliveries.
    enqueue: Callable[[str, str, dict], bool] | None = None
    # The orders given to it (`JobQueue.tell`) not yet heard by this attempt, oldest first.
    heard: Callable[[], list[dict]] = lambda: []


def perform(kind: str, job_id: str, args: dict, settings: Settings, board: ProgressBoard,
            enqueue: Callable[[str, str, dict], bool] | None = None) -> None:
    """Run the job; its failure is said on its progress and raised again (the backend then retries it)."""
    attempt = board.attempt(job_id)
    board.say(job_id, {"type": "JobStarted", "kind": kind, "attempt": attempt})
    job = RunningJob(job_id, kind, args, settings, attempt, lambda line: board.say(job_id, line), enqueue,
                     _Orders(board, job_id).heard)
    try:
        kind_of(kind).callable()(job)
    except Exception as exc:
        reason = str(exc) if isinstance(exc, FinSearchError) else type(exc).__name__
        log.warning("job %s (%s) failed on attempt %s: %s", job_id, kind, attempt, reason)
        board.say(job_id, {"type": "JobFailed", "attempt": attempt, "error": reason})
        raise
    board.say(job_id, {"type": "JobDone", "attempt": attempt})


def run_job(kind: str, job_id: str, args: dict) -> None:
    """RQ's entry (in the work horse): the worker's settings come from its environment, as the app's do."""
    from .rq_queue import RqJobs

    settings = settings_from_env()
    jobs = RqJobs(settings.redis_url)
    try:
        perform(kind, job_id, args, settings, RedisProgress(settings.redis_url), jobs.enqueue)
    finally:
        jobs.close()


class _Orders:
    """What a job was told, read on: each call answers the orders since the last."""

    def __init__(self, board: ProgressBoard, job_id: str):
        self.board, self.job_id, self.last = board, job_id, START

    def heard(self) -> list[dict]:
        found = self.board.orders(self.job_id, self.last)
        if found:
            self.last = found[-1].line_id
        return [line.line for line in found]
