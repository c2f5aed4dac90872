"""A public instance's limits on asking: questions per identity and per client network per
window, runs at once.

`admit(owner, settings, counter, peer=…, question=…)` is asked before a run starts. It returns
None (go ahead) or a `Refusal` whose `message` says, in the question's language, what was reached
and when to try again (`resets_at`). Questions are counted by `hosting.counters`, so
replicas share the count; runs at once are counted in this process (`RunSlots`), because a run
lives in one process: the cap per server is per replica, and the cap per identity holds for the
replica a visitor's session is on (sessions are sticky).

The identity is a cookie, which a script can drop to be a new visitor for every question; the
network it asks from (`hosting.network`) it cannot drop, so a network has an allowance of its own,
larger than one visitor's (a household or an office shares one address).

A refused question is not counted. A question counted and then refused for lack of a run
slot is counted (it reached the server): asking again at once while a run goes does not
pay off. A question over its visitor's limit is not counted against the network, so one
visitor asking again and again does not use up their neighbours' allowance.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Literal, Protocol

from ..errors import StoreUnavailable
from ..phrases import Language, say
from ..phrases.waits import reset, span
from ..plan.analysis import language_of
from ..settings import Settings
from .counters import QuestionCounter, window_end
from .network import Peer, client_network


class Running(Protocol):
    def join(self, timeout: float | None = None) -> bool:
        """True once the run has ended."""


@dataclasses.dataclass(frozen=True)
class Refusal:
    reason: Literal["questions", "network", "visitor_runs", "server_runs"]
    message: str                           # in the question's language, with when to try again
    resets_at: float | None = None         # when the count that refused starts again (epoch seconds)


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

    def refusal(self, owner: str, settings: Settings, language: Language = "en") -> Refusal | None:
        mine, everyone = self.counts(owner)
        if mine >= settings.max_runs_per_visitor:
            return Refusal("visitor_runs", say("limit.visitor_runs", language, count=str(mine)))
        if everyone >= settings.max_runs:
            return Refusal("server_runs", say("limit.server_runs", language))
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


def admit(owner: str, settings: Settings, counter: QuestionCounter, slots: RunSlots = SLOTS, *,
          peer: Peer | None = None, question: str = "", now: float | None = None) -> Refusal | None:
    """May `owner`, connected as `peer`, start a run now? None, or why not, in the language of
    `question`. Counts the question (for the visitor, then for its network) when it is admitted past
    each limit. `now`: epoch seconds, the real clock when None. Raises StoreUnavailable when the
    shared counter cannot be reached."""
    language = language_of(question) if question.strip() else "en"
    busy = slots.refusal(owner, settings, language)
    if busy is not None:
        return busy
    now = time.time() if now is None else now
    window = settings.question_window_s
    if settings.question_limit > 0 and counter.hit(owner, window, now) > settings.question_limit:
        return _over("questions", settings.question_limit, window, now, language)
    network = client_network(peer, settings.trusted_proxies)
    if network is not None and settings.network_limit > 0 \
            and counter.hit(network, window, now) > settings.network_limit:
        return _over("network", settings.network_limit, window, now, language)
    return None


def admit_if_countable(owner: str, settings: Settings, counter: QuestionCounter, slots: RunSlots = SLOTS, *,
                       peer: Peer | None = None, question: str = "") -> Refusal | None:
    """`admit`, except that a counter that cannot be reached (Redis down, a full disk) admits:
    answering matters more than counting, and the runs at once are still capped in this process."""
    try:
        return admit(owner, settings, counter, slots, peer=peer, question=question)
    except (StoreUnavailable, OSError):
        return None


def _over(reason: Literal["questions", "network"], limit: int, window_s: float, now: float,
          language: Language) -> Refusal:
    ends = window_end(window_s, now)
    again = reset(ends, now, language)
    return Refusal(reason, say(f"limit.{reason}", language, limit=str(limit), window=span(window_s, language),
                               wait=again.wait, at=again.at), ends)

