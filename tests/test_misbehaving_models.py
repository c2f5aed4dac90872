"""A misbehaving model, scripted on the loopback server: every run still ends within its
deadline, the rule-based stages take over after one transport failure, and nothing the
model sends (malformed chunks, empty or tool-call replies, reasoning, web pages) reaches
the answer or crashes the run. Driven through the real openai SDK and the whole pipeline.

Time bounds here are the product's promise ("ends within its deadline"), each with the
deadline set well below what the misbehaviour would cost without it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from finsearch import pipeline
from finsearch.events import AnswerDelta
from finsearch.model.llm import LLMClient
from finsearch.model.loopback import Reply
from tests.conftest import ROOT
from tests.test_pipeline import PLAN, check_citations

QUESTION = "Why did NVDA fall last week?"


@pytest.fixture
def run_settings(llm_settings, demo_settings):
    return llm_settings.replace(pack=demo_settings.pack, offline=True, deadline_s=8.0, llm_timeout_s=2.0,
                                stream_stall_s=1.5)


def by_stage(model, plan=None, rewrite=None, answer=None):
    """Script each stage's reply (the call kind its requests carry); a cooperative one unless given."""
    model.on("plan", plan or Reply(content=json.dumps(PLAN)))
    model.on("rewrite", rewrite or Reply(content=json.dumps({"sub_query": "Nvidia stock October 11 2024",
                                                            "args": {"ticker": "NVDA", "query": "Nvidia stock"}})))
    model.on("answer", answer or Reply(stream_pieces=["NVIDIA fell last week [1]."]))


def timed(settings):
    started = time.monotonic()
    events = list(pipeline.run(QUESTION, settings=settings))
    return events, events[-1].result, time.monotonic() - started


def test_a_model_that_never_answers_costs_one_timeout_not_minutes(fake_llm, run_settings):
    fake_llm.default = Reply(hang=True)
    _, result, wall = timed(run_settings)
    assert wall < run_settings.deadline_s
    assert len(fake_llm.requests) == 1, "after the plan call timed out, the model was not called again"
    assert result.planner == "heuristic" and result.answer.writer == "heuristic"
    assert any("did not answer within 2 s" in n for n in result.notes)
    assert any("rest of this run used the rule-based" in n for n in result.notes)
    check_citations(result)


def test_a_hang_on_the_plan_only_still_ends_in_time(fake_llm, run_settings):
    by_stage(fake_llm, plan=Reply(hang=True))
    _, result, wall = timed(run_settings)
    assert wall < run_settings.deadline_s and fake_llm.kinds() == ["plan"]
    assert result.answer.writer == "heuristic"


def test_a_stalled_answer_stream_is_abandoned_and_finished_by_the_rules(fake_llm, run_settings):
    pieces = [f"w{i} " for i in range(30)]
    by_stage(fake_llm, answer=Reply(stream_pieces=pieces, hang_after=20))     # then silence
    events, result, wall = timed(run_settings)
    assert wall < run_settings.deadline_s
    assert result.answer.writer == "heuristic" and "NVIDIA (NVDA) fell 7.27% last week" in result.answer.markdown
    assert any(e.restart for e in events if isinstance(e, AnswerDelta)), "the partial model answer is cleared"
    assert any("stalled for more than 1.5 s" in n for n in result.notes)


def test_a_drip_fed_answer_is_abandoned(fake_llm, run_settings):
    pieces = [f"w{i} " for i in range(40)]
    by_stage(fake_llm, answer=Reply(stream_pieces=pieces, token_delay_s=1.2))   # under 1 piece a second
    _, result, wall = timed(run_settings)
    assert wall < run_settings.deadline_s
    assert result.answer.writer == "heuristic"
    assert any("came too slowly" in n for n in result.notes)


def test_a_long_retry_after_is_not_waited_for(fake_llm, run_settings):
    fake_llm.default = Reply(status=429, headers={"Retry-After": "30"})
    _, result, wall = timed(run_settings)
    assert wall < 5 and len(fake_llm.requests) == 1
    assert any("rate-limiting requests (it asked to wait 30 s)" in n for n in result.notes)
    assert result.answer.writer == "heuristic"


