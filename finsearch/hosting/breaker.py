"""A circuit breaker: once a call finds the server gone, the next calls fail at once for a cool-down.

    closed ──a call finds the server gone──▶ open ──cool-down over──▶ one trial call
       ▲                                      ▲                          │
       └──────────the trial is answered───────┼──────────────────────────┤
                                              └──the trial finds it gone─┘

Without it every call to a paused server waits out its own timeout, so a page making several
calls stalls for tens of seconds. With it only the first waits; the others are refused at once
(`BreakerOpen`) until the cool-down ends, when one call is let through to see whether the server
is back. While that trial runs, other threads are still refused; the trial's own nested calls
are not (a store method may call another).

Use it around a call: `with breaker: ...`. What ended the call decides: `is_down(exc)` opens
the circuit, no exception or `is_answer(exc)` (the server answered, if with an error) closes it,
anything else (a bug of ours, an interrupt) changes nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class BreakerOpen(Exception):
    """Not tried: `name` failed (`cause`, an exception's name) moments ago; it is tried again
    in `retry_in_s` seconds."""

    def __init__(self, name: str, cause: str, retry_in_s: float):
        self.name, self.cause, self.retry_in_s = name, cause, retry_in_s
        super().__init__(f"{name} not tried: it failed moments ago ({cause}); "
                         f"tried again in {max(0.0, retry_in_s):.0f} s")


class Breaker:
    def __init__(self, name: str, cool_down_s: float, *, is_down: Callable[[BaseException], bool],
                 is_answer: Callable[[BaseException], bool] = lambda exc: False,
                 clock: Callable[[], float] = time.monotonic):
        self.name = name                   # the server, for messages and the log (no credentials)
        self.cool_down_s = cool_down_s
        self.is_down = is_down
        self.is_answer = is_answer
        self.clock = clock
        self._guard = threading.Lock()
        self._open_until: float | None = None      # None: closed
        self._trial: int | None = None             # the thread making the trial call
        self._cause = ""

    @property
    def resting(self) -> bool:
        """Open, and the cool-down not over: a call now would be refused."""
        with self._guard:
            return self._open_until is not None and self.clock() < self._open_until

    def __enter__(self) -> Breaker:
        with self._guard:
            if self._open_until is None or self._trial == threading.get_ident():
                return self
            now = self.clock()
            if now < self._open_until:
                raise BreakerOpen(self.name, self._cause, self._open_until - now)
            # This call is the trial. Others are refused while it runs; one that never reports
            # back (a thread killed mid-call) is replaced by another trial after one more cool-down.
            self._trial, self._open_until = threading.get_ident(), now + self.cool_down_s
        return self

    def __exit__(self, kind, exc, traceback) -> None:
        if exc is None or (not isinstance(exc, BreakerOpen) and self.is_answer(exc)):
            self._answered()
        elif isinstance(exc, BreakerOpen):
            pass                                   # a nested call refused: nothing learnt
        elif self.is_down(exc):
            self._failed(type(exc).__name__)
        else:
            with self._guard:
                if self._trial == threading.get_ident():
                    self._trial = None

    def _answered(self) -> None:
        with self._guard:
            if self._open_until is not None:
                log.info("%s answers again", self.name)
            self._open_until, self._trial = None, None

    def _failed(self, cause: str) -> None:
        with self._guard:
            if self._open_until is None:
                log.warning("%s failed (%s): calls fail at once for %.0f s", self.name, cause, self.cool_down_s)
            self._open_until, self._trial, self._cause = self.clock() + self.cool_down_s, None, cause
