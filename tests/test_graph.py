"""Search graph validation and structure."""

from datetime import date

import pytest

from finsearch.errors import PlanError
from finsearch.graph import ROOT, SearchGraph, SearchNode
from finsearch.timecontext import TimeContext

TC = TimeContext(date(2024, 10, 7), date(2024, 10, 13), "last week")


def node(node_id, source="news", deps=(), **args):
    args = args or ({"ticker": "NVDA"} if source != "symbol_search" else {"query": "nvidia"})
    return SearchNode(node_id, f"sub-query {node_id}", source, args, TC, depends_on=tuple(deps))


def build(*nodes):
    return SearchGraph.build("Why did NVDA fall last week?", TC, nodes)


def test_a_valid_plan_has_the_question_as_root():
    graph = build(node("n1", "price_history"), node("n2", deps=["n1"]), node("n3", "web_search", deps=["n1"],
                                                                             query="why", ticker="NVDA"))
    data = graph.to_dict()
    assert data["nodes"][0]["id"] == ROOT and data["nodes"][0]["sub_query"] == "Why did NVDA fall last week?"
    assert data["edges"] == [["n0", "n1"], ["n1", "n2"], ["n1", "n3"]]
    assert graph.depth() == 2
    assert [n.id for n in graph.topological()][0] == "n1"


def test_every_node_carries_the_five_features_and_more():
    graph = build(node("n1", "price_history"))
    item = graph.to_dict()["nodes"][1]
    for key in ("sub_query", "source", "time_weight", "time_context", "evidence", "id", "args", "status",
                "original_sub_query", "elapsed_ms", "error", "kind", "depends_on"):
        assert key in item
    assert item["kind"] == "finance" and item["status"] == "pending"


@pytest.mark.parametrize(("nodes", "problem"), [
    ([node("n1", deps=["n2"]), node("n2", deps=["n1"])], "dependency cycle"),
    ([node("n1", "stock_oracle")], "unknown source"),
    ([node("n1", deps=["n9"])], "unknown node"),
    ([node("n1", deps=["n1"])], "depends on itself"),
    ([node("n1"), node("n1")], "duplicate node id"),
    ([node(f"n{i}") for i in range(1, 14)], "too many nodes"),
    ([], "no nodes"),
    ([node("n1", "quote", ticker="not a ticker!")], "bad value"),
    ([SearchNode("n1", "q", "quote", {}, TC)], "missing argument 'ticker'"),
    ([SearchNode("n1", "q", "news", {"lang": "en"}, TC)], "needs one of ticker, query"),
    ([SearchNode("n1", "q", "price_history", {"ticker": "NVDA", "start": "2024-10-10", "end": "2024-10-01"}, TC)],
     "is after end"),
    ([SearchNode("n1", "q", "quote", {"ticker": "NVDA", "colour": "red"}, TC)], "unknown argument"),
])
def test_invalid_plans_are_rejected_with_every_problem(nodes, problem):
    with pytest.raises(PlanError) as err:
        build(*nodes)
    assert any(problem in p for p in err.value.problems), err.value.problems


def test_follow_ups_are_capped():
    graph = build(node("n1"))
    for _ in range(3):
        graph.add_follow_up(node(graph.next_id(), deps=["n1"]))
    with pytest.raises(PlanError):
        graph.add_follow_up(node(graph.next_id(), deps=["n1"]))
    assert [n.added_by for n in graph] == ["plan", "rewriter", "rewriter", "rewriter"]


def test_longest_chain_sums_costs_along_dependencies():
    graph = build(node("n1", "price_history"), node("n2", deps=["n1"]), node("n3", "quote"))
    cost, chain = graph.longest_chain(lambda n: {"n1": 3, "n2": 2, "n3": 4}[n.id])
    assert (cost, chain) == (5, ["n1", "n2"])


def test_copies_are_independent():
    graph = build(node("n1"))
    clone = graph.copy()
    clone["n1"].args["ticker"] = "AMD"
    assert graph["n1"].args["ticker"] == "NVDA"
