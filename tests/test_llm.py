"""The LLM path through the real openai SDK against a loopback OpenAI-compatible server:
plain, JSON-schema and streaming replies, garbage, slow/timeouts and HTTP errors."""

import json

import pytest

from finsearch.errors import LLMError
from finsearch.model.llm import LLMClient, choose_backend
from finsearch.model.loopback import Reply
from finsearch.model.text import parse_json_object
from finsearch.plan.analysis import analyse
from finsearch.plan.planner import make_plan
from finsearch.settings import from_env
from tests.conftest import NOW


@pytest.fixture
def llm_client():
    """Makes LLM clients and closes them after the test."""
    made = []

    def make(settings):
        made.append(LLMClient(settings))
        return made[-1]

    yield make
    for client in made:
        client.close()


VALID_PLAN = {"nodes": [
    {"id": "n1", "sub_query": "NVDA prices last week", "source": "price_history",
     "args": {"ticker": "NVDA", "start": "2024-10-07", "end": "2024-10-13"}},
    {"id": "n2", "sub_query": "NVDA news on the day of the biggest move", "source": "news",
     "args": {"ticker": "NVDA", "query": "Nvidia stock"}, "depends_on": ["n1"]},
]}


def test_backend_choice():
    assert choose_backend(from_env({})) == "heuristic"
    assert choose_backend(from_env({"OPENAI_API_KEY": "k"})) == "openai"
    assert choose_backend(from_env({"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"})) == "openai"
    assert choose_backend(from_env({"OPENAI_API_KEY": "k", "FINSEARCH_LLM": "heuristic"})) == "heuristic"


def test_plain_reply_and_usage(llm_settings, fake_llm, llm_client):
    fake_llm.script = [Reply(content="hello there")]
    client = llm_client(llm_settings)
    reply = client.complete([{"role": "user", "content": "hi"}])
    assert reply.text == "hello there"
    assert client.usage.calls == 1 and client.usage.prompt_tokens > 0 and client.usage.completion_tokens > 0
    assert fake_llm.requests[0]["model"] == "fake-model"
    assert fake_llm.headers[0]["x-finsearch-call"] == "other", "a caller that does not say is labelled so"


def test_json_schema_is_requested_and_falls_back_when_refused(llm_settings, fake_llm, llm_client):
    fake_llm.script = [Reply(reject_schema=True), Reply(content='{"a": 1}'), Reply(content='{"a": 2}')]
    client = LLMClient(llm_settings)
    assert parse_json_object(client.complete([{"role": "user", "content": "x"}], schema={"type": "object"}).text) \
        == {"a": 1}
    assert fake_llm.requests[0]["response_format"]["type"] == "json_schema"
    assert "response_format" not in fake_llm.requests[1]
    client.complete([{"role": "user", "content": "y"}], schema={"type": "object"})
    assert "response_format" not in fake_llm.requests[2], "remembers that the server refuses schemas"
    client.close()


def test_streaming(llm_settings, fake_llm, llm_client):
    fake_llm.script = [Reply(stream_pieces=["Nvidia ", "fell ", "[1]."])]
    client = llm_client(llm_settings)
    assert list(client.stream([{"role": "user", "content": "x"}], call="answer")) == ["Nvidia ", "fell ", "[1]."]
    assert client.usage.calls == 1 and fake_llm.kinds() == ["answer"]


def test_a_streamed_answer_counts_the_tokens_of_its_usage_chunk(llm_settings, fake_llm, llm_client):
    fake_llm.script = [Reply(stream_pieces=["Nvidia ", "fell ", "[1]."], prompt_tokens=1234, completion_tokens=56)]
    client = llm_client(llm_settings)
    assert "".join(client.stream([{"role": "user", "content": "x"}], call="answer")) == "Nvidia fell [1]."
    assert fake_llm.requests[0]["stream_options"] == {"include_usage": True}
    assert (client.usage.prompt_tokens, client.usage.completion_tokens) == (1234, 56)


def test_a_server_refusing_stream_options_still_streams_and_is_not_asked_again(llm_settings, fake_llm,
                                                                              llm_client):
    fake_llm.default = Reply(stream_pieces=["NVIDIA ", "fell."], reject_stream_options=True)
    client = llm_client(llm_settings)
    messages = [{"role": "user", "content": "x"}]
    assert "".join(client.stream(messages, call="plan")) == "NVIDIA fell."
    assert "".join(client.stream(messages, call="answer")) == "NVIDIA fell."
    assert [("stream_options" in body) for body in fake_llm.requests] == [True, False, False], \
        "retried once without it, then never sent again by this client"
    assert client.usage.calls == 3 and client.available
    # The server reported no usage: 3 + 3 wrapping tokens and one for "x"; "NVIDIA fell." is 12 characters.
    assert (client.usage.prompt_tokens, client.usage.completion_tokens) == (2 * 7, 2 * 3)


def test_a_bad_request_not_about_stream_options_is_not_retried(llm_settings, fake_llm, llm_client):
    fake_llm.default = Reply(status=400, error_message="max_tokens is too large")
    client = llm_client(llm_settings)
    with pytest.raises(LLMError, match="returned HTTP 400"):
        list(client.stream([{"role": "user", "content": "x"}]))
    assert len(fake_llm.requests) == 1


