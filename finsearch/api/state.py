"""What the HTTP API's routes share for the server's life: its settings, the run store, the question
counter, the API keys, whether a call needs one, and the job queue reports run on."""

from __future__ import annotations

import dataclasses

from starlette.requests import Request

from ..hosting.api_keys import ApiKeyStore, open_key_store
from ..hosting.counters import QuestionCounter, open_counter
from ..jobs import JobQueue
from ..jobs.shared import jobs_here
from ..settings import Settings
from ..store import RunStore, open_store


@dataclasses.dataclass(frozen=True)
class ApiState:
    settings: Settings
    store: RunStore
    counter: QuestionCounter
    keys: ApiKeyStore
    keys_required: bool
    jobs: JobQueue                     # reports are jobs: on Redis's workers, or this process's queue

    @classmethod
    def open(cls, settings: Settings, keys_required: bool) -> ApiState:
        """The server's state from its settings: files under the data directory, or Redis."""
        return cls(settings, open_store(settings), open_counter(settings), open_key_store(settings), keys_required,
                   jobs_here(settings))


def state_of(request: Request) -> ApiState:
    return request.app.state.finsearch
