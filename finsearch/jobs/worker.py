"""`python -m finsearch worker`: an RQ worker on FinSearch's queues, tuned so that the job of a worker that
died (a killed container, a lost machine) is tried again within about a minute, not RQ's quarter hour.

RQ notices a lost job when its heartbeat entry (in the started-job registry) has expired at a maintenance
run of any live worker; the entry lives `job_monitoring_interval` plus a grace RQ fixes at 60 s. Here the
grace is `heartbeat_grace_s`, the maintenance runs every `maintenance_interval` s and an idle worker wakes
every `worker_ttl - 15` s to do it. Each worker also moves jobs whose time has come (`enqueue(at=…)`,
retries that back off): RQ lets one worker at a time do that."""

from __future__ import annotations

import dataclasses
import logging

from ..errors import ConfigError
from ..hosting.redis_link import queue_client, where
from ..settings import Settings
from .kinds import QUEUES
from .rq_queue import json_serializer

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class WorkerTuning:
    worker_ttl_s: int = 60
    maintenance_interval_s: int = 30
    job_monitoring_interval_s: int = 10
    heartbeat_grace_s: int = 30


NEEDS_REDIS = ("the worker runs jobs from Redis: set FINSEARCH_REDIS_URL (e.g. redis://localhost:6379/0). "
               "Without Redis, jobs run in the process that enqueues them (`python -m finsearch scheduler` runs the "
               "scheduled ones): no worker is needed.")


def run_worker(settings: Settings, tuning: WorkerTuning, name: str | None = None, burst: bool = False) -> int:
    """Work until stopped (SIGTERM: the job in hand is finished first); ConfigError without Redis."""
    if not settings.redis_url:
        raise ConfigError(NEEDS_REDIS)
    from rq import Queue, Worker

    class FinSearchWorker(Worker):
        def get_heartbeat_ttl(self, job, working_time: float = 0.0) -> int:
            left = job.timeout - working_time if job.timeout and job.timeout > 0 else self.job_monitoring_interval
            return int(min(left, self.job_monitoring_interval)) + tuning.heartbeat_grace_s

    connection = queue_client(settings.redis_url)
    serializer = json_serializer()
    queues = [Queue(queue, connection=connection, serializer=serializer) for queue in QUEUES]
    worker = FinSearchWorker(queues, connection=connection, serializer=serializer, name=name,
                             worker_ttl=tuning.worker_ttl_s, maintenance_interval=tuning.maintenance_interval_s,
                             job_monitoring_interval=tuning.job_monitoring_interval_s)
    log.warning("worker %s on %s, queues %s", worker.name, where(settings.redis_url), ", ".join(QUEUES))
    worker.work(with_scheduler=True, burst=burst, logging_level="WARNING")
    return 0
