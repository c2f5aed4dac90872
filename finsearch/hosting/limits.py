"""A public instance's limits on asking: questions per identity per window, runs at once.

`admit(owner, settings, counter)` is asked before a run starts. It returns None (go ahead)
or a `Refusal` whose `message` says what was reached and when to try again. Questions are
counted in the store (`store.counters`), so replicas share the count; runs at once are
counted in this process (`RunSlots`), because a run lives in one process: the cap per server
is per replica, and the cap per identity holds for the replica a visitor's session is on
(sessions are sticky).

A refused question is not counted. A question counted and then refused for lack of a run
slot is counted (it reached the server): asking again at once while a run goes does not
pay off.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from typing import TYPE_CHECKING, Literal, Protocol

from ..settings import Settings

if TYPE_CHECKING:
    from ..store.counters import QuestionCounter


class Running(Protocol):
    def join(self, timeout: float | None = None) -> bool:
        """True once the run has ended."""


@dataclasses.dataclass(frozen=True)
class Refusal:
    reason: Literal["questions", "visitor_runs", "server_runs"]
    message: str


class RunSlots:
    """The runs under way in this process, by owner. A run holds its slot until it ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: list[tuple[str, Running]] = []

    def _prune(self) -> None:
        self._runs = [(owner, run) for owner, run in self._runs if not _ended(run)]

    def counts(self, owner: str) -> tuple[int, int]:
        """(runs of `owner`, runs in all) under way now."""
        with self._lock:
            self._prune()
            return sum(1 for o, _ in self._runs if o == owner), len(self._runs)

    def refusal(self, owner: str, settings: Settings) -> Refusal | None:
        mine, everyone = self.counts(owner)
        if mine >= settings.max_runs_per_visitor:
            return Refusal("visitor_runs", f"You already have {mine} questions being answered; wait until one "
                                           "finishes, then ask again.")
        if everyone >= settings.max_runs:
            return Refusal("server_runs", "The server is answering as many questions as it can right now; "
                                          "please ask again in a minute.")
        return None

    def hold(self, owner: str, run: Running) -> None:
        with self._lock:
            self._runs.append((owner, run))


def _ended(run: Running) -> bool:
    """Whether `run` has ended; one whose thread is not started yet has not (a thread's join
    raises RuntimeError then, and another session counting slots must not fail on it)."""
    try:
        return run.join(0)
    except RuntimeError:
        return False


SLOTS = RunSlots()     # this process's runs: every session of this server shares it


def admit(owner: str, settings: Settings, counter: QuestionCounter, slots: RunSlots = SLOTS) -> Refusal | None:
    """May `owner` start a run now? None, or why not. Counts the question when it is admitted
    past the rate limit. Raises StoreUnavailable when the shared counter cannot be reached."""
    busy = slots.refusal(owner, settings)
    if busy is not None:
        return busy
    if settings.question_limit > 0:
        asked = counter.hit(owner, settings.question_window_s)
        if asked > settings.question_limit:
            return Refusal("questions", f"You have asked the most questions this server allows "
                                        f"({settings.question_limit} in {_span(settings.question_window_s)}). "
                                        f"You can ask again in {_span(_until_next(settings.question_window_s))}.")
    return None


def _until_next(window_s: float) -> float:
    return window_s - (time.time() % window_s)


def _span(seconds: float) -> str:
    """3600 → "1 hour", 5400 → "2 hours", 90 → "2 minutes": rounded up, never "0"."""
    if seconds >= 3600:
        hours = math.ceil(seconds / 3600 - 1e-9)
        return f"{hours} hour{'s' if hours > 1 else ''}"
    minutes = max(1, math.ceil(seconds / 60 - 1e-9))
    return f"{minutes} minute{'s' if minutes > 1 else ''}"
