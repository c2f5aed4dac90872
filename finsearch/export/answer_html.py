"""A finished run as one self-contained HTML file: answer, references, the search graph, charts.

No external resources: one plotly.js is inlined once for every chart, styles are inline, and
the search graph is a static SVG drawn here (`graph_svg`). The script is plotly's finance
bundle (bar, candlestick, scatter and a few more; 1.3 MB), shipped in `assets/` from
the npm package plotly.js-finance-dist-min, MIT: the full plotly.js the Python package ships
is 4.8 MB. A chart with a trace type outside the finance bundle gets the full one. The
answer's markdown is HTML-escaped before it is converted, so nothing a source or a model
wrote can become markup; links survive only when they are http(s).
"""

from __future__ import annotations

import functools
import html
import re
from importlib import resources

import markdown as md
import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

from ..answer import charts, key_stats
from ..answer.chart_links import chart_id, charted_tickers
from ..answer.chart_style import chart_style
from ..answer.citations import link_citations
from ..answer.markdown import clean_model_markdown, href
from ..answer.trust import Trust
from ..phrases import Language
from ..result import RunResult
from . import graph_svg, key_stats_html

STYLE = """
body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;max-width:980px;margin:2rem auto;
padding:0 1rem;color:#1f2430;line-height:1.55}
h1{font-size:1.5rem;margin-bottom:.2rem} .meta{color:#667;font-size:.9rem}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:.6rem;background:#eef1f6;margin-right:.3rem;
font-size:.8rem} .sample{background:#fff2cc} table{border-collapse:collapse} td,th{border:1px solid #dde;
padding:.25rem .5rem} ol.refs li{margin:.25rem 0} .answer{font-size:1.02rem} a{color:#1d5fbf}
.graph{overflow-x:auto} .legend{color:#556;font-size:.85rem} .legend .key{margin-right:.8rem;white-space:nowrap}
.legend i{display:inline-block;width:.8rem;height:.8rem;border-radius:.2rem;margin-right:.3rem;vertical-align:-1px}
.trust-high{background:#dcf3e4} .trust-medium{background:#fff2cc} .trust-low{background:#fbdada} .trust{cursor:help}
"""

# The trace types plotly.js-finance-dist-min registers (its README); anything else needs the full bundle.
FINANCE_TRACES = frozenset({"bar", "candlestick", "funnel", "funnelarea", "histogram", "indicator", "ohlc",
                            "pie", "scatter", "waterfall"})


@functools.cache
def finance_bundle() -> str:
    return resources.files("finsearch.export").joinpath("assets/plotly-finance.min.js").read_text("utf-8")


def plotly_script(figures: list[go.Figure]) -> str:
    """The one plotly.js every chart of the report shares: the finance bundle when it draws them all."""
    used = {trace.type for figure in figures for trace in figure.data}
    return finance_bundle() if used <= FINANCE_TRACES else get_plotlyjs()


# Markdown escapes python-markdown does not know (it would show the backslash): the
# characters themselves are inert once the text is HTML-escaped.
_FOREIGN_ESCAPE = re.compile(r"\\([<>~$:&])")


def answer_html(result: RunResult) -> str:
    answer = result.answer
    if answer is None:
        return "<p>(no answer)</p>"
    return markdown_html(answer.markdown, answer.references)


def markdown_html(markdown: str, refs) -> str:
    """An answer's markdown (`refs`: its references) as HTML: escaped before it is converted, so
    nothing a source or a model wrote becomes markup; `[n]` links to its source (http(s) only) or
    to `#ref-n`; links other than http(s) made inert. Also the HTML part of an e-mailed notice."""
    targets = {r.n: href(r.url) or f"#ref-{r.n}" for r in refs}
    text = clean_model_markdown(markdown)
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
        parts.append(f'<p class="meta">{html.escape(result.clock_note or "")}</p>')
    parts.append(key_stats_html.render(key_stats.of_run(result), result.answer.references if result.answer else [],
                                       result.analysis.language, chart_style(result.analysis.language)))
    parts.append(f'<div class="answer">{answer_html(result)}</div>')
    if result.audit is not None:
        parts.append(trust_html(result.audit.trust_in(result.analysis.language), result.analysis.language))
    refs = result.answer.references if result.answer else []
    charted = charted_tickers(result.graph, refs)      # computed price data links to its chart below
    if refs:
        items = []
        for ref in refs:
            title = html.escape(ref.title)
            url = href(ref.url)
            if url:
                head = f'<a target="_blank" rel="noopener noreferrer" href="{html.escape(url)}">{title}</a>'
            elif ref.n in charted:
                head = f'<a href="#{chart_id("report", charted[ref.n])}">{title}</a>'
            else:
                head = title
            meta = " · ".join(html.escape(x) for x in (ref.publisher or "", ref.day or "")
                              if x)
            items.append(f'<li id="ref-{ref.n}">{head}{" — " + meta if meta else ""}</li>')
        parts.append("<h2>References</h2><ol class=\"refs\">" + "".join(items) + "</ol>")
    if len(result.graph):
        parts.append(f'<h2>Search graph</h2><div class="graph">{graph_svg.render(result.graph)}</div>'
                     + graph_svg.legend())
    # (ticker or "comparison", figure), labelled and coloured as the question's language has it
    named = charts.figures_for(result.graph, names, chart_style(result.analysis.language))
    tickers = set(charted.values())
    figures = [figure for _, figure in named]
    script = f"<script>{plotly_script(figures)}</script>" if figures else ""      # once, in the head
    parts += [figure.to_html(full_html=False, include_plotlyjs=False,
                             div_id=chart_id("report", title) if title in tickers else None)
              for title, figure in named]
    body = "\n".join(parts)
    title = html.escape(result.question[:120])
    return (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>FinSearch: {title}</title>"
            f"<style>{STYLE}</style>{script}</head><body>{body}</body></html>")


def trust_html(trust: Trust, language: Language) -> str:
    """The trust badge as the chat shows it (finsearch.answer.trust), its parts on hover."""
    parts = html.escape("\n".join(trust.explanation(language)))
    return (f'<p><span class="badge trust trust-{trust.level}" title="{parts}">'
            f"{html.escape(trust.badge(language))}</span></p>")


def _backend(result: RunResult) -> str:
    return result.answered_by or "the heuristic backend (no LLM)"
