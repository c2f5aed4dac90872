"""Stop in real Chromium, in each phase of a run: while the model plans (the rules' plan has run
by then), while a source is fetched, and while the model writes the answer. Each time the page says "Stopping…" at once
and the turn ends "stopped early" soon after, with what was found kept: the answer is then
written by the rules from the nodes that finished, whose evidence stays open to a click.

Every run is held by something that never ends on its own (a model call that hangs, a
replayed source call that takes a minute), so Stop always has something to stop. The time
from the click to the stopped turn is measured on the page itself: a listener takes the
click's time, a MutationObserver the moment each state first appears in the DOM.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from finsearch.model.loopback import LoopbackModel, Reply
from tests.browser_kit import (
    SAMPLE,
    ask,
    click_graph_node,
    graph_is_draft,
    open_page,
    running_app,
    wait_graph,
    wait_status,
)

pytestmark = pytest.mark.browser

QUESTION = "Why did NVDA fall last week?"
STOP_BOUND_S = 10.0         # the goal is 2 s; generous, for a machine busy with other work
SEEN_BOUND_S = 5.0          # "Stopping…" follows the click in one fragment rerun

# Installed before the app's own scripts: the click on Stop, and the first moment the page
# shows each run state of the last turn, on the page's clock (performance.now(), ms).
WATCH_STOP = """(() => {
  window.__stop = {click: null, states: {}};
  document.addEventListener('click', (e) => {
    const button = e.target.closest && e.target.closest('button');
    if (button && button.textContent.trim().endsWith('Stop') && window.__stop.click === null)
      window.__stop.click = performance.now();
  }, true);
  const look = () => {
    const now = performance.now();
    for (const el of document.querySelectorAll('[class*="st-key-turn-"]')) {
      const m = el.className.match(/st-key-turn-[\\w-]+?-(planning|running|answering|stopping|done|stopped|failed)\\b/);
      if (m && !(m[1] in window.__stop.states)) window.__stop.states[m[1]] = now;
    }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true,
                                                attributeFilter: ['class']});
})();"""


@pytest.fixture(scope="module")
def model():
    server = LoopbackModel(default=Reply(content="no JSON today"))    # what a test does not script: rules stand
    yield server.start()
    server.stop()


@pytest.fixture(scope="module")
def model_app(tmp_path_factory, model):
    """The demo pack at full speed and the scripted model: the model's calls are what hold a run."""
    with running_app(tmp_path_factory.mktemp("stop-model"), **SAMPLE, OPENAI_BASE_URL=model.base_url,
                     OPENAI_API_KEY="test-key") as app:
        yield app.url


@pytest.fixture(scope="module")
def held_app(tmp_path_factory):
    """No model; every replayed source call takes a minute: the sources hold the run."""
    with running_app(tmp_path_factory.mktemp("stop-held"), **SAMPLE, FINSEARCH_REPLAY_DELAY_MS="60000") as app:
        yield app.url


@pytest.fixture
def page(browser, request):
    return open_page(browser, request, init_script=WATCH_STOP)


def script(model: LoopbackModel, **replies: Reply) -> None:
    for kind in ("plan", "rewrite", "answer"):
        model.on(kind, replies.get(kind, Reply(content="no JSON today")))


