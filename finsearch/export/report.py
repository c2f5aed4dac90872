"""A report as a file: Markdown as written, self-contained HTML (the HTML export's style,
escaping and shared plotly.js, see finsearch/export/answer_html.py), or PDF: Chromium's print-to-PDF of
that HTML by the process's one warm Chromium (`printer`), after the charts have drawn, with every
request off the machine refused (the HTML needs none). The same report gives the same HTML, byte
for byte (charts have fixed ids), so its PDF is kept under a digest of it (`kept_pdfs`).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import markdown as md

from ..answer import charts
from ..answer.chart_style import chart_style
from ..answer.citations import link_citations
from ..answer.markdown import href
from ..errors import FinSearchError
from ..phrases import say
from ..research.result import Report
from .answer_html import _FOREIGN_ESCAPE, STYLE, plotly_script
from .printer import pdf_bytes

# On paper a chart's range buttons and tool bar do nothing: they are not printed.
REPORT_STYLE = STYLE + "blockquote{background:#f3f6fb;border-left:4px solid #1d5fbf;margin:1rem 0;padding:.5rem 1rem}" \
                       "h2{margin-top:1.8rem;border-bottom:1px solid #dde}" \
                       "@media print{.chart{break-inside:avoid}.rangeselector,.modebar-container{display:none}}"


def html_document(report: Report) -> str:
    targets = {r.n: href(r.url) or f"#ref-{r.n}" for r in report.references}
    body, _, refs = report.markdown.partition(f"\n## {say('report.references', report.analysis.language)}")
    # Everything is escaped before it is converted, so markdown's own `>` cannot make the
    # trust summary a quote: it is converted on its own and boxed here.
    lines = body.splitlines()
    trust = [line.removeprefix(">").strip() for line in lines if line.startswith(">")]
    rest = "\n".join(line for line in lines if not line.startswith(">"))
    rendered = _converted(rest, targets)
    if trust:
        box = f'<blockquote class="trust">{_converted(chr(10).join(trust), targets)}</blockquote>'
        rendered = rendered.replace("</h1>", "</h1>" + box, 1) if "</h1>" in rendered else box + rendered
    items = []
    for ref in report.references:
        url = href(ref.url)
        title = html.escape(ref.title)
        head = f'<a href="{html.escape(url)}">{title}</a>' if url else title
        meta = " · ".join(html.escape(x) for x in (ref.publisher or "", ref.day or "") if x)
        items.append(f'<li id="ref-{ref.n}">{head}{" — " + meta if meta else ""}</li>')
    names = {e.ticker: e.name for e in report.analysis.entities if e.ticker}
    figures = [f for _, f in charts.figures_for(report.graph, names, chart_style(report.analysis.language))]
    chart_html = "".join(f'<div class="chart">{f.to_html(full_html=False, include_plotlyjs=False, div_id=f"chart-{n}")}'
                         '</div>' for n, f in enumerate(figures, start=1))
    script = f"<script>{plotly_script(figures)}</script>" if figures else ""
    language = report.analysis.language
    parts = [rendered]
    if chart_html:
        parts.append(f"<h2>{html.escape(say('report.charts', language))}</h2>{chart_html}")
    parts.append(f"<h2>{html.escape(say('report.references', language))}</h2><ol class=\"refs\">{''.join(items)}</ol>")
    title = html.escape(report.question[:120])
    return (f"<!doctype html><html lang=\"{language}\"><head><meta charset=\"utf-8\"><title>FinSearch report: "
            f"{title}</title><style>{REPORT_STYLE}</style>{script}</head><body>{''.join(parts)}</body></html>")


def _converted(text: str, targets: dict) -> str:
    """The report's markdown as HTML. The markdown is built escaped (`markdown_builder`); still,
    the last word is here: the only links are its citations (to their references' addresses),
    and no image, whatever the markdown held, survives into a file a reader opens offline."""
    text = link_citations(_FOREIGN_ESCAPE.sub(r"\1", text), targets.get)
    rendered = md.markdown(html.escape(text, quote=False), extensions=["tables", "sane_lists"])
    cited = {html.escape(t) for t in targets.values()}
    rendered = _LINK.sub(lambda m: m.group(0) if m.group(1) in cited else m.group(2), rendered)
    return _IMAGE.sub("", rendered)


_LINK = re.compile(r'<a href="([^"]*)"[^>]*>(.*?)</a>', re.S)
_IMAGE = re.compile(r"<img\b[^>]*>", re.I)


def write(report: Report, path: Path) -> Path:
    """The report into `path`, its format from the suffix (.md, .html, .pdf)."""
    suffix = path.suffix.lower()
    if suffix in (".md", ".markdown"):
        path.write_text(report.markdown, "utf-8")
    elif suffix in (".html", ".htm"):
        path.write_text(html_document(report), "utf-8")
    elif suffix == ".pdf":
        path.write_bytes(pdf_bytes(html_document(report)))
    else:
        raise FinSearchError(f"cannot write a report as {suffix or 'a file without a suffix'}: use .md, .html or .pdf")
    return path
