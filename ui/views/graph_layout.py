"""Where each node of the search graph is drawn: a fixed left-to-right layout computed from
the DAG's levels, so that a node never moves once it is on the screen; and, for a column too
narrow for it (a phone), an outline: one node a row, indented by level, which fits any width.

The browser only draws what it is given. Were the layout left to the browser (vis.js's
hierarchical layout), every update could re-flow the graph; here a node's place depends
only on the planned nodes (fixed once the plan exists) and on nodes added before it.
Added nodes (those the model's streamed plan adds to the rules' draft, and the rewriter's
follow-ups) go after the planned ones of their level, so they never push one aside.

No Streamlit here: the layout is plain data, tested without a browser.
"""

from __future__ import annotations

import dataclasses
import unicodedata

from finsearch.graph import ROOT, SearchGraph, SearchNode
from finsearch.phrases import Language, say

COLUMN_PX = 200        # one dependency level to the next (a label fits in between)
ROW_PX = 56            # one node to the next within a level
MARGIN_PX = 16
TOP_PX = 40            # the first row's centre: room above it for a two-line question box
NODE_RADIUS_PX = 11
ROOT_WIDTH_PX = 150
ROOT_COLUMNS = 20      # a line of the question box (13 px text in 134 px; CJK counts two)
ROOT_LINE_PX, ROOT_PADDING_PX = 16, 14     # the box is lines × 16 + 14 px tall (graph.js draws it)
LABEL_WIDTH_PX = 160   # room right of a node for its two-line label (graph.js squeezes it to fit)
LABEL_BELOW_PX = 20    # a label's second line ends this far below its node's centre
INDENT_PX = 22         # the outline: one dependency level to the next
OUTLINE_ROW_PX = 44    # the outline: one node to the next (a two-line label fits)


@dataclasses.dataclass(frozen=True)
class DrawnNode:
    """One node as the component draws it: where, in which state, with which words."""
    id: str
    x: int
    y: int
    status: str                 # NodeStatus value; "question" for the root
    lines: tuple[str, ...]      # the label, one entry a line
    hint: str                   # the hover text (plain text: the sub-query)
    rewritten: bool = False
    follow_up: bool = False

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class DrawnGraph:
    nodes: tuple[DrawnNode, ...]
    edges: tuple[tuple[str, str], ...]
    width: int
    height: int
    flow: str = "across"        # edges run left to right ("across") or down the outline ("down")

    def to_json(self) -> dict:
        return {"nodes": [n.to_json() for n in self.nodes], "edges": [list(e) for e in self.edges],
                "width": self.width, "height": self.height, "root": ROOT, "flow": self.flow}


def _display_width(text: str) -> int:
    """Columns a string takes, CJK characters counting two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def short(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` columns with an ellipsis."""
    text = " ".join(text.split())
    out = ""
    for ch in text:
        if _display_width(out + ch) > limit - 1 and _display_width(text) > limit:
            return out.rstrip() + "…"
        out += ch
    return out


def wrap(text: str, columns: int, max_lines: int) -> tuple[str, ...]:
    """Break `text` into at most `max_lines` lines of `columns` columns (CJK breaks anywhere)."""
    lines: list[str] = []
    line = ""
    for word in _pieces(" ".join(text.split())):
        candidate = (line + word) if line else word.lstrip()
        if line and _display_width(candidate.rstrip()) > columns:
            lines.append(line.rstrip())
            line = word.lstrip()
        else:
            line = candidate
    if line:
        lines.append(line.rstrip())
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = short(lines[-1] + " …", columns)
    return tuple(short(line, columns) for line in lines) or ("",)


def _pieces(text: str) -> list[str]:
    """Words with their leading space; each CJK character a piece of its own."""
    pieces: list[str] = []
    for ch in text:
        wide = _display_width(ch) == 2
        if not pieces or wide or ch == " " or _display_width(pieces[-1][-1]) == 2:
            pieces.append(ch)
        else:
            pieces[-1] += ch
    return pieces


def source_name(source: str, language: Language = "en") -> str:
    """A source as the page names it, in `language` (the phrasebook's `ui.source.*`): "price
    history", "历史行情"; a source the phrasebook lacks by its id."""
    try:
        return say(f"ui.source.{source}", language)
    except KeyError:
        return source.replace("_", " ")


