"""Each stage judges its model's reply as it arrives, with its own token cap, and a stage that
fails that way is that stage's failure only (issue 27).

The replies are what a real small local model (Gemma 3 270M on llama.cpp's server, whose GGUF has
no chat template) wrote for our prompts: the template's markup and our prompt written back, a
short line repeated until the cap, fluent prose where JSON was asked for. The loopback server
streams them as that server did, stops at the request's max_tokens and notes how many pieces the
client took before it hung up."""

from __future__ import annotations

import json
import time

import pytest

from finsearch import pipeline
from finsearch.answer.generator import ANSWER_TOKENS, CITES_WITHIN
from finsearch.errors import LLMError
from finsearch.model.loopback import Pace, Reply
from finsearch.model.reply_check import ReplyWatch, watched_reply
from finsearch.plan.analysis import analyse
from finsearch.plan.planner import render_catalogue
from finsearch.research.outline import make_outline
from tests.test_pipeline import PLAN, check_citations

QUESTION = "Why did NVDA fall last week?"
# What the model wrote for the answer prompt: the prompt back, in ChatML, then <|im_end|> until the cap.
ECHO = ["<|im_start|>", "user", "\n", "Current ", "time ", "(UTC): ", "2024-10-15T20:00:00Z", "\n", "Question: ",
        "Why ", "did ", "NVDA ", "fall ", "last ", "week?", "\n"] + ["<|im_end|>", "\n"] * 700
# … and for a plain request with Gemma's own template: a handle, again and again.
LOOP = ["\n\n", "@", "gemma", "_", "1", "0", "1", "0", "1", "1"] * 120
PROSE = [w + " " for w in ("To answer why NVIDIA fell we should first look at the price history, then at the news "
                           "of the week and at what analysts said about it.").split()] * 45


def logged(server, kind: str) -> list:
    """The server's calls of `kind`, once it has logged one: it logs an abandoned stream when its
    next write finds the client gone, which may be after the run has finished."""
    ends = time.monotonic() + 10
    calls: list = []
    while not any(c.kind == kind for c in calls) and time.monotonic() < ends:
        calls += server.take_calls()
        time.sleep(0.01)
    return [c for c in calls if c.kind == kind]


@pytest.fixture
def run_settings(llm_settings, demo_settings):
    return llm_settings.replace(pack=demo_settings.pack, offline=True, deadline_s=20.0, llm_timeout_s=5.0,
                                stream_stall_s=1.5)


def ask(settings):
    return pipeline.ask(QUESTION, settings=settings)


