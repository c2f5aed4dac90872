"""A job's progress, readable by whoever watches: lines (JSON objects) in order, each with an id, so a
reader that comes back (a page reloaded, a web replica restarted) asks for the lines after the last id it
saw. On Redis each job has a capped stream that expires a day after its last line; in process, a capped
list per job. Both count a job's attempts, so a retried job says which try it is on.

The other way, a job's orders: what whoever watches asks of it while it runs (a report's Stop, its
outline approved or edited), kept the same way in a stream of their own. The job reads them from the
first on each attempt, so a retried job still knows its outline was approved, or that it was stopped."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import deque
from typing import Protocol

from ..hosting.redis_link import KEY_PREFIX, connect

KEEP_LINES = 1000                 # a report's progress is a few dozen lines; a runaway job's is cut
KEEP_S = 24 * 3600                # a job's lines are gone a day after its last one
START = "0"                       # `read(after=START)`: every line kept


@dataclasses.dataclass(frozen=True)
class ProgressLine:
    line_id: str                  # pass it back as `after` to read what came since
    line: dict


class ProgressBoard(Protocol):
    def say(self, job_id: str, line: dict) -> str:
        """Add `line` to the job's progress; its id."""

    def attempt(self, job_id: str) -> int:
        """Count one more attempt at the job; which one this is (1 for the first)."""

    def read(self, job_id: str, after: str = START, wait_s: float = 0.0) -> list[ProgressLine]:
        """The job's lines after `after`, oldest first; with `wait_s`, waits that long for one when none is there."""

    def order(self, job_id: str, order: dict) -> str:
        """Add `order` to what the job is asked; its id."""

    def orders(self, job_id: str, after: str = START) -> list[ProgressLine]:
        """The orders given to the job after `after`, oldest first."""


class RedisProgress:
    def __init__(self, url: str):
        self.url = url

    def say(self, job_id: str, line: dict) -> str:
        return self._add(_stream(job_id), line)

    def order(self, job_id: str, order: dict) -> str:
        return self._add(_orders(job_id), order)

    def orders(self, job_id: str, after: str = START) -> list[ProgressLine]:
        return self._range(_orders(job_id), after)

    def _add(self, key: str, line: dict) -> str:
        client = connect(self.url)
        with client.pipeline(transaction=True) as pipe:
            pipe.xadd(key, {"line": json.dumps(line, ensure_ascii=False)}, maxlen=KEEP_LINES, approximate=True)
            pipe.expire(key, KEEP_S)
            return pipe.execute()[0]

    def _range(self, key: str, after: str) -> list[ProgressLine]:
        entries = connect(self.url).xrange(key, min=f"({after}" if after != START else "-")
        return [ProgressLine(entry_id, json.loads(fields["line"])) for entry_id, fields in entries]

    def attempt(self, job_id: str) -> int:
        client = connect(self.url)
        with client.pipeline(transaction=True) as pipe:
            pipe.incr(_attempts(job_id))
            pipe.expire(_attempts(job_id), KEEP_S)
            return int(pipe.execute()[0])

    def read(self, job_id: str, after: str = START, wait_s: float = 0.0) -> list[ProgressLine]:
        if wait_s <= 0:
            return self._range(_stream(job_id), after)
        # Under the client's command timeout: a long block would read as a server that stopped answering.
        block_ms = int(min(wait_s, 1.5) * 1000)
        found = connect(self.url).xread({_stream(job_id): after}, block=block_ms) or []
        entries = found[0][1] if found else []
        return [ProgressLine(entry_id, json.loads(fields["line"])) for entry_id, fields in entries]


class MemoryProgress:
    """The in-process board: line ids are counting numbers, as text. Orders are kept under the job's
    id with ORDERS after it (no job id has a space)."""

    def __init__(self) -> None:
        self._lines: dict[str, deque[ProgressLine]] = {}
        self._counted: dict[str, int] = {}
        self._attempts: dict[str, int] = {}
        self._last_said: dict[str, float] = {}     # a job's lines go KEEP_S after its last, as Redis lets them
        self._changed = threading.Condition()

    def say(self, job_id: str, line: dict) -> str:
        with self._changed:
            self._forget_old()
            self._last_said[job_id] = time.monotonic()
            number = self._counted[job_id] = self._counted.get(job_id, 0) + 1
            kept = self._lines.setdefault(job_id, deque(maxlen=KEEP_LINES))
            kept.append(ProgressLine(str(number), json.loads(json.dumps(line))))   # a copy, as Redis would keep
            self._changed.notify_all()
            return str(number)

    def order(self, job_id: str, order: dict) -> str:
        return self.say(job_id + _ORDERS, order)

    def orders(self, job_id: str, after: str = START) -> list[ProgressLine]:
        return self.read(job_id + _ORDERS, after)

    def attempt(self, job_id: str) -> int:
        with self._changed:
            self._attempts[job_id] = self._attempts.get(job_id, 0) + 1
            return self._attempts[job_id]

    def _forget_old(self) -> None:
        gone = time.monotonic() - KEEP_S
        for job_id in [job_id for job_id, said in self._last_said.items() if said < gone]:
            for kept in (self._lines, self._counted, self._attempts, self._last_said):
                kept.pop(job_id, None)

    def read(self, job_id: str, after: str = START, wait_s: float = 0.0) -> list[ProgressLine]:
        since = int(after) if after.isdigit() else 0
        with self._changed:
            self._changed.wait_for(lambda: self._counted.get(job_id, 0) > since, timeout=wait_s)
            return [line for line in self._lines.get(job_id, ()) if int(line.line_id) > since]


_ORDERS = " orders"


def _stream(job_id: str) -> str:
    return f"{KEY_PREFIX}job:{job_id}:progress"


def _attempts(job_id: str) -> str:
    return f"{KEY_PREFIX}job:{job_id}:attempts"


def _orders(job_id: str) -> str:
    return f"{KEY_PREFIX}job:{job_id}:orders"
