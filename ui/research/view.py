"""A finished deep research report: its trust summary and audit panel at the top, a table
of contents linking to the sections, each section with its flagged figures highlighted, its
K-line charts (each ticker's once, after the first section that fetched its prices) and its
search graph on request, then the references, the notes and the downloads.
Reads finished `finsearch.research` objects only; never runs anything itself.
"""

from __future__ import annotations

import html
import logging
import re

import streamlit as st

from finsearch.answer import charts
from finsearch.answer.chart_links import chart_id, charted_tickers
from finsearch.answer.chart_style import chart_style
from finsearch.answer.markdown import plain
from finsearch.model.usage_text import stage_lines, usage_line
from finsearch.phrases import say
from finsearch.research.result import Report
from ui import state
from ui.research import downloads as research_downloads
from ui.research.live import status_key
from ui.views import turn as turn_view
from ui.views.answer import citation_targets, display_markdown, render_references, trust_badge

log = logging.getLogger(__name__)

_NUMBERED = re.compile(r"^## (\d+)\. ")


def report(done: Report, key: str) -> None:
    language = done.analysis.language
    refs_heading = f"## {say('report.references', language)}"
    body = done.markdown.split("\n" + refs_heading)[0]
    head, *chunks = re.split(r"(?m)^(?=## )", body)
    flagged = done.audit.audit.flagged
    charted = turn_view.chart_anchors(done.graph, done.references, key)
    anchors = citation_targets(done.references, charted, _anchor(key, 0))
    title, _, rest = head.strip().partition("\n")
    with st.container(key=status_key(key, "stopped" if done.cancelled else "done")):
        st.markdown(display_markdown(title, []))
    _badges(done)
    with st.container(border=True):
        # The written trust summary (a quote, for the files) is the badge and its hover here.
        shown = "\n".join(line for line in rest.strip().splitlines() if not line.startswith(">"))
        st.markdown(display_markdown(shown.strip(), done.references, flagged, anchors))
        _audit_panel(done)
    _contents(chunks, key, language)
    sections = {r.index: r for r in done.sections}
    texts = {int(m.group(1)): chunk for chunk in chunks if (m := _NUMBERED.match(chunk))}
    homes = chart_homes(done, texts)
    for n, chunk in enumerate(chunks, start=1):
        st.html(f'<div id="{html.escape(_anchor(key, n))}" class="report-anchor"></div>')
        st.markdown(display_markdown(chunk.strip(), done.references, flagged, anchors))
        numbered = _NUMBERED.match(chunk)
        result = sections.get(int(numbered.group(1))) if numbered else None
        if result is None:
            continue
        _charts(done, [t for t, home in homes.items() if home == result.index], key)
        searches = f"{sum(1 for x in result.graph if x.status.value == 'done')} of {len(result.graph)}"
        if st.toggle(f"Show this section's searches ({searches} found something)", key=f"{key}-graph-on-{n}"):
            turn_view.graph_and_evidence(result.graph, key=f"{key}-graph-{result.index}", language=language)
    st.html(f'<div id="{html.escape(_anchor(key, 0))}" class="report-anchor"></div>')
    render_references(done.references, charted, language=language)
    if done.notes:
        with st.expander("Notes on how this report was made", expanded=False):
            st.markdown("\n".join(f"- {plain(note)}" for note in done.notes))
    research_downloads.render(done, key)


def _anchor(key: str, n: int) -> str:
    return f"{key}-part-{n}"


def _contents(chunks: list[str], key: str, language) -> None:
    """Links to every part of the report, the references last."""
    lines = [f"- [{plain(chunk.splitlines()[0].removeprefix('## ').strip())}](#{_anchor(key, n)})"
             for n, chunk in enumerate(chunks, start=1)]
    lines.append(f"- [{plain(say('report.references', language))}](#{_anchor(key, 0)})")
    with st.container(key=f"research-{key}-contents"):
        st.markdown("**Contents**\n\n" + "\n".join(lines))


