"""A blocking stream handed to the event loop: its items, read on a thread of their own, kept in
order for any number of readers, each reading from the first.

The service's feeds are blocking iterators (`RunFeed.lines`, `ReportFeed.progress`). Read in
starlette's thread pool, each open stream would hold one of its forty threads for a whole run, and
forty open streams would starve every other request; here each stream has its own thread for as
long as its run lasts (as the run itself has), and a reader waits on the event loop without a thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Generic, TypeVar

import anyio

log = logging.getLogger(__name__)

Item = TypeVar("Item")
POLL_S = 0.05          # how often a reader looks for what came: an event line is worth no sooner


class Relay(Generic[Item]):
    def __init__(self, items: Iterator[Item], failed: Callable[[], Item], name: str = "finsearch-api-relay"):
        """`items` is read to its end on a new thread once `start` is called; should reading it
        raise, `failed()` is the last item (a reader always gets an ending)."""
        self._source = items
        self._failed = failed
        self._items: list[Item] = []
        self._ended = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, name=name, daemon=True)

    def start(self) -> Relay[Item]:
        self._thread.start()
        return self

    def _drain(self) -> None:
        try:
            for item in self._source:
                with self._lock:
                    self._items.append(item)
        except Exception:          # the service's feeds end with an outcome of their own; this is a last resort
            log.exception("a relayed stream failed")
            with self._lock:
                self._items.append(self._failed())
        finally:
            with self._lock:
                self._ended = True

    @property
    def ended(self) -> bool:
        with self._lock:
            return self._ended

    def so_far(self) -> list[Item]:
        with self._lock:
            return list(self._items)

    async def follow(self) -> AsyncIterator[Item]:
        """Every item from the first, as it comes, until the stream has ended."""
        seen = 0
        while True:
            with self._lock:
                new, ended = self._items[seen:], self._ended
            for item in new:
                yield item
            seen += len(new)
            if ended:
                return
            await anyio.sleep(POLL_S)
