"""The compact plan: one node a line, read into the same validated graph as the JSON plan, at under
60 % of its tokens, node by node as the lines arrive; a model that writes JSON, junk or reasoning
first is handled as before. The model is the loopback server; data comes from a fake at the
source boundary that records when each call started."""

import json

import pytest

from finsearch.bench.cooperative import scripted_plan
from finsearch.bench.scenarios import CROWD, NOW, ONE_TICKER, TWO_TICKERS
from finsearch.catalogue import CATALOGUE
from finsearch.errors import PlanError
from finsearch.events import NodeAdded, NodeStarted
from finsearch.graph import NodeStatus
from finsearch.model.llm import LLMClient
from finsearch.model.loopback import Reply
from finsearch.model.text import estimate_tokens
from finsearch.plan.analysis import analyse
from finsearch.plan.compact import read_line, render_plan
from finsearch.plan.node_scanner import NodeScanner
from finsearch.plan.planner import make_plan, plan_from_reply
from tests.test_plan_stream import NODES, QUESTION, dripped, logged, run

BENCH_QUESTIONS = (ONE_TICKER, TWO_TICKERS, *CROWD)


def graph_of(question: str, text: str) -> list[tuple]:
    graph = plan_from_reply(analyse(question, NOW), text)
    return [(n.id, n.sub_query, n.source, n.args, n.depends_on, n.time_context) for n in graph]


@pytest.mark.parametrize("question", BENCH_QUESTIONS)
def test_every_benchmark_plan_reads_into_the_same_graph_in_lines_as_in_json(question):
    assert graph_of(question, scripted_plan(question, NOW)) == graph_of(question, scripted_plan(question, NOW, "json"))


def test_the_lines_cost_at_most_60_percent_of_the_jsons_tokens():
    lines = {q: estimate_tokens(scripted_plan(q, NOW)) for q in BENCH_QUESTIONS}
    json_ = {q: estimate_tokens(scripted_plan(q, NOW, "json")) for q in BENCH_QUESTIONS}
    assert (lines[ONE_TICKER], json_[ONE_TICKER]) == (52, 114)
    assert (lines[TWO_TICKERS], json_[TWO_TICKERS]) == (111, 255)
    assert all(lines[q] <= 0.6 * json_[q] for q in BENCH_QUESTIONS)


def test_a_plan_line_says_source_arguments_dependencies_and_sub_query():
    assert scripted_plan(TWO_TICKERS, NOW).splitlines()[:5] == [
        "1. ph(NVDA)", "2. quote(NVDA)", "3. ph(TSLA)", "4. quote(TSLA)",
        '5. news(NVDA, "NVIDIA stock") <- 1 # Why did NVIDIA (NVDA) move last week? (news)']
    # positional in the catalogue's order; a gap skipped by an empty place or by name; any spacing
    assert read_line('2) sse(AAPL, , 1A, "supply chain") <- 1,3', 2) == {
        "id": "n2", "source": "sec_section", "args": {"ticker": "AAPL", "item": "1A", "query": "supply chain"},
        "depends_on": ["n1", "n3"]}
    assert read_line("n4. sec_section(AAPL, item=7)", 9)["args"] == {"ticker": "AAPL", "item": "7"}
    assert read_line('ws("a, (b) \\"c\\"") # why?', 7) == {
        "id": "n7", "source": "web_search", "args": {"query": 'a, (b) "c"'}, "sub_query": "why?"}
    with pytest.raises(PlanError, match="quote takes at most 1 arguments"):
        read_line("1. quote(NVDA, AMD)", 1)
    with pytest.raises(PlanError, match="not closed"):
        read_line('1. news(NVDA, "unclosed)', 1)


def test_the_plan_tests_cases_read_the_same_in_lines():
    analysis = analyse(QUESTION, NOW)
    lines = ('1. ph(NVDA) # NVDA prices last week\n2. quote(NVDA) # NVDA quote\n'
             '3. news(NVDA, "Nvidia stock") <- 1 # Why did NVDA fall? (news)')
    as_lines = plan_from_reply(analysis, lines)
    as_json = plan_from_reply(analysis, json.dumps({"nodes": NODES}))
    assert [(n.id, n.sub_query, n.source, n.args, n.depends_on) for n in as_lines] == \
        [(n.id, n.sub_query, n.source, n.args, n.depends_on) for n in as_json]
    assert as_lines["n3"].args == {"ticker": "NVDA", "query": "Nvidia stock", "start": "2024-10-07",
                                   "end": "2024-10-13", "lang": "en"}
    with pytest.raises(PlanError) as problems:
        plan_from_reply(analysis, "1. ph(NVDA)\n2. horoscope(NVDA) # stars\n3. quote(NVDA) <- 9")
    assert any("horoscope" in p for p in problems.value.problems) and any("n9" in p for p in problems.value.problems)


