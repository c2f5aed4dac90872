"""The rules' draft runs at once and the model's plan streams into it: a node the draft already
has keeps its place and results, a new one starts as soon as the model has written it.

The model is the loopback server, its plan dripped piece by piece; data comes from a fake at
the source boundary that records when each call started."""

import json
import threading
import time

from finsearch import pipeline
from finsearch.answer.gaps import gap_sentences
from finsearch.catalogue import CATALOGUE
from finsearch.errors import FailureKind
from finsearch.events import NodeAdded, PlanReady
from finsearch.graph import NodeStatus
from finsearch.model.loopback import Reply
from finsearch.plan.node_scanner import NodeScanner
from finsearch.sources.cache.disk import SourceCache
from finsearch.sources.hub import DataHub

QUESTION = "Why did NVDA fall last week?"
NODES = [
    {"id": "n1", "sub_query": "NVDA prices last week", "source": "price_history", "args": {"ticker": "NVDA"}},
    {"id": "n2", "sub_query": "NVDA quote", "source": "quote", "args": {"ticker": "NVDA"}},
    {"id": "n3", "sub_query": "Why did NVDA fall? (news)", "source": "news",
     "args": {"ticker": "NVDA", "query": "Nvidia stock"}, "depends_on": ["n1"]},
]


class RecordingSource:      # the network boundary
    def __init__(self):
        self.calls: list[tuple[str, dict, float]] = []
        self.lock = threading.Lock()

    def fetch(self, source, args):
        with self.lock:
            self.calls.append((source, dict(args), time.monotonic()))
        return [{"title": f"{source} {args.get('ticker')}", "url": f"https://e.test/{source}",
                 "published": "2024-10-11T12:00:00Z"}]


def dripped(plan: dict | str, piece_delay_s: float = 0.0, **extra) -> Reply:
    """The plan as a model streams it: a few characters at a time."""
    text = plan if isinstance(plan, str) else json.dumps(plan)
    return Reply(stream_pieces=[text[i:i + 8] for i in range(0, len(text), 8)], token_delay_s=piece_delay_s, **extra)


def logged(server, kind: str) -> list:
    """The server's calls of `kind`, once it has logged one: it logs an abandoned stream when its
    next write finds the client gone, which may be after the run has finished."""
    ends = time.monotonic() + 10
    calls: list = []
    while not any(c.kind == kind for c in calls) and time.monotonic() < ends:
        calls += server.take_calls()
        time.sleep(0.01)
    return [c for c in calls if c.kind == kind]


def run(llm_settings, fake_llm, tmp_path, *plans: Reply):
    fake_llm.on("plan", *plans)
    fake_llm.on("rewrite", Reply(content=json.dumps({"args": {}})))
    fake_llm.on("answer", Reply(stream_pieces=["NVIDIA fell [1]."]))
    source = RecordingSource()
    hub = DataHub(llm_settings, adapters={s: source for s in CATALOGUE},
                  cache=SourceCache(tmp_path / "cache", llm_settings.freshness_s, 10 ** 8))
    events = list(pipeline.run(QUESTION, settings=llm_settings, hub=hub))
    return events, events[-1].result, source


