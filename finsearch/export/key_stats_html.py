"""The key-stats card in the HTML export (`finsearch.answer.key_stats`), as the chat shows it: a
small table of the figures, each `[n]` linked as the exported answer's citations are (a source's
http(s) address, else its entry in the References list)."""

from __future__ import annotations

import html

from ..answer.chart_style import ChartStyle
from ..answer.citations import Reference
from ..answer.key_stats import KeyStats, Stat
from ..answer.markdown import href
from ..phrases import Language, say
from ..phrases.numbers import pct


def render(card: KeyStats | None, references: list[Reference], language: Language, style: ChartStyle) -> str:
    """The card as HTML ("" when the run has none); every text escaped."""
    if card is None:
        return ""
    urls = {r.n: href(r.url) for r in references}
    heads = "".join(f"<th>{html.escape(s.label)}</th>" for s in card.stats)
    cells = "".join(f"<td>{_cell(s, urls.get(s.ref_n), language, style)}</td>" for s in card.stats)
    return (f'<div class="key-stats"><p><b>{html.escape(card.title)}</b></p>'
            f"<table><tr>{heads}</tr><tr>{cells}</tr></table></div>")


def _cell(stat: Stat, url: str | None, language: Language, style: ChartStyle) -> str:
    out = f"<b>{html.escape(stat.value)}</b>"
    if stat.change_pct is not None:
        colour = "#667" if stat.change_pct == 0 else (style.up if stat.change_pct > 0 else style.down)
        out += f' <span style="color:{colour}">{html.escape(pct(stat.change_pct))}</span>'
    if url:
        out += f' <a target="_blank" rel="noopener noreferrer" href="{html.escape(url)}">[{stat.ref_n}]</a>'
    else:
        out += f' <a href="#ref-{stat.ref_n}">[{stat.ref_n}]</a>'
    if stat.stale:
        out += f'<br><span class="meta">{html.escape(say("key_stats.stale", language, when=stat.as_of))}</span>'
    elif stat.kind == "price" and stat.as_of:
        out += f'<br><span class="meta">{html.escape(say("key_stats.as_of", language, when=stat.as_of))}</span>'
    return out
