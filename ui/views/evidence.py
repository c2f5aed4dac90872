"""The evidence panel: everything about one node, and its raw evidence as text.

Retrieved text is always shown as text: titles and snippets are escaped before they go
into markdown, and only http(s) URLs become links.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from finsearch.answer.markdown import link, plain
from finsearch.evidence import Evidence
from finsearch.graph import SearchNode
from finsearch.payloads import PRICE_COLUMNS, PriceHistory

STATUS_BADGE = {"pending": ("pending", "gray"), "running": ("running", "orange"), "done": ("done", "green"),
                "failed": ("failed", "red"), "skipped": ("skipped", "gray")}


def render(node: SearchNode) -> None:
    label, colour = STATUS_BADGE[node.status.value]
    st.markdown(f"**{plain(node.id)} · {node.source.replace('_', ' ')}** ({node.kind})")
    badges = st.container(horizontal=True)
    with badges:
        st.badge(label, color=colour)
        if node.rewritten:
            st.badge(f"rewritten ({node.rewritten_by})", color="violet")
        if node.added_by == "rewriter":
            st.badge("follow-up", color="blue")
        elif node.added_by == "model":
            st.badge("added by the model's plan", color="blue")
        if node.time_weight is not None:
            st.badge(f"time weight {node.time_weight:.2f}", color="blue")
        if node.elapsed_ms is not None:
            st.badge(f"{node.elapsed_ms} ms", color="gray")
    st.markdown(f"**Sub-query:** {plain(node.sub_query)}")
    if node.rewritten:
        st.markdown(f"**Before rewriting:** {plain(node.original_sub_query)}")
    tc = node.time_context
    st.markdown(f"**Time context:** {tc.start} → {tc.end}" + (f" ({plain(tc.label)})" if tc.label else ""))
    if node.depends_on:
        st.markdown(f"**After:** {', '.join(node.depends_on)}")
    with st.expander("Arguments", expanded=False):
        st.json(node.args)
    if node.error:
        (st.warning if node.status.value == "skipped" else st.error)(plain(node.error))
    if not node.evidence:
        if node.status.value in ("pending", "running"):
            st.caption("Waiting for results…")
        return
    st.markdown(f"**Evidence ({len(node.evidence)})** — best time weight first")
    items = sorted(node.evidence, key=lambda e: e.published or "", reverse=True)
    for item in sorted(items, key=lambda e: -(e.time_weight if e.time_weight is not None else 0.5)):
        render_item(item)


def render_item(item: Evidence) -> None:
    with st.container(border=True):
        st.markdown(link(item.title, item.url))
        meta = [m for m in (item.publisher, (item.published or "")[:16].replace("T", " "),
                            f"weight {item.time_weight:.2f}" if item.time_weight is not None else None) if m]
        if item.period:
            meta.append(f"covers {item.period['start']} → {item.period['end']}")
        st.caption(plain(" · ".join(meta)))
        if item.snippet:
            st.markdown(plain(item.snippet))
        if item.data:
            render_data(item)


def render_data(item: Evidence) -> None:
    """Price rows and their statistics as tables; other payloads as tables of their fields;
    a payload no table can hold as a JSON viewer (text only)."""
    try:
        if item.prices and item.prices.rows:
            _price_tables(item.prices)
        else:
            _tables(item.data)
    except Exception:  # pyarrow refuses mixed columns; the data still deserves to be seen
        st.json(item.data, expanded=False)


def _price_tables(history: PriceHistory) -> None:
    st.dataframe({c: [r[i] for r in history.rows] for i, c in enumerate(PRICE_COLUMNS)}, height=240,
                 hide_index=True)
    stats = {k: v for k, v in dataclasses.asdict(history.stats).items()
             if v is not None and not isinstance(v, (list, tuple, dict))}
    if stats:
        st.dataframe({"statistic": list(stats), "value": [str(v) for v in stats.values()]}, hide_index=True)
    if history.stats.biggest_moves:
        st.dataframe([dataclasses.asdict(m) for m in history.stats.biggest_moves], hide_index=True)


def _tables(data: dict) -> None:
    flat = {k: v for k, v in data.items() if not isinstance(v, (list, dict))}
    nested = {k: v for k, v in data.items() if isinstance(v, (list, dict))}
    if flat:
        st.dataframe({"field": list(flat), "value": [str(v) for v in flat.values()]}, hide_index=True)
    for name, value in nested.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            st.caption(plain(name))
            st.dataframe(value, hide_index=True)
        elif isinstance(value, dict) and value and all(not isinstance(v, (list, dict)) for v in value.values()):
            st.caption(plain(name))
            st.dataframe({"field": list(value), "value": [str(v) for v in value.values()]}, hide_index=True)
        elif value:
            st.caption(plain(name))
            st.json(value, expanded=False)
