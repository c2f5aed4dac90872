"""Real-browser tests: Playwright driving Debian's Chromium against the app started on a
free port with the demo pack. A missing browser is a failure, not a skip.

Replayed calls are slowed (1.2 s each, or a minute for the Stop test) so that a person, and
these tests, can watch the graph fill in and press Stop while a run is certainly going.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.browser_kit import (
    SAMPLE,
    ask,
    click_graph_node,
    graph_nodes,
    open_page,
    running_app,
    share_link,
    statuses,
    wait_for_answer,
    wait_graph,
    wait_status,
)
from tests.conftest import DEMO_PACK

pytestmark = pytest.mark.browser

# What each state is painted in (ui/graph_view.COLOURS, written out by hand).
COLOURS = {"done": [0x2E, 0x9E, 0x5B], "running": [0xF2, 0xA9, 0x3B], "pending": [0xB9, 0xBE, 0xC8]}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The demo pack with every replayed call slowed to 1.2 s, so the live states last."""
    with running_app(tmp_path_factory.mktemp("app"), **SAMPLE, FINSEARCH_REPLAY_DELAY_MS="1200") as app:
        yield app.url


@pytest.fixture(scope="module")
def held_server(tmp_path_factory):
    """Replayed calls take a minute: a run is certainly still going when Stop is pressed."""
    with running_app(tmp_path_factory.mktemp("held"), **SAMPLE, FINSEARCH_REPLAY_DELAY_MS="60000") as app:
        yield app.url


@pytest.fixture(scope="module")
def warm_server(server, browser):
    """One question first, so imports and the component's first load are not timed by a test."""
    context = browser.new_context()
    page = context.new_page()
    ask(page, server, "What's the latest news on Tesla?")
    wait_for_answer(page)
    context.close()
    return server


@pytest.fixture
def page(browser, request):
    return open_page(browser, request)


def pack_urls() -> set[str]:
    urls = set()
    for path in DEMO_PACK.glob("*.json"):
        for item in json.loads(path.read_text()).get("evidence", []):
            if isinstance(item, dict) and item.get("url"):
                urls.add(item["url"])
    return urls


def painted(page) -> dict[str, int]:
    """How many search nodes the graph paints in each state's colour, now."""
    counts = dict.fromkeys(COLOURS, 0)
    for node in graph_nodes(page):
        for status, colour in COLOURS.items():
            if node["status"] == status and node["fill"] == colour:
                counts[status] += 1
    return counts


def settled_colours(page, timeout_s: float = 30) -> dict:
    """The graph's colours once the finished turn's graph shows its last update."""
    deadline = time.monotonic() + timeout_s
    counts = painted(page)
    while time.monotonic() < deadline and (counts["running"] or counts["pending"] or not counts["done"]):
        page.wait_for_timeout(200)
        counts = painted(page)
    return counts


def click_node(page, status: str = "done") -> None:
    """Click the first node painted in `status`'s colour, once the graph shows one (a busy
    browser may still be drawing the frame when the caption beside it appears)."""
    def painted_so(n: dict) -> bool:
        return n["status"] == status and n["fill"] == COLOURS[status]
    node = next(n for n in wait_graph(page, lambda ns: any(painted_so(n) for n in ns)) if painted_so(n))
    click_graph_node(page, node["id"])


