"""Calling an upstream service politely, within a deadline, and surviving its bad days.

    call(upstream, fn, classify) → fn's result, or a SourceError that reads well

- every call has a deadline: the node's, which `hub.call` sets for the adapter it calls
  (`deadline_scope`), else `DEFAULT_CALL_S`. The library call runs on a daemon thread of its
  own and the caller waits for it only until the deadline (or a Stop); then the caller
  releases its slot at once and the node reads "Yahoo Finance did not answer within 20 s".
  The abandoned call runs on until the library's own timeout ends it, its answer unread;
- at most `upstream.max_concurrent` calls waited for per upstream (a per-host limit), and at
  most `max_concurrent + max_abandoned` library calls alive: beyond that a hung upstream's
  calls fail at once ("… is not answering") instead of piling up threads;
- bounded retries with exponential backoff and full jitter on rate limits, timeouts and
  5xx answers, never waiting past the deadline; none on errors that retrying cannot fix
  (network down, bad request);
- every failure ends as a one-line reason for the node, e.g.
  "Yahoo Finance rate-limited the request; retried 3 times".

`classify(exc)` maps a library's exception to one of the FAILURE kinds, or None for
"unexpected"; each adapter supplies its own, since every library fails differently.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from ...deadline import Deadline
from ...errors import FailureKind, NoData, RateLimited, Refused, SourceError, TimedOut, Unreachable

T = TypeVar("T")

RATE = "rate"          # 429 / the library's rate-limit error
TIMEOUT = "timeout"
SERVER = "server"      # 5xx
NETWORK = "network"    # DNS failure, connection refused: retrying will not help
REFUSED = "refused"    # 401/403 on a session the library set up (Yahoo's "Invalid Crumb"): a new one may pass
RETRYABLE = (RATE, TIMEOUT, SERVER, REFUSED)

_REASONS = {
    RATE: "{name} rate-limited the request",
    TIMEOUT: "{name} did not answer in time",
    SERVER: "{name} returned a server error",
    NETWORK: "cannot reach {name} (is the network down?)",
    REFUSED: "{name} refused the request (it did not accept the session)",
}

# The error each kind ends as (the rest are Unreachable): what the answer tells the user.
_ERRORS: dict[str, type[Unreachable]] = {RATE: RateLimited, TIMEOUT: TimedOut, REFUSED: Refused}

DEFAULT_CALL_S = 20.0   # a call nobody gave a deadline (a prefetch, a library caller) still ends
POLL_S = 0.1            # how often a waiting caller looks at the Stop flag
MIN_CALL_S = 0.1        # with less time left a request is not sent: it would only be abandoned

# Tests replace these to run without waiting.
sleep = time.sleep
jitter = random.random


@dataclasses.dataclass(frozen=True)
class Upstream:
    name: str                  # as users know it: "Yahoo Finance", "Google News"
    max_concurrent: int = 4
    retries: int = 3
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0
    max_abandoned: int = 4     # calls given up on but still running, beyond the concurrent ones


@dataclasses.dataclass
class _Gate:
    """One upstream's limits: the slots callers wait in, and the library calls still alive."""
    slots: threading.BoundedSemaphore
    alive: int = 0


_GATES: dict[str, _Gate] = {}
_GATES_LOCK = threading.Lock()
_DEADLINE: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar("finsearch_call_deadline",
                                                                            default=None)


def _gate(upstream: Upstream) -> _Gate:
    with _GATES_LOCK:
        if upstream.name not in _GATES:
            _GATES[upstream.name] = _Gate(threading.BoundedSemaphore(upstream.max_concurrent))
        return _GATES[upstream.name]


@contextlib.contextmanager
def deadline_scope(deadline: Deadline | None) -> Iterator[None]:
    """Every `call` made in this context ends by `deadline` (None: leave the context's own).
    A context variable, so that it reaches the adapters without being in their signature;
    an adapter that fans out to threads submits with `contextvars.copy_context().run`."""
    if deadline is None:
        yield
        return
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def time_left(at_most: float) -> float:
    """The seconds the current call may still take, at most `at_most`: a library's own timeout."""
    deadline = _DEADLINE.get()
    return at_most if deadline is None else deadline.cap(at_most)


def backoff(upstream: Upstream, attempt: int) -> float:
    """Full jitter: a random wait up to base · 2^attempt, capped."""
    return min(upstream.max_delay_s, upstream.base_delay_s * 2 ** attempt) * jitter()


