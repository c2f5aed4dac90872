"""What the HTTP API's routes share for the server's life: its settings, the run store, the question
counter, the API keys, whether a call needs one, and the reports running here."""

from __future__ import annotations

import dataclasses

from starlette.requests import Request

from ..hosting.api_keys import ApiKeyStore, open_key_store
from ..hosting.counters import QuestionCounter, open_counter
from ..settings import Settings
from ..store import RunStore, open_store
from .desk import ReportDesk


@dataclasses.dataclass(frozen=True)
class ApiState:
    settings: Settings
    store: RunStore
    counter: QuestionCounter
    keys: ApiKeyStore
    keys_required: bool
    reports: ReportDesk

    @classmethod
    def open(cls, settings: Settings, keys_required: bool) -> ApiState:
        """The server's state from its settings: files under the data directory, or Redis."""
        return cls(settings, open_store(settings), open_counter(settings), open_key_store(settings), keys_required,
                   ReportDesk())


def state_of(request: Request) -> ApiState:
    return request.app.state.finsearch
