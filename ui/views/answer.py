"""The answer: clickable citations, the references list, badges and notes."""

from __future__ import annotations

import html

import streamlit as st

from finsearch.answer.audit import FigureCheck
from finsearch.answer.citations import Reference, link_citations
from finsearch.answer.markdown import (
    clean_model_markdown,
    for_streamlit,
    highlight,
    link,
    plain,
    render_marks,
    st_href,
)
from finsearch.answer.trust import Trust
from finsearch.model.usage_text import stage_lines, usage_line
from finsearch.phrases import Language, say
from finsearch.result import RunResult

HIGHLIGHT = {"unsupported": "red-background", "misattributed": "orange-background"}


def display_markdown(text: str, references: list[Reference], flagged: list[FigureCheck] = (),
                     anchors: dict[int, str] | None = None) -> str:
    """Answer markdown as shown: no link but the citations, [n] → a link to its source (or to
    its chart on the page, `anchors`: n → element id), flagged figures highlighted, `$`,
    directives and bare URLs literal."""
    anchors = anchors or {}
    targets = {r.n: st_href(r.url) or (f"#{anchors[r.n]}" if r.n in anchors else None) for r in references}
    text = clean_model_markdown(text)
    text = highlight(text, [(check.text, HIGHLIGHT[check.verdict], check.sentence) for check in flagged])
    return render_marks(link_citations(for_streamlit(text), targets.get))


def render_answer(text: str, references: list[Reference], flagged: list[FigureCheck] = (),
                  anchors: dict[int, str] | None = None) -> None:
    st.markdown(display_markdown(text, references, flagged, anchors))


def render_audit(result: RunResult) -> None:
    """The trust badge, and a panel with every flagged figure and where it was (not) found."""
    audit = result.audit
    if audit is None:
        return
    total, flagged = len(audit.checks), audit.flagged
    titles = {r.evidence_id: (r.n, r.title) for r in (result.answer.references if result.answer else [])}
    evidence = {e.id: e for n in result.graph for e in n.evidence}
    trust_badge(audit.trust_in(result.analysis.language), result.analysis.language)
    if result.judgement:
        from finsearch.answer.judge import describe

        st.caption("LLM judge: " + plain(describe(result.judgement)))
    if not flagged and audit.integrity:
        return
    with st.expander(say("ui.audit_title", result.analysis.language, flagged=len(flagged), total=total)):
        for check in flagged:
            where = _source_list(check.cited, titles, evidence) or "no source"
            line = f"**{plain(check.text)}** — {check.verdict}: not in {where}"
            if check.found_in:
                line += f"; found in {_source_list(check.found_in, titles, evidence)}"
            st.markdown(line)
            st.caption(plain(check.sentence))
        if not audit.integrity:
            problems = []
            if audit.unknown_markers:
                problems.append("citations that resolve to nothing: " + ", ".join(map(str, audit.unknown_markers)))
            if audit.unused_references:
                problems.append("references never cited: " + ", ".join(map(str, audit.unused_references)))
            if audit.foreign_references:
                problems.append("references to items this run did not retrieve: "
                                + ", ".join(map(str, audit.foreign_references)))
            st.warning(plain("; ".join(problems)))


TRUST_ICONS = {"high": ":material/verified:", "medium": ":material/flag:", "low": ":material/flag:"}


def trust_badge(trust: Trust, language: Language) -> None:
    """The one trust badge of an answer or a report (finsearch.answer.trust): its number and
    what matters most beside it, coloured by its level, every part of it explained on hover."""
    st.markdown(f":{trust.colour}-badge[{TRUST_ICONS[trust.level]} {plain(trust.badge(language))}]",
                help="\n\n".join(plain(line) for line in trust.explanation(language)))


def _source_list(ids, titles: dict, evidence: dict) -> str:
    parts = []
    for eid in ids:
        if eid in titles:
            n, title = titles[eid]
            parts.append(f"\\[{n}\\] {plain(title)}")
        elif eid in evidence:
            parts.append(plain(evidence[eid].title))
    return "; ".join(parts)


