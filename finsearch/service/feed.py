"""A run whose events reach a stream as they happen: a `BackgroundRun` (the app's own worker:
the data fallback, the store on finish, errors as a status) with a listener that queues each
event, read back in order by whoever streams them (the HTTP API's Server-Sent Events, the MCP
server's progress). Stopping the feed stops the run: a client that goes away costs nothing more."""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator

from ..background.question import BackgroundRun
from ..events import Event
from ..result import RunResult
from ..settings import Settings
from .lines import event_line
from .request import AskRequest

POLL_S = 0.1          # how often a reader waiting for the next event looks whether the run has ended


class RunFeed:
    def __init__(self, request: AskRequest, settings: Settings,
                 on_finish: Callable[[RunResult], None] | None = None):
        self.request = request
        self._events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.run = BackgroundRun(request.question, request.settings(settings), on_finish=on_finish,
                                 corrections=request.corrections(), on_event=self._events.put)

    def start(self) -> RunFeed:
        self.run.start()
        return self

    def stop(self) -> None:
        self.run.stop()

    def events(self) -> Iterator[Event]:
        """Every event, in order, until the run has ended (blocking: a thread reads it)."""
        while True:
            try:
                yield self._events.get(timeout=POLL_S)
            except queue.Empty:
                if self.run.join(0):
                    while not self._events.empty():          # what came between the last get and the end
                        yield self._events.get_nowait()
                    return

    def lines(self) -> Iterator[dict]:
        """`ask --events`'s lines, then the outcome: the `ask --json` object, or an error line."""
        for event in self.events():
            yield event_line(event)
        yield self.outcome()

    def outcome(self) -> dict:
        """Once the run has ended: the result as `ask --json` prints it, or {"type": "Error", …}."""
        view = self.run.view()
        if view.result is not None:
            return view.result.to_dict(with_answer=True) | (
                {"save_error": view.save_error} if view.save_error else {})
        return {"type": "Error", "error": view.error or "the run ended without an answer"}
