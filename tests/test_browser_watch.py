"""Watch, brief, read — in a real browser on the demo pack: ask about NVDA, click "Watch NVDA" under the
answer, open the Watchlist page from the sidebar, click "Brief me now", see the sidebar's Inbox become
"Inbox (1)", open the notice and read its cited text and references. Every wait is on a state the page
shows (a button's label, a container's key, a link's name), never a fixed sleep."""

from __future__ import annotations

import re

import pytest

from tests.browser_kit import ANSWER_TIMEOUT_MS, REFERENCES, SAMPLE, ask, open_page, running_app, wait_for_answer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("watch"), **SAMPLE) as app:
        yield app.url


def test_watch_an_answers_ticker_brief_now_and_read_the_notice_in_the_inbox(server, browser, request):
    page = open_page(browser, request)
    ask(page, server, "Why did NVDA fall last week?")
    wait_for_answer(page)

    page.get_by_role("button", name="Watch NVDA").click()
    watching = page.get_by_role("button", name="Watching NVDA")
    watching.wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert watching.is_disabled()

    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_role("link", name=re.compile(r"^Watchlist$")).click()
    page.get_by_role("heading", name="Watchlist").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_text("NVDA", exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_role("button", name="Brief me now").click()
    page.locator(".st-key-brief-now-done").wait_for(timeout=ANSWER_TIMEOUT_MS)

    inbox = sidebar.get_by_role("link", name=re.compile(r"^Inbox \(1\)$"))
    inbox.wait_for(timeout=ANSWER_TIMEOUT_MS)
    inbox.click()
    page.get_by_role("heading", name="Inbox").wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.get_by_role("button", name="Open").first.click()
    notice = page.locator('[class*="st-key-notice-"]').first
    notice.get_by_text("Brief: NVDA — 2024-10-15").wait_for(timeout=ANSWER_TIMEOUT_MS)
    notice.get_by_text(re.compile(r"NVIDIA \(NVDA\) fell 4\.70% on 2024-10-11")).first.wait_for(
        timeout=ANSWER_TIMEOUT_MS)
    notice.get_by_role("link", name="[1]").first.wait_for(timeout=ANSWER_TIMEOUT_MS)   # a citation, linked
    notice.get_by_text(REFERENCES).wait_for(timeout=ANSWER_TIMEOUT_MS)
    notice.get_by_role("link", name=re.compile("Nvidia shares slide 4.7%")).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    sidebar.get_by_role("link", name=re.compile(r"^Inbox$")).wait_for(timeout=ANSWER_TIMEOUT_MS)  # read now
