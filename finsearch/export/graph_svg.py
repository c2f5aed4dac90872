"""The finished search graph as a static SVG, for the HTML export (no script, no fonts fetched).

Columns are dependency levels, left to right from the question; each node is a box coloured
by its status with its id, source and subject, and an edge runs from each parent's right side
to its child's left side, so no edge crosses a label. Every piece of text is HTML-escaped:
a sub-query or question that holds markup stays text. The full text of a shortened label is
the box's `<title>` (a tooltip, also escaped).
"""

from __future__ import annotations

import html
import unicodedata

from ..graph import ROOT, SearchGraph, SearchNode

# The app's graph colours (ui/views/graph.py), so the export reads the same way.
STATUS_FILL = {"pending": "#b9bec8", "running": "#f2a93b", "done": "#2e9e5b", "failed": "#d64545",
               "skipped": "#e6e8ec"}
DARK_TEXT = {"pending", "running", "skipped"}          # light fills take dark text
ROOT_FILL = "#2f4b7c"
REWRITTEN_BORDER = "#8e44ad"
EDGE = "#9aa1ad"

BOX_W, BOX_H = 200, 44          # px
LINE_UNITS, BOLD_UNITS = 28, 25   # what a line of the box holds at 12 px: Latin letters, CJK count two
COLUMN_GAP, ROW_GAP, MARGIN = 60, 14, 10
LEGEND = (("pending", "pending"), ("running", "running"), ("done", "done"), ("failed", "failed"),
          ("skipped", "skipped"))


def _width(char: str) -> int:
    """A character's width in label units: a CJK or other wide character takes two."""
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _short(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` units (so it stays inside its box) with an ellipsis."""
    text = " ".join(str(text).split())
    if sum(map(_width, text)) <= limit:
        return text
    out, used = [], 1                       # the ellipsis takes one unit
    for char in text:
        used += _width(char)
        if used > limit:
            break
        out.append(char)
    return "".join(out) + "…"


def _wrap(text: str, limit: int) -> tuple[str, str]:
    """Two lines of at most `limit` units each: words kept whole on the first when they fit."""
    text = " ".join(str(text).split())
    first = _short(text, limit)
    if first == text:
        return text, ""
    cut = len(first) - 1                    # the ellipsis
    space = text.rfind(" ", 0, cut + 1)
    if space > cut // 2:                    # break at a space unless that wastes half the line
        cut = space
    return text[:cut].rstrip(), _short(text[cut:].strip(), limit)


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def levels(graph: SearchGraph) -> dict[str, int]:
    """Each node's column: the question is 0, a node one more than its deepest parent."""
    level = {ROOT: 0}
    for node in graph.topological():
        level[node.id] = 1 + max((level[p.id] for p in graph.parents(node.id)), default=0)
    return level


def positions(graph: SearchGraph) -> dict[str, tuple[int, int]]:
    """Top-left corner of each box; the columns are centred on the tallest one."""
    level = levels(graph)
    columns: dict[int, list[str]] = {}
    for node_id in [ROOT, *(n.id for n in graph.topological())]:
        columns.setdefault(level[node_id], []).append(node_id)
    tallest = max(len(ids) for ids in columns.values())
    height = tallest * (BOX_H + ROW_GAP) - ROW_GAP
    out = {}
    for column, ids in columns.items():
        x = MARGIN + column * (BOX_W + COLUMN_GAP)
        top = MARGIN + (height - (len(ids) * (BOX_H + ROW_GAP) - ROW_GAP)) // 2
        for row, node_id in enumerate(ids):
            out[node_id] = (x, top + row * (BOX_H + ROW_GAP))
    return out


def _label(node: SearchNode) -> tuple[str, str]:
    subject = node.args.get("ticker") or node.args.get("query") or ""
    return f"{node.id} · {node.source.replace('_', ' ')}", str(subject)


def _box(x: int, y: int, fill: str, lines: tuple[str, str], tooltip: str, *, text_colour: str,
         border: str, border_width: float, dashed: bool, status: str) -> str:
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    first, second = _e(_short(lines[0], BOLD_UNITS)), _e(_short(lines[1], LINE_UNITS))
    return (f'<g class="node {status}"><title>{_e(tooltip)}</title>'
            f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="8" fill="{fill}" stroke="{border}" '
            f'stroke-width="{border_width}"{dash}/>'
            f'<text x="{x + 10}" y="{y + 18}" fill="{text_colour}" font-size="12" font-weight="600">{first}</text>'
            f'<text x="{x + 10}" y="{y + 34}" fill="{text_colour}" font-size="12">{second}</text></g>')


def render(graph: SearchGraph) -> str:
    """The graph as one `<svg>` element (its size in its viewBox; it scales to its container)."""
    where = positions(graph)
    width = max(x for x, _ in where.values()) + BOX_W + MARGIN
    height = max(y for _, y in where.values()) + BOX_H + MARGIN
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="search-graph" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-label="Search graph" '
             'font-family="-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif" '
             'style="max-width:100%;height:auto">']
    for parent, child in graph.edges():
        (px, py), (cx, cy) = where[parent], where[child]
        x1, y1, x2, y2 = px + BOX_W, py + BOX_H // 2, cx, cy + BOX_H // 2
        bend = (x2 - x1) // 2
        parts.append(f'<path d="M{x1},{y1} C{x1 + bend},{y1} {x2 - bend},{y2} {x2 - 6},{y2}" fill="none" '
                     f'stroke="{EDGE}" stroke-width="1.5"/>'
                     f'<path d="M{x2 - 7},{y2 - 4} L{x2},{y2} L{x2 - 7},{y2 + 4} Z" fill="{EDGE}"/>')
    x, y = where[ROOT]
    lines = _wrap(graph.question, BOLD_UNITS)         # the question on two lines, the rest shortened
    parts.append(_box(x, y, ROOT_FILL, lines, graph.question, text_colour="#ffffff",
                      border=ROOT_FILL, border_width=1, dashed=False, status="root"))
    for node in graph:
        status = node.status.value
        x, y = where[node.id]
        tooltip = f"{node.sub_query} ({status})" + (f": {node.error}" if node.error else "")
        parts.append(_box(x, y, STATUS_FILL[status], _label(node), tooltip,
                          text_colour="#1f2430" if status in DARK_TEXT else "#ffffff",
                          border=REWRITTEN_BORDER if node.rewritten else STATUS_FILL[status],
                          border_width=3 if node.rewritten else 1, dashed=status == "skipped", status=status))
    parts.append("</svg>")
    return "".join(parts)


def legend() -> str:
    """The colour key under the graph, as HTML."""
    keys = [f'<span class="key"><i style="background:{STATUS_FILL[s]}"></i>{name}</span>' for s, name in LEGEND]
    keys.append(f'<span class="key"><i style="background:#fff;border:3px solid {REWRITTEN_BORDER}"></i>'
                "rewritten from its parents' results</span>")
    return '<p class="legend">' + " ".join(keys) + "</p>"
