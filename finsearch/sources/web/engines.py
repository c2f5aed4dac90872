"""ddgs, keeping what every search engine answered.

ddgs 9.16 hides an engine's HTTP status: `BaseSearchEngine.request` turns any answer but
a 200 into None, and `DDGS._search_sync` then raises DDGSException("No results found."),
so a block (DuckDuckGo's 202 challenge page, a 403, 429 or 503) reads exactly like a
search that found nothing (and `RatelimitException` is never raised). `WatchedDDGS` wraps
each engine's HTTP client to keep the statuses, so the adapter can tell the two apart.

Imported only when a web search runs: ddgs is needed for nothing else.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

# The class itself: `ddgs.DDGS` is a lazy proxy that cannot be subclassed.
from ddgs.ddgs import DDGS

from ..upstream.resilience import RATE, SERVER

# DuckDuckGo answers a rate limit with 202 and a challenge page; others with 403 or 429.
RATE_LIMIT_STATUSES = frozenset({202, 403, 429})
# Engines that look a title up in an encyclopedia: what they answer says nothing about
# whether the web has results, and they ignore the time filter.
ENCYCLOPEDIA_ENGINES = frozenset({"wikipedia", "grokipedia"})


@dataclasses.dataclass(frozen=True)
class EngineAnswer:
    engine: str          # ddgs' engine name: "duckduckgo", "brave", "wikipedia", …
    status: int


class WatchedDDGS(DDGS):
    """A `DDGS` whose engines report the status of every HTTP answer into `answers`.
    Use one per search: the answers are those of every search it ran."""

    def __init__(self, timeout: int) -> None:
        super().__init__(timeout=timeout)
        self.answers: list[EngineAnswer] = []
        self._lock = threading.Lock()

    # ddgs' own hook for building its engines (private; ddgs is pinned in requirements.txt).
    def _get_engines(self, category: str, backend: str) -> list[Any]:
        engines = super()._get_engines(category, backend)
        for engine in engines:
            if not isinstance(engine.http_client, _WatchedClient):
                engine.http_client = _WatchedClient(engine.http_client, engine.name, self)
        return engines

    def record(self, answer: EngineAnswer) -> None:
        with self._lock:            # engines answer from ddgs' own worker threads
            self.answers.append(answer)

    def refusal(self) -> str | None:
        """RATE when a web engine refused with a rate-limit status, SERVER when one failed
        with another non-200 status, None when none refused. One refusal is enough: when
        nothing was found, an engine that would not answer makes "nothing" unproven."""
        statuses = {a.status for a in self._web_answers() if a.status != 200}
        if statuses & RATE_LIMIT_STATUSES:
            return RATE
        return SERVER if statuses else None

    def _web_answers(self) -> list[EngineAnswer]:
        with self._lock:
            return [a for a in self.answers if a.engine not in ENCYCLOPEDIA_ENGINES]


class _WatchedClient:
    """An engine's `ddgs.http_client.HttpClient`, passing each answer's status on."""

    def __init__(self, inner: Any, engine: str, watcher: WatchedDDGS):
        self._inner, self._engine, self._watcher = inner, engine, watcher

    @property
    def client(self) -> Any:         # engines set cookies on the underlying primp client
        return self._inner.client

    def request(self, *args: Any, **kwargs: Any) -> Any:
        response = self._inner.request(*args, **kwargs)
        self._watcher.record(EngineAnswer(self._engine, response.status_code))
        return response
