"""What every stage of one run shares, built once: `RunContext.open(question, …)`.

The analysis, the question's clock (`now`), the settings, the model (or none), the data
hub, the time budget (which carries the Stop flag) and the run's stopwatch. Stages take
the context instead of threading each of these by hand.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from datetime import datetime

from .deadline import Deadline
from .model.language_model import LanguageModel
from .model.llm import LLMClient, choose_backend
from .model.usage import ModelUsage
from .plan.analysis import Analysis, analyse, check_question
from .plan.interpretation import Corrections, apply
from .settings import Backend, Settings
from .sources.hub import DataHub


@dataclasses.dataclass(frozen=True)
class RunContext:
    analysis: Analysis
    now: datetime
    settings: Settings
    backend: Backend
    model: LanguageModel | None      # None: the rule-based backend answers alone
    hub: DataHub | None              # None: plan only, nothing is fetched
    deadline: Deadline
    clock: Callable[[], float]       # milliseconds since the run began
    corrections: Corrections = Corrections()    # the user's choices, already applied to `analysis`

    @classmethod
    def open(cls, question: str, *, settings: Settings, now: datetime | None = None,
             prior: Analysis | None = None, cancel: threading.Event | None = None,
             hub: DataHub | None = None, fetch: bool = True,
             corrections: Corrections | None = None) -> RunContext:
        """Check and analyse the question and apply the user's corrections to how it was read
        (an unusable question or correction raises InputError before anything starts), then
        set up what the run needs. `fetch=False`: plan only."""
        started = time.perf_counter()
        text = check_question(question)
        now = now or settings.clock()
        corrections = corrections or Corrections()
        analysis = apply(analyse(text, now, prior), corrections, now)
        deadline = Deadline(settings.deadline_s, cancel or threading.Event())
        backend = choose_backend(settings)
        model = LLMClient(settings, deadline) if backend == "openai" else None
        if fetch and hub is None:
            from .sources.setup import make_hub

            hub = make_hub(settings)
        return cls(analysis, now, settings, backend, model, hub if fetch else None,
                   deadline, lambda: round((time.perf_counter() - started) * 1000, 1), corrections)

    def close(self) -> None:
        if self.model is not None:
            self.model.close()

    @property
    def cancel(self) -> threading.Event:
        return self.deadline.cancel

    @property
    def live_model(self) -> LanguageModel | None:
        """The model, while it is still worth calling in this run."""
        return self.model if self.model is not None and self.model.available else None

    @property
    def usage(self) -> ModelUsage:
        return self.model.usage if self.model is not None else ModelUsage()
