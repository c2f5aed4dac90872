"""A brief asked for now ("Brief me now"), as the `brief_now` job the API's `POST /v1/briefs` queues too,
followed from here: written on a worker (or the in-process queue) and handed to a `deliver` job for its
owner's inbox. On replay data that takes a fraction of a second, but on live sources it is two pipeline
runs per instrument (up to 30 of them): too long to hold a page's script run. The page polls `view()`,
which reads the two jobs' progress lines and, once the delivery is done, the notice from the inbox.
"""

from __future__ import annotations

import dataclasses
import time
from datetime import datetime, timezone
from typing import Literal

from ..delivery.inbox import Inbox
from ..delivery.notice import Notice
from ..jobs import START, JobQueue
from ..jobs.kinds import kind_of
from ..phrases import say
from ..watch.brief_now import asked_id, brief_now_args
from ..watch.jobs import deliver_job_id
from ..watch.watchlist import Watchlist

BriefStatus = Literal["writing", "done", "failed"]


@dataclasses.dataclass(frozen=True)
class BriefView:
    status: BriefStatus
    notice: Notice | None = None
    error: str | None = None           # for the person, in the watchlist's language
    queued: bool = False               # no worker has taken it yet


class QueuedBrief:
    """`start()` queues the brief of `watchlist`; `view()` says how it went."""

    def __init__(self, watchlist: Watchlist, jobs: JobQueue, inbox: Inbox):
        self.watchlist, self._jobs, self._inbox = watchlist, jobs, inbox
        self.job_id = asked_id(watchlist, datetime.now(timezone.utc))
        self._view = BriefView("writing")
        self._delivery: str | None = None          # the deliver job's id, once the brief is written
        self._read = {self.job_id: START}
        self._taken = False                        # a worker has said JobStarted

    def start(self) -> QueuedBrief:
        self._jobs.enqueue("brief_now", self.job_id, brief_now_args(self.watchlist))
        return self

    def join(self, timeout: float | None = None) -> bool:
        end = time.monotonic() + (timeout or 0.0)
        while self.view().status == "writing" and time.monotonic() < end:
            time.sleep(0.1)
        return self.view().status != "writing"

    def view(self) -> BriefView:
        if self._view.status == "writing":
            self._view = self._follow()
        return self._view

    def _follow(self) -> BriefView:
        for job_id in list(self._read):
            for line in self._jobs.read(job_id, self._read[job_id]):
                self._read[job_id] = line.line_id
                told = line.line
                kind = told.get("type")
                self._taken = self._taken or kind == "JobStarted"
                if kind == "DeliveryQueued" and self._delivery is None:
                    self._delivery = deliver_job_id(told["notice_id"], "inbox")
                    self._read[self._delivery] = START
                elif kind == "NoWatchlist" or (kind == "JobFailed" and _last_try(job_id, told)):
                    return BriefView("failed", error=say("brief_now.failed", self.watchlist.language))
                elif kind == "JobDone" and job_id == self._delivery:
                    return self._delivered()
        return BriefView("writing", queued=not self._taken)

    def _delivered(self) -> BriefView:
        notice_id = self._delivery
        for item in self._inbox.items(self.watchlist.owner):
            if deliver_job_id(item.notice.notice_id, "inbox") == notice_id:
                return BriefView("done", item.notice)
        return BriefView("failed", error=say("brief_now.failed", self.watchlist.language))


def _last_try(job_id: str, line: dict) -> bool:
    kind = "deliver" if job_id.startswith("deliver-") else "brief_now"
    return int(line.get("attempt", 1)) > kind_of(kind).retries
