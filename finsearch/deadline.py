"""One question, one time budget.

A `Deadline` is made when a run starts (default 45 s, `Settings.deadline_s`) and handed to
everything that waits: model calls take `remaining()` as their timeout, the executor
stops waiting for sources when it runs out, the writer finishes from what it has. A
Stop (the run's cancel flag) ends every wait early, so `wait()` is the only way any part
of a run sleeps.
"""

from __future__ import annotations

import threading
import time


class Deadline:
    def __init__(self, seconds: float, cancel: threading.Event | None = None,
                 clock=time.monotonic):
        self.seconds = float(seconds)
        self.cancel = cancel or threading.Event()
        self._clock = clock
        self._ends = clock() + self.seconds

    def remaining(self, reserve: float = 0.0) -> float:
        """Seconds left, less `reserve` (time kept back for what must come after); ≥ 0."""
        return max(0.0, self._ends - self._clock() - reserve)

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    @property
    def stopped(self) -> bool:
        """The user pressed Stop."""
        return self.cancel.is_set()

    @property
    def over(self) -> bool:
        """Nothing more should start: stopped, or out of time."""
        return self.stopped or self.expired

    def cap(self, seconds: float, reserve: float = 0.0) -> float:
        """`seconds`, shortened to what the budget still allows after `reserve`."""
        return max(0.0, min(seconds, self.remaining(reserve)))

    def share(self, fraction: float) -> Deadline:
        """A budget of `fraction` of what is left, stopped by the same Stop: for a first try
        that must leave time for a second one."""
        return Deadline(self.remaining() * fraction, self.cancel, self._clock)

    def wait(self, seconds: float) -> bool:
        """Sleep up to `seconds` (never past the deadline); False when Stop cut it short."""
        return not self.cancel.wait(self.cap(seconds))


def unlimited() -> Deadline:
    """A budget that never runs out (library callers that set none)."""
    return Deadline(10 ** 9)