def test_a_short_retry_after_is_waited_out_once(fake_llm, run_settings):
    by_stage(fake_llm)
    fake_llm.on("plan", Reply(status=429, headers={"Retry-After": "1"}), Reply(content=json.dumps(PLAN)))
    _, result, _ = timed(run_settings)
    assert fake_llm.kinds()[:2] == ["plan", "plan"], "retried after the wait"
    assert result.planner == "llm" and result.answer.writer == "llm"


def test_a_malformed_stream_chunk_ends_in_the_rule_based_answer(fake_llm, run_settings):
    by_stage(fake_llm, answer=Reply(stream_pieces=["NVIDIA ", "fell ", "[1]."], malformed_chunk_at=2))
    _, result, _ = timed(run_settings)
    assert result.answer.writer == "heuristic"
    assert any("malformed chunk" in n for n in result.notes)
    check_citations(result)


def test_the_cli_answers_despite_a_malformed_chunk(fake_llm, run_settings, tmp_path):
    by_stage(fake_llm, answer=Reply(stream_pieces=["x ", "y "], malformed_chunk_at=1))
    env = {"OPENAI_BASE_URL": fake_llm.base_url, "OPENAI_API_KEY": "k", "FINSEARCH_CACHE_DIR": str(tmp_path),
           "FINSEARCH_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "finsearch", "ask", QUESTION, "--offline", "--pack",
                           str(run_settings.pack), "--now", "2024-10-15T20:00:00Z", "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["writer"] == "heuristic" and "Traceback" not in done.stderr
    assert any("malformed chunk" in n for n in out["notes"])


@pytest.mark.parametrize(("answer", "reason"), [
    (Reply(stream_pieces=[]), "sent no text"),
    (Reply(stream_pieces=['{"q": "nvda"}'], tool_calls=True), "sent no text (only a tool call)"),
    (Reply(stream_pieces=["<think>I should ", "look at [1] first</think>"]), "no text outside its reasoning"),
])
def test_an_empty_or_tool_call_answer_is_a_failed_answer(fake_llm, run_settings, answer, reason):
    by_stage(fake_llm, answer=answer)
    _, result, _ = timed(run_settings)
    assert result.answer.writer == "heuristic" and result.answer.markdown.strip()
    assert any(reason in n for n in result.notes)


@pytest.mark.parametrize(("plan", "reason"), [      # (the plan is streamed: the stream's wording)
    (Reply(content=""), "sent no text"),
    (Reply(content="search", tool_calls=True), "only a tool call"),
])
def test_an_empty_or_tool_call_plan_falls_back(fake_llm, run_settings, plan, reason):
    by_stage(fake_llm, plan=plan)
    _, result, _ = timed(run_settings)
    assert result.planner == "heuristic" and any(reason in n for n in result.notes)


def test_reasoning_is_never_shown_and_never_breaks_a_plan(fake_llm, run_settings):
    plan = Reply(content="<think>The user wants {a plan}. Nodes: {n1}</think>\n" + json.dumps(PLAN),
                 reasoning="hidden thoughts {")
    rewrite = Reply(content="<think>{maybe}</think>" + json.dumps(
        {"sub_query": "Nvidia stock October 11 2024", "args": {"ticker": "NVDA", "query": "Nvidia stock",}}))
    answer = Reply(stream_pieces=["<thi", "nk>scratch: 7% [9]</th", "ink>NVIDIA fell ", "last week [1]."],
                   reasoning="more hidden thoughts")
    by_stage(fake_llm, plan=plan, rewrite=rewrite, answer=answer)
    # The paper's sequential way: a whole plan, a rewrite before each node, then the answer.
    events, result, _ = timed(run_settings.replace(schedule="sequential"))
    assert fake_llm.kinds() == ["plan", "rewrite", "rewrite", "answer"]
    assert result.planner == "llm" and result.graph["n2"].rewritten_by == "llm"
    assert result.graph["n2"].status.value == "done"
    assert result.answer.writer == "llm" and result.answer.markdown == "NVIDIA fell last week [1]."
    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert "scratch" not in streamed and "think" not in streamed and "hidden" not in streamed
    # Streamed into the running draft, the plan is read past its reasoning too.
    events, result, _ = timed(run_settings)
    assert result.planner == "llm" and not any("plan was not used" in n for n in result.notes)
    assert "scratch" not in "".join(e.text for e in events if isinstance(e, AnswerDelta))


def test_a_lone_closing_think_tag_restarts_the_shown_answer(fake_llm, run_settings):
    answer = Reply(stream_pieces=["Let me reason ", "about [2]. ", "</think>", "NVIDIA fell [1]."])
    by_stage(fake_llm, answer=answer)
    events, result, _ = timed(run_settings)
    assert result.answer.markdown == "NVIDIA fell [1]."
    assert any(e.restart for e in events if isinstance(e, AnswerDelta))


def test_plans_with_trailing_commas_and_comments_are_accepted(fake_llm, run_settings):
    sloppy = json.dumps(PLAN, indent=1).replace('"price_history"', '"price_history", // prices first')
    sloppy = sloppy.replace("]\n}", "],\n}")
    by_stage(fake_llm, plan=Reply(content=sloppy))
    _, result, _ = timed(run_settings)
    assert result.planner == "llm" and [n.source for n in result.graph][:2] == ["price_history", "news"]


def test_any_400_to_a_schema_request_retries_without_it_and_is_remembered(fake_llm, llm_settings):
    fake_llm.script = [Reply(reject_schema=True, error_message="Invalid request")]
    fake_llm.default = Reply(content='{"a": 1}')
    settings = llm_settings.replace(model="remembering-model")
    with LLMClient(settings) as client:
        assert client.complete([{"role": "user", "content": "x"}], schema={"type": "object"}).text == '{"a": 1}'
    with LLMClient(settings) as again:                  # a later run, same server and model
        again.complete([{"role": "user", "content": "y"}], schema={"type": "object"})
    kinds = [(b.get("response_format") or {}).get("type") for b in fake_llm.requests]
    assert kinds == ["json_schema", None, None]


def test_a_web_page_instead_of_a_model_is_named_as_such(fake_llm, run_settings):
    fake_llm.default = Reply(raw_body="<!doctype html><html><body>Welcome to nginx!</body></html>")
    _, result, _ = timed(run_settings)
    assert result.answer.writer == "heuristic" and len(fake_llm.requests) == 1
    assert any("did not answer like an OpenAI-compatible model server" in n for n in result.notes)
    assert not any("cut off" in n for n in result.notes)


def test_a_web_page_to_a_stream_is_named_as_such(fake_llm, run_settings):
    by_stage(fake_llm, answer=Reply(raw_body="<html><body>Sign in to the Wi-Fi</body></html>"))
    _, result, _ = timed(run_settings)
    assert result.answer.writer == "heuristic"
    assert any("did not answer like an OpenAI-compatible model server" in n for n in result.notes)
    assert not any("cut off" in n for n in result.notes)


@pytest.mark.parametrize("body", [
    '{"choices": [',                                                        # cut off, sent as JSON
    '{"choices": {"0": 1}}',                                                # not a list
    '{"choices": [{"message": {"role": "assistant", "content": 42}}]}',     # text that is not text
    '{"choices": [{"message": {"content": "{}"}}], "usage": {"prompt_tokens": "abc"}}',
])
def test_a_broken_json_reply_ends_in_the_rules_not_a_crash(fake_llm, run_settings, body):
    fake_llm.default = Reply(raw_body=body, content_type="application/json")
    _, result, _ = timed(run_settings)
    assert result.planner == "heuristic" and result.answer.writer == "heuristic"
    check_citations(result)


def test_nonsense_usage_in_a_stream_is_ignored(fake_llm, run_settings):
    chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
             "choices": [{"index": 0, "delta": {"content": "NVIDIA fell [1]."}, "finish_reason": "stop"}],
             "usage": {"prompt_tokens": "abc", "completion_tokens": [1]}}
    stream = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n"
    by_stage(fake_llm, answer=Reply(raw_body=stream, content_type="text/event-stream"))
    _, result, _ = timed(run_settings)
    assert result.answer.writer == "llm" and result.answer.markdown == "NVIDIA fell [1]."


def test_server_errors_trip_the_breaker_after_one_call(fake_llm, run_settings):
    fake_llm.default = Reply(status=503)
    _, result, wall = timed(run_settings)
    assert len(fake_llm.requests) == 1 and wall < run_settings.deadline_s
    assert result.answer.writer == "heuristic" and any("HTTP 503" in n for n in result.notes)
