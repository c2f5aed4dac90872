"""The rules' answer streams into the page (issue 29 item 16): with no model configured, the
lead paragraph is shown while the turn is still answering, before the rest of the answer.

The rules write a whole answer in well under a second, too fast to watch. So the app under test
is started with a test-only `sitecustomize` (on PYTHONPATH, nothing of it in the product) that
holds the rules just after the lead, at the paragraph worked out from it, until the test has
seen the page; then it lets them finish.
"""

from __future__ import annotations

import re

import pytest

from tests.browser_kit import ask, open_page, running_app, wait_for_answer, wait_status
from tests.conftest import DEMO_PACK, ROOT

pytestmark = pytest.mark.browser

LEAD = "NVIDIA (NVDA) fell 4.70% on 2024-10-11 after"
HOLD = f'''
import pathlib, sys, time
sys.path.insert(0, {str(ROOT)!r})
from finsearch.answer import compose

_gate, _real = pathlib.Path(__file__).with_name("release"), compose.explanation_sentences


def _held(*args, **kwargs):
    deadline = time.monotonic() + 100
    while not _gate.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return _real(*args, **kwargs)


compose.explanation_sentences = _held
'''


@pytest.fixture
def held_app(tmp_path):
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(HOLD)
    with running_app(tmp_path, PYTHONPATH=str(shim), FINSEARCH_PACK=str(DEMO_PACK), FINSEARCH_OFFLINE="1",
                     FINSEARCH_NOW="2024-10-15T20:00:00Z") as app:
        yield app.url, shim / "release"


def test_the_lead_is_shown_while_the_rules_still_write_the_rest(browser, held_app, request):
    url, release = held_app
    page = open_page(browser, request)
    ask(page, url, "Why did NVDA fall last week?")
    wait_status(page, "answering", timeout_ms=60_000)        # the rules are writing (and held after the lead)
    message = page.locator("[data-testid=stChatMessage]").last
    message.get_by_text(re.compile(re.escape(LEAD))).first.wait_for(timeout=45_000)
    assert wait_status(page, "answering", timeout_ms=5_000) == "answering"
    shown = message.inner_text()
    assert "Sample data" not in shown and "Other stories of the period" not in shown, shown
    release.touch()
    wait_for_answer(page)
    shown = message.inner_text()
    assert shown.count(LEAD) == 1 and "Other stories of the period" in shown and "Sample data" in shown