def _badges(done: Report) -> None:
    with st.container(horizontal=True):
        if done.cancelled:
            st.badge("stopped early", icon=":material/stop_circle:", color="orange")
        st.badge("written by a model" if done.writer == "llm" else "heuristic backend (no LLM)",
                 icon=":material/smart_toy:" if done.writer == "llm" else ":material/rule:",
                 color="blue" if done.writer == "llm" else "gray")
        if done.outline.edited:
            st.badge("your outline", icon=":material/edit:", color="blue")
        if done.sample:
            st.badge("sample data — not real quotes", icon=":material/science:", color="orange")
        st.badge(f"{done.stats.sections} sections · {done.stats.source_calls} source calls · "
                 f"{done.stats.wall_ms / 1000:.1f} s", color="gray")
    # What its model calls cost, by stage on hover (outline, plans, sections, summary); none without a model.
    language = done.analysis.language
    used = usage_line(done.usage, language)
    if used:
        st.caption(plain(used), help="\n\n".join(plain(part) for part in stage_lines(done.usage, language)))


def _audit_panel(done: Report) -> None:
    """The audit's detail: each flagged figure and why, each key question left unanswered."""
    audit, checks = done.audit.audit, done.audit.key_questions
    flagged = audit.flagged
    trust_badge(done.audit.trust_in(done.analysis.language), done.analysis.language)
    missing = [c for c in checks if not c.ok]
    if not flagged and not missing:
        return
    with st.expander(f"Audit: {len(flagged)} figures to check, {len(missing)} key questions not answered"):
        for check in flagged:
            found = f"; found in {len(check.found_in)} other retrieved source(s)" if check.found_in else ""
            st.markdown(f"**{plain(check.text)}** — {check.verdict}: not in the sources its sentence cites{found}")
            st.caption(plain(check.sentence))
        for check in missing:
            st.markdown(f"- Section {check.section}: “{plain(check.question)}” — not answered by a cited sentence "
                        f"({plain(', '.join(check.missing))})")


# The sections about the price itself: a K-line belongs after the first of them.
PRICE_SECTIONS = ("price", "vs_price")


def chart_homes(done: Report, texts: dict[int, str]) -> dict[str, int]:
    """Ticker → the section its K-line is drawn after: the price section when the outline has
    one (a valuation table cites the price more often, and is no place for a chart), else the
    section whose text cites its price data most often (the first such on a tie), else the
    first that fetched its prices."""
    about_price = next((r.index for r in done.sections if r.section.key in PRICE_SECTIONS), None)
    cited: dict[str, list[int]] = {}
    for n, ticker in charted_tickers(done.graph, done.references).items():
        cited.setdefault(ticker, []).append(n)
    homes: dict[str, int] = {}
    for result in done.sections:
        for payload in charts.price_payloads(result.graph):
            ticker = payload.get("ticker")
            if not ticker or ticker in homes:
                continue
            uses = {i: sum(text.count(f"[{n}]") for n in cited.get(ticker, ())) for i, text in sorted(texts.items())}
            best = max(uses, key=lambda i: (uses[i], -i), default=None)
            homes[ticker] = about_price or (best if best is not None and uses[best] else result.index)
    return homes


def _charts(done: Report, tickers: list[str], key: str) -> None:
    """The K-lines of `tickers` (with their comparison when there are several), each ticker's
    chart the target of its price references' links."""
    payloads = list({p["ticker"]: p for p in charts.price_payloads(done.graph) if p.get("ticker") in tickers}.values())
    if not payloads:
        return
    names = {e.ticker: e.name for e in done.analysis.entities if e.ticker}
    try:
        figures = charts.figures_from(payloads, names, chart_style(done.analysis.language,
                                                                  state.effective_settings().candle_colours))
    except Exception:  # payloads are checked where evidence enters; a chart never takes the page down
        log.exception("report charts failed")
        st.caption("The price chart could not be drawn from this data.")
        return
    for title, figure in figures:
        if title in tickers:       # a price reference's link target (a K-line's title is its ticker)
            st.html(f'<div id="{html.escape(chart_id(key, title))}" class="chart-anchor"></div>')
        st.plotly_chart(figure, width="stretch", key=f"{key}-chart-{'-'.join(tickers)}-{title}",
                        config={"displaylogo": False})
