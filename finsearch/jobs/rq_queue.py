"""The job queue on Redis (`FINSEARCH_REDIS_URL`): RQ 3.0 queues, one per kind's queue, JSON-serialised
(nothing pickled crosses Redis), run by `python -m finsearch worker` processes on any machine.

An id is unique while its job's record lives (RQ's `unique=True`): enqueuing it again — a second
scheduler, a retried request — is refused, so the job runs once. A record is kept its kind's `keep_s`
after the job ends (`kinds.KINDS` says why each is as long as it is)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from ..hosting.redis_link import queue_client
from .kinds import JOB_ID, checked_id, kind_of
from .progress import START, ProgressLine, RedisProgress

RUNNER = "finsearch.jobs.running.run_job"


def json_serializer():
    from rq.serializers import JSONSerializer

    return JSONSerializer


class RqJobs:
    def __init__(self, url: str):
        self.url = url
        self.board = RedisProgress(url)
        self._connection = queue_client(url)

    def enqueue(self, kind: str, job_id: str, args: dict, at: datetime | None = None) -> bool:
        """Queue the job (to run at `at`, when given); False when a job with this id is already there."""
        from rq import Queue, Retry
        from rq.exceptions import DuplicateJobError

        spec = kind_of(kind)
        checked_id(job_id)
        args = json.loads(json.dumps(args))          # JSON in, or a TypeError here rather than in a worker
        queue = Queue(spec.queue, connection=self._connection, serializer=json_serializer())
        retry = Retry(max=spec.retries, interval=list(spec.retry_after_s) or 0) if spec.retries else None
        options = dict(job_id=job_id, unique=True, retry=retry, job_timeout=spec.timeout_s,
                       result_ttl=spec.keep_s, failure_ttl=spec.keep_s, description=f"{kind} {job_id}")
        try:
            if at is None:
                queue.enqueue(RUNNER, kind, job_id, args, **options)
            else:
                queue.enqueue_at(at.astimezone(timezone.utc), RUNNER, kind, job_id, args, **options)
        except DuplicateJobError:
            return False
        return True

    def read(self, job_id: str, after: str = START, wait_s: float = 0.0) -> list[ProgressLine]:
        return self.board.read(job_id, after, wait_s)

    def args_of(self, job_id: str) -> dict | None:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job

        if not isinstance(job_id, str) or not JOB_ID.match(job_id):
            return None
        try:
            found = Job.fetch(job_id, connection=self._connection, serializer=json_serializer())
            args = found.args
        except (NoSuchJobError, ValueError, TypeError):     # gone, or a record that is not one of ours
            return None
        return args[2] if len(args) == 3 and isinstance(args[2], dict) else None

    def given_up(self, job_id: str) -> bool:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job, JobStatus

        try:
            status = Job.fetch(checked_id(job_id), connection=self._connection,
                               serializer=json_serializer()).get_status(refresh=True)
        except NoSuchJobError:
            return True
        return status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)

    def tell(self, job_id: str, order: dict) -> None:
        self.board.order(checked_id(job_id), order)

    def close(self) -> None:
        self._connection.close()