# -- the watch ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("pieces", "prompts", "json_wanted", "reason"), [
    (["Sure.", "<|im_", "end|>"], (), False, "chat-template markup (<|im_end|>)"),
    (["<start_of_turn>model\n"], (), False, "chat-template markup"),
    (["NVIDIA fell [1].\n\nTime context of the question: {…}\n", "Evidence (numbered; ", "cite as [n]):\n[1] …"],
     ("answer_user",), False, "wrote our prompt back"),
    (["Write the answer now, in markdown, ", "with [n] citations."], ("answer_user",), False, "wrote our prompt back"),
    (LOOP, (), False, "went round in a loop"),
    (PROSE, (), True, "its reply was not JSON"),
])
def test_a_lost_reply_is_named_for_what_went_wrong(pieces, prompts, json_wanted, reason):
    watch = ReplyWatch(prompts, json=json_wanted)
    with pytest.raises(LLMError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        for piece in pieces:
            watch.feed(piece)
        watch.finish()
    assert len(watch.text) < 400, "given up on within its first hundred tokens"


def test_a_healthy_answer_or_plan_is_never_judged_lost():
    answer = ("NVIDIA (NVDA) fell 7.27% last week [1], most of it on 2024-10-11 after reports of new export curbs "
              "[2][3].\n\n| day | close | change |\n|---|---|---|\n" + "".join(
                  f"| 2024-10-{d:02d} | {130 - d}.5 | -{d / 10:.1f}% [1] |\n" for d in range(7, 12))
              + "\n---\n\nRisks: one week of data [1].")
    watch = ReplyWatch(("answer_system", "answer_user"))
    for i in range(0, len(answer), 7):
        watch.feed(answer[i:i + 7])
    watch.finish()
    # One short line of the prompt's, in an answer's own sentence, is no echo.
    own_words = ReplyWatch(("answer_system",))
    own_words.feed("The yields differ a lot when comparing several instruments. That is all [1].")
    own_words.finish()
    plan = ReplyWatch(("plan_system", "plan_user"), json=True)
    plan.feed("Here is the plan:\n```json\n" + json.dumps(PLAN) + "\n```")
    plan.finish()


def test_a_reasoning_model_may_think_at_length_before_its_json(llm_settings, fake_llm):
    thinking = "<think>" + "The user asks about NVDA; prices first, then news. " * 40 + "</think>"
    fake_llm.on("outline", Reply(stream_pieces=[thinking[i:i + 9] for i in range(0, len(thinking), 9)]
                                 + [json.dumps({"type": "company", "sections": []})]))
    from finsearch.model.llm import LLMClient

    client = LLMClient(llm_settings)
    try:
        text = watched_reply(client, [{"role": "user", "content": "x"}], call="outline", max_tokens=2000,
                             prompts=("outline_system",), json=True)
    finally:
        client.close()
    assert json.loads(text) == {"type": "company", "sections": []}


# -- the answer --------------------------------------------------------------------------------

def test_an_answer_in_template_markup_is_given_up_at_once_and_the_rules_write_it(fake_llm, run_settings):
    fake_llm.on("plan", Reply(stream_pieces=PROSE))            # its plan failed first: it is still asked to write
    fake_llm.on("answer", Reply(stream_pieces=ECHO, token_delay_s=0.002))
    result = ask(run_settings)
    answer = logged(fake_llm, "answer")
    assert fake_llm.kinds().count("answer") == 1 and answer[0].pieces < 40
    assert fake_llm.last("answer")["max_tokens"] == ANSWER_TOKENS
    assert result.answer.writer == "heuristic" and "im_end" not in result.answer.markdown
    assert any("The LLM answer failed (it wrote chat-template markup" in n for n in result.notes)
    assert any("The model's plan was not used (its reply was not a plan" in n for n in result.notes)
    check_citations(result)


def test_an_answer_that_cites_nothing_is_not_the_answer(fake_llm, run_settings):
    fake_llm.on("plan", Reply(content=json.dumps(PLAN)))
    uncited = [w + " " for i in range(30) for w in (f"On day {i} NVIDIA fell because investors worried about "
                                                    "demand for its chips and new rules on exports.").split()]
    fake_llm.on("answer", Reply(stream_pieces=uncited, token_delay_s=0.002),
                Reply(stream_pieces=["NVIDIA fell on chip worries."]))
    long_one = ask(run_settings)
    assert logged(fake_llm, "answer")[0].pieces < len(uncited) / 2
    assert any(f"it cited no evidence in its first {CITES_WITHIN} characters" in n for n in long_one.notes), \
        long_one.notes
    short_one = ask(run_settings)
    for result in (long_one, short_one):
        assert result.answer.writer == "heuristic" and "NVIDIA (NVDA) fell 7.27% last week" in result.answer.markdown
    assert any("it cited none of the evidence" in n for n in short_one.notes)


def test_an_answer_cut_at_its_token_cap_ends_at_its_last_full_sentence(fake_llm, run_settings):
    fake_llm.on("plan", Reply(content=json.dumps(PLAN)))
    sentences = [f"On day {i} NVIDIA moved again, and the reports of that day explain why [1]. " for i in range(400)]
    fake_llm.on("answer", Reply(stream_pieces=[w + " " for s in sentences for w in s.split()]))
    result = ask(run_settings)
    assert result.answer.writer == "llm"
    assert result.answer.markdown.endswith("[1].") and len(result.answer.markdown) < ANSWER_TOKENS * 4 + 200


def test_a_long_wait_for_the_first_token_is_not_a_stall(fake_llm, run_settings):
    # A local model reads a long prompt for seconds before it writes: longer than the stall window
    # (1.5 s here), within the call's limit (5 s).
    fake_llm.pace = Pace("slow prompt", ttft_s=2.5, tokens_per_s=2000)
    fake_llm.on("plan", Reply(content=json.dumps(PLAN)))
    fake_llm.on("answer", Reply(stream_pieces=["NVIDIA fell 7.27% last week [1]."]))
    result = ask(run_settings)
    assert result.planner == "llm" and result.answer.writer == "llm"
    assert not any("stalled" in n for n in result.notes)


def test_a_model_still_reading_its_prompt_when_its_stage_is_due_gives_that_stage_to_the_rules(fake_llm,
                                                                                          run_settings):
    # A small model on a busy machine: it takes each request at once, then reads the prompt for
    # 8 s before its first token (llama.cpp's server sends its headers first). The answer is due
    # at 4 s: the plan is given up at 2 s, the answer, asked all the same, at 3 s more.
    fake_llm.pace = Pace("busy machine", ttft_s=8.0, tokens_per_s=2000)
    fake_llm.on("plan", Reply(content=json.dumps(PLAN)))
    fake_llm.on("answer", Reply(stream_pieces=["NVIDIA fell 7.27% last week [1]."]))
    started = time.monotonic()
    result = ask(run_settings.replace(answer_due_s=4.0, llm_timeout_s=10.0))
    wall = time.monotonic() - started
    assert wall < 6.5, f"{wall:.1f} s: waited for the model past its stages' time"
    assert fake_llm.kinds() == ["plan", "answer"], "a model slow to read is still asked to write"
    assert result.planner == "heuristic" and result.answer.writer == "heuristic"
    assert [n.status.value for n in result.graph] == ["done", "done", "done"]
    assert any("The model's plan was not used (it had not begun writing 2.0 s after it was asked" in n
               for n in result.notes), result.notes
    assert any("The LLM answer failed (it had not begun writing 3.0 s after it was asked" in n for n in result.notes)
    assert not any("rest of this run used the rule-based" in n for n in result.notes)
    check_citations(result)


def test_a_server_that_does_not_take_the_plan_request_by_then_is_a_hang(fake_llm, run_settings):
    fake_llm.on("plan", Reply(hang=True))          # not even the reply's headers
    started = time.monotonic()
    result = ask(run_settings.replace(answer_due_s=4.0, llm_timeout_s=10.0))
    assert time.monotonic() - started < 4.0
    assert fake_llm.kinds() == ["plan"], "a hang ends the run's model calls"
    assert any("did not answer within 2 s" in n for n in result.notes), result.notes
    assert result.answer.writer == "heuristic"


# -- the outline and the plan's prompt ---------------------------------------------------------

def test_an_outline_that_is_not_json_is_given_up_at_once(llm_settings, fake_llm):
    from finsearch.model.llm import LLMClient

    fake_llm.on("outline", Reply(stream_pieces=LOOP, token_delay_s=0.002))
    client = LLMClient(llm_settings)
    try:
        outline = make_outline(analyse("Write a report on NVIDIA", llm_settings.now), client, 4)
    finally:
        client.close()
    assert outline.by == "heuristic" and "went round in a loop" in outline.notes[0]
    call = logged(fake_llm, "outline")[0]
    assert call.pieces < 200 and fake_llm.last("outline")["max_tokens"] == 500    # 4 sections and one more


def test_the_plan_prompt_lists_only_the_sources_for_the_questions_markets(llm_settings):
    everything = render_catalogue()
    us_only = render_catalogue(frozenset({"us"}))
    assert "cn_top_holders" in everything and "sec_filings" in everything
    assert "cn_top_holders" not in us_only and "hk_dividends" not in us_only
    assert "sec_filings" in us_only and "quote" in us_only and "sec_13f" in us_only
    assert len(us_only) < 0.75 * len(everything)
