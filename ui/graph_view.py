"""The live search graph (streamlit-agraph, vis.js) and its legend.

The component is called through its keyed form so that a click selection survives the
re-renders that recolour nodes (LIBRARY-NOTES). Labels are short and drawn on a canvas;
nothing goes into a node's `title`, which the component turns into HTML and opens as a
URL on double-click.
"""

from __future__ import annotations

import json

import streamlit as st
import streamlit_agraph

from finsearch.graph import ROOT, SearchGraph, SearchNode

COLOURS = {"pending": "#b9bec8", "running": "#f2a93b", "done": "#2e9e5b", "failed": "#d64545",
           "skipped": "#e6e8ec"}
ROOT_COLOUR = "#2f4b7c"
REWRITTEN_BORDER = "#8e44ad"
LEGEND = (":gray[●] pending · :orange[●] running · :green[●] done · :red[●] failed · "
          ":gray[○] skipped · :violet[◯] rewritten from its parents' results")


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def node_label(node: SearchNode) -> str:
    subject = node.args.get("ticker") or node.args.get("query") or ""
    return f"{node.id} · {node.source.replace('_', ' ')}\n{_short(str(subject), 22)}"


def payload(graph: SearchGraph) -> tuple[str, str]:
    """(data JSON, config JSON) for the component."""
    nodes = [{"id": ROOT, "label": _short(graph.question, 40), "shape": "box", "color": ROOT_COLOUR,
              "font": {"color": "#ffffff", "size": 15}, "margin": 10}]
    for node in graph:
        status = node.status.value
        border = REWRITTEN_BORDER if node.rewritten else COLOURS[status]
        nodes.append({
            "id": node.id, "label": node_label(node), "shape": "dot", "size": 16,
            "color": {"background": COLOURS[status], "border": border,
                      "highlight": {"background": COLOURS[status], "border": "#1f2430"}},
            "borderWidth": 4 if node.rewritten else 1,
            "shapeProperties": {"borderDashes": [4, 4] if status == "skipped" else False},
            "font": {"size": 13, "multi": False},
        })
    edges = [{"from": a, "to": b, "arrows": "to", "color": "#9aa1ad"} for a, b in graph.edges()]
    levels = max(graph.depth(), 1)
    breadth = max(_breadth(graph), 1)
    if breadth <= 4:     # a small plan reads top-down
        height, layout = 220 + 110 * levels, {"direction": "UD", "levelSeparation": 110, "nodeSpacing": 150}
    else:                # a wide one left-to-right, so labels stay legible in a narrow column
        height, layout = 90 + 80 * breadth, {"direction": "LR", "levelSeparation": 160, "nodeSpacing": 78}
        nodes[0]["label"] = _short(graph.question, 26)
    config = {
        "height": f"{height}px", "width": "100%",
        "physics": {"enabled": False},
        "layout": {"hierarchical": {"enabled": True, "sortMethod": "directed", "treeSpacing": 70, **layout}},
        "interaction": {"hover": True, "dragNodes": False, "zoomView": True},
        "edges": {"smooth": {"type": "cubicBezier", "forceDirection": "vertical"}},
    }
    return json.dumps({"nodes": nodes, "edges": edges}), json.dumps(config)


def _breadth(graph: SearchGraph) -> int:
    """The most nodes on one dependency level."""
    level: dict[str, int] = {}
    for node in graph.topological():
        level[node.id] = 1 + max((level[p.id] for p in graph.parents(node.id)), default=0)
    counts: dict[int, int] = {}
    for value in level.values():
        counts[value] = counts.get(value, 0) + 1
    return max(counts.values(), default=0)


def render(graph: SearchGraph, key: str) -> str | None:
    """Draw the graph; the id of the node the user last clicked (None for none)."""
    data, config = payload(graph)
    selected = streamlit_agraph._agraph(data=data, config=config, key=key, default=None)
    st.caption(LEGEND)
    if selected == ROOT or (selected and selected not in graph.nodes):
        return None
    return selected
