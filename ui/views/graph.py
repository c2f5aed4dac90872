"""The live search graph and its legend.

Drawn by a small component of our own (`ui/views/search_graph/`: one SVG, no third-party
script) that stays mounted across updates and changes nodes in place, from positions
computed here (`graph_layout`), so the graph fills in before the reader's eyes without
flashing or re-flowing. A click on a node returns its id; the selection is kept under the
component's key across re-renders.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
import streamlit.components.v1 as components

from finsearch.graph import ROOT, SearchGraph
from finsearch.phrases import Language, say
from ui.views import graph_layout

COLOURS = {"pending": "#b9bec8", "running": "#f2a93b", "done": "#2e9e5b", "failed": "#d64545",
           "skipped": "#e6e8ec"}
REWRITTEN_BORDER = "#8e44ad"

_search_graph = components.declare_component("search_graph", path=str(Path(__file__).parent / "search_graph"))




def payload(graph: SearchGraph, draft: bool = False, live: bool = False, language: Language = "en") -> dict:
    """What the component draws: the laid-out graph and its colours; `draft` draws it faded.
    `live` (drawn by a run's polling fragment) makes the finished graph's arguments differ from
    its last live ones, so the frame hears of the page that now holds it (see graph.js). The
    node labels name their sources in `language`."""
    return {**graph_layout.layout(graph, language).to_json(),
            "outline": graph_layout.outline(graph, language).to_json(),
            "colours": COLOURS, "rewritten_border": REWRITTEN_BORDER,
            "radius": graph_layout.NODE_RADIUS_PX, "root_width": graph_layout.ROOT_WIDTH_PX,
            "label_width": graph_layout.LABEL_WIDTH_PX, "draft": draft, "live": live}


def render(graph: SearchGraph, key: str, draft: bool = False, live: bool = False,
           language: Language = "en") -> str | None:
    """Draw the graph (`draft`: the rules' plan while a model plans; `live`: a run's polling
    fragment draws it) with its labels and legend in `language`; the id of the node the user last
    clicked (None for none)."""
    # The current selection goes back in, so a frame loaded anew rings the same node.
    selected = _search_graph(graph=payload(graph, draft, live, language), selected=st.session_state.get(key),
                             key=key, default=None)
    st.caption(say("ui.draft_note" if draft else "ui.legend", language))
    if selected == ROOT or (selected and selected not in graph.nodes):
        return None
    return selected
