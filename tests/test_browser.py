"""Real-browser tests: Playwright driving Debian's Chromium against the app started on a
free port with the demo pack. A missing browser is a failure, not a skip.

Replayed calls are slowed to 1.2 s each so that a person (and these tests) can watch the
graph fill in and press Stop.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import DEMO_PACK, ROOT

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
ARTIFACTS = ROOT / "test-artifacts"

COLOURS = {"done": (0x2E, 0x9E, 0x5B), "running": (0xF2, 0xA9, 0x3B), "pending": (0xB9, 0xBE, 0xC8)}
COUNT_COLOURS = """(canvas, colours) => {
  const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const out = {};
  for (const k in colours) out[k] = 0;
  for (let i = 0; i < d.length; i += 8)
    for (const k in colours) { const c = colours[k];
      if (Math.abs(d[i]-c[0]) < 8 && Math.abs(d[i+1]-c[1]) < 8 && Math.abs(d[i+2]-c[2]) < 8) out[k]++; }
  return out;
}"""
CENTRES = """(canvas, c) => {
  const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const r = canvas.getBoundingClientRect(), sx = canvas.width / r.width, sy = canvas.height / r.height;
  const pts = [];
  for (let y = 0; y < canvas.height; y += 2) for (let x = 0; x < canvas.width; x += 2) {
    const i = (y * canvas.width + x) * 4;
    if (Math.abs(d[i]-c[0]) < 8 && Math.abs(d[i+1]-c[1]) < 8 && Math.abs(d[i+2]-c[2]) < 8) pts.push([x / sx, y / sy]);
  }
  return pts;
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    home = tmp_path_factory.mktemp("app")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FINSEARCH_"))}
    env.update({"FINSEARCH_PACK": str(DEMO_PACK), "FINSEARCH_OFFLINE": "1", "FINSEARCH_NOW": "2024-10-15T20:00:00Z",
                "FINSEARCH_DATA_DIR": str(home / "data"), "FINSEARCH_CACHE_DIR": str(home / "cache"),
                "FINSEARCH_REPLAY_DELAY_MS": "1200", "HOME": str(home)})
    log = open(home / "streamlit.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise AssertionError("the app did not start: " + (home / "streamlit.log").read_text()[-2000:]) from None
            time.sleep(0.3)
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


@pytest.fixture(scope="module")
def warm_server(server, browser):
    """One question first, so imports and the component's first load are not timed by a test."""
    context = browser.new_context()
    page = context.new_page()
    ask(page, server, "What's the latest news on Tesla?")
    wait_for_answer(page)
    context.close()
    return server


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() or not shutil.which("chromium"):
        pytest.fail("Debian's chromium is not installed: run `bash scripts/test.sh`, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1400, "height": 1400})
    page = context.new_page()
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


def pack_urls() -> set[str]:
    urls = set()
    for path in DEMO_PACK.glob("*.json"):
        for item in json.loads(path.read_text()).get("evidence", []):
            if isinstance(item, dict) and item.get("url"):
                urls.add(item["url"])
    return urls


def ask(page, url: str, question: str) -> None:
    page.goto(url)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=30_000)
    box.fill(question)
    box.press("Enter")


def canvas(page):
    return page.frame_locator('iframe[title="streamlit_agraph.agraph"]').first.locator("canvas")


def colours(page) -> dict:
    try:
        return canvas(page).evaluate(COUNT_COLOURS, COLOURS, timeout=2_000)
    except Exception:   # the component is (re)loading
        return {}


def wait_for_answer(page) -> None:
    page.get_by_text(re.compile(r"^References \(\d+\)$")).wait_for(timeout=60_000)


def click_node(page, status: str = "done") -> None:
    points = canvas(page).evaluate(CENTRES, COLOURS[status])
    assert points, f"no {status} node on the graph"
    top = min(p[1] for p in points)
    cluster = [p for p in points if p[1] < top + 40]           # the highest node of that colour
    x = sum(p[0] for p in cluster) / len(cluster)
    y = sum(p[1] for p in cluster) / len(cluster)
    canvas(page).click(position={"x": x, "y": y})


def test_ask_watch_the_graph_fill_in_click_a_node_and_follow_citations(page, warm_server):
    ask(page, warm_server, "Why did NVDA fall last week?")
    seen_unfinished = False          # nodes still pending or running, on a graph already drawn
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        counts = colours(page)
        seen_unfinished |= counts.get("running", 0) > 50 or counts.get("pending", 0) > 50
        if seen_unfinished and counts.get("done", 0) > 300 and counts.get("running", 0) < 50:
            break
        time.sleep(0.1)
    assert seen_unfinished, "the graph was seen before all its nodes were done"
    wait_for_answer(page)
    final = colours(page)
    assert final.get("done", 0) > 300 and final.get("running", 0) < 50 and final.get("pending", 0) < 50

    links = page.locator("[data-testid=stChatMessage] [data-testid=stMarkdownContainer] a").evaluate_all(
        "els => els.map(e => [e.textContent, e.href, e.target])")
    citations = [link for link in links if re.fullmatch(r"\[\d+\]", link[0])]
    assert citations, "the answer has clickable citations"
    assert all(href in pack_urls() and target == "_blank" for _, href, target in citations)

    page.get_by_text("Click a node in the graph").first.wait_for()
    click_node(page, "done")
    page.get_by_text("Sub-query:").first.wait_for(timeout=15_000)
    assert page.get_by_text("Time context:").count() >= 1


def test_a_candlestick_chart_is_drawn(page, warm_server):
    ask(page, warm_server, "Compare AAPL and MSFT year to date")
    wait_for_answer(page)
    page.locator(".js-plotly-plot").first.wait_for(timeout=20_000)
    kinds = page.locator(".js-plotly-plot").evaluate_all("els => els.flatMap(e => e.data.map(t => t.type))")
    assert "candlestick" in kinds and "bar" in kinds          # prices and volume
    assert "scatter" in kinds                                  # MA lines and the comparison chart


def test_reload_keeps_the_conversation_and_the_share_link_opens_it(page, warm_server, browser):
    ask(page, warm_server, "What's the latest news on Tesla?")
    wait_for_answer(page)
    page.wait_for_url(re.compile(r"\?c="))
    page.reload()
    page.get_by_text("What's the latest news on Tesla?").first.wait_for(timeout=30_000)
    wait_for_answer(page)

    page.get_by_role("button", name=re.compile("Share")).first.click()
    link = page.locator("[data-testid=stPopoverBody] code").first.inner_text(timeout=10_000).strip()
    assert "?run=" in link
    other = browser.new_context().new_page()
    other.goto(link)
    other.get_by_text("Shared FinSearch answer (read-only)").wait_for(timeout=30_000)
    other.get_by_text("What's the latest news on Tesla?").first.wait_for()
    assert other.get_by_test_id("stChatInputTextArea").count() == 0
    other.context.close()


def test_stop_keeps_what_was_found(page, warm_server):
    ask(page, warm_server, "Why did NVDA fall last week?")
    stop = page.get_by_role("button", name=re.compile("Stop"))
    stop.wait_for(timeout=20_000)
    stop.click()
    page.get_by_text("stopped early").wait_for(timeout=30_000)
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