def node_label(node: SearchNode, language: Language = "en") -> tuple[str, str]:
    subject = node.args.get("ticker") or node.args.get("query") or ""
    return f"{node.id} · {source_name(node.source, language)}", short(str(subject), 22)


def levels(graph: SearchGraph) -> dict[str, int]:
    """Each node's dependency level: 1 below the root, one more than its deepest parent."""
    level: dict[str, int] = {}
    for node in graph.topological():
        level[node.id] = 1 + max((level[p.id] for p in graph.parents(node.id)), default=0)
    return level


def _drawn(node: SearchNode, x: int, y: int, language: Language) -> DrawnNode:
    return DrawnNode(node.id, x, y, node.status.value, node_label(node, language), node.sub_query,
                     rewritten=node.rewritten, follow_up=node.added_by != "plan")


def _root(graph: SearchGraph, y_centre: int) -> tuple[DrawnNode, int]:
    """The question's box, no higher than its own height allows; and its half height."""
    question = wrap(graph.question, ROOT_COLUMNS, 3)
    half = (len(question) * ROOT_LINE_PX + ROOT_PADDING_PX) // 2
    return DrawnNode(ROOT, MARGIN_PX + ROOT_WIDTH_PX // 2, max(y_centre, MARGIN_PX + half), "question", question,
                     graph.question), half


def layout(graph: SearchGraph, language: Language = "en") -> DrawnGraph:
    """The graph with fixed positions: level → column, planned order → row, each level
    centred on the widest level of the plan; added nodes below their level's planned nodes."""
    level = levels(graph)
    rows: dict[int, list[SearchNode]] = {}
    for node in sorted(graph, key=lambda n: n.added_by != "plan"):   # stable: plan order, then added nodes
        rows.setdefault(level[node.id], []).append(node)
    planned = {lv: sum(1 for n in row if n.added_by == "plan") for lv, row in rows.items()}
    breadth = max(planned.values(), default=1) or 1

    def y_of(row_index: float) -> int:
        return round(TOP_PX + row_index * ROW_PX)

    root, root_half = _root(graph, y_of((breadth - 1) / 2))
    drawn = [root]
    for lv, row in sorted(rows.items()):
        x = MARGIN_PX + ROOT_WIDTH_PX + (lv - 1) * COLUMN_PX + 60
        offset = (breadth - planned[lv]) / 2
        drawn += [_drawn(node, x, y_of(offset + index), language) for index, node in enumerate(row)]
    width = max(n.x for n in drawn) + (LABEL_WIDTH_PX if len(drawn) > 1 else ROOT_WIDTH_PX // 2) + MARGIN_PX
    height = max(max(n.y for n in drawn[1:]) + LABEL_BELOW_PX if len(drawn) > 1 else 0,
                 root.y + root_half) + MARGIN_PX
    return DrawnGraph(tuple(drawn), tuple(graph.edges()), width, height)


def outline(graph: SearchGraph, language: Language = "en") -> DrawnGraph:
    """The graph for a narrow column: the question on top, then one node a row, indented by
    its level; planned nodes in level order, added ones after them all (so none ever moves)."""
    level = levels(graph)
    root, root_half = _root(graph, 0)
    order = sorted(graph, key=lambda n: (n.added_by != "plan", level[n.id] if n.added_by == "plan" else 0))
    top = root.y + root_half + OUTLINE_ROW_PX // 2 + 4
    drawn = [root] + [_drawn(node, MARGIN_PX + NODE_RADIUS_PX + 8 + level[node.id] * INDENT_PX,
                                      top + i * OUTLINE_ROW_PX, language) for i, node in enumerate(order)]
    width = max([ROOT_WIDTH_PX + 2 * MARGIN_PX] + [n.x + LABEL_WIDTH_PX + MARGIN_PX for n in drawn[1:]])
    height = (drawn[-1].y + LABEL_BELOW_PX if len(drawn) > 1 else root.y + root_half) + MARGIN_PX
    return DrawnGraph(tuple(drawn), tuple(graph.edges()), width, height, flow="down")
