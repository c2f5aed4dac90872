"""The deep research page's rendering: progress by section while it runs, then the report
(flagged figures highlighted, citations linked), its references and its downloads.
Reads finished `finsearch.research` objects only; never runs anything itself."""

from __future__ import annotations

import streamlit as st

from finsearch.phrases import say
from finsearch.research.export import html_document
from finsearch.research.result import Report
from ui.answer_view import display_markdown, render_references


def progress_line(done: int, total: int) -> str:
    return f"Researching: {done} of {total} sections done"


def report(done: Report, key: str) -> None:
    body = done.markdown.split(f"\n## {say('report.references', done.analysis.language)}")[0]
    st.markdown(display_markdown(body, done.references, done.audit.audit.flagged))
    render_references(done.references)
    with st.expander("Outline and searches", expanded=False):
        for result in done.sections:
            st.markdown(f"**{result.index}. {display_markdown(result.section.title, [])}** — "
                        f"{sum(1 for n in result.graph if n.status.value == 'done')} of {len(result.graph)} "
                        "searches found something")
    left, right = st.columns(2)
    left.download_button("Download Markdown", done.markdown, file_name="report.md", mime="text/markdown",
                         key=f"{key}-md")
    right.download_button("Download HTML", html_document(done), file_name="report.html", mime="text/html",
                          key=f"{key}-html")