def test_the_draft_runs_at_once_and_the_models_plan_joins_it(llm_settings, fake_llm, tmp_path):
    events, result, source = run(llm_settings, fake_llm, tmp_path, dripped({"nodes": NODES}, piece_delay_s=0.02))
    plan_call = logged(fake_llm, "plan")[0]
    assert fake_llm.requests[0]["stream"] is True
    ready = next(e for e in events if isinstance(e, PlanReady))
    # The rules' draft (prices, then news and a web search below them) is the graph from the start.
    assert ready.planner == "heuristic" and ready.model_plans and [(n.id, n.source) for n in ready.graph] == [
        ("n1", "price_history"), ("n2", "news"), ("n3", "web_search")]
    first_price = min(t for s, _, t in source.calls if s == "price_history")
    assert first_price < plan_call.ended, "the draft's prices did not wait for the plan"
    # The model's prices and news are the draft's own nodes: nothing is redrawn or fetched twice;
    # its quote is new and joins the draft.
    added = [e.node for e in events if isinstance(e, NodeAdded)]
    assert [(n.id, n.source, n.added_by) for n in added] == [("n4", "quote", "model")]
    assert [s for s, _, _ in source.calls].count("price_history") == 1
    assert [n.id for n in result.graph] == ["n1", "n2", "n3", "n4"]
    assert all(n.status is NodeStatus.DONE for n in result.graph)
    assert result.planner == "llm" and result.graph["n4"].depends_on == ()
    assert any("1 of the rules' searches the model's plan left out (web_search) were kept" in n
               for n in result.notes)
    # What the prompt lets the model leave out is derived: the question's period and language.
    assert result.graph["n4"].args == {"ticker": "NVDA"} and result.graph["n1"].args["start"] == "2024-10-07"


def test_a_node_that_fails_validation_is_dropped_and_noted_and_the_rest_run(llm_settings, fake_llm, tmp_path):
    nodes = [NODES[0],
             {"id": "n2", "sub_query": "a made-up source", "source": "horoscope", "args": {"ticker": "NVDA"}},
             {"id": "n3", "sub_query": "depends on what comes later", "source": "quote", "args": {"ticker": "NVDA"},
              "depends_on": ["n9"]},
             {**NODES[1], "id": "n4"}]
    _, result, _ = run(llm_settings, fake_llm, tmp_path, dripped({"nodes": nodes}))
    assert [(n.id, n.added_by) for n in result.graph] == [("n1", "plan"), ("n2", "plan"), ("n3", "plan"),
                                                          ("n4", "model")]
    assert result.planner == "llm"
    dropped = [n for n in result.notes if "left out (" in n and "node" in n]
    assert len(dropped) == 2 and any("horoscope" in n for n in dropped) and any("n9" in n for n in dropped)
    assert all(n.status is NodeStatus.DONE for n in result.graph)


def test_a_plan_cut_off_mid_stream_keeps_the_nodes_it_had_written(llm_settings, fake_llm, tmp_path):
    nodes = [{**NODES[1], "id": "n1"}, {**NODES[0], "id": "n2"},
             {"id": "n3", "sub_query": "AMD, for comparison", "source": "quote", "args": {"ticker": "AMD"}}]
    text = json.dumps({"nodes": nodes})
    cut = text.index('{"id": "n3"')
    plan = Reply(stream_pieces=[text[:cut], text[cut:cut + 20], text[cut + 20:cut + 30], text[cut + 30:]],
                 fail_mid_stream=True)
    _, result, _ = run(llm_settings, fake_llm, tmp_path, plan)
    assert [(n.id, n.source, n.added_by) for n in result.graph][-1] == ("n4", "quote", "model")
    assert "AMD" not in {n.args.get("ticker") for n in result.graph}
    assert any("cut off" in n for n in result.notes) and result.planner == "llm"


def test_a_plan_stream_of_prose_is_abandoned_within_its_first_tokens_not_retried_and_the_draft_kept(
        llm_settings, fake_llm, tmp_path):
    # What a small local model did with our plan prompt: plausible prose, fast, for 1,200 tokens.
    prose = [w + " " for w in ("To answer why NVIDIA fell we should first look at the price history, then at "
                               "the news of the week and at what analysts said about it. ").split()] * 50
    prose = prose[:1200]
    events, result, source = run(llm_settings, fake_llm, tmp_path,
                                 Reply(stream_pieces=prose, token_delay_s=0.005),
                                 Reply(content=json.dumps({"nodes": NODES})))
    plans = logged(fake_llm, "plan")
    assert len(plans) == 1 and fake_llm.kinds().count("plan") == 1, "a reply that was no plan is not asked again"
    assert plans[0].pieces < 120, f"read {plans[0].pieces} of 1,200 pieces before giving up"
    assert fake_llm.requests[0]["max_tokens"] <= 400          # a three-node draft: a plan of a few hundred tokens
    assert result.planner == "heuristic" and not [e for e in events if isinstance(e, NodeAdded)]
    assert [n.id for n in result.graph] == ["n1", "n2", "n3"]
    assert all(n.status is NodeStatus.DONE for n in result.graph)
    assert {s for s, _, _ in source.calls} == {"price_history", "news", "web_search"}
    assert any("The model's plan was not used (its reply was not a plan" in n for n in result.notes)
    # Failing to plan is the plan's failure only: the same model still writes the answer.
    assert result.answer.writer == "llm" and "NVIDIA fell" in result.answer.markdown


