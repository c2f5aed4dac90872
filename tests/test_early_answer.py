"""A model's answer begins once the evidence its lead reads is in, not after every search: a search
the model's plan adds later extends the answer after its text, said to have come late, cited and
traced like the rest (issue 35 §2).

The real pipeline on the answer test pack (invented AMD prices, stories and targets), the model
the scripted loopback server: its plan keeps the rules' price history at once, then, a second
later, adds an analyst search the rules' "why" draft does not have."""

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from finsearch import pipeline
from finsearch.answer.lead_needs import lead_nodes, lead_sources
from finsearch.events import AnswerDelta, AnswerStarted, NodeAdded, NodeFailed, NodeFinished, RunFinished
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.model.loopback import Reply
from finsearch.plan.analysis import analyse
from finsearch.timecontext import TimeContext

PACK = Path(__file__).parent / "fixtures" / "answer_pack"
NOW = datetime(2024, 11, 15, 21, 0, tzinfo=timezone.utc)
PRICES = {"id": "n1", "sub_query": "AMD prices last week", "source": "price_history", "args": {"ticker": "AMD"}}
TARGETS = {"id": "n2", "sub_query": "AMD analyst targets", "source": "analyst", "args": {"ticker": "AMD"}}


def late_plan() -> Reply:
    """The rules' price history at once, the analyst search a second later (the pause after a piece)."""
    text = json.dumps({"nodes": [PRICES, TARGETS]})
    cut = text.index('{"id": "n2"')
    return Reply(stream_pieces=[text[:cut], text[cut:]], token_delay_s=1.0)


def ask(question: str, settings, fake_llm, answer: str):
    fake_llm.on("plan", late_plan())
    fake_llm.on("rewrite", Reply(content=json.dumps({"args": {}})))
    fake_llm.on("answer", Reply(content=answer))
    run_settings = settings.replace(pack=PACK, offline=True, now=NOW, llm="openai", base_url=fake_llm.base_url,
                                    api_key="test-key", model="fake-model", llm_timeout_s=5.0)
    events = list(pipeline.run(question, settings=run_settings))
    assert isinstance(events[-1], RunFinished)
    return events, events[-1].result


def index(events, kind, test=lambda e: True) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, kind) and test(e))


@pytest.mark.parametrize("question, answer, heading", [
    ("Why did AMD stock drop last week?", "AMD fell over the week [1]. The stories of the day explain it [2].",
     "**Found after the text above was written**"),
    ("AMD上周为什么下跌？", "AMD 上周下跌 [1]。当天的报道给出了原因 [2]。", "**以下内容在上文写完之后才检索到**"),
])
def test_the_answer_starts_before_a_late_search_ends_and_that_search_extends_it(settings, fake_llm, question,
                                                                                answer, heading):
    events, result = ask(question, settings, fake_llm, answer)
    targets = next(n for n in result.graph if n.source == "analyst")
    assert targets.added_by == "model" and targets.status is NodeStatus.DONE
    started = index(events, AnswerStarted)
    first_text = index(events, AnswerDelta, lambda e: e.text)
    added = index(events, NodeAdded, lambda e: e.node.source == "analyst")
    ended = index(events, NodeFinished, lambda e: e.node.source == "analyst")
    # The answer began (and showed its first words) before the analyst search even joined the graph.
    assert started < first_text < added < ended
    assert [e.at_ms for e in events] == sorted(e.at_ms for e in events)
    # The model wrote from what was in: the targets were not in its prompt ...
    prompt = json.dumps([r for r in fake_llm.requests if "Write the answer now" in json.dumps(r)][0])
    assert "190.5" not in prompt and "analyst targets" not in prompt
    markdown = result.answer.markdown
    assert result.answer.writer == "llm" and markdown.startswith(answer.split("[")[0])
    # ... and they come after its text, under a heading that says they came late, cited after its references.
    late = markdown.split(heading, 1)[1]
    assert heading in markdown and markdown.index(heading) > markdown.index(answer.split("[")[0])
    refs = result.answer.references
    targets_ref = next(r for r in refs if r.evidence_id == targets.evidence[0].id)
    assert targets_ref.n == len(refs) and f"[{targets_ref.n}]" in late and "190.5" in late
    # Every reference is evidence the run retrieved, and the audit traces the late figures too.
    audit = result.audit.to_dict()
    assert audit["citations"] == {"resolved": True, "unknown": [], "unused_references": [], "not_retrieved": []}
    assert audit["figures"]["unsupported"] == 0 and audit["figures"]["misattributed"] == 0
    assert "190.5" in {c.text.replace(",", "") for c in result.audit.checks if c.verdict == "supported"} or any(
        "190.5" in c.sentence and c.verdict == "supported" for c in result.audit.checks)
    # The joined stream is the stored answer.
    shown = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert shown.strip() == markdown.strip()


def test_the_rules_answer_still_waits_for_every_search(settings):
    events = list(pipeline.run("Why did AMD stock drop last week?",
                               settings=settings.replace(pack=PACK, offline=True, now=NOW)))
    started = index(events, AnswerStarted)
    assert all(i < started for i, e in enumerate(events) if isinstance(e, (NodeFinished, NodeFailed)))
    assert "Found after the text above was written" not in events[-1].result.answer.markdown


def _node(node_id: str, source: str, status: NodeStatus, ticker: str = "AMD") -> SearchNode:
    node = SearchNode(node_id, f"{source} {ticker}", source, {"ticker": ticker}, TimeContext.from_dict(
        {"start": "2024-11-04", "end": "2024-11-08", "label": "last week"}))
    node.status = status
    return node


def test_what_the_lead_reads_per_intent():
    why = analyse("Why did AMD stock drop last week?", NOW)
    assert {"price_history", "news", "web_search"} <= lead_sources(why)
    assert "analyst" not in lead_sources(why) and "financials" not in lead_sources(why)
    assert lead_sources(analyse("What is the analyst price target for AMD?", NOW)) >= {"analyst", "quote"}
    # Statements are the detail's answer, not a lead's: such a question waits for every search.
    assert lead_sources(analyse("What was AMD's revenue last quarter?", NOW)) is None
    graph = SearchGraph.build("q", why.time_context, [
        _node("n1", "price_history", NodeStatus.DONE), _node("n2", "news", NodeStatus.DONE),
        _node("n3", "analyst", NodeStatus.RUNNING)])
    assert [n.id for n in lead_nodes(graph, why)] == ["n1", "n2"]      # the targets may come late
    graph.nodes["n2"].status = NodeStatus.RUNNING
    assert lead_nodes(graph, why) is None                                # the move's stories are not in yet