def test_the_scanner_hands_back_each_line_when_its_newline_arrives_whatever_surrounds_it():
    text = ("<think>maybe\n1. quote(AMD)\n</think>Here is the plan:\n```\n1. ph(NVDA)\n"
            '2. news(NVDA, "a # in quotes") <- 1 # why\n3. quote(NVDA)\n```')
    scanner, seen = NodeScanner(), []
    for i, ch in enumerate(text):                    # one character at a time, as a slow stream
        seen += [(node.item["id"], node.item["source"], i) for node in scanner.feed(ch)]
    seen += [(node.item["id"], node.item["source"], len(text)) for node in scanner.finish()]
    assert [s[:2] for s in seen] == [("n1", "price_history"), ("n2", "news"), ("n3", "quote")]
    assert seen[0][2] == text.index("\n2.") and seen[1][2] == text.index("\n3."), "each as its newline arrived"
    assert scanner.form == "lines"


def test_a_reply_of_json_lines_prose_is_not_read_as_lines():
    scanner = NodeScanner()
    found = scanner.feed('{"nodes": [\n{"id": "n1", "source": "quote", "args": {"ticker": "NVDA"}},\n') + \
        scanner.finish()
    assert scanner.form == "json" and [n.item["source"] for n in found] == ["quote"]
    prose = NodeScanner()
    assert prose.feed("1. First look at the prices.\n2. Then read(the news) carefully.\n") == []
    assert not prose.begun


def test_a_line_starts_its_search_before_the_plan_has_ended(llm_settings, fake_llm, tmp_path):
    plan = "1. ph(NVDA)\n2. quote(NVDA)\n" + "".join(f'{i}. news(NVDA, "Nvidia story {i}") # story {i}\n'
                                                      for i in range(3, 7))
    pieces = [line + "\n" for line in plan.splitlines()]
    events, result, source = run(llm_settings, fake_llm, tmp_path, Reply(stream_pieces=pieces, token_delay_s=0.3))
    plan_call = logged(fake_llm, "plan")[0]
    added = [e.node for e in events if isinstance(e, NodeAdded)]
    assert [(n.source, n.added_by) for n in added][0] == ("quote", "model")
    quote_started = min(t for s, _, t in source.calls if s == "quote")
    assert quote_started < plan_call.ended - 0.5, "the quote waited for the plan's end"
    assert result.planner == "llm" and all(n.status is NodeStatus.DONE for n in result.graph)
    started = [e.node.id for e in events if isinstance(e, NodeStarted)]
    assert added[0].id in started


def test_a_bad_line_is_noted_and_the_rest_of_the_plan_runs(llm_settings, fake_llm, tmp_path):
    plan = ('1. ph(NVDA)\n2. horoscope(NVDA) # stars\n3. news(NVDA, "unclosed) # oops\n4. quote(NVDA) <- 9\n'
            '5. quote(NVDA)\n')
    _, result, _ = run(llm_settings, fake_llm, tmp_path, dripped(plan))
    assert [(n.id, n.source, n.added_by) for n in result.graph][3:] == [("n5", "quote", "model")]
    dropped = [n for n in result.notes if "A node of the model's plan was left out" in n]
    assert len(dropped) == 3 and any("horoscope" in n for n in dropped) and any("not closed" in n for n in dropped)
    assert any("n9" in n for n in dropped)


def test_a_reasoning_model_may_think_before_its_lines(llm_settings, fake_llm, tmp_path):
    thinking = "<think>" + "The user asks why NVDA fell; prices first, then news. " * 20 + "</think>\n"
    _, result, _ = run(llm_settings, fake_llm, tmp_path, dripped(thinking + "1. ph(NVDA)\n2. quote(NVDA)"))
    assert result.planner == "llm" and [(n.source, n.added_by) for n in result.graph][-1] == ("quote", "model")
    assert not any("not used" in n for n in result.notes)


def test_the_whole_plan_call_asks_for_lines_and_repairs_them(llm_settings, fake_llm):
    analysis = analyse(QUESTION, NOW)
    fake_llm.on("plan", Reply(content="1. ph(NVDA)\n2. quote(NVDA, AMD)"),
                Reply(content="1. ph(NVDA)\n2. quote(AMD)"))
    client = LLMClient(llm_settings)
    try:
        outcome = make_plan(analysis, NOW, client)
    finally:
        client.close()
    assert outcome.planner == "llm" and [(n.source, n.args.get("ticker")) for n in outcome.graph] == [
        ("price_history", "NVDA"), ("quote", "AMD")]
    first, repair = (r for r in fake_llm.requests if r["messages"][0]["content"].startswith("You are the pre-planner"))
    assert "response_format" not in first, "lines cannot be asked for as a JSON schema"
    assert "one node a line" in first["messages"][1]["content"]
    assert "quote takes at most 1 arguments" in repair["messages"][-1]["content"]
    # the draft is shown to the model in the same lines
    assert "1. ph(NVDA)\n2. news(NVDA" in first["messages"][1]["content"]


def test_the_prompt_shows_each_source_with_its_code_and_the_draft_in_lines():
    analysis = analyse(ONE_TICKER, NOW)
    from finsearch.plan.planner import plan_messages, render_catalogue
    from finsearch.plan.rules import heuristic_plan

    user = plan_messages(analysis, NOW, heuristic_plan(analysis, NOW))[1]["content"]
    assert "- price_history (ph) [finance]" in user and "- quote [finance]" in user
    assert render_plan([], analysis.time_context, "en") == ""
    assert scripted_plan(ONE_TICKER, NOW) in user
    assert set(CATALOGUE) >= {"price_history"} and render_catalogue().count("\n- ") == len(CATALOGUE) - 1
