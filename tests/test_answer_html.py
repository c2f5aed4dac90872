"""The HTML export: small enough to mail (≤ 1.5 MB with its charts, one shared plotly.js),
fully offline, and with the search graph as a static SVG whose text stays text."""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser

import pytest

from finsearch import pipeline
from finsearch.answer.markdown import clean_model_markdown
from finsearch.export import answer_html, graph_svg
from finsearch.export.answer_html import markdown_html
from finsearch.graph import NodeStatus
from finsearch.settings import from_env
from tests.conftest import DEMO_PACK, NOW

LIMIT = 1_500_000
HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>"quoted" & more'


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    home = tmp_path_factory.mktemp("report")
    settings = from_env({}, llm="heuristic", pack=DEMO_PACK, offline=True, now=NOW, cache_dir=home / "cache",
                        data_dir=home / "data")
    return {q: pipeline.ask(q, settings=settings)
            for q in ("Why did NVDA fall last week?", "Compare AAPL and MSFT year to date", "茅台最近一个月表现如何？")}


class Page(HTMLParser):
    """Tags, attributes and text of a page, as a browser's parser would see them."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.texts: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.texts.append(data)

    def named(self, tag: str) -> list[dict]:
        return [attrs for name, attrs in self.tags if name == tag]


@pytest.mark.parametrize(("question", "charts"), [("Why did NVDA fall last week?", 1),
                                                   ("Compare AAPL and MSFT year to date", 3)])
def test_the_export_is_small_has_one_plotly_and_every_chart(answers, question, charts):
    page = answer_html.render(answers[question])
    assert len(page.encode()) <= LIMIT, f"{len(page.encode()):,} bytes"
    assert page.count("window.Plotly = Plotly") == 1, "one plotly.js, shared by every chart"
    assert "plotly.js (finance - minified)" in page
    assert page.count("Plotly.newPlot(") == charts
    parsed = Page(page)
    assert not [s for s in parsed.named("script") if s.get("src")], "nothing is loaded from anywhere"
    assert not parsed.named("link") and not parsed.named("img")


def test_the_export_draws_the_search_graph_coloured_by_status(answers):
    result = answers["Compare AAPL and MSFT year to date"]
    parsed = Page(answer_html.render(result))
    assert len(parsed.named("svg")) == 1
    boxes = [g["class"] for g in parsed.named("g") if g.get("class", "").startswith("node ")]
    assert boxes == ["node root"] + [f"node {n.status.value}" for n in result.graph]
    assert boxes.count("node done") == 6          # each one's prices, quote and news
    fills = [r["fill"] for r in parsed.named("rect")]
    assert fills == ["#2f4b7c"] + ["#2e9e5b"] * 6
    assert len([p for p in parsed.named("path") if p.get("fill") == "none"]) == len(result.graph.edges())
    assert {"n1 · price history", "n2 · quote", "AAPL", "MSFT", "Compare AAPL and MSFT", "year to date"} <= set(
        parsed.texts)
    assert "Search graph" in parsed.texts


def test_hostile_node_text_stays_text_in_the_svg(answers):
    graph = answers["Why did NVDA fall last week?"].graph.copy()
    graph.question = HOSTILE
    node = graph["n1"]
    graph.apply(dataclasses.replace(node, sub_query=HOSTILE, args={**node.args, "ticker": HOSTILE},
                                    status=NodeStatus.FAILED, error=HOSTILE))
    svg = graph_svg.render(graph)
    parsed = Page(svg)
    assert {tag for tag, _ in parsed.tags} <= {"svg", "g", "title", "rect", "text", "path"}
    assert not any(key.startswith("on") for _, attrs in parsed.tags for key in attrs)
    assert f"{HOSTILE} (failed): {HOSTILE}" in parsed.texts, "the full text is the tooltip, as text"
    assert HOSTILE[:27] + "…" in parsed.texts, "the label is shortened, as text"
    assert "<script>alert(1)</script" in parsed.texts, "the question's first line, as text"
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert [g["class"] for g in parsed.named("g")][1] == "node failed"


def test_a_chart_outside_the_finance_bundle_gets_the_full_plotly():
    import plotly.graph_objects as go

    assert answer_html.plotly_script([go.Figure(go.Candlestick()), go.Figure(go.Bar())]) == answer_html.finance_bundle()
    assert answer_html.plotly_script([go.Figure(go.Heatmap())]).startswith("/**\n* plotly.js v")


def test_the_price_reference_links_to_its_chart_in_the_export(answers):
    parsed = Page(answer_html.render(answers["Why did NVDA fall last week?"]))
    links = [a["href"] for a in parsed.named("a")]
    assert "#chart-report-NVDA" in links
    assert [d for d in parsed.named("div") if d.get("id") == "chart-report-NVDA"], "the chart carries that id"
    assert sum(1 for link in links if link.startswith("https://example.com/finsearch-sample/")) >= 6


def test_a_sample_export_says_its_clock_is_pinned(answers):
    page = answer_html.render(answers["Why did NVDA fall last week?"])
    assert "Sample data, with the clock pinned to 2024-10-15 20:00 UTC: &quot;last week&quot;" in page


def test_graph_labels_fit_their_boxes_in_any_script():
    """A box's line holds 28 units at 12 px (25 bold), a CJK character taking two."""
    assert graph_svg._short("贵州茅台最近一个月表现如何？请详细比较", 28) == "贵州茅台最近一个月表现如何…"
    assert graph_svg._short("Why did NVDA fall last week?", 28) == "Why did NVDA fall last week?"
    assert graph_svg._wrap("Compare NVDA, TSLA, AAPL and MSFT: news, earnings, analysts", 25) == (
        "Compare NVDA, TSLA, AAPL", "and MSFT: news, earnings…")
    assert graph_svg._wrap("x" * 60, 25) == ("x" * 24, "x" * 24 + "…")


def test_a_chinese_export_draws_red_up_candles_with_chinese_labels(answers):
    page = answer_html.render(answers["茅台最近一个月表现如何？"])
    assert '"increasing":{"line":{"color":"#d64545"}}' in page      # red up, as Chinese screens draw it
    assert '"decreasing":{"line":{"color":"#1a9c5b"}}' in page
    assert "成交量" in page or "\\u6210\\u4ea4\\u91cf" in page     # as plotly's JSON writer spells it (orjson or not)


def test_an_ampersand_is_shown_as_one_not_behind_a_backslash():
    # The chat's markdown escapes `&` (CommonMark knows `\&`); python-markdown does not, and showed "AT\&T".
    written = clean_model_markdown("AT&T and S&P 500 rose [1]; R&D &amp; more")
    rendered = markdown_html(written, [])
    assert "AT&amp;T and S&amp;P 500 rose" in rendered and "R&amp;D &amp;amp; more" in rendered
    assert "\\" not in rendered
