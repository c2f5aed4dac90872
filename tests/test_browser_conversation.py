"""A conversation read turn by turn in real Chromium (the sample pack, offline): a follow-up never
answers about the previous company when it names one of its own, known or not."""

from __future__ import annotations

import re

import pytest

from tests.browser_kit import ask, open_page, running_app, statuses, wait_for_answer, wait_status
from tests.conftest import DEMO_PACK

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("conversation"), FINSEARCH_PACK=str(DEMO_PACK), FINSEARCH_OFFLINE="1",
                     FINSEARCH_NOW="2024-10-15T20:00:00Z") as app:
        yield app.url


def then_ask(page, question: str) -> None:
    """The next turn of the same chat, typed as a user types it."""
    turns = len(statuses(page))
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('[class*=\"st-key-turn-\"]').length > {turns}",
                           timeout=60_000)


def last_turn(page) -> str:
    return page.locator("[data-testid=stChatMessage]").last.inner_text().replace("\u2060", "")


def test_an_unknown_name_after_moutai_is_said_to_be_unknown_not_answered_as_moutai(browser, server, request):
    page = open_page(browser, request)
    ask(page, server, "贵州茅台最近一个月表现如何？")
    wait_for_answer(page)
    then_ask(page, "how is zorblax doing")
    wait_status(page, ("done", "stopped"))
    shown = last_turn(page)
    assert "I don't know “zorblax” as a listed company or a symbol." in shown, shown
    assert "Moutai" not in shown and "茅台" not in shown, shown


def test_a_question_of_its_own_after_a_filings_question_gets_its_prices_and_chart(browser, server, request):
    page = open_page(browser, request)
    ask(page, server, "what did nvidia say about risks in its latest 10-k")
    wait_status(page, ("done", "stopped"))
    then_ask(page, "how's tesla stock been this month")
    wait_for_answer(page)
    shown = last_turn(page)
    assert "Tesla (TSLA)" in shown and "NVIDIA" not in shown.split("References")[0], shown
    page.locator("[data-testid=stChatMessage]").last.locator(".js-plotly-plot").first.wait_for(timeout=60_000)


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    """Every replayed call takes 3 s, so a reload lands while the first question is answered."""
    with running_app(tmp_path_factory.mktemp("conversation-slow"), FINSEARCH_PACK=str(DEMO_PACK),
                     FINSEARCH_OFFLINE="1", FINSEARCH_NOW="2024-10-15T20:00:00Z",
                     FINSEARCH_REPLAY_DELAY_MS="3000") as app:
        yield app.url


def test_a_reload_while_the_first_question_is_answered_keeps_it_and_its_answer(browser, slow_server, request):
    page = open_page(browser, request)
    ask(page, slow_server, "Why did NVDA fall last week?")
    page.wait_for_url(re.compile(r"\?c="), timeout=30_000)       # the address names the chat at once
    assert wait_status(page, ("running", "done")) == "running"
    page.reload()
    page.get_by_test_id("stChatMessage").filter(has_text="Why did NVDA fall last week?").first.wait_for(
        timeout=60_000)
    wait_for_answer(page)
    assert "NVIDIA (NVDA) fell" in last_turn(page)
