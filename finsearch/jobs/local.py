"""The job queue in process, for one machine with no Redis: a dispatching thread takes jobs from a heap
ordered by when they are due and runs each on a thread of its own with the same code as an RQ worker
(`running.perform`), retrying a failed one as its kind says. Jobs live as long as the process: a restart
forgets them."""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import threading
import time
from datetime import datetime

from ..settings import Settings
from .kinds import checked_id, kind_of
from .progress import START, MemoryProgress, ProgressLine
from .running import perform

log = logging.getLogger(__name__)


class LocalJobs:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.board = MemoryProgress()
        self._due: list[tuple[float, int, str, str, dict, int]] = []   # (when, order, kind, id, args, retry)
        self._order = itertools.count()
        # Each job enqueued here: its arguments, and until when its id is taken (as RQ keeps a record: its
        # kind's keep_s, counted here from when it is due plus its time limit). Older ones are let go.
        self._known: dict[str, tuple[dict, float]] = {}
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="finsearch-jobs", daemon=True)
        self._thread.start()

    def enqueue(self, kind: str, job_id: str, args: dict, at: datetime | None = None) -> bool:
        spec = kind_of(kind)
        checked_id(job_id)
        args = json.loads(json.dumps(args))
        when = time.time() if at is None else at.timestamp()
        with self._changed:
            self._forget_old()
            if job_id in self._known:
                return False
            self._known[job_id] = (args, when + spec.timeout_s + spec.keep_s)
            heapq.heappush(self._due, (when, next(self._order), kind, job_id, args, 0))
            self._changed.notify()
        return True

    def read(self, job_id: str, after: str = START, wait_s: float = 0.0) -> list[ProgressLine]:
        return self.board.read(job_id, after, wait_s)

    def args_of(self, job_id: str) -> dict | None:
        with self._changed:
            known = self._known.get(job_id)
            return known[0] if known is not None else None

    def given_up(self, job_id: str) -> bool:
        """A thread of this process cannot be lost without the process: only a job it never had is."""
        with self._changed:
            return job_id not in self._known

    def _forget_old(self) -> None:
        now = time.time()
        for job_id in [job_id for job_id, (_, until) in self._known.items() if until < now]:
            del self._known[job_id]

    def tell(self, job_id: str, order: dict) -> None:
        self.board.order(checked_id(job_id), order)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify()
        self._thread.join(5)

    def _next(self):
        with self._changed:
            while not self._closed:
                wait = self._due[0][0] - time.time() if self._due else None
                if wait is not None and wait <= 0:
                    return heapq.heappop(self._due)
                self._changed.wait(wait)
            return None

    def _work(self) -> None:
        """Hand each job to a thread of its own when it is due: a report takes minutes, and the briefs, alert
        checks, deliveries and other visitors' reports of this machine must not wait behind it (how many
        reports run at once is the app's limits' business, `hosting.limits`, as before reports were jobs)."""
        while (due := self._next()) is not None:
            threading.Thread(target=self._run, args=due[2:], name=f"finsearch-job-{due[3][:40]}", daemon=True).start()

    def _run(self, kind: str, job_id: str, args: dict, retry: int) -> None:
        try:
            perform(kind, job_id, args, self.settings, self.board, self.enqueue)
        except Exception:  # said on the job's progress by `perform`; tried again while its kind allows
            spec = kind_of(kind)
            if retry < spec.retries:
                with self._changed:
                    heapq.heappush(self._due, (time.time() + spec.wait_before(retry + 1), next(self._order),
                                               kind, job_id, args, retry + 1))
                    self._changed.notify()
