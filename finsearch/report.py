"""A finished run as one self-contained HTML file: answer, references, charts.

No external resources: plotly.js is inlined once, styles are inline. The answer's
markdown is HTML-escaped before it is converted, so nothing a source or a model wrote
can become markup; links survive only when they are http(s).
"""

from __future__ import annotations

import html
import re

import markdown as md

from .answer import charts
from .answer.citations import link_citations
from .answer.markdown import clean_model_markdown, href
from .result import RunResult

STYLE = """
body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;max-width:980px;margin:2rem auto;
padding:0 1rem;color:#1f2430;line-height:1.55}
h1{font-size:1.5rem;margin-bottom:.2rem} .meta{color:#667;font-size:.9rem}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:.6rem;background:#eef1f6;margin-right:.3rem;
font-size:.8rem} .sample{background:#fff2cc} table{border-collapse:collapse} td,th{border:1px solid #dde;
padding:.25rem .5rem} ol.refs li{margin:.25rem 0} .answer{font-size:1.02rem} a{color:#1d5fbf}
"""


# Markdown escapes python-markdown does not know (it would show the backslash): the
# characters themselves are inert once the text is HTML-escaped.
_FOREIGN_ESCAPE = re.compile(r"\\([<>~$:])")


def answer_html(result: RunResult) -> str:
    answer = result.answer
    if answer is None:
        return "<p>(no answer)</p>"
    refs = answer.references
    targets = {r.n: href(r.url) or f"#ref-{r.n}" for r in refs}
    text = clean_model_markdown(answer.markdown)
    text = link_citations(_FOREIGN_ESCAPE.sub(r"\1", text), targets.get)
    rendered = md.markdown(html.escape(text, quote=False), extensions=["tables", "sane_lists"])
    # Links: only http(s) and in-page anchors; open outside the report.
    rendered = re.sub(r'<a href="(?!https?://|#ref-)[^"]*"', '<a href="#"', rendered)
    return rendered.replace('<a href="http', '<a target="_blank" rel="noopener noreferrer" href="http')


def render(result: RunResult) -> str:
    names = {e.ticker: e.name for e in result.analysis.entities if e.ticker}
    parts = [f"<h1>{html.escape(result.question)}</h1>",
             f'<p class="meta">Asked {html.escape(result.now.strftime("%Y-%m-%d %H:%M"))} UTC · '
             f'answered by {html.escape(_backend(result))}</p>']
    if result.sample:
        parts.append('<p><span class="badge sample">Sample data — not real quotes</span></p>')
    parts.append(f'<div class="answer">{answer_html(result)}</div>')
    refs = result.answer.references if result.answer else []
    if refs:
        items = []
        for ref in refs:
            title = html.escape(ref.title)
            url = href(ref.url)
            head = f'<a target="_blank" rel="noopener noreferrer" href="{html.escape(url)}">{title}</a>' \
                if url else title
            meta = " · ".join(html.escape(x) for x in (ref.publisher or "", (ref.published or "")[:10])
                              if x)
            items.append(f'<li id="ref-{ref.n}">{head}{" — " + meta if meta else ""}</li>')
        parts.append("<h2>References</h2><ol class=\"refs\">" + "".join(items) + "</ol>")
    figures = charts.figures_for(result.graph, names)
    for index, (_, figure) in enumerate(figures):
        parts.append(figure.to_html(full_html=False, include_plotlyjs=index == 0))
    body = "\n".join(parts)
    title = html.escape(result.question[:120])
    return (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>FinSearch: {title}</title>"
            f"<style>{STYLE}</style></head><body>{body}</body></html>")


def _backend(result: RunResult) -> str:
    return result.answered_by or "the heuristic backend (no LLM)"
