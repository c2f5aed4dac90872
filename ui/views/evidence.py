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
from finsearch.phrases import Language, say
from ui.views.graph_layout import source_name

STATUS_COLOURS = {"pending": "gray", "running": "orange", "done": "green", "failed": "red", "skipped": "gray"}


def render(node: SearchNode, language: Language = "en") -> None:
    """One node's panel, its words in `language` (the answer's)."""
    st.markdown(f"**{plain(node.id)} · {plain(source_name(node.source, language))}** ({node.kind})")
    badges = st.container(horizontal=True)
    with badges:
        st.badge(say(f"ui.node.{node.status.value}", language), color=STATUS_COLOURS[node.status.value])
        if node.rewritten:
            st.badge(say("ui.node.rewritten", language, by=plain(node.rewritten_by or "")), color="violet")
        if node.added_by == "rewriter":
            st.badge(say("ui.node.follow_up", language), color="blue")
        elif node.added_by == "model":
            st.badge(say("ui.node.added_by_model", language), color="blue")
        if node.time_weight is not None:
            st.badge(say("ui.node.time_weight", language, weight=f"{node.time_weight:.2f}"), color="blue")
        if node.elapsed_ms is not None:
            st.badge(f"{node.elapsed_ms} ms", color="gray")
    st.markdown(say("ui.node.sub_query", language, text=plain(node.sub_query)))
    if node.rewritten:
        st.markdown(say("ui.node.before_rewriting", language, text=plain(node.original_sub_query)))
    tc = node.time_context
    span = f"{tc.start} → {tc.end}" + (f" ({plain(tc.label)})" if tc.label else "")
    st.markdown(say("ui.node.time_context", language, span=span))
    if node.depends_on:
        st.markdown(say("ui.node.after", language, nodes=plain(", ".join(node.depends_on))))
    with st.expander(say("ui.node.arguments", language), expanded=False):
        st.json(node.args)
    if node.error:
        (st.warning if node.status.value == "skipped" else st.error)(plain(node.error))
    if not node.evidence:
        if node.status.value in ("pending", "running"):
            st.caption(say("ui.node.waiting", language))
        return
    st.markdown(say("ui.node.evidence", language, count=len(node.evidence)))
    items = sorted(node.evidence, key=lambda e: e.published or "", reverse=True)
    for item in sorted(items, key=lambda e: -(e.time_weight if e.time_weight is not None else 0.5)):
        render_item(item, language)


def render_item(item: Evidence, language: Language = "en") -> None:
    with st.container(border=True):
        st.markdown(link(item.title, item.url))
        meta = [m for m in (item.publisher, (item.published or "")[:16].replace("T", " "),
                            say("ui.weight", language, weight=f"{item.time_weight:.2f}")
                            if item.time_weight is not None else None) if m]
        if item.period:
            meta.append(say("ui.node.covers", language, span=f"{item.period['start']} → {item.period['end']}"))
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