def test_ask_watch_the_graph_fill_in_click_a_node_and_follow_citations(page, warm_server):
    ask(page, warm_server, "Why did NVDA fall last week?")
    seen_unfinished = False          # nodes still pending or running, on a graph already drawn
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not seen_unfinished:
        if (statuses(page) or [""])[-1] in ("done", "stopped"):
            break
        counts = painted(page)
        seen_unfinished = counts["running"] > 0 or counts["pending"] > 0
        page.wait_for_timeout(100)
    assert seen_unfinished, "the graph was seen, while the run was going, with nodes still pending or running"
    wait_for_answer(page)
    final = settled_colours(page)
    assert final["done"] >= 3 and final["running"] == 0 and final["pending"] == 0

    links = page.locator("[data-testid=stChatMessage] [data-testid=stMarkdownContainer] a").evaluate_all(
        "els => els.map(e => [e.textContent, e.href, e.target])")
    citations = [link for link in links if re.fullmatch(r"\[\d+\]", link[0])]
    assert citations, "the answer has clickable citations"
    # A headline's citation opens its story in a new tab; the price data's scrolls to its chart
    # (other computed data's to the References list).
    in_page = [href for _, href, _ in citations if re.search(r"#(chart|refs)-", href)]
    assert any("#chart-" in href for href in in_page), "the price reference's citations lead to its chart"
    assert all(href in pack_urls() and target == "_blank" for _, href, target in citations if href not in in_page)

    page.get_by_text("Click a node in the graph").first.wait_for(timeout=60_000)
    click_node(page, "done")
    page.get_by_text("Sub-query:").first.wait_for(timeout=60_000)
    assert page.get_by_text("Time context:").count() >= 1


def test_a_candlestick_chart_is_drawn(page, warm_server):
    ask(page, warm_server, "Compare AAPL and MSFT year to date")
    wait_for_answer(page)
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    kinds = page.locator(".js-plotly-plot").evaluate_all("els => els.flatMap(e => e.data.map(t => t.type))")
    assert "candlestick" in kinds and "bar" in kinds          # prices and volume
    assert "scatter" in kinds                                  # MA lines and the comparison chart


def test_reload_keeps_the_conversation_and_the_share_link_opens_it(page, warm_server, browser):
    ask(page, warm_server, "What's the latest news on Tesla?")
    wait_for_answer(page)
    page.wait_for_url(re.compile(r"\?c="))
    page.reload()
    page.get_by_text("What's the latest news on Tesla?").first.wait_for(timeout=60_000)
    wait_for_answer(page)

    link = share_link(page)
    assert "?s=" in link
    other = browser.new_context().new_page()
    other.goto(link)
    other.get_by_text("Shared FinSearch answer (read-only)").wait_for(timeout=60_000)
    other.get_by_text("What's the latest news on Tesla?").first.wait_for(timeout=60_000)
    assert other.get_by_test_id("stChatInputTextArea").count() == 0
    other.context.close()


def test_stop_keeps_what_was_found(page, held_server):
    ask(page, held_server, "Why did NVDA fall last week?")
    wait_status(page, "running")                   # its sources take a minute each: still going for sure
    page.get_by_role("button", name=re.compile("Stop")).click()
    assert wait_status(page, "stopped", timeout_ms=30_000) == "stopped"
    page.get_by_text("stopped early").first.wait_for(timeout=30_000)
    assert page.get_by_test_id("stChatInputTextArea").is_enabled()


def test_two_tabs_run_at_once_without_mixing(browser, warm_server):
    first, second = browser.new_context().new_page(), browser.new_context().new_page()
    ask(first, warm_server, "Compare AAPL and MSFT year to date")
    ask(second, warm_server, "贵州茅台最近一个月表现如何？")
    wait_for_answer(first)
    wait_for_answer(second)
    assert first.get_by_text("Ranked by return").count() >= 1 and first.get_by_text("贵州茅台").count() == 0
    assert second.get_by_text("贵州茅台").count() >= 1 and second.get_by_text("Ranked by return").count() == 0
    first.context.close()
    second.context.close()


def test_only_this_machines_browser_may_choose_another_model_server(browser, warm_server):
    """Listening on loopback, a visitor on this machine may point Settings at a local model
    server; the same page reached through a proxy (forwarding headers) may not."""
    def base_url_box(extra_headers: dict):
        context = browser.new_context(extra_http_headers=extra_headers)
        page = context.new_page()
        page.goto(f"{warm_server}/settings")
        box = page.get_by_role("textbox", name="Base URL (OpenAI-compatible server)")
        box.wait_for(timeout=60_000)
        return context, box.is_enabled()

    local, enabled_locally = base_url_box({})
    proxied, enabled_via_proxy = base_url_box({"X-Forwarded-For": "203.0.113.9"})
    local.close()
    proxied.close()
    assert enabled_locally and not enabled_via_proxy
