"""The K-line charts in real Chromium: nothing on a chart covers anything else on a phone or a
desktop, a Chinese answer is drawn in real glyphs (not boxes), and a Chinese question's candles
are red when the price rose.

Every wait is on a state of the page: the turn's run state, the chart's labels drawn, their
boxes the same on two reads in a row (the chart is laid out again when its width settles).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser_kit import (
    ANSWER_TIMEOUT_MS,
    ARGS,
    CHROMIUM,
    SAMPLE,
    ask,
    graph_frame,
    open_page,
    running_app,
    wait_for_answer,
    wait_graph,
)

pytestmark = pytest.mark.browser

GREEN, RED = "#1a9c5b", "#d64545"

# The boxes of what a chart writes: title, legend, move labels (their text boxes, not the
# arrows), range buttons and the toolbar (it shows on hover; its box is there all along).
BOXES = """chart => {
  const box = e => { const r = e.getBoundingClientRect();
                     return {what: e.getAttribute('class') + ': ' + e.textContent.slice(0, 24),
                             left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const all = s => [...chart.querySelectorAll(s)].map(box);
  return {chart: box(chart), title: all('.gtitle'), legend: all('.legend'), labels: all('.annotation-text-g'),
          buttons: all('.rangeselector .button'), toolbar: all('.modebar')};
}"""
# The rendered width of `needle` where the page first shows it, and of as many characters no
# font has (U+0378 is unassigned): without a font for the needle's script, both are drawn as
# the same empty boxes and the widths are equal.
GLYPHS = """([needle, root]) => {
  let node = null;
  for (const scope of root ? document.querySelectorAll(root) : [document.body]) {
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    while ((node = walker.nextNode()) && !node.data.includes(needle)) {}
    if (node) break;
  }
  if (!node) return null;
  const range = document.createRange(), at = node.data.indexOf(needle);
  range.setStart(node, at);
  range.setEnd(node, at + needle.length);
  const probe = document.createElementNS(node.parentElement.namespaceURI, node.parentElement.tagName);
  for (const a of node.parentElement.attributes) if (a.name !== 'id') probe.setAttribute(a.name, a.value);
  probe.textContent = '\\u0378'.repeat(needle.length);
  node.parentElement.after(probe);
  const result = {glyphs: range.getBoundingClientRect().width, boxes: probe.getBoundingClientRect().width,
                  size: parseFloat(getComputedStyle(node.parentElement).fontSize),
                  font: getComputedStyle(node.parentElement).fontFamily};
  probe.remove();
  return result;
}"""
NO_CJK_FONTS = """<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>/usr/share/fonts/truetype</dir><cachedir>{cache}</cachedir></fontconfig>"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("charts"), **SAMPLE) as app:
        yield app.url


def first_chart(page, labels: int):
    """The first chart once its move labels are drawn and its layout has settled."""
    page.wait_for_function(f"() => document.querySelectorAll('.js-plotly-plot .annotation-text-g').length >= {labels}",
                           timeout=ANSWER_TIMEOUT_MS)
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    before = None
    for _ in range(600):                      # each read is a round trip to the page, not a sleep
        now = chart.evaluate(BOXES)
        if now == before:
            return chart, now
        before = now
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => done(true)))")
    raise AssertionError("the chart never stopped moving")


