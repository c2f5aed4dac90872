"""The operator's model budget: calls a minute and a day on the server's own model account,
counted where replicas share them, checked before each model call.

Per-visitor and per-network limits bound what one visitor or one network may ask; this bounds
what the operator pays for in all, whoever asks (`FINSEARCH_MODEL_CALLS_PER_MINUTE`,
`FINSEARCH_MODEL_CALLS_PER_DAY`; 0: no budget). Only calls on the operator's account count: a
visitor's own key or model server (`endpoint.operator_pays`) is theirs to spend.

`LLMClient` asks `spend()` before every request it sends (a retry is a request). A spent budget
raises `ModelBudgetSpent` instead of calling, which ends the run's model calls as a model failure
does: each stage falls back to the rules, and the run's notes say the budget is used up and when
it resets (`spent_note`). The counts are kept by `hosting.counters` (files under the data directory,
or Redis when `FINSEARCH_REDIS_URL` is set, so every replica spends one budget). A counter that
cannot be reached does not stop the call: answering matters more than counting, as for questions.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Literal

from ..errors import ModelBudgetSpent, StoreUnavailable
from ..hosting.counters import QuestionCounter, open_counter, window_end
from ..phrases import Language, say
from ..phrases.waits import reset
from ..settings import Settings
from .endpoint import operator_pays

Period = Literal["minute", "day"]
PERIOD_S: dict[Period, float] = {"minute": 60.0, "day": 86400.0}   # a day's window starts at 00:00 UTC
# A counter per period (a counter keeps one window per name): "model-budget:operator:minute", …
BUDGET_NAME = "model-budget:operator"


def clock() -> float:
    """Epoch seconds: the budget's windows are real time, never a run's pinned `now`."""
    return time.time()


@dataclasses.dataclass(frozen=True)
class Allowance:
    period: Period
    calls: int


class ModelBudget:
    def __init__(self, allowances: tuple[Allowance, ...], counter: QuestionCounter):
        self.allowances = allowances
        self.counter = counter

    @classmethod
    def of(cls, settings: Settings) -> ModelBudget | None:
        """The budget a run with `settings` spends, or None when it has none: no allowance is set,
        or the calls go on a visitor's own key or server."""
        allowances = tuple(Allowance(period, calls) for period, calls in
                           (("minute", settings.model_calls_per_minute), ("day", settings.model_calls_per_day))
                           if calls > 0)
        if not allowances or not operator_pays(settings):
            return None
        return cls(allowances, open_counter(settings))

    def spend(self) -> None:
        """Take one call from every allowance, or raise ModelBudgetSpent for the first one used up
        (then no call is made; the longer periods are not charged for it)."""
        now = clock()
        for allowance in self.allowances:
            window = PERIOD_S[allowance.period]
            try:
                used = self.counter.hit(f"{BUDGET_NAME}:{allowance.period}", window, now)
            except (StoreUnavailable, OSError):
                return
            if used > allowance.calls:
                raise ModelBudgetSpent(allowance.period, allowance.calls, window_end(window, now))


def spent_note(error: ModelBudgetSpent, language: Language, now: float | None = None) -> str:
    """The run's note on a spent budget, in the answer's language: which budget, and when it resets."""
    again = reset(error.resets_at, clock() if now is None else now, language)
    return say("note.model_budget", language, calls=str(error.calls), per=say(f"limit.per.{error.period}", language),
               wait=again.wait, at=again.at)