def call(upstream: Upstream, fn: Callable[[], T], classify: Callable[[BaseException], str | None],
         deadline: Deadline | None = None) -> T:
    """`fn()` within `deadline` (else the context's, else DEFAULT_CALL_S), retried as its
    failures allow; NoData and SourceError from `fn` pass through unchanged."""
    deadline = deadline or _DEADLINE.get() or Deadline(DEFAULT_CALL_S)
    attempt = 0
    while True:
        try:
            return _within(upstream, fn, deadline, attempt)
        except (NoData, SourceError):
            raise
        except Exception as exc:  # every library has its own tree; `classify` reads it
            kind = classify(exc)
            if kind in RETRYABLE and attempt < upstream.retries:
                wait = backoff(upstream, attempt)
                if wait < deadline.remaining():       # a retry that cannot start in time is not made
                    sleep(wait)
                    attempt += 1
                    continue
            raise _failure(upstream, kind, exc, attempt) from exc


class _LibraryCall(Generic[T]):
    """`fn()` on a daemon thread: whoever waits for it may stop waiting."""

    def __init__(self, upstream: Upstream, gate: _Gate, fn: Callable[[], T], deadline: Deadline):
        self.gate, self.fn = gate, fn
        self.done = threading.Event()
        self.result: T | None = None
        self.error: BaseException | None = None
        context = contextvars.copy_context()
        context.run(_DEADLINE.set, deadline)          # nested calls and `time_left` see the deadline
        self.thread = threading.Thread(target=context.run, args=(self._run,), daemon=True,
                                       name=f"finsearch-upstream {upstream.name}")

    def _run(self) -> None:
        try:
            self.result = self.fn()
        except BaseException as exc:  # carried to the caller, who may have stopped waiting
            self.error = exc
        finally:
            with _GATES_LOCK:
                self.gate.alive -= 1
            self.done.set()

    def start(self) -> None:
        with _GATES_LOCK:
            self.gate.alive += 1
        self.thread.start()

    def outcome(self) -> T:
        if self.error is not None:
            raise self.error
        return self.result  # type: ignore[return-value]


def _within(upstream: Upstream, fn: Callable[[], T], deadline: Deadline, attempts: int) -> T:
    """One attempt: a slot, the library call, and the wait for it, all ending by `deadline`."""
    gate = _gate(upstream)
    if deadline.over:
        raise _gave_up(upstream, deadline, attempts, busy=False)
    if not _wait(lambda timeout: gate.slots.acquire(timeout=timeout), deadline):
        raise _gave_up(upstream, deadline, attempts, busy=True)
    try:
        if deadline.remaining() < MIN_CALL_S:          # the slot came free too late to use it
            raise _gave_up(upstream, deadline, attempts, busy=True)
        with _GATES_LOCK:
            hung = gate.alive >= upstream.max_concurrent + upstream.max_abandoned
        if hung:
            raise Unreachable(f"{upstream.name} is not answering (earlier requests to it are still waiting)")
        library_call = _LibraryCall(upstream, gate, fn, deadline)
        library_call.start()
        if not _wait(library_call.done.wait, deadline):
            raise _gave_up(upstream, deadline, attempts, busy=False)
        return library_call.outcome()
    finally:
        gate.slots.release()


def _wait(until: Callable[[float], bool], deadline: Deadline) -> bool:
    """`until(timeout)` in short steps, so that a Stop is noticed; False when time ran out first."""
    while not deadline.over:
        if until(min(POLL_S, deadline.remaining())):
            return True
    return not deadline.stopped and until(0)          # it may have happened on the last step


def _gave_up(upstream: Upstream, deadline: Deadline, attempts: int, busy: bool) -> SourceError:
    if deadline.stopped:
        return SourceError("stopped by the user", kind=FailureKind.STOPPED)
    reason = f"{upstream.name} did not answer within {deadline.seconds:.3g} s"
    if busy:
        reason += " (too many requests were waiting for it)"
    return TimedOut(reason + _retried(attempts))


def _failure(upstream: Upstream, kind: str | None, exc: BaseException, attempts: int) -> SourceError:
    if kind is None:
        return SourceError(f"{upstream.name} failed unexpectedly ({type(exc).__name__})")
    error = _ERRORS.get(kind, Unreachable)
    return error(_REASONS[kind].format(name=upstream.name) + _retried(attempts))


def _retried(attempts: int) -> str:
    return f"; retried {attempts} time{'s' if attempts != 1 else ''}" if attempts else ""


def http_status_kind(status: int) -> str | None:
    if status == 429:
        return RATE
    if status in (408, 504):
        return TIMEOUT
    if status >= 500:
        return SERVER
    return None