def overlaps(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1 and a["top"] < b["bottom"] - 1 \
        and b["top"] < a["bottom"] - 1


@pytest.mark.parametrize("width,height", [(390, 844), (1400, 1000)], ids=["phone", "desktop"])
def test_nothing_on_the_chart_covers_anything_else(browser, server, request, width, height):
    page = open_page(browser, request, width=width, height=height)
    ask(page, server, "How did TSLA do last week?")
    wait_for_answer(page)
    _, boxes = first_chart(page, labels=3)
    assert len(boxes["labels"]) == 3 and boxes["title"] and boxes["legend"] and boxes["toolbar"]
    items = [b for kind in ("title", "legend", "labels", "buttons", "toolbar") for b in boxes[kind]]
    clashes = [(a["what"], b["what"]) for i, a in enumerate(items) for b in items[i + 1:] if overlaps(a, b)]
    assert not clashes, json.dumps(boxes)
    chart = boxes["chart"]
    outside = [b["what"] for b in items if b["left"] < chart["left"] - 1 or b["right"] > chart["right"] + 1]
    assert not outside, json.dumps(boxes)
    legend, plot_labels = boxes["legend"][0], boxes["labels"]
    assert legend["top"] > max(label["bottom"] for label in plot_labels)      # the legend is under the plot
    assert legend["top"] > boxes["title"][0]["bottom"]


def widths_without_cjk_fonts(browser, tmp_path: Path, text: str) -> dict:
    """The same measurement in a Chromium that sees no CJK font: shows it can tell boxes."""
    config = tmp_path / "fonts.conf"
    config.write_text(NO_CJK_FONTS.format(cache=tmp_path / "fontcache"))
    bare = browser.browser_type.launch(executable_path=CHROMIUM, args=ARGS,
                                       env={"FONTCONFIG_FILE": str(config), "HOME": str(tmp_path)})
    try:
        page = bare.new_page()
        page.set_content(f"<p style='font-family: sans-serif; font-size: 16px'>{text}</p>")
        return page.evaluate(GLYPHS, [text, None])
    finally:
        bare.close()


def test_a_chinese_answer_is_drawn_in_real_glyphs(browser, server, request, tmp_path):
    page = open_page(browser, request, height=1000)
    ask(page, server, "茅台最近一个月表现如何？")
    wait_for_answer(page)
    first_chart(page, labels=1)
    for needle, where in (("贵州茅台", "[data-testid=stChatMessage] [data-testid=stMarkdownContainer]"),
                          ("茅台", ".js-plotly-plot .gtitle")):
        seen = page.evaluate(GLYPHS, [needle, where])
        assert seen is not None, f"{needle} is not on the page under {where}"
        # CJK glyphs are one em wide each; boxes for characters no font has are narrower.
        assert abs(seen["glyphs"] - len(needle) * seen["size"]) < 0.15 * seen["size"], seen
        assert abs(seen["glyphs"] - seen["boxes"]) > 0.5 * seen["size"], seen
    # Without a CJK font the same measurement finds boxes: the check above can fail.
    bare = widths_without_cjk_fonts(browser, tmp_path, "贵州茅台")
    assert abs(bare["glyphs"] - bare["boxes"]) < 0.5, bare


def test_a_chinese_questions_candles_are_red_when_the_price_rose(browser, server, request):
    page = open_page(browser, request, height=1000)
    ask(page, server, "茅台最近一个月表现如何？")
    wait_for_answer(page)
    chart, _ = first_chart(page, labels=1)
    drawn = chart.evaluate("""e => { const c = e._fullData.find(t => t.type === 'candlestick');
                                     const v = e._fullData.find(t => t.type === 'bar');
                                     const at = d => v.marker.color[[...v.x].indexOf(d)];
                                     return [c.increasing.line.color, c.decreasing.line.color,
                                             at('2024-10-11'), at('2024-10-15')]; }""")
    # 10-11 opened at 1535.29 and closed at 1574.90 (up); 10-15 opened 1567.79, closed 1560.00.
    assert drawn == [RED, GREEN, RED, GREEN]


def test_a_moving_average_is_drawn_as_one_line_across_holidays(browser, server, request):
    page = open_page(browser, request, height=1000)
    ask(page, server, "How did AAPL do year to date?")
    wait_for_answer(page)
    chart, _ = first_chart(page, labels=1)
    # Each MA is a scatter trace; plotly draws each piece of its line as a path of its own.
    pieces = chart.evaluate("""e => [...e.querySelectorAll('.scatterlayer .trace')]
        .map(t => [...t.querySelectorAll('path.js-line')]
                  .reduce((n, p) => n + (p.getAttribute('d') || '').split('M').length - 1, 0))""")
    assert len(pieces) >= 2 and all(n == 1 for n in pieces), f"each line drawn in one piece: {pieces}"


def test_on_a_phone_the_graph_keeps_readable_labels_and_scrolls_sideways(browser, server, request):
    page = open_page(browser, request, width=390, height=844)
    ask(page, server, "Why did NVDA fall last week?")
    wait_for_answer(page)
    wait_graph(page, lambda nodes: len(nodes) >= 4)
    frame = graph_frame(page)
    drawn = frame.evaluate("""() => { const svg = document.getElementById('graph'), box = svg.getBoundingClientRect();
        const root = document.documentElement;
        const labels = [...document.querySelectorAll('g.node text')].map(t => t.getBoundingClientRect().height);
        return {label: Math.min(...labels),
                bottom: box.bottom, seen: root.clientHeight, width: box.width, scrolls: root.scrollWidth,
                full: Number(svg.getAttribute('width'))}; }""")
    assert drawn["label"] >= 11, f"labels drawn at least 3/4 size, not shrunk to a phone's width: {drawn}"
    assert drawn["width"] >= 0.75 * drawn["full"] - 1 and drawn["scrolls"] >= drawn["width"] - 1, drawn
    assert drawn["bottom"] <= drawn["seen"] + 1, f"the frame is tall enough for the graph and its scrollbar: {drawn}"
