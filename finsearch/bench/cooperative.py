"""The benchmark's model: a cooperative one with a real one's latency, scripted per question.

Each question gets its own loopback model server, scripted from what is known before the
run, never from the prompts: the planner's reply is the question's rule-based plan, written
the way a model would; the rewriter keeps the sub-query and arguments it was given; the
writer streams `answer_tokens` tokens citing the first evidence item. Every call waits
`llm_delay_s` before its first byte (a round trip); streamed pieces then come at `tokens_per_s`.
"""

from __future__ import annotations

import json
from datetime import datetime

from ..model.loopback import LoopbackModel, Reply
from ..plan.analysis import analyse
from ..plan.planner import plan_json
from ..plan.rules import heuristic_plan


def cooperative_model(question: str, now: datetime, llm_delay_s: float, tokens_per_s: float,
                      answer_tokens: int) -> LoopbackModel:
    """A started loopback server answering `question`'s plan, rewrite and answer calls."""
    words = (["The", "evidence", "shows", "a", "decline", "[1]."] + ["word"] * answer_tokens)[:answer_tokens]
    model = LoopbackModel(default=Reply(content="{}", delay_s=llm_delay_s))
    model.on("plan", Reply(content=plan_json(heuristic_plan(analyse(question, now), now)), delay_s=llm_delay_s))
    # No changes: the rewriter merges a reply's arguments into the ones it showed.
    model.on("rewrite", Reply(content=json.dumps({"args": {}}), delay_s=llm_delay_s))
    model.on("answer", Reply(content=" ".join(words), delay_s=llm_delay_s, token_delay_s=1 / tokens_per_s))
    return model.start()
