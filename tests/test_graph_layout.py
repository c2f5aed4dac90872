"""Where the live graph draws each node: fixed places from the DAG's levels, so a node never
moves while the run goes (states change, follow-ups are added), and labels that fit."""

from datetime import date

from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.timecontext import TimeContext
from ui.views import graph_layout

TC = TimeContext(date(2024, 10, 7), date(2024, 10, 13), "last week")


def node(node_id, source="news", deps=(), **args):
    return SearchNode(node_id, f"sub-query {node_id}", source, args or {"ticker": "NVDA"}, TC,
                      depends_on=tuple(deps))


def nvda_plan() -> SearchGraph:
    return SearchGraph.build("Why did NVDA fall last week?", TC, [
        node("n1", "price_history"), node("n2", deps=["n1"]),
        node("n3", "web_search", deps=["n1"], query="why did NVDA fall", ticker="NVDA")])


def places(graph: SearchGraph) -> dict[str, tuple[int, int]]:
    return {n.id: (n.x, n.y) for n in graph_layout.layout(graph).nodes}


def test_levels_go_left_to_right_and_a_level_is_centred_on_the_widest():
    drawn = places(nvda_plan())
    assert drawn == {"n0": (91, 68), "n1": (226, 68), "n2": (426, 40), "n3": (426, 96)}


def test_a_node_keeps_its_place_as_states_change_and_a_follow_up_is_added():
    graph = nvda_plan()
    before = places(graph)
    graph.nodes["n1"].status = NodeStatus.DONE
    graph.nodes["n2"].status = NodeStatus.RUNNING
    graph.add_follow_up(node("n4", "news", deps=["n1"], ticker="AMD"))
    after = places(graph)
    assert {k: after[k] for k in before} == before
    assert after["n4"] == (426, 152)                     # below its level's planned nodes
    drawn = {n.id: n for n in graph_layout.layout(graph).nodes}
    assert drawn["n4"].follow_up and drawn["n2"].status == "running" and drawn["n1"].status == "done"


def test_labels_fit_their_room_in_either_script():
    assert graph_layout.node_label(node("n3", "web_search", query="why did NVDA fall so hard last week")) == (
        "n3 · web search", "why did NVDA fall so…")
    assert graph_layout.wrap("Why did NVDA fall last week?", 24, 3) == ("Why did NVDA fall last", "week?")
    assert graph_layout.wrap("贵州茅台最近一个月表现如何？", 24, 3) == ("贵州茅台最近一个月表现如", "何？")
    long = graph_layout.wrap("Compare the revenue growth of Apple, Microsoft, Alphabet, Amazon and Meta "
                             "over the last five years", 24, 3)
    assert len(long) == 3 and long[-1].endswith("…")


def test_the_models_plan_joining_the_running_draft_moves_nothing_drawn():
    graph = nvda_plan()                                  # the rules' draft, running
    before = places(graph)
    graph.nodes["n1"].status = NodeStatus.DONE
    for added in (node("n4", "quote", ticker="NVDA"), node("n5", "analyst", deps=["n1"], ticker="NVDA")):
        added.added_by = "model"                         # as plan.streamed admits the model's new nodes
        graph.apply(added)
    graph.nodes["n3"].status = NodeStatus.SKIPPED        # a draft search the model's plan dropped stays put
    after = places(graph)
    assert {k: after[k] for k in before} == before
    assert after["n4"] == (226, 124) and after["n5"] == (426, 152)     # each below its level's drafted nodes


def test_the_outline_indents_by_level_keeps_places_and_fits_a_phone_column():
    graph = nvda_plan()
    outline = graph_layout.outline(graph)
    at = {n.id: (n.x, n.y) for n in outline.nodes}
    assert outline.flow == "down" and at["n0"][1] < at["n1"][1] < at["n2"][1] < at["n3"][1]   # one node a row
    assert at["n1"][0] < at["n2"][0] == at["n3"][0]                                           # indented by level
    assert outline.width <= 302 < graph_layout.layout(graph).width       # the phone column the wide one overflowed
    graph.nodes["n1"].status = NodeStatus.DONE
    graph.add_follow_up(node("n4", "news", deps=["n1"], ticker="AMD"))
    after = {n.id: (n.x, n.y) for n in graph_layout.outline(graph).nodes}
    assert {k: after[k] for k in at} == at and after["n4"][1] > at["n3"][1]      # added last: nothing moves
