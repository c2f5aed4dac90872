"""Events streamed by `finsearch.pipeline.run`, in order:

    PlanDrafted? → PlanReady → (NodeStarted → NodeRewritten? → NodeFinished | NodeFailed)* → NodeAdded* …
    (with a model: PlanReady carries the rules' draft, running at once, and NodeAdded each node the
     model's streamed plan adds; PlanDrafted only in the sequential schedule, while the model plans)
    → ChartsReady? → AnswerStarted → AnswerDelta* → RunFinished

Every consumer (CLI, UI, benchmark) reads this one stream. Events are frozen and
carry copies, so a consumer on another thread can keep them without locks.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from .graph import Author, SearchGraph, SearchNode

if TYPE_CHECKING:       # the result module imports the stages, which import the events
    from .plan.interpretation import Interpretation
    from .result import RunResult


@dataclasses.dataclass(frozen=True)
class Event:
    at_ms: float            # milliseconds since the run started


@dataclasses.dataclass(frozen=True)
class PlanDrafted(Event):
    """What the rules would search, drawn at once while a model writes the plan that will
    replace it (a model's first node takes seconds; a reader should not face an empty frame)."""
    graph: SearchGraph
    interpretation: Interpretation | None = None


@dataclasses.dataclass(frozen=True)
class PlanReady(Event):
    graph: SearchGraph
    planner: Author
    notes: tuple[str, ...] = ()
    interpretation: Interpretation | None = None    # how the question was read, shown while it runs
    model_plans: bool = False       # the model's plan is still streaming into `graph` (the answer waits for it)


@dataclasses.dataclass(frozen=True)
class NodeStarted(Event):
    node: SearchNode


@dataclasses.dataclass(frozen=True)
class NodeRewritten(Event):
    node: SearchNode
    before: str             # the sub-query before this rewrite


@dataclasses.dataclass(frozen=True)
class NodeAdded(Event):
    node: SearchNode        # a node the model's streamed plan added (added_by "model") or a follow-up


@dataclasses.dataclass(frozen=True)
class NodeFinished(Event):
    node: SearchNode


@dataclasses.dataclass(frozen=True)
class NodeFailed(Event):
    node: SearchNode        # status failed or skipped; `node.error` says why


@dataclasses.dataclass(frozen=True)
class ChartsReady(Event):
    charts: tuple[dict, ...]


@dataclasses.dataclass(frozen=True)
class AnswerStarted(Event):
    """Every search has ended; the answer is being written (a model's first words take a while)."""


@dataclasses.dataclass(frozen=True)
class AnswerDelta(Event):
    text: str
    restart: bool = False   # discard the answer text so far (the LLM failed mid-answer)


@dataclasses.dataclass(frozen=True)
class RunFinished(Event):
    result: RunResult
