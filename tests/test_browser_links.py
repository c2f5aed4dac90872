"""In a real browser: the price reference scrolls the page to its chart, headline references
open their URL in a new tab, and the exported HTML draws its charts and search graph with
its one inlined plotly.js, fetching nothing."""

from __future__ import annotations

import re

import pytest

from tests.browser_kit import DIALOG, SAMPLE, ask, open_page, running_app, share_link, wait_for_answer

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("links"), **SAMPLE) as app:
        yield app.url


@pytest.fixture
def page(browser, request):
    return open_page(browser, request, height=900)


def chart_top(page, anchor: str) -> float:
    """Where the chart after `anchor` is, relative to the top of the window (px)."""
    return page.evaluate("""id => {
        const target = document.getElementById(id);
        const chart = target.closest('[data-testid=stElementContainer]').nextElementSibling;
        return chart.getBoundingClientRect().top; }""", anchor)


def test_the_price_reference_scrolls_to_its_chart_and_headlines_open_their_url(page, server):
    ask(page, server, "Why did NVDA fall last week?")
    wait_for_answer(page)
    price = page.get_by_role("link", name=re.compile(r"NVIDIA \(NVDA\) daily prices"))
    price.wait_for(timeout=60_000)
    anchor = price.get_attribute("href").removeprefix("#")
    assert re.fullmatch(r"chart-[A-Za-z0-9_-]+-NVDA", anchor), anchor
    page.locator(f"#{anchor}").wait_for(state="attached", timeout=60_000)
    price.scroll_into_view_if_needed()      # the references come after the charts
    assert chart_top(page, anchor) < -50, "the chart's top is above the window"
    price.click()
    page.wait_for_function("""id => {
        const chart = document.getElementById(id).closest('[data-testid=stElementContainer]').nextElementSibling;
        const top = chart.getBoundingClientRect().top; return top >= -5 && top < 300; }""", arg=anchor,
        timeout=10_000)
    assert page.url.endswith(f"#{anchor}") and page.get_by_test_id("stChatInputTextArea").count() == 1, \
        "still the chat page"

    headline = page.get_by_role("link", name="Nvidia shares slide 4.7% as report of wider chip export curbs weighs")
    assert headline.get_attribute("href").startswith("https://example.com/finsearch-sample/")
    assert headline.get_attribute("target") == "_blank"


def test_the_export_draws_its_charts_and_graph_offline(page, server, tmp_path):
    ask(page, server, "Compare AAPL and MSFT year to date")
    wait_for_answer(page)
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name=re.compile("Export HTML")).first.click()
    path = tmp_path / "export.html"
    download.value.save_as(path)
    assert path.stat().st_size <= 1_500_000

    viewer = page.context.new_page()
    fetched, errors = [], []
    viewer.on("request", lambda r: fetched.append(r.url) if not r.url.startswith("file:") else None)
    viewer.on("pageerror", lambda e: errors.append(str(e)))
    viewer.goto(path.as_uri())
    viewer.wait_for_function("document.querySelectorAll('.js-plotly-plot .main-svg').length >= 3",
                             timeout=30_000)
    drawn = viewer.evaluate("""() => ({
        candles: document.querySelectorAll('.js-plotly-plot g.trace.boxes path.box').length,
        volume: document.querySelectorAll('.js-plotly-plot g.trace.bars').length,
        nodes: [...document.querySelectorAll('svg.search-graph g.node')].map(g => g.getAttribute('class')),
        graphWidth: document.querySelector('svg.search-graph').getBoundingClientRect().width })""")
    viewer.close()
    assert drawn["candles"] > 100 and drawn["volume"] == 2, drawn
    assert drawn["nodes"] == ["node root"] + ["node done"] * 6       # each one's prices, quote and news
    assert drawn["graphWidth"] > 300
    assert not fetched and not errors, (fetched, errors)


@pytest.mark.parametrize("width,height", [(390, 844), (1440, 900)], ids=["phone", "desktop"])
def test_the_answers_share_opens_clear_of_the_chat_box(browser, request, server, width, height):
    """The answer's Share is a dialog: opened from the last answer's row (just above the chat
    box), its box stays clear of the chat box, where a popover hung over it; the link it makes
    is on the app's root."""
    page = open_page(browser, request, width=width, height=height)
    ask(page, server, "Why did NVDA fall last week?")
    wait_for_answer(page)
    link = share_link(page)
    assert re.fullmatch(re.escape(server) + r"/\?s=[\w-]+", link), link
    dialog = page.locator(DIALOG).first.bounding_box()
    chat_box = page.get_by_test_id("stChatInput").bounding_box()
    assert dialog["y"] + dialog["height"] <= chat_box["y"], f"the dialog {dialog} is clear of the chat box {chat_box}"
