"""Privacy in a real browser: two browser contexts (two people) against one app. A's identity
survives a reload (its cookie); B's History never lists A's runs; B can open A's share link,
read-only, and cannot delete it; A's run by id, and a guessed token, are "not found" for B."""

from __future__ import annotations

import re

import pytest

from tests.browser_kit import (
    ANSWER_TIMEOUT_MS,
    SAMPLE,
    ask,
    running_app,
    screenshot_on_failure,
    share_link,
    wait_for_answer,
)

pytestmark = pytest.mark.browser

QUESTION = "What's the latest news on Tesla?"
NOT_FOUND = "This answer does not exist on this server"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("privacy"), **SAMPLE) as app:
        yield app.url


@pytest.fixture
def people(browser, request):
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    yield pages
    for name, page in zip("AB", pages, strict=True):
        request.node.name = request.node.name.rstrip("-AB") + f"-{name}"   # one screenshot per person
        screenshot_on_failure(request, page)
    for context in contexts:
        context.close()


def open_history(page, server: str) -> None:
    page.goto(f"{server}/history")
    page.get_by_text("Your answers in this browser").wait_for(timeout=ANSWER_TIMEOUT_MS)


@pytest.mark.timeout(600)
def test_two_people_each_see_their_own_history_and_only_share_links_cross(people, server):
    a, b = people
    ask(a, server, QUESTION)
    wait_for_answer(a)
    a.wait_for_url(re.compile(r"\?c="))
    conversation = a.evaluate("() => new URLSearchParams(location.search).get('c')")
    cookie = [c for c in a.context.cookies() if c["name"] == "finsearch_visitor"]
    assert len(cookie) == 1 and re.fullmatch(r"[A-Za-z0-9_-]{22}", cookie[0]["value"]), "128 bits, URL-safe"
    assert cookie[0]["sameSite"] == "Lax" and cookie[0]["expires"] > 0

    open_history(a, server)                                # a new page load: the cookie is the identity
    a.get_by_text(QUESTION).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    run_link = a.get_by_role("link", name=re.compile("Open")).first.get_attribute("href")
    run_id = run_link.rsplit("?run=", 1)[1]

    open_history(b, server)
    b.get_by_text("No answers yet").wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert b.get_by_text(QUESTION).count() == 0, "B's History never lists A's runs"
    assert b.get_by_role("button", name=re.compile("Delete")).count() == 0

    b.goto(f"{server}/?run={run_id}")                      # A's run by its id: not B's to open
    b.get_by_text(NOT_FOUND).wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert b.get_by_text(QUESTION).count() == 0

    a.goto(f"{server}/?run={run_id}")                      # A opens it (History's Open), then shares it
    a.get_by_text("Shared FinSearch answer (read-only)").wait_for(timeout=ANSWER_TIMEOUT_MS)
    a.goto(f"{server}/?c={conversation}")                  # A's conversation restores for A alone
    wait_for_answer(a)
    assert a.get_by_test_id("stChatMessage").count() == 2, "the question and its answer, restored"
    link = share_link(a)
    token = link.rsplit("?s=", 1)[1]
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token) and token != run_id

    b.goto(f"{server}/?c={conversation}")                  # A's conversation link is private
    b.get_by_text("This conversation does not exist on this server").wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert b.get_by_test_id("stChatMessage").count() == 0, "none of A's turns (the question is also an example)"

    # History lists the link too: the same address, which opens the answer (not History) for anyone.
    open_history(a, server)
    listed = a.locator(f'[class*="st-key-share-{token[:12]}"] [data-testid=stCode]').first
    listed.wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert listed.inner_text().strip() == link, "History shows the link the Share popover made"

    b.goto(listed.inner_text().strip())
    b.get_by_text("Shared FinSearch answer (read-only)").wait_for(timeout=ANSWER_TIMEOUT_MS)
    b.get_by_text(QUESTION).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    b.get_by_text(re.compile(r"^References \(\d+\)$")).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert b.get_by_test_id("stChatInputTextArea").count() == 0, "read-only: no chat"
    assert b.get_by_role("button", name=re.compile(r"Delete|Share$|Create share link")).count() == 0
    open_history(b, server)
    b.get_by_text("No answers yet").wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert b.get_by_text(QUESTION).count() == 0, "opening a share link does not put it in B's History"

    guessed = token[:-6] + ("AAAAAA" if not token.endswith("AAAAAA") else "BBBBBB")
    b.goto(f"{server}/?s={guessed}")
    b.get_by_text(NOT_FOUND).wait_for(timeout=ANSWER_TIMEOUT_MS)
    assert b.get_by_text(QUESTION).count() == 0

