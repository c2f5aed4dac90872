"""The answer: clickable citations, the references list, badges and notes."""

from __future__ import annotations

import re

import streamlit as st

from finsearch.markdown import clean_model_markdown, escape, link
from finsearch.result import RunResult

_CITE = re.compile(r"(?<!\\)\[(\d{1,3})\](?!\()")


def display_markdown(text: str, references: list[dict]) -> str:
    """Answer markdown as shown: [n] → a link to its source; `$` kept literal (not LaTeX)."""
    urls = {r["n"]: r.get("url") for r in references}

    def cite(match: re.Match) -> str:
        n = int(match.group(1))
        url = urls.get(n)
        return f"[\\[{n}\\]]({url})" if url else f"\\[{n}\\]"

    text = clean_model_markdown(text)
    text = re.sub(r"(?<!\\)\$", r"\\$", text)
    return _CITE.sub(cite, text)


def render_answer(text: str, references: list[dict]) -> None:
    st.markdown(display_markdown(text, references))


def render_references(references: list[dict]) -> None:
    if not references:
        return
    lines = []
    for ref in references:
        meta = " · ".join(x for x in (escape(ref.get("publisher") or ""), (ref.get("published") or "")[:10],
                                      f"weight {ref['time_weight']:.2f}" if ref.get("time_weight") is not None
                                      else "") if x)
        lines.append(f"{ref['n']}. {link(ref['title'], ref.get('url'))}" + (f" — {meta}" if meta else ""))
    with st.expander(f"References ({len(references)})", expanded=True):
        st.markdown("\n".join(lines))


def render_badges(result: RunResult) -> None:
    row = st.container(horizontal=True)
    with row:
        writer = result.answer.writer if result.answer else None
        if writer == "llm":
            st.badge(f"answered by {result.config.get('model', 'LLM')}", icon=":material/smart_toy:", color="blue")
        else:
            st.badge("heuristic backend (no LLM)", icon=":material/rule:", color="gray")
        if result.planner == "llm" and writer != "llm":
            st.badge(f"planned by {result.config.get('model', 'LLM')}", color="blue")
        if result.sample:
            st.badge("sample data — not real quotes", icon=":material/science:", color="orange")
        if result.config.get("data") == "offline":
            st.badge("offline", icon=":material/cloud_off:", color="gray")
        failed = result.stats.get("nodes_failed", 0)
        if failed:
            st.badge(f"{failed} of {len(result.graph)} searches failed", color="red")
        if result.cancelled:
            st.badge("stopped early", color="orange")
        wall = result.stats.get("wall_ms")
        if wall is not None:
            st.badge(f"{wall / 1000:.1f} s", color="gray")


def render_notes(result: RunResult) -> None:
    failures = [n for n in result.graph if n.error]
    if not result.notes and not failures:
        return
    with st.expander("What went wrong or was skipped", expanded=bool(failures) and not result.answer):
        for note in result.notes:
            st.markdown(f"- {escape(note)}")
        for node in failures:
            st.markdown(f"- **{node.id} {node.source.replace('_', ' ')}**: {escape(node.error)}")