def test_the_scanner_reads_each_node_as_it_closes_whatever_surrounds_the_json():
    text = ('<think>maybe {"nodes": [{"id": "x"}]}</think>Here is the plan:\n```json\n'
            '{"nodes": [{"id": "n1", "args": {"query": "a } in \\"quotes\\""}}, {"id": "n2", "args": {},},\n'
            '{"id": "n3"}]}\n```')
    scanner, seen = NodeScanner(), []
    for i, ch in enumerate(text):                    # one character at a time, as a slow stream
        for node in scanner.feed(ch):
            seen.append((node.item["id"], i))
    seen += [(node.item["id"], len(text)) for node in scanner.finish()]
    assert [node_id for node_id, _ in seen] == ["n1", "n2", "n3"]
    assert seen[0][1] < text.index('"n2"') and seen[1][1] < text.index('"n3"'), "each as soon as it closed"


def test_a_node_written_again_and_again_is_one_search(llm_settings, fake_llm, tmp_path):
    # What a small model did under a JSON schema: the same node, numbered on, until the node limit.
    same = [{"id": f"n{i}", "source": "price_history", "args": {"ticker": "NVDA"}} for i in range(1, 13)]
    events, result, source = run(llm_settings, fake_llm, tmp_path, dripped({"nodes": same}))
    assert not [e for e in events if isinstance(e, NodeAdded)] and result.planner == "llm"
    assert [n.id for n in result.graph] == ["n1", "n2", "n3"]
    assert [s for s, _, _ in source.calls].count("price_history") == 1


def test_the_rules_searches_about_an_instrument_the_model_does_not_search_are_dropped(llm_settings, fake_llm,
                                                                                       tmp_path):
    amd = [{"id": "n1", "source": "price_history", "args": {"ticker": "AMD"}},
           {"id": "n2", "sub_query": "Why did AMD fall?", "source": "news", "args": {"ticker": "AMD"},
            "depends_on": ["n1"]}]
    events, result, _ = run(llm_settings, fake_llm, tmp_path, dripped({"nodes": amd}, piece_delay_s=0.01))
    about = {n.id: (n.args.get("ticker"), n.status, n.failure) for n in result.graph}
    assert {about[i][0] for i in ("n1", "n2", "n3")} == {"NVDA"} and {about[i][0] for i in ("n4", "n5")} == {"AMD"}
    # The draft's NVDA searches ran (or were running) before the model's plan said otherwise: they
    # stay where they were drawn, skipped, their results unused, and no gap sentence is written for them.
    assert all(about[i][1:] == (NodeStatus.SKIPPED, FailureKind.LEFT_OUT) for i in ("n1", "n2", "n3"))
    assert all(about[i][1] is NodeStatus.DONE for i in ("n4", "n5")) and result.graph["n5"].depends_on == ("n4",)
    assert any("3 of the rules' searches were dropped: they were about NVDA" in n for n in result.notes)
    given = {e.url for n in result.graph for e in n.evidence}
    assert given == {"https://e.test/price_history", "https://e.test/news"}
    assert "NVDA" not in " ".join(gap_sentences(result.graph, result.analysis))
