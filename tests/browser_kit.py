"""What the browser tests share: the app started as a real server on a free port, Debian's
Chromium driven by Playwright, and waits on states the app exposes — never on fixed sleeps.

Each turn's header carries its run state in a class, `st-key-turn-<key>-<status>`
(planning, running, answering, stopping, done, stopped, failed); `wait_status` polls the
DOM for it. Generous timeouts: these tests must pass on a busy machine too.
"""

from __future__ import annotations

import contextlib
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

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
        # Background tabs keep their timers: a session's polling must not be throttled by Chromium.
        "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows"]
ARTIFACTS = ROOT / "test-artifacts"
START_TIMEOUT_S = 120
ANSWER_TIMEOUT_MS = 120_000
# The demo pack, offline, with time pinned to the pack's date.
SAMPLE = {"FINSEARCH_PACK": str(DEMO_PACK), "FINSEARCH_OFFLINE": "1", "FINSEARCH_NOW": "2024-10-15T20:00:00Z"}
# The References heading, in either language of an answer's chrome.
REFERENCES = re.compile(r"^(References \(\d+\)|参考资料（\d+）)$")
STATUSES = ("planning", "running", "answering", "stopping", "done", "stopped", "failed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# A server with nothing running exits within half a second of SIGTERM; one holding a hung run waits
# on its threads (see App.stop) and is killed after this.
STOP_GRACE_S = 1.0


class App:
    """`streamlit run app.py` on loopback with its own data and cache folders."""

    def __init__(self, home: Path, **env: str):
        self.home = Path(home)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FINSEARCH_"))}
        self.env.update({"FINSEARCH_DATA_DIR": str(self.home / "data"), "FINSEARCH_CACHE_DIR": str(self.home / "cache"),
                         "HOME": str(self.home), **env})
        self.process: subprocess.Popen | None = None
        self._log = None

    def start(self) -> App:
        self._log = open(self.home / "streamlit.log", "w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
             "--server.port", str(self.port), "--server.address", "127.0.0.1"],
            cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise AssertionError(f"the app did not start: {self.log_tail()}") from None
                time.sleep(0.3)

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return (self.home / "streamlit.log").read_text()[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            # Python waits for a run's threads at exit: one still held by a hanging model or an 8 s
            # source would keep the server up for its whole timeout. Nothing is left to keep.
            try:
                self.process.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        if self._log is not None:
            self._log.close()


@contextlib.contextmanager
def running_app(home: Path, **env: str):
    app = App(home, **env).start()
    try:
        yield app
    finally:
        app.stop()


@contextlib.contextmanager
def chromium():
    if not Path(CHROMIUM).exists() or not shutil.which("chromium"):
        pytest.fail("Debian's chromium is not installed: run `bash scripts/test.sh`, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser, request, width: int = 1400, height: int = 1400, init_script: str | None = None):
    """A page in a context of its own (its own cookies: another visitor), saved as a screenshot
    if the test fails and closed after it."""
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    request.addfinalizer(lambda: (screenshot_on_failure(request, page), context.close()))
    return page


def screenshot_on_failure(request, page) -> None:
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        with contextlib.suppress(Exception):
            page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)


def ask(page, url: str, question: str) -> None:
    page.goto(url)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=ANSWER_TIMEOUT_MS)
    box.fill(question)
    box.press("Enter")


def statuses(page) -> list[str]:
    """The run state of every turn on the page, in order."""
    classes = page.locator('[class*="st-key-turn-"]').evaluate_all("els => els.map(e => e.className)")
    found = []
    for names in classes:
        match = re.search(r"st-key-turn-[\w-]+?-(" + "|".join(STATUSES) + r")\b", names)
        if match:
            found.append(match.group(1))
    return found


def wait_status(page, wanted: tuple[str, ...] | str, timeout_ms: int = ANSWER_TIMEOUT_MS) -> str:
    """Wait until the last turn is in one of `wanted`; returns that state."""
    wanted = (wanted,) if isinstance(wanted, str) else wanted
    deadline = time.monotonic() + timeout_ms / 1000
    seen: list[str] = []
    while time.monotonic() < deadline:
        current = statuses(page)
        if current:
            seen.append(current[-1])
            if current[-1] in wanted:
                return current[-1]
        page.wait_for_timeout(100)
    raise AssertionError(f"the run never reached {wanted}; states seen: {sorted(set(seen))}")


def wait_for_answer(page, timeout_ms: int = ANSWER_TIMEOUT_MS) -> None:
    wait_status(page, ("done", "stopped"), timeout_ms)
    page.get_by_text(REFERENCES).first.wait_for(timeout=timeout_ms)


def open_popover(page, name: str, body_selector: str = "[data-testid=stPopoverBody]", timeout_s: float = 60):
    """Click a popover's button until its body is shown (a rerun landing on the click can
    close it again), and return the body."""
    button = page.get_by_role("button", name=re.compile(name)).first
    body = page.locator(body_selector).first
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not body.is_visible():
            button.click()
        try:
            body.wait_for(state="visible", timeout=5_000)
            return body
        except Exception:  # not open yet: look again
            continue
    raise AssertionError(f"the {name} popover did not open")


ANSWER_SHARE = r"(^|\s)Share$"             # the answer's Share, not the sidebar's "Share conversation"
DIALOG = "[role=dialog]"                    # the answer's Share opens a dialog; the others, popovers


def share_link(page, name: str = ANSWER_SHARE, timeout_s: float = 60) -> str:
    """Open a Share dialog or popover (the answer's dialog, by default), have it make a share
    link (a click on "Create share link"), and return the link it then shows. A rerun may close
    it: it is opened again."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        body = open_popover(page, name, DIALOG if name == ANSWER_SHARE else "[data-testid=stPopoverBody]",
                            timeout_s=max(5.0, deadline - time.monotonic()))
        code = body.locator("code").first
        if code.is_visible():
            return code.inner_text(timeout=10_000).strip()
        create = body.get_by_role("button", name=re.compile("Create share link"))
        try:
            create.click(timeout=5_000)
            code.wait_for(state="visible", timeout=10_000)
            return code.inner_text(timeout=10_000).strip()
        except Exception:  # the popover closed on the rerun: open it again, the link is made
            continue
    raise AssertionError(f"the {name} popover showed no share link")


# The search graph is one SVG in the component's frame, a <g class="node"> per node carrying
# its id, its run state and its fixed layout position; what it paints is the computed fill
# of its circle (the question: its box). This reads them all, with each node's centre in the
# frame's CSS pixels for clicking.
GRAPH_FRAME = 'iframe[title$="search_graph"]'
READ_NODES = """() => [...document.querySelectorAll('g.node')].map(g => {
  const shape = g.querySelector('circle.dot, rect'), box = shape.getBoundingClientRect();
  const rgb = (paint) => (paint.match(/\\d+/g) || []).slice(0, 3).map(Number);
  const fill = rgb(getComputedStyle(shape).fill), stroke = rgb(getComputedStyle(shape).stroke);
  return {id: g.dataset.id, status: g.dataset.status, fill: fill, stroke: stroke,
          ringed: g.classList.contains('rewritten'), x: Number(g.dataset.x), y: Number(g.dataset.y),
          cx: box.left + box.width / 2, cy: box.top + box.height / 2, selected: g.classList.contains('selected')};
})"""


def graph_frame(page, index: int = -1):
    """The frame of the page's `index`-th search graph (the last by default), or None while
    there is none."""
    frames = page.locator(GRAPH_FRAME)
    try:
        count = frames.count()
        if not count:
            return None
        return frames.nth(index if index >= 0 else count + index).element_handle(timeout=2_000).content_frame()
    except Exception:   # the page is redrawing that part: look again
        return None


def graph_nodes(page, index: int = -1) -> list[dict]:
    """The nodes the graph shows now ([] while it is not drawn)."""
    frame = graph_frame(page, index)
    if frame is None:
        return []
    try:
        return frame.evaluate(READ_NODES)
    except Exception:   # the frame is loading
        return []


def graph_is_draft(page, index: int = -1) -> bool | None:
    """Whether the graph is drawn as the rules' draft (None while it is not drawn)."""
    frame = graph_frame(page, index)
    try:
        return None if frame is None else frame.evaluate("() => document.body.dataset.draft === 'true'")
    except Exception:   # the frame is loading
        return None


def wait_graph(page, check, timeout_s: float = 60, index: int = -1) -> list[dict]:
    """Poll the graph until `check(nodes)` holds; returns those nodes."""
    deadline = time.monotonic() + timeout_s
    nodes: list[dict] = []
    drawn: list[dict] = []          # the last graph seen drawn (it may be gone at the end)
    while time.monotonic() < deadline:
        nodes = graph_nodes(page, index)
        if nodes and check(nodes):
            return nodes
        drawn = nodes or drawn
        page.wait_for_timeout(100)
    states = {n["id"]: n["status"] for n in drawn}
    raise AssertionError(f"the graph never reached the wanted state; last drawn: {states}; now: {nodes}")


SCROLLED = """() => { const c = document.querySelector('[data-testid=stAppScrollToBottomContainer]');
  return c ? [c.scrollTop, c.scrollHeight] : null; }"""


def wait_still(page, timeout_s: float = 5) -> None:
    """Wait (at most `timeout_s`: a live page never stops growing) until the page has neither
    grown nor scrolled for a moment."""
    deadline = time.monotonic() + timeout_s
    last, still = None, 0
    while time.monotonic() < deadline and still < 3:
        now = page.evaluate(SCROLLED)
        still = still + 1 if now == last else 0
        last = now
        page.wait_for_timeout(100)


def click_graph_node(page, node_id: str, index: int = -1) -> None:
    """Click node `node_id` once, as a person would: the mouse, at the centre of its circle,
    once the page has stopped moving; the node must take it (its selection ring comes at once,
    drawn by the frame itself before any server round trip).

    Why a click could miss (issue 29 item 6): a chat page kept at its bottom is scrolled down
    by Streamlit for about a second after a turn settles (the finished page is taller than the
    live one), and Playwright moves the mouse to where the node *was*; its click then lands on
    the page and is still reported made. `wait_still` waits that scroll out, as a person's eye
    does. A click the server never draws back (sent to a fragment that is gone by then) is the
    frame's to send again (graph.js), not the test's."""
    frames = page.frame_locator(GRAPH_FRAME)
    frame = frames.last if index == -1 else frames.nth(index)     # resolved when the click happens
    wait_still(page)
    frame.locator(f'g.node[data-id="{node_id}"]').locator(":is(circle.dot, rect)").click(timeout=30_000)
    try:
        frame.locator(f'g.node.selected[data-id="{node_id}"]').wait_for(timeout=5_000)
    except Exception:
        raise AssertionError(f"node {node_id} did not take the click (no selection ring)") from None
