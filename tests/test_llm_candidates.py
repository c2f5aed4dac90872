"""The LLM planner is shown the rules' reading as candidates (how each instrument was read,
its other readings, the period and whether it was assumed, the intents) and may plan for
another reading; through the real openai SDK against the loopback model server."""

from __future__ import annotations

import dataclasses
import json

from finsearch.model.llm import LLMClient
from finsearch.model.loopback import Reply
from finsearch.plan.analysis import analyse
from finsearch.plan.entities import Reading
from finsearch.plan.planner import make_plan
from tests.conftest import NOW

WEEK = {"start": "2024-10-14", "end": "2024-10-15"}
# The model's plan for "How is SOL doing this week?": the coin, not the stock the rules read.
SOLANA_PLAN = {"nodes": [
    {"id": "n1", "sub_query": "Solana (SOL-USD) price this week", "source": "price_history",
     "args": {"ticker": "SOL-USD", **WEEK}},
    {"id": "n2", "sub_query": "Solana news this week", "source": "news",
     "args": {"ticker": "SOL-USD", "query": "Solana crypto", **WEEK, "lang": "en"}},
]}


def sol_read_as_the_stock():
    """The reading the rules give "SOL" when they take the listed stock and offer the coin."""
    a = analyse("How is SOL doing this week?", NOW)
    stock = dataclasses.replace(a.entities[0], name="Emeren Group", ticker="SOL", kind="equity", read_as="symbol",
                                alternatives=(Reading("SOL-USD", "Solana", "crypto"),))
    return dataclasses.replace(a, entities=(stock,))


def user_prompt(fake_llm) -> str:
    return fake_llm.requests[0]["messages"][1]["content"]


def test_the_model_may_replace_a_wrong_candidate_and_the_reader_is_told(llm_settings, fake_llm):
    fake_llm.on("plan", Reply(content=json.dumps(SOLANA_PLAN)))
    client = LLMClient(llm_settings)
    try:
        outcome = make_plan(sol_read_as_the_stock(), NOW, client)
    finally:
        client.close()
    assert outcome.planner == "llm"
    assert [(n.source, n.args["ticker"]) for n in outcome.graph] == [("price_history", "SOL-USD"),
                                                                   ("news", "SOL-USD")]
    assert outcome.notes == ("The planner read the question as being about SOL-USD rather than SOL.",)
    assert fake_llm.kinds() == ["plan"]


def test_the_prompt_lists_the_candidates_their_readings_and_alternatives(llm_settings, fake_llm):
    fake_llm.on("plan", Reply(content=json.dumps(SOLANA_PLAN)))
    client = LLMClient(llm_settings)
    try:
        make_plan(sol_read_as_the_stock(), NOW, client)
    finally:
        client.close()
    system, user = (m["content"] for m in fake_llm.requests[0]["messages"][:2])
    assert "exact rules" not in system and "can be wrong" in system and "alternatives" in system
    assert ('[{"words": "SOL", "name": "Emeren Group", "ticker": "SOL", "kind": "equity", "read_as": "symbol", '
            '"alternatives": [{"ticker": "SOL-USD", "name": "Solana", "kind": "crypto"}]}]') in user
    assert '"label": "this week", "assumed": false}' in user
    assert "Intents found: price" in user


def test_an_assumed_period_and_an_unlisted_name_are_shown_as_such(llm_settings, fake_llm):
    fake_llm.on("plan", Reply(content=json.dumps(SOLANA_PLAN)))
    client = LLMClient(llm_settings)
    try:
        make_plan(analyse("Why did Rocket Lab jump?", NOW), NOW, client)
    finally:
        client.close()
    user = user_prompt(fake_llm)
    assert '"ticker": null' in user and "not in the alias table" in user
    assert '"start": "2024-10-15", "end": "2024-10-15", "label": "today", "assumed": true}' in user


def test_a_plan_on_the_candidates_needs_no_note(llm_settings, fake_llm):
    plan = {"nodes": [{"id": "n1", "sub_query": "NVDA prices", "source": "price_history",
                       "args": {"ticker": "NVDA", "start": "2024-10-07", "end": "2024-10-13"}}]}
    fake_llm.on("plan", Reply(content=json.dumps(plan)))
    client = LLMClient(llm_settings)
    try:
        outcome = make_plan(analyse("Why did NVDA fall last week?", NOW), NOW, client)
    finally:
        client.close()
    assert outcome.planner == "llm" and outcome.notes == ()
