"""The theoretical critical path of a run: when it could have ended under the injected delays.

The model's calls cost `pace.seconds(output tokens)`; each source call its seeded latency.
A node costs its rewrite call(s) and its source call, from when it can start: at once for the
rules' draft when the model's plan streams into it (the graph schedule), when the plan call ends
for a node that plan added, and for every node when the whole plan comes first (the paper's
sequential way); never before its parents have finished. The answer starts after the last node
and after the plan has ended (the model's plan may still add a node), and costs one streamed call.
"""

from __future__ import annotations

import dataclasses

from ..graph import NodeStatus
from ..model.loopback import Call, Pace
from ..source_args import canonical_args
from ..sources.replay import simulated_latency


@dataclasses.dataclass(frozen=True)
class CriticalPath:
    ms: float
    llm_calls: int          # model calls on it: plan(s), rewrites along the chain, the answer
    output_tokens: int      # … and the tokens they write


def critical_path(result, calls: list[Call], pace: Pace, source_delay_s: float, jitter: float) -> CriticalPath:
    plans = [c for c in calls if c.kind == "plan"]
    rewrite = next((c.output_tokens for c in calls if c.kind == "rewrite"), 0)
    answer = next((c.output_tokens for c in calls if c.kind == "answer"), 0)
    planned = (sum(pace.seconds(c.output_tokens) for c in plans), len(plans), sum(c.output_tokens for c in plans))
    streamed = len(plans) == 1 and plans[0].streamed
    finish: dict[str, tuple[float, int, int]] = {}      # node → (seconds, model calls, tokens) to its end
    for node in result.graph.topological():
        waits = plans and (not streamed or node.added_by == "model")
        start = planned if waits else (0.0, 0, 0)
        for parent in result.graph.parents(node.id):
            start = max(start, finish[parent.id])
        if node.status is NodeStatus.SKIPPED:
            finish[node.id] = start
            continue
        source = simulated_latency(node.source, canonical_args(node.args), source_delay_s, jitter)
        finish[node.id] = (start[0] + source + pace.seconds(rewrite) * node.llm_calls,
                           start[1] + node.llm_calls, start[2] + rewrite * node.llm_calls)
    end = max([*finish.values(), planned if plans else (0.0, 0, 0)])
    if result.answer and result.answer.writer == "llm":
        end = (end[0] + pace.seconds(answer), end[1] + 1, end[2] + answer)
    return CriticalPath(round(end[0] * 1000, 1), end[1], end[2])
