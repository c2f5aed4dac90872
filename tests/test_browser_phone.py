"""The chat on a phone (390 × 844, touch) in real Chromium: the search graph fits its column
(the outline layout: one node a row, indented by level), a tap on a node rings it, and the
node's evidence, stacked below the graph on a narrow screen, is brought into view."""

from __future__ import annotations

import re

import pytest

from tests.browser_kit import GRAPH_FRAME, SAMPLE, ask, open_page, running_app, wait_for_answer, wait_still

pytestmark = pytest.mark.browser

FITS = """() => ({flow: document.body.dataset.flow, scroll: document.documentElement.scrollWidth,
  width: document.documentElement.clientWidth,
  right: Math.max(...[...document.querySelectorAll('g.node')].map(g => g.getBoundingClientRect().right))})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("phone"), **SAMPLE) as app:
        yield app.url


@pytest.fixture
def phone(browser, request):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    request.addfinalizer(context.close)
    return page


def fits(page, last_node: str) -> dict:
    frame = page.frame_locator(GRAPH_FRAME).last
    frame.locator(f'g.node[data-id="{last_node}"]').wait_for(timeout=30_000)
    found = frame.locator("body").evaluate(f"b => ({FITS})()")
    assert found["scroll"] <= found["width"] and found["right"] <= found["width"], f"every node in the frame: {found}"
    return found


def test_a_three_level_graph_is_an_outline_that_fits_a_phone(phone, server):
    """Drawn left to right it is 452 px wide in a 302 px column (its news and web nodes were
    past the edge, with no hint that the frame scrolls)."""
    ask(phone, server, "why did nvda drop last week")
    wait_for_answer(phone)
    assert fits(phone, "n3")["flow"] == "down"


def test_a_tap_on_a_tall_graph_brings_the_nodes_evidence_into_view(phone, server):
    """A four-company comparison: a graph taller than the screen. With its top in view, a tap on
    its first node opens evidence drawn below the whole graph: it is scrolled to."""
    ask(phone, server, "Compare NVDA, AMD, INTC and TSM this month")
    wait_for_answer(phone)
    fits(phone, "n12")
    frame = phone.frame_locator(GRAPH_FRAME).last
    wait_still(phone)
    phone.locator(GRAPH_FRAME).last.evaluate("f => f.scrollIntoView({block: 'start'})")
    frame.locator('g.node[data-id="n1"] circle.dot').tap()
    frame.locator('g.node.selected[data-id="n1"]').wait_for(timeout=3_000)     # the tap took, once
    heading = phone.get_by_text(re.compile(r"^Sub-query:")).first
    heading.wait_for(timeout=30_000)
    in_view = "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    phone.wait_for_function(in_view, arg=heading.element_handle(), timeout=10_000)


def test_a_wide_column_keeps_the_graph_left_to_right(browser, request, server):
    page = open_page(browser, request, width=1440, height=900)
    ask(page, server, "why did nvda drop last week")
    wait_for_answer(page)
    frame = page.frame_locator(GRAPH_FRAME).last
    frame.locator('g.node[data-id="n3"]').wait_for(timeout=30_000)
    assert frame.locator("body").get_attribute("data-flow") == "across"
