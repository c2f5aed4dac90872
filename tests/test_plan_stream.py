"""The plan streams into the executor: each node starts as soon as the model has written it.

The model is the loopback server, its plan dripped piece by piece; data comes from a fake at
the source boundary that records when each call started."""

import json
import threading
import time

from finsearch import pipeline
from finsearch.catalogue import CATALOGUE
from finsearch.events import NodeAdded, NodeStarted, PlanReady
from finsearch.graph import NodeStatus
from finsearch.model.loopback import Reply
from finsearch.plan.node_scanner import NodeScanner
from finsearch.sources.cache import SourceCache
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


def run(llm_settings, fake_llm, tmp_path, *plans: Reply):
    fake_llm.on("plan", *plans)
    fake_llm.on("rewrite", Reply(content=json.dumps({"args": {}})))
    fake_llm.on("answer", Reply(stream_pieces=["NVIDIA fell [1]."]))
    source = RecordingSource()
    hub = DataHub(llm_settings, adapters={s: source for s in CATALOGUE},
                  cache=SourceCache(tmp_path / "cache", llm_settings.freshness_s, 10 ** 8))
    events = list(pipeline.run(QUESTION, settings=llm_settings, hub=hub))
    return events, events[-1].result, source


def test_the_first_node_is_fetched_while_the_model_is_still_writing_the_plan(llm_settings, fake_llm, tmp_path):
    events, result, source = run(llm_settings, fake_llm, tmp_path, dripped({"nodes": NODES}, piece_delay_s=0.02))
    plan_call = next(c for c in fake_llm.take_calls() if c.kind == "plan")
    assert fake_llm.requests[0]["stream"] is True
    ready = next(e for e in events if isinstance(e, PlanReady))
    assert ready.planner == "llm" and [n.id for n in ready.graph] == ["n1"]
    added = [e.node for e in events if isinstance(e, NodeAdded)]
    assert [(n.id, n.added_by) for n in added] == [("n2", "plan"), ("n3", "plan")]
    first_price = min(t for s, _, t in source.calls if s == "price_history")
    assert first_price < plan_call.ended, "the price history was asked for before the plan was finished"
    started = [e.node.id for e in events if isinstance(e, NodeStarted)]
    assert started.index("n1") < started.index("n2") < started.index("n3")
    assert [n.id for n in result.graph] == ["n1", "n2", "n3"]
    assert all(n.status is NodeStatus.DONE for n in result.graph)
    assert result.planner == "llm" and result.graph["n3"].depends_on == ("n1",)
    # What the prompt lets the model leave out is derived: the question's period and language.
    assert result.graph["n3"].args["lang"] == "en" and result.graph["n1"].args["start"] == "2024-10-07"


def test_a_node_that_fails_validation_is_dropped_and_noted_and_the_rest_run(llm_settings, fake_llm, tmp_path):
    nodes = [NODES[0],
             {"id": "n2", "sub_query": "a made-up source", "source": "horoscope", "args": {"ticker": "NVDA"}},
             {"id": "n3", "sub_query": "depends on what comes later", "source": "quote", "args": {"ticker": "NVDA"},
              "depends_on": ["n9"]},
             NODES[2]]
    _, result, _ = run(llm_settings, fake_llm, tmp_path, dripped({"nodes": nodes}))
    assert [n.id for n in result.graph] == ["n1", "n3"] and result.planner == "llm"
    dropped = [n for n in result.notes if "left out" in n]
    assert len(dropped) == 2 and any("horoscope" in n for n in dropped) and any("n9" in n for n in dropped)
    assert all(n.status is NodeStatus.DONE for n in result.graph)


def test_a_plan_cut_off_mid_stream_runs_the_nodes_it_had_written(llm_settings, fake_llm, tmp_path):
    text = json.dumps({"nodes": NODES})
    cut = text.index('{"id": "n3"')
    plan = Reply(stream_pieces=[text[:cut], text[cut:cut + 20], text[cut + 20:cut + 30], text[cut + 30:]],
                 fail_mid_stream=True)
    _, result, _ = run(llm_settings, fake_llm, tmp_path, plan)
    assert [n.id for n in result.graph] == ["n1", "n2"]
    assert any("cut off" in n for n in result.notes)


def test_a_streamed_plan_with_no_usable_node_is_repaired_once_then_used(llm_settings, fake_llm, tmp_path):
    _, result, _ = run(llm_settings, fake_llm, tmp_path, dripped("I would search for NVDA prices."),
                       Reply(content=json.dumps({"nodes": NODES})))
    plans = [body for body, kind in zip(fake_llm.requests, fake_llm.kinds(), strict=True) if kind == "plan"]
    assert [bool(body.get("stream")) for body in plans] == [True, False]
    assert "the plan has no nodes" in plans[1]["messages"][-1]["content"]
    assert result.planner == "llm" and [n.id for n in result.graph] == ["n1", "n2", "n3"]


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


def test_while_the_plan_streams_the_drafts_nodes_below_a_finished_one_are_fetched_ahead(llm_settings, fake_llm,
                                                                                        tmp_path):
    from finsearch.bench.cooperative import scripted_plan
    from finsearch.bench.scenarios import NOW

    settings = llm_settings.replace(now=NOW)
    fake_llm.on("plan", dripped(scripted_plan(QUESTION, NOW), piece_delay_s=0.02))   # the rules' plan, as a model
    fake_llm.on("rewrite", Reply(content=json.dumps({"args": {}}), delay_s=1.0))      # never back in time
    fake_llm.on("answer", Reply(stream_pieces=["NVIDIA fell [1]."]))
    source = RecordingSource()
    hub = DataHub(settings, adapters={s: source for s in CATALOGUE},
                  cache=SourceCache(tmp_path / "cache", settings.freshness_s, 10 ** 8))
    events = list(pipeline.run(QUESTION, settings=settings, hub=hub))
    added = {e.node.source: e.at_ms for e in events if isinstance(e, NodeAdded)}
    fetched = {s: t for s, _, t in reversed(source.calls)}
    started = min(t for _, _, t in source.calls)
    assert {"news", "web_search"} <= set(added)
    # price (while planning), then news and web search below it, before the model had written them
    assert hub.stats.prefetched == 3 and len(source.calls) == 3
    assert (fetched["news"] - started) * 1000 < added["news"] and events[-1].result.graph["n2"].status.value == "done"
