"""Issue 31, item 4, in real Chromium: another site cannot start a run as the visitor. A page on
another origin that sends the visitor to `/research?q=…` (or to the chat's `?q=…`) lands on a
box holding the request, said to have come in a link, and nothing runs (no model call, no run
drawn, the button still enabled) until the visitor presses the button (or Enter); `/report …`
typed in the chat still starts the report at once.

The app talks to a scripted model on loopback, whose log of calls is the proof that nothing ran:
a report's first step is the model's outline, a question's the model's plan.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from finsearch.model.loopback import LoopbackModel, Reply
from tests.browser_kit import ANSWER_TIMEOUT_MS, ask, open_page, running_app, statuses, wait_status
from tests.test_browser_research import REPORT_PACK, SETTLED, click_until, state, wait_state
from tests.test_research import NVIDIA

pytestmark = pytest.mark.browser

LINKED_REPORT = "This request came in a link: press Write report to start it."
LINKED_QUESTION = "This question came in a link: it is in the box below; press Enter to ask it."
QUESTION = "How has NVDA done over the past month?"


@pytest.fixture(scope="module")
def model():
    server = LoopbackModel(default=Reply(content="no JSON today"))     # the rules' outline and plan stand
    yield server.start()
    server.stop()


@pytest.fixture(scope="module")
def app(tmp_path_factory, model):
    """The report pack offline and the scripted model; the outline waits for the user."""
    with running_app(tmp_path_factory.mktemp("cross-site"), **REPORT_PACK, FINSEARCH_RESEARCH_APPROVE_S="0",
                     OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="test-key") as app:
        yield app.url


class OtherSite:
    """Another origin (its own loopback port): each path is a page that sends the visitor on to
    an address of the app, as a hostile page would."""

    def __init__(self, targets: dict[str, str]):
        pages = {path: ('<!doctype html><title>Win a prize</title><p>Loading…</p>'
                        f'<script>location = {json.dumps(target)};</script>').encode()
                 for path, target in targets.items()}

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                body = pages.get(self.path)
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def other_site(app):
    site = OtherSite({"/report": f"{app}/research?q={quote(NVIDIA)}", "/ask": f"{app}/?q={quote(QUESTION)}"})
    yield site.url
    site.close()


@pytest.fixture
def page(browser, request):
    return open_page(browser, request)


def settled(page) -> None:
    """The app's script has run to its end for what is on the page (no rerun pending)."""
    page.locator(SETTLED).wait_for(timeout=ANSWER_TIMEOUT_MS)


def wait_for_call(model: LoopbackModel, kind: str, page, since: int) -> None:
    """Wait for a model call of `kind` among the calls after the first `since`."""
    for _ in range(ANSWER_TIMEOUT_MS // 100):
        if kind in model.kinds()[since:]:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"no {kind} call came; calls: {model.kinds()}")


@pytest.mark.timeout(600)
def test_another_site_sending_the_visitor_to_research_starts_nothing_until_they_click(page, model, other_site):
    before = len(model.kinds())
    page.goto(f"{other_site}/report")
    page.wait_for_url(re.compile(r"/research"), timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text(LINKED_REPORT).wait_for(timeout=ANSWER_TIMEOUT_MS)
    settled(page)
    box = page.locator(".st-key-research_question input")
    expect(box).to_have_value(NVIDIA, timeout=30_000)       # the browser fills it a moment after drawing it
    assert box.is_enabled()
    go = page.get_by_role("button", name="Write report")
    # The script that read the address has ended: had it started a run, that same run would have
    # drawn its status line and disabled the button.
    assert go.is_enabled() and state(page) is None
    assert model.kinds()[before:] == [], "no model call: no report was started"
    assert "q=" not in page.url, "the request is taken out of the address (a reload does not bring it back)"

    go.click()
    assert wait_state(page, "outline") == "outline"
    wait_for_call(model, "outline", page, since=before)
    assert not page.get_by_text(LINKED_REPORT).count()
    click_until(page, "Stop", ("stopped",))


@pytest.mark.timeout(600)
def test_another_site_sending_the_visitor_to_ask_a_question_asks_nothing_until_they_send_it(page, model,
                                                                                          other_site):
    before = len(model.kinds())
    page.goto(f"{other_site}/ask")
    page.get_by_text(LINKED_QUESTION).wait_for(timeout=ANSWER_TIMEOUT_MS)
    settled(page)
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_have_value(QUESTION, timeout=30_000)     # the browser fills it a moment after drawing it
    assert box.is_enabled()
    assert statuses(page) == [] and model.kinds()[before:] == [], "no turn, no model call: nothing was asked"

    box.press("Enter")
    assert wait_status(page, ("planning", "running", "answering", "done", "stopped", "failed"))
    wait_for_call(model, "plan", page, since=before)


@pytest.mark.timeout(600)
def test_report_typed_in_the_chat_still_starts_at_once(page, model, app):
    before = len(model.kinds())
    ask(page, app, "/report " + NVIDIA)
    assert wait_state(page, "outline") == "outline"
    assert "/research" in page.url
    wait_for_call(model, "outline", page, since=before)
    expect(page.locator(".st-key-research_question input")).to_have_value(NVIDIA, timeout=30_000)
    assert not page.get_by_text(LINKED_REPORT).count()
    click_until(page, "Stop", ("stopped",))