def wait_until(page, check, what: str, timeout_ms: int = 120_000) -> None:
    for _ in range(timeout_ms // 100):
        if check():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never happened: {what}")


def stop_and_measure(page, phase: str) -> float:
    """Click Stop as a person would; the page must say "Stopping…" at once and end the turn
    stopped early. Returns the seconds from the click to the stopped turn, as the page saw them."""
    page.get_by_role("button", name=re.compile("Stop")).click(timeout=60_000)
    assert wait_status(page, ("stopping", "stopped"), timeout_ms=30_000)
    assert wait_status(page, "stopped", timeout_ms=30_000) == "stopped"
    page.get_by_text("stopped early").first.wait_for(timeout=30_000)
    seen = page.evaluate("() => window.__stop")
    assert seen["click"] is not None, "the click on Stop was seen"
    # The page says so at once: "Stopping…", or the stopped turn itself when the run ended first
    # (Streamlit drops a run's undelivered frames when the next run starts, so on a loaded server
    # the "Stopping…" frame drawn just before the settled page can be one of them).
    said = seen["states"].get("stopping", seen["states"]["stopped"])
    to_stopping = (said - seen["click"]) / 1000
    to_stopped = (seen["states"]["stopped"] - seen["click"]) / 1000
    first = "Stopping…" if "stopping" in seen["states"] else "stopped (its Stopping… frame dropped)"
    print(f"\nStop while {phase}: click → {first} {to_stopping:.2f} s, click → stopped early {to_stopped:.2f} s")
    assert to_stopping < SEEN_BOUND_S, f"Stopping… showed {to_stopping:.2f} s after the click"
    assert to_stopped < STOP_BOUND_S, f"the turn stopped {to_stopped:.2f} s after the click"
    # The input comes back at the end of the stopped turn's page, drawn after its header and charts.
    expect(page.get_by_test_id("stChatInputTextArea")).to_be_enabled(timeout=30_000)
    return to_stopped


def notes_say(page, text: str) -> None:
    """The notes (a folded expander, unless it opened by itself) hold `text`."""
    said = page.get_by_text(re.compile(text)).first
    if not said.is_visible():
        page.get_by_text(re.compile("What went wrong or was skipped")).first.click()
    said.wait_for(timeout=30_000)


def finished_keep_evidence(page) -> None:
    """Every node that finished before the Stop is green and still shows its evidence."""
    nodes = wait_graph(page, lambda ns: all(n["status"] not in ("pending", "running") for n in ns))
    done = [n for n in nodes if n["status"] == "done"]
    assert done, f"nodes had finished before the Stop: {nodes}"
    evidence = page.get_by_text(re.compile(r"^Evidence \([1-9]\d*\)")).first
    # One click: one made as the stopped turn's page is drawn (seen on a loaded machine) is sent
    # again by the graph itself, since the fragment it was addressed to is gone by then.
    click_graph_node(page, done[0]["id"])
    evidence.wait_for(timeout=30_000)
    page.get_by_text(re.compile(r"^References \([1-9]\d*\)$")).first.wait_for(timeout=30_000)


def test_stop_while_the_model_plans(page, model_app, model):
    script(model, plan=Reply(hang=True))
    asked = len(model.kinds())
    ask(page, model_app, QUESTION)
    wait_until(page, lambda: "plan" in model.kinds()[asked:], "the plan call reached the model")
    # The rules' plan is no draft to wait behind: it ran while the model planned, and the page says
    # what the run still waits for.
    wait_graph(page, lambda ns: len(ns) > 1 and all(n["status"] in ("done", "failed") for n in ns if n["id"] != "n0"))
    assert graph_is_draft(page) is False
    page.get_by_text("Waiting for the model's plan…").first.wait_for(timeout=30_000)
    stop_and_measure(page, "the model plans")
    finished_keep_evidence(page)


def test_stop_while_a_source_is_fetched(page, held_app):
    ask(page, held_app, QUESTION)
    wait_status(page, "running")
    wait_graph(page, lambda ns: any(n["status"] == "running" for n in ns))
    stop_and_measure(page, "running")
    nodes = wait_graph(page, lambda ns: all(n["status"] not in ("pending", "running") for n in ns))
    assert not [n for n in nodes if n["status"] == "done"], "a minute-long call never finished"
    notes_say(page, "stopped by the user while running")


def test_stop_while_the_model_writes_the_answer(page, model_app, model):
    """The model writes its answer slowly (two pieces a second: never a stall the client would
    give up on, so only Stop or the question's budget ends it). Stop is pressed once the K-line
    chart is drawn: a fresh page's first plotly chart keeps the browser busy for seconds on a
    loaded machine, and that would be timed as the Stop's."""
    script(model, answer=Reply(stream_pieces=["NVIDIA fell last week ", *["and then "] * 90], token_delay_s=0.5))
    ask(page, model_app, QUESTION)
    wait_status(page, "answering")
    page.get_by_text("NVIDIA fell last week").first.wait_for(timeout=60_000)
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    assert wait_status(page, "answering", timeout_ms=1_000) == "answering", "the model is still writing"
    stop_and_measure(page, "answering")
    finished_keep_evidence(page)
    notes_say(page, "Stopped while the model was writing; the rules wrote this answer")


def test_stop_while_the_answer_call_hangs(page, model_app, model):
    """The model takes the answer call and never replies: all nodes are done, nothing written
    yet. This hold lasts only the client's limit on one model call (Settings.llm_timeout_s,
    20 s), so Stop is pressed as soon as the call is out, not after the chart is drawn."""
    script(model, answer=Reply(hang=True))
    asked = len(model.kinds())
    ask(page, model_app, QUESTION)
    wait_until(page, lambda: "answer" in model.kinds()[asked:], "the answer call reached the model")
    wait_graph(page, lambda ns: all(n["status"] not in ("pending", "running") for n in ns))
    assert wait_status(page, ("running", "answering"), timeout_ms=1_000), \
        "the run is still held (the 20 s model-call limit had not ended it before Stop)"
    stop_and_measure(page, "the answer call hangs")
    finished_keep_evidence(page)
    notes_say(page, "Stopped while the model was writing; the rules wrote this answer")


IN_REACH = """() => {
  const stop = [...document.querySelectorAll('button')].find(b => b.textContent.trim().endsWith('Stop'));
  const input = document.querySelector('[data-testid=stChatInput]');
  const scroller = document.querySelector('[data-testid=stAppScrollToBottomContainer]');
  if (!stop || !input) return null;
  const s = stop.getBoundingClientRect(), i = input.getBoundingClientRect();
  return {top: s.top, bottom: s.bottom, left: s.left, right: s.right, inputTop: i.top,
          width: window.innerWidth, height: window.innerHeight,
          scrolled: scroller ? scroller.scrollTop : 0, tall: scroller ? scroller.scrollHeight : 0};
}"""


@pytest.mark.parametrize("width,height", [(390, 844), (1440, 900)], ids=["phone", "desktop"])
def test_stop_stays_in_reach_however_far_the_page_scrolls(browser, request, held_app, width, height):
    """A four-ticker comparison draws a graph taller than the screen, and the page follows it
    down: Stop stays on screen, above the chat box (not under it), at the top of the answer
    and at the bottom of the page alike, and a tap or click on it stops the run."""
    page = open_page(browser, request, width=width, height=height, init_script=WATCH_STOP)
    ask(page, held_app, "Compare NVDA, AMD, INTC and TSM this month")
    wait_graph(page, lambda ns: len(ns) > 10)
    for where in ("top", "bottom"):
        page.evaluate(f"""() => {{ const c = document.querySelector('[data-testid=stAppScrollToBottomContainer]');
                                   c.scrollTop = {'0' if where == 'top' else 'c.scrollHeight'}; }}""")
        page.wait_for_timeout(300)
        box = page.evaluate(IN_REACH)
        assert box is not None, "a run going shows Stop"
        if where == "bottom":
            assert box["tall"] > box["height"] and box["scrolled"] > 0, f"the page is taller than the screen: {box}"
        assert 0 <= box["top"] and box["bottom"] <= box["inputTop"], f"Stop is on screen above the chat box: {box}"
        assert 0 <= box["left"] and box["right"] <= box["width"], f"Stop is within the screen's width: {box}"
    stop_and_measure(page, "a tall comparison was drawn")
