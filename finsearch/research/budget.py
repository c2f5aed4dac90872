"""The report's budgets, and the one data hub every section's executor shares.

Each section runs its own Executor (its own small pool), so the global bound lives here,
at the hub: at most `concurrency` source calls in flight for the whole report, and at most
`source_calls` calls in all. A call past the budget fails like any source call, with a
reason the section's gap sentences can carry, so a report never silently overspends.
"""

from __future__ import annotations

import dataclasses
import threading

from ..deadline import Deadline
from ..errors import FailureKind, SourceError
from ..sources.hub import CallResult, DataHub

MAX_SECTIONS = 8
MAX_SOURCE_CALLS = 60
CONCURRENCY = 6
REPORT_SECONDS = 180.0
SUPPLEMENT_ROUNDS = 2
SUPPLEMENTS_PER_ROUND = 2


@dataclasses.dataclass(frozen=True)
class ReportBudget:
    sections: int = MAX_SECTIONS
    source_calls: int = MAX_SOURCE_CALLS
    concurrency: int = CONCURRENCY
    seconds: float = REPORT_SECONDS

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


class BudgetSpent(SourceError):
    KIND = FailureKind.REFUSED


class SharedHub:
    """A DataHub seen through the report's bound and budget; everything else is the hub's."""

    def __init__(self, hub: DataHub, budget: ReportBudget):
        self._hub = hub
        self.budget = budget
        self._slots = threading.BoundedSemaphore(budget.concurrency)
        self._lock = threading.Lock()
        self.calls = 0
        self.refused = 0
        self.in_flight = 0
        self.most_in_flight = 0          # how many calls ran at once at the peak

    def __getattr__(self, name):         # sample, coverage, notices, stats, pack …
        return getattr(self._hub, name)

    def call(self, source: str, args: dict, deadline: Deadline | None = None) -> CallResult:
        with self._lock:
            if self.calls >= self.budget.source_calls:
                self.refused += 1
                raise BudgetSpent(f"not searched: the report's budget of {self.budget.source_calls} "
                                  "source calls was spent")
            self.calls += 1
        wait = deadline.remaining() if deadline is not None else None
        if not self._slots.acquire(timeout=wait):
            raise SourceError("timed out waiting for a free source slot", kind=FailureKind.TIMED_OUT)
        try:
            with self._lock:
                self.in_flight += 1
                self.most_in_flight = max(self.most_in_flight, self.in_flight)
            return self._hub.call(source, args, deadline=deadline)
        finally:
            with self._lock:
                self.in_flight -= 1
            self._slots.release()