def test_tokens_are_estimated_when_the_server_reports_no_usage(llm_settings, fake_llm, llm_client):
    fake_llm.script = [Reply(stream_pieces=["贵州茅台", "涨了 3%"], send_usage=False),
                       Reply(content="NVIDIA fell 4.7%", send_usage=False)]
    client = llm_client(llm_settings)
    messages = [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "Why did NVDA fall?"}]
    assert "".join(client.stream(messages, call="answer")) == "贵州茅台涨了 3%"
    # Prompt: 3 + 3 + 3 wrapping tokens, "Answer briefly." (15 characters) 4, "Why did NVDA fall?" (18) 5.
    # Completion: 6 ideographs, then " 3%" (3 characters) rounded up: 7.
    assert (client.usage.prompt_tokens, client.usage.completion_tokens) == (18, 7)
    reply = client.complete(messages)
    assert (reply.prompt_tokens, reply.completion_tokens) == (18, 4)     # "NVIDIA fell 4.7%": 16 characters
    assert (client.usage.prompt_tokens, client.usage.completion_tokens) == (36, 11)


@pytest.mark.parametrize(("reply", "message"), [
    (Reply(status=500), "returned HTTP 500"),
    (Reply(status=401), "rejected the API key"),
    (Reply(status=429), "rate-limiting"),
    (Reply(status=404), "was not found"),
    (Reply(content="x", delay_s=2.0), "did not answer within 1 s"),
])
def test_errors_become_clear_messages(llm_settings, fake_llm, reply, message, llm_client):
    fake_llm.script = [reply]
    client = llm_client(llm_settings.replace(llm_timeout_s=1.0))
    with pytest.raises(LLMError, match=message):
        client.complete([{"role": "user", "content": "x"}])


def test_server_down_is_a_clear_message(llm_settings, llm_client):
    client = llm_client(llm_settings.replace(base_url="http://127.0.0.1:9/v1"))
    with pytest.raises(LLMError, match="cannot reach the model server"):
        client.complete([{"role": "user", "content": "x"}])


@pytest.mark.parametrize(("text", "value"), [
    ('{"a": 1}', {"a": 1}),
    ('```json\n{"a": 1}\n```', {"a": 1}),
    ('Sure! Here is the plan: {"a": {"b": 2}} hope it helps', {"a": {"b": 2}}),
])
def test_json_objects_are_found_in_chatty_replies(text, value):
    assert parse_json_object(text) == value


@pytest.mark.parametrize(("text", "value"), [
    ('{"nodes": [{"id": "n1", "args": {"ticker": "NVDA",},},]}', {"nodes": [{"id": "n1", "args": {"ticker": "NVDA"}}]}),
    ('{"a": 1, // the first\n "b": /* two */ 2}', {"a": 1, "b": 2}),
    ("<think>a plan: {draft}</think>\n{\"a\": 1}", {"a": 1}),
    ("I think {not json} but then <think>{x}</think> {\"a\": 3}", {"a": 3}),
])
def test_trailing_commas_comments_and_reasoning_are_tolerated(text, value):
    assert parse_json_object(text) == value


@pytest.mark.parametrize("text", ["no json here", "[1, 2]", "{", "<think>{\"a\": 1}</think>"])
def test_garbage_is_an_llm_error(text):
    with pytest.raises(LLMError):
        parse_json_object(text)


# -- the LLM pre-planner -------------------------------------------------------------------

def analysis():
    return analyse("Why did NVDA fall last week?", NOW)


def test_llm_plan_is_validated_into_a_graph(llm_settings, fake_llm, llm_client):
    fake_llm.script = [Reply(content=json.dumps(VALID_PLAN))]
    outcome = make_plan(analysis(), NOW, llm_client(llm_settings))
    assert outcome.planner == "llm" and not outcome.notes
    assert [(n.id, n.source, n.depends_on) for n in outcome.graph] == \
        [("n1", "price_history", ()), ("n2", "news", ("n1",))]
    prompt = fake_llm.requests[0]["messages"][1]["content"]
    assert "2024-10-15T20:00:00Z" in prompt and "price_history" in prompt and '"ticker": "NVDA"' in prompt
    assert '"start": "2024-10-07"' in prompt
    assert fake_llm.kinds() == ["plan"]


def test_an_invalid_plan_gets_one_repair_call_quoting_the_problems(llm_settings, fake_llm, llm_client):
    cyclic = {"nodes": [{"id": "n1", "sub_query": "a", "source": "news", "args": {"ticker": "NVDA"},
                         "depends_on": ["n2"]},
                        {"id": "n2", "sub_query": "b", "source": "oracle", "args": {}, "depends_on": ["n1"]}]}
    fake_llm.script = [Reply(content=json.dumps(cyclic)), Reply(content=json.dumps(VALID_PLAN))]
    outcome = make_plan(analysis(), NOW, llm_client(llm_settings))
    assert outcome.planner == "llm" and len(fake_llm.requests) == 2
    repair = fake_llm.requests[1]["messages"][-1]["content"]
    assert "unknown source 'oracle'" in repair


@pytest.mark.parametrize("replies", [
    [Reply(content="I cannot help with that."), Reply(content="still not json")],
    [Reply(content=json.dumps({"nodes": [{"id": f"n{i}", "sub_query": "q", "source": "news",
                                          "args": {"query": "x"}} for i in range(1, 20)]}))] * 2,
    [Reply(content='{"nodes": [{"id": "n1"}]}')] * 2,
    [Reply(status=500)],
    [Reply(content="{}", delay_s=2.0)],
])
def test_garbage_timeouts_and_errors_fall_back_to_the_heuristic_plan(llm_settings, fake_llm, replies, llm_client):
    fake_llm.script = list(replies)
    outcome = make_plan(analysis(), NOW, llm_client(llm_settings.replace(llm_timeout_s=1.0)))
    assert outcome.planner == "heuristic"
    assert outcome.notes and "heuristic plan" in outcome.notes[0]
    assert {n.source for n in outcome.graph} >= {"price_history", "news"}
