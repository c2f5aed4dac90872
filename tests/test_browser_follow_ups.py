"""Suggested follow-ups in real Chromium (the sample pack, offline): three questions under a
finished answer, in its language; a click asks one as the next turn of the same chat, answered
about the instrument it names (issue 29 item 14)."""

from __future__ import annotations

import re

import pytest

from tests.browser_kit import SAMPLE, ask, open_page, running_app, statuses, wait_for_answer, wait_status

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # Each replayed call takes a moment, so the next turn is seen running before it is answered.
    with running_app(tmp_path_factory.mktemp("follow-ups"), **SAMPLE, FINSEARCH_REPLAY_DELAY_MS="1500") as app:
        yield app.url


def suggestions(page, turn: int = -1):
    """The buttons of the `turn`-th answer's suggestions, once they are drawn."""
    row = page.locator('[class*="-follow-ups"]').nth(turn)
    row.wait_for(timeout=120_000)
    return row.get_by_role("button")


def texts(buttons) -> list[str]:
    """What the buttons say (their label, not the icon's name)."""
    return [t.replace("\u2060", "").strip()
            for t in buttons.locator("[data-testid=stMarkdownContainer]").all_inner_texts()]


def test_three_suggestions_under_an_answer_and_a_click_asks_the_next_turn(browser, server, request):
    page = open_page(browser, request)
    ask(page, server, "How did NVDA do last week?")
    wait_for_answer(page)
    buttons = suggestions(page)
    assert texts(buttons) == [
        "Compare NVIDIA and AMD last week", "Why did NVIDIA fall last week?", "What do analysts say about NVIDIA?"]

    buttons.nth(1).click()
    page.wait_for_function("document.querySelectorAll('[class*=\"st-key-turn-\"]').length > 1", timeout=60_000)
    messages = page.get_by_test_id("stChatMessage")
    assert messages.nth(2).get_by_test_id("stChatMessageContent").inner_text().strip() == \
        "Why did NVIDIA fall last week?"
    # While it is answered, the first answer's suggestions wait, as the chat input does.
    assert statuses(page)[-1] not in ("done", "stopped")
    assert suggestions(page, 0).first.is_disabled()

    wait_status(page, ("done", "stopped"))
    answer = messages.last.inner_text().replace("\u2060", "")
    assert "NVIDIA (NVDA)" in answer and "fell" in answer, answer
    assert "Why did NVIDIA fall last week?" not in texts(suggestions(page))   # not asked twice
    assert suggestions(page, 0).first.is_enabled()


def test_a_chinese_question_gets_chinese_suggestions(browser, server, request):
    page = open_page(browser, request)
    ask(page, server, "贵州茅台最近一个月表现如何？")
    wait_status(page, ("done", "stopped"))
    shown = texts(suggestions(page))
    assert shown == ["贵州茅台和五粮液最近一个月走势对比", "贵州茅台最近一个月为什么上涨？", "分析师怎么看贵州茅台？"]
    assert not any(re.search(r"[A-Za-z]", t) for t in shown)
