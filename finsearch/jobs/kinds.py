"""What each kind of job is: the function that does it (a dotted path, as RQ needs), its queue, its time
limit, how often a failed or lost run of it is tried again and how long its record is kept once it ended.
A new kind is one line in `KINDS`."""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Callable

from ..errors import InputError

JOB_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")     # RQ's own rule for ids (it keys Redis with them)


@dataclasses.dataclass(frozen=True)
class JobKind:
    name: str
    function: str                       # "package.module.function", called with a `RunningJob`
    queue: str
    timeout_s: int
    retries: int                        # tries after the first, when it raised or its worker was lost
    retry_after_s: tuple[int, ...] = ()  # waits before each retry (the last repeats); () retries at once
    # How long the queue keeps the job's record after it ended. While it is kept its id is taken: a scheduler
    # offering the same slot again is refused. So it outlives the time its id can be offered, and no more.
    keep_s: int = 7 * 24 * 3600

    def callable(self) -> Callable:
        module, _, name = self.function.rpartition(".")
        return getattr(importlib.import_module(module), name)

    def wait_before(self, retry: int) -> float:
        """Seconds before retry number `retry` (1 for the first)."""
        if not self.retry_after_s:
            return 0.0
        return float(self.retry_after_s[min(retry, len(self.retry_after_s)) - 1])


# Work (a report, a brief) is tried once more: a second failure is a real one, and a report costs
# model calls. A delivery is cheap and its receiver may be down for a while: more tries, backing off.
DELIVERY_RETRY_AFTER_S = (30, 120, 600, 1800)     # for the deliveries' kinds (DELIVERY part): 5 tries in ~45 min
HOUR, DAY = 3600, 24 * 3600
# Kept: a brief's id ("brief-<watchlist>-<local day>") is offered by the scheduler until the watchlist is marked
# briefed — up to the next slot, a week on for a weekly schedule, within watch.schedule's 8-day look-back. An
# alert check's ("alerts-<watchlist>-<UTC quarter hour>") is offered within its quarter hour (`--ahead` early):
# an hour covers a late round or a scheduler whose clock is off, and keeps 4 records per watchlist, not 672.
# A delivery's id comes again each time its alert fires (every check while the event lasts): kept a week, so it
# is refused rather than run as a no-op (its claim sends it once either way).
KINDS: dict[str, JobKind] = {kind.name: kind for kind in (
    JobKind("report", "finsearch.jobs.report_job.write_report", queue="finsearch-reports", timeout_s=2 * 3600,
            retries=1, keep_s=7 * DAY),
    JobKind("brief", "finsearch.watch.jobs.brief", queue="finsearch-work", timeout_s=3600, retries=1, keep_s=8 * DAY),
    JobKind("brief_now", "finsearch.watch.brief_now.brief_now", queue="finsearch-work", timeout_s=3600, retries=1,
            keep_s=DAY),
    JobKind("alerts", "finsearch.watch.jobs.alerts", queue="finsearch-work", timeout_s=600, retries=1, keep_s=HOUR),
    JobKind("deliver", "finsearch.watch.jobs.deliver_notice", queue="finsearch-deliveries", timeout_s=120,
            retries=len(DELIVERY_RETRY_AFTER_S), retry_after_s=DELIVERY_RETRY_AFTER_S, keep_s=7 * DAY),
)}
# A worker takes from these in order: a delivery is seconds and waits behind no report.
QUEUES = ("finsearch-deliveries", "finsearch-work", "finsearch-reports")


def kind_of(name: str) -> JobKind:
    """The kind called `name`; InputError naming the known ones."""
    try:
        return KINDS[name]
    except KeyError:
        raise InputError(f"no job kind {name[:40]!r}: the kinds are {', '.join(sorted(KINDS))}") from None


def checked_id(job_id: str) -> str:
    if not isinstance(job_id, str) or not JOB_ID.match(job_id):
        raise InputError("a job id is 1 to 100 letters, digits, _ and -")
    return job_id
