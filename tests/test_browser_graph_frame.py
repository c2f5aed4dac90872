"""The graph's frame on its own in real Chromium, spoken to with Streamlit's component messages
(render in, setComponentValue out): a click the server never draws back is sent again when the
graph is next rendered, at most three times, and a click the server has drawn back is not.

The app needs this at one moment: a click made just as a finished turn leaves its polling
fragment is sent as a rerun of that fragment, and Streamlit skips a fragment that is gone.
(The frame is its own top window here, so what it sends its parent comes back to it.)"""

from __future__ import annotations

import dataclasses
import json

import pytest

from finsearch.graph import NodeStatus
from finsearch.plan.analysis import analyse
from finsearch.plan.planner import make_plan
from tests.browser_kit import open_page
from tests.conftest import NOW, ROOT
from ui.views import graph as graph_view

pytestmark = pytest.mark.browser

FRAME = ROOT / "ui" / "views" / "search_graph" / "index.html"
LISTEN = """() => { window.sent = [];
  window.addEventListener("message", (e) => {
    if (e.data && e.data.type === "streamlit:setComponentValue") window.sent.push(e.data.value); }); }"""


def graph_args(selected: str | None, live: bool) -> dict:
    graph = make_plan(analyse("Why did NVDA fall last week?", NOW), NOW, None).graph
    for node in graph:
        graph.apply(dataclasses.replace(node, status=NodeStatus.DONE))
    return {"graph": graph_view.payload(graph, live=live), "selected": selected}


@pytest.fixture
def frame(browser, request):
    page = open_page(browser, request, height=800)
    page.goto(FRAME.as_uri())
    page.evaluate(LISTEN)
    return page


def sent(page, count: int) -> list:
    """What the frame has sent so far, once it has sent `count` values (messages are async)."""
    page.wait_for_function("n => window.sent.length >= n", arg=count, timeout=10_000)
    return page.evaluate("() => window.sent")


def renders(page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.renders || 0)"))


def draw(page, selected: str | None, live: bool = False) -> None:
    before = renders(page)
    args = json.dumps(graph_args(selected, live))
    page.evaluate(f"() => window.postMessage({{type: 'streamlit:render', args: {args}}}, '*')")
    page.wait_for_function("n => Number(document.body.dataset.renders || 0) > n", arg=before, timeout=10_000)


def settle(page) -> list:
    """What was sent, after the frame has had a moment to answer the last render (a round trip of
    messages: one more message posted after it comes back after it)."""
    page.evaluate("() => new Promise((done) => { window.addEventListener('message', function once(e) {"
                  " if (e.data === 'flushed') { window.removeEventListener('message', once); done(); } });"
                  " window.postMessage('flushed', '*'); })")
    return page.evaluate("() => window.sent")


def click(page, node_id: str) -> None:
    page.locator(f'g.node[data-id="{node_id}"] circle.dot').click()


def test_a_click_the_server_never_drew_back_is_sent_again_when_the_graph_is_next_drawn(frame):
    draw(frame, None, live=True)
    click(frame, "n1")
    assert sent(frame, 1) == ["n1"]
    # The page the finished turn moved to draws the graph without the click: it is sent again.
    draw(frame, None, live=False)
    assert sent(frame, 2) == ["n1", "n1"]
    # Drawn back: nothing more is sent, however often the graph is drawn.
    draw(frame, "n1")
    draw(frame, "n1")
    assert settle(frame) == ["n1", "n1"]


def test_a_click_drawn_back_at_once_is_sent_once(frame):
    draw(frame, None)
    click(frame, "n2")
    draw(frame, "n2")
    draw(frame, None)           # another graph of the page's, later: not this click's business
    assert settle(frame) == ["n2"]


def test_a_click_is_sent_again_at_most_three_times(frame):
    draw(frame, None)
    click(frame, "n1")
    for _ in range(6):
        draw(frame, None)
    assert settle(frame) == ["n1"] * 4
    assert frame.locator('g.node.selected').get_attribute("data-id") == "n1"
