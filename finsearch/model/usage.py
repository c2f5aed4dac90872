"""What a run's model calls used and cost, per stage: `StageUsage` per (stage, model), `ModelUsage` for the whole.

A stage is the call kind each request already carries (plan, rewrite, answer, outline, section,
summary, judge, …). Its cost is computed when its tokens are counted, from the operator's price
table (`model.prices`), and kept with the record: History shows what an answer cost when it was
asked, whatever the table says later. A model without a price has `cost_usd` None, and so does the
whole when any stage that used tokens has none (a partial sum would read as the full cost).
`estimated`: the server reported no usage for some call, so its tokens were estimated from the text.
"""

from __future__ import annotations

import dataclasses

from .prices import ModelPrice

# The order stages are listed in: a run's, then a report's, then the evaluation's own.
STAGE_ORDER = ("plan", "rewrite", "answer", "outline", "section", "summary", "judge", "llm_only", "grade", "other")


@dataclasses.dataclass(frozen=True)
class StageUsage:
    stage: str
    model: str
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False
    cost_usd: float | None = None

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, raw: dict) -> StageUsage:
        cost = raw.get("cost_usd")
        return cls(str(raw["stage"]), str(raw.get("model") or ""), int(raw.get("calls") or 0),
                   int(raw.get("prompt_tokens") or 0), int(raw.get("completion_tokens") or 0),
                   bool(raw.get("estimated")), None if cost is None else float(cost))


@dataclasses.dataclass(frozen=True)
class ModelUsage:
    by_stage: tuple[StageUsage, ...] = ()

    @property
    def calls(self) -> int:
        return sum(s.calls for s in self.by_stage)

    @property
    def prompt_tokens(self) -> int:
        return sum(s.prompt_tokens for s in self.by_stage)

    @property
    def completion_tokens(self) -> int:
        return sum(s.completion_tokens for s in self.by_stage)

    @property
    def estimated(self) -> bool:
        return any(s.estimated for s in self.by_stage)

    @property
    def cost_usd(self) -> float | None:
        """USD for the whole; None when nothing was priced or some stage that used tokens was not."""
        used = [s for s in self.by_stage if s.prompt_tokens or s.completion_tokens]
        if not used or any(s.cost_usd is None for s in used):
            return None
        return round(sum(s.cost_usd for s in used), 6)

    def counted(self, stage: str, model: str, *, calls: int = 0, prompt_tokens: int = 0, completion_tokens: int = 0,
                estimated: bool = False, price: ModelPrice | None = None) -> ModelUsage:
        """This usage with one call's (or one request's) counts added to `stage` on `model`."""
        old = next((s for s in self.by_stage if (s.stage, s.model) == (stage, model)), StageUsage(stage, model))
        prompt, completion = old.prompt_tokens + prompt_tokens, old.completion_tokens + completion_tokens
        new = StageUsage(stage, model, old.calls + calls, prompt, completion, old.estimated or estimated,
                         price.cost(prompt, completion) if price is not None else None)
        return ModelUsage(_ordered([*(s for s in self.by_stage if s is not old), new]))

    def plus(self, other: ModelUsage) -> ModelUsage:
        """Both usages together (a run's and its judge's, on another client and perhaps another model)."""
        merged: dict[tuple[str, str], StageUsage] = {}
        for s in (*self.by_stage, *other.by_stage):
            was = merged.get((s.stage, s.model))
            merged[(s.stage, s.model)] = s if was is None else StageUsage(
                s.stage, s.model, was.calls + s.calls, was.prompt_tokens + s.prompt_tokens,
                was.completion_tokens + s.completion_tokens, was.estimated or s.estimated,
                None if was.cost_usd is None or s.cost_usd is None else round(was.cost_usd + s.cost_usd, 6))
        return ModelUsage(_ordered(merged.values()))

    def to_json(self) -> dict:
        """The `usage` object of `ask --json`, `report --json` and the stored records."""
        return {"calls": self.calls, "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "estimated": self.estimated, "cost_usd": self.cost_usd,
                "by_stage": [s.to_json() for s in self.by_stage]}

    @classmethod
    def from_json(cls, raw: dict | None) -> ModelUsage:
        """A stored `usage` (None, from a record kept before usage was: no calls counted)."""
        if not isinstance(raw, dict):
            return cls()
        return cls(tuple(StageUsage.from_json(s) for s in raw.get("by_stage") or ()))


def _ordered(stages) -> tuple[StageUsage, ...]:
    def place(s: StageUsage) -> tuple[int, str, str]:
        return (STAGE_ORDER.index(s.stage) if s.stage in STAGE_ORDER else len(STAGE_ORDER), s.stage, s.model)

    return tuple(sorted(stages, key=place))