def citation_targets(references: list[Reference], charts: dict[int, str], listed: str) -> dict[int, str]:
    """n → the element id a citation with no web address scrolls to: the chart that draws its
    data (`charts`), else `listed`, the References list, which says what it is and where it
    came from. Every `[n]` is then a link."""
    return {ref.n: charts.get(ref.n, listed) for ref in references if not st_href(ref.url)}


def render_references(references: list[Reference], charts: dict[int, str] | None = None,
                      anchor: str | None = None, language: Language = "en") -> None:
    """The numbered list, under an element with id `anchor` (where computed data's citations
    lead): a headline opens its http(s) URL; computed data with a chart on the page (`charts`:
    n → element id) scrolls to that chart."""
    if not references:
        return
    if anchor:
        st.html(f'<div id="{html.escape(anchor)}" class="chart-anchor"></div>')
    charts = charts or {}
    lines = []
    for ref in references:
        meta = " · ".join(x for x in (ref.publisher or "", ref.day or "",
                                      say("ui.weight", language, weight=f"{ref.time_weight:.2f}")
                                      if ref.time_weight is not None
                                      else "") if x)
        shown = f"[{plain(ref.title)}](#{charts[ref.n]})" if not st_href(ref.url) and ref.n in charts \
            else link(ref.title, ref.url)
        lines.append(f"{ref.n}. {shown}"
                     + (f" — {plain(meta)}" if meta else ""))
    with st.expander(say("ui.references", language, count=len(references)), expanded=True):
        st.markdown("\n".join(lines))


def render_badges(result: RunResult) -> None:
    """The run's badges, in the answer's language."""
    language = result.analysis.language
    row = st.container(horizontal=True)
    with row:
        if result.answered_by:
            st.badge(say("ui.badge.answered_by", language, model=plain(result.answered_by)),
                     icon=":material/smart_toy:", color="blue")
        else:
            st.badge(say("ui.badge.heuristic", language), icon=":material/rule:", color="gray")
        if result.planned_by and not result.answered_by:
            st.badge(say("ui.badge.planned_by", language, model=plain(result.planned_by)), color="blue")
        if result.sample:
            st.badge(say("ui.badge.sample", language), icon=":material/science:", color="orange")
        if result.config.data == "offline":
            st.badge(say("ui.badge.offline", language), icon=":material/cloud_off:", color="gray")
        failed = result.stats.nodes_failed if result.stats else 0
        if failed:
            st.badge(say("ui.badge.failed", language, failed=failed, total=len(result.graph)), color="red")
        if result.cancelled:
            st.badge(say("ui.badge.stopped", language), color="orange")
        if result.cached_at:
            st.badge(say("ui.badge.cached_answer", language, when=f"{result.cached_at:%Y-%m-%d %H:%M}"),
                     icon=":material/history:", color="green")
        if result.stats:
            st.badge(result.stats.timing(result.analysis.language), color="gray")


def render_usage(result: RunResult) -> None:
    """A small line under the answer: model calls, tokens in and out and, for a priced model, the
    cost; each stage's share on hover. Nothing when no model was called (the badge says so)."""
    language = result.analysis.language
    line = usage_line(result.usage, language)
    if line is not None:
        st.caption(plain(line), help="\n\n".join(plain(part) for part in stage_lines(result.usage, language)))


def render_notes(result: RunResult) -> None:
    failures = [n for n in result.graph if n.error]
    if not result.notes and not failures:
        return
    with st.expander(say("ui.went_wrong", result.analysis.language), expanded=bool(failures) and not result.answer):
        for note in result.notes:
            st.markdown(f"- {plain(note)}")
        for node in failures:
            source = say(f"ui.source.{node.source}", result.analysis.language)
            st.markdown(f"- **{plain(node.id)} {plain(source)}**: {plain(node.error)}")
