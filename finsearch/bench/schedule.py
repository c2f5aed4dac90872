"""The theoretical critical path of a run: when it could have ended under the injected delays.

The model's calls cost `pace.seconds(output tokens)`; each source call its seeded latency.
A node costs its rewrite call(s) and its source call, from when it can start: at once for the
rules' draft when the model's plan streams into it (the graph schedule), when the plan call ends
for a node that plan added, and for every node when the whole plan comes first (the paper's
sequential way); never before its parents have finished. A model's answer starts once the searches
its lead reads have ended (`answer.lead_needs`) and, while the plan streams, once the plan has
written a search about each of their instruments (`answer.early`; the plan's nodes are taken as
written evenly over its tokens, independent ones first); else after the last node and the plan's
end. It costs one streamed call; the run ends with the last of the answer, the nodes and the plan.
"""

from __future__ import annotations

import dataclasses

from ..answer.lead_needs import lead_nodes
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
        start = _answer_start(result, finish, planned, pace, streamed) or end
        written = (start[0] + pace.seconds(answer), start[1] + 1, start[2] + answer)
        end = max(end, written)
    return CriticalPath(round(end[0] * 1000, 1), end[1], end[2])


def _answer_start(result, finish: dict, planned: tuple[float, int, int], pace: Pace,
                  streamed: bool) -> tuple[float, int, int] | None:
    """When an answer begun early could begin (None: it waits for every node and the plan)."""
    needed = lead_nodes(result.graph, result.analysis) if streamed or not planned[1] else None
    if not needed:
        return None
    start = max(finish[n.id] for n in needed)
    if planned[1]:
        ordered = [n for n in result.graph if n.added_by != "model" and not n.depends_on] + \
                  [n for n in result.graph if n.added_by != "model" and n.depends_on]
        tickers = {n.args.get("ticker") for n in needed}
        last = max((next((i for i, n in enumerate(ordered) if n.args.get("ticker") == t), len(ordered) - 1)
                    for t in tickers), default=0)
        share = (last + 1) / max(1, len(ordered))
        start = max(start, (pace.ttft_s + (planned[0] - pace.ttft_s) * share, 1, round(planned[2] * share)))
    return start
