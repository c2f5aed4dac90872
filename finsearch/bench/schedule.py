"""The theoretical critical path of a run: when it could have ended under the injected delays.

The model's calls cost `pace.seconds(output tokens)`; each source call its seeded latency.
A node can start once its line of the plan has been written and its parents have finished;
it then costs its rewrite call(s) and its source call. With a whole (non-streamed) plan every
node's line is "written" when the plan call ends; with a streamed plan, when the node's
closing brace would have arrived (time to first token + the plan's tokens up to there). The
answer starts after the last node and costs one streamed call. Prefetches are not counted,
so a run that fetched during the plan call can beat this figure (a ratio below 1).
"""

from __future__ import annotations

import dataclasses

from ..catalogue import canonical_args
from ..graph import NodeStatus
from ..model.loopback import Call, Pace
from ..model.text import estimate_tokens
from ..plan.node_scanner import node_ends
from ..sources.replay import simulated_latency


@dataclasses.dataclass(frozen=True)
class CriticalPath:
    ms: float
    llm_calls: int          # model calls on it: plan(s), rewrites along the chain, the answer
    output_tokens: int      # … and the tokens they write


def critical_path(result, calls: list[Call], pace: Pace, plan_text: str, source_delay_s: float,
                  jitter: float) -> CriticalPath:
    plans = [c for c in calls if c.kind == "plan"]
    rewrite = next((c.output_tokens for c in calls if c.kind == "rewrite"), 0)
    answer = next((c.output_tokens for c in calls if c.kind == "answer"), 0)
    plan_s = sum(pace.seconds(c.output_tokens) for c in plans)
    written: dict[str, float] = {}
    if len(plans) == 1 and plans[0].streamed:
        ids = [(n.item or {}).get("id") for n in node_ends(plan_text)]
        ends = [pace.seconds(estimate_tokens(plan_text[:n.end], exact=True)) for n in node_ends(plan_text)]
        written = {i: at for i, at in zip(ids, ends, strict=True) if isinstance(i, str)}
    finish: dict[str, tuple[float, int, int]] = {}      # node → (seconds, model calls, tokens) to its end
    for node in result.graph.topological():
        ready = written.get(node.id, plan_s) if plans and node.added_by == "plan" else 0.0
        start = (ready, len(plans), sum(c.output_tokens for c in plans))
        for parent in result.graph.parents(node.id):
            start = max(start, finish[parent.id])
        if node.status is NodeStatus.SKIPPED:
            finish[node.id] = start
            continue
        source = simulated_latency(node.source, canonical_args(node.args), source_delay_s, jitter)
        finish[node.id] = (start[0] + source + pace.seconds(rewrite) * node.llm_calls,
                           start[1] + node.llm_calls, start[2] + rewrite * node.llm_calls)
    end = max(finish.values(), default=(plan_s, len(plans), sum(c.output_tokens for c in plans)))
    if result.answer and result.answer.writer == "llm":
        end = (end[0] + pace.seconds(answer), end[1] + 1, end[2] + answer)
    return CriticalPath(round(end[0] * 1000, 1), end[1], end[2])
