"""The benchmark's model: a cooperative one with a real one's latency, scripted per question.

Each question gets its own loopback model server, scripted from what is known before the
run, never from the prompts, with replies of the length a real model writes for our prompts:

- plan: the question's rule-based plan, written as our plan prompt asks a model to write it
  (`scripted_plan`: compact lines, nodes without dependencies first, implied fields left out),
  so a plan of eight nodes is ~110 output tokens (~255 as the JSON the prompt asked for before,
  ~390 with every field written), as a real one is;
- rewrite: a refined sub-query of a sentence or two and no changed arguments (a real
  rewrite also echoes the arguments; the rewriter merges, so these keep the rules' ones);
- answer: a streamed answer of a few hundred tokens (`answer_text`), citing [1] and [2].

The server charges every call by its `Pace`: time to first token, then output tokens at the
profile's rate, streamed or not (see finsearch/model/loopback.py).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Literal

from ..model.loopback import LoopbackModel, Pace, Reply
from ..plan.analysis import analyse
from ..plan.compact import render_plan
from ..plan.planner import plan_json, roots_first
from ..plan.rules import heuristic_plan

REWRITE = {"sub_query": "Which news reports on the day of the biggest price move in the period explain it: "
                        "earnings, guidance, analyst changes, regulation or market-wide selling?",
           "args": {}}

ANSWER = (
    "{subject} moved sharply over the period. The price history shows the biggest daily move on the "
    "day the market reacted to new information, with volume well above its recent average [1]. "
    "Reports from that day point to two drivers. First, investors reassessed demand after comments "
    "from suppliers and customers about spending plans for the coming quarters, which several outlets "
    "described as more cautious than expected [2]. Second, the move came amid broader selling in the "
    "sector, so part of it reflects the market rather than company news alone [2].\n\n"
    "Over the whole period the stock ended below where it started, although it recovered part of the "
    "loss in the following sessions [1]. Analysts quoted in the coverage mostly kept their long-term "
    "views, saying the fall reflected positioning and short-term uncertainty rather than a change in "
    "the business [2]. No single report fully explains the size of the move, and the evidence found "
    "does not include the company's own statement on it.\n\n"
    "In short: the fall followed a reassessment of near-term demand and coincided with sector-wide "
    "selling; the data for the period shows the timing and size of the move [1], and the news from "
    "that day gives the reasons investors cited [2]."
)


def answer_text(subject: str) -> str:
    """The scripted answer: ~1,200 characters (~300 tokens), two citations."""
    return ANSWER.replace("{subject}", subject)


def scripted_plan(question: str, now: datetime, form: Literal["lines", "json", "json_full"] = "lines") -> str:
    """The rule-based plan as a model writes it for our plan prompt: compact lines, independent nodes
    first, what the planner derives left out ("json": the same as the JSON the prompt asked for
    before; "json_full": every field written, as before the prompt let fields be left out)."""
    analysis = analyse(question, now)
    nodes = heuristic_plan(analysis, now)
    if form == "json_full":
        return plan_json(nodes)
    if form == "json":
        return plan_json(roots_first(nodes), analysis.time_context, analysis.language)
    return render_plan(roots_first(nodes), analysis.time_context, analysis.language)


def cooperative_model(question: str, now: datetime, pace: Pace, answer: str | None = None) -> LoopbackModel:
    """A started loopback server answering `question`'s plan, rewrite and answer calls at `pace`."""
    analysis = analyse(question, now)
    subject = " and ".join(analysis.tickers) or "The market"
    model = LoopbackModel(default=Reply(content="{}"), pace=pace)
    model.on("plan", Reply(content=scripted_plan(question, now)))
    # No changed arguments: the rewriter merges a reply's arguments into the ones it showed.
    model.on("rewrite", Reply(content=json.dumps(REWRITE)))
    model.on("answer", Reply(content=answer if answer is not None else answer_text(subject)))
    return model.start()
