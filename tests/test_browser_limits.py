"""Limits a script cannot shed, in a real browser (issue 31 item 3).

Three fresh browser contexts (no cookie: each is a new visitor to the app) ask from one network
(loopback) under a limit of one question per visitor and one per network: the first is answered,
the second and third are refused, saying when they may ask again (the third in Chinese, as it
asked). Before, a new identity per context meant a new allowance: all three were answered.

And the operator's model budget: with the loopback model and a budget of one call a day, the plan
is the one call made, the answer's call is never sent (the loopback logs what it gets), and the
answer's notes say the budget is used up and when it resets.
"""

from __future__ import annotations

import re
import time

import pytest

from finsearch.model.loopback import LoopbackModel, Reply
from tests.browser_kit import (
    ANSWER_TIMEOUT_MS,
    SAMPLE,
    ask,
    open_page,
    running_app,
    statuses,
    wait_for_answer,
)

pytestmark = pytest.mark.browser

QUESTION = "Why did NVDA fall last week?"
CHINESE = "贵州茅台最近一个月表现如何？"
REFUSED = re.compile(r"Your network has asked the most questions this server allows from one network \(1 in 1 hour, "
                     r"whoever asked them\)\. You can ask again in (\d+) minutes? \(at (\d\d:\d\d) UTC\)\.")
REFUSED_ZH = re.compile(r"您所在的网络已达到本服务器对单个网络允许的提问次数上限（1 小时内 1 个问题，不论由谁提出）。"
                        r"(\d+) 分钟后（UTC (\d\d:\d\d)）可以再次提问。")


@pytest.fixture(scope="module")
def limited_app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("limits"), **SAMPLE, FINSEARCH_QUESTION_LIMIT="1",
                     FINSEARCH_NETWORK_QUESTION_LIMIT="1") as app:
        yield app.url


def next_hour(at: float) -> str:
    """The UTC clock time the hour holding `at` ends, as the refusal writes it."""
    return time.strftime("%H:%M", time.gmtime((int(at) // 3600 + 1) * 3600))


def refusal_shown(page, pattern: re.Pattern) -> re.Match:
    said = page.get_by_text(pattern).first
    said.wait_for(timeout=ANSWER_TIMEOUT_MS)
    return pattern.search(said.inner_text())


@pytest.mark.timeout(600)
def test_three_cookieless_browsers_on_one_network_get_one_answer(browser, request, limited_app):
    first, second, third = (open_page(browser, request) for _ in range(3))
    assert first.context.cookies() == []
    ask(first, limited_app, QUESTION)
    wait_for_answer(first)
    assert "finsearch_visitor" in [c["name"] for c in first.context.cookies()], "the first visitor kept a cookie"

    for page, question, refused in ((second, QUESTION, REFUSED), (third, CHINESE, REFUSED_ZH)):
        assert not page.context.cookies(), "a fresh context sends no visitor cookie: a new identity"
        before = time.time()
        ask(page, limited_app, question)
        match = refusal_shown(page, refused)
        minutes, at = int(match.group(1)), match.group(2)
        assert 1 <= minutes <= 60 and at in {next_hour(before), next_hour(time.time())}
        assert statuses(page) == [], "nothing was started"
        assert page.get_by_test_id("stChatMessage").count() == 0


PLAN = Reply(content='{"nodes": [{"id": "n1", "source": "price_history", "depends_on": [], '
                     '"sub_query": "NVDA price last week", "args": {"ticker": "NVDA", "start": "2024-10-07", '
                     '"end": "2024-10-11"}}]}')


@pytest.fixture(scope="module")
def model():
    server = LoopbackModel(default=Reply(content="no JSON today")).start()
    server.on("plan", PLAN)
    server.on("answer", Reply(stream_pieces=["NVIDIA's model-written answer [1]."]))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def budget_app(tmp_path_factory, model):
    with running_app(tmp_path_factory.mktemp("model-budget"), **SAMPLE, OPENAI_BASE_URL=model.base_url,
                     OPENAI_API_KEY="operator-key", FINSEARCH_MODEL_CALLS_PER_DAY="1") as app:
        yield app.url


def clear_of_midnight() -> None:
    """A day's budget starts again at 00:00 UTC: begin far enough from it that the run is in one day."""
    left = 86400 - time.time() % 86400
    if left < 300:
        time.sleep(left + 1)


@pytest.mark.timeout(600)
def test_the_call_past_the_model_budget_is_never_sent_and_the_answer_says_so(browser, request, budget_app, model):
    clear_of_midnight()
    page = open_page(browser, request)
    ask(page, budget_app, QUESTION)
    wait_for_answer(page)
    assert model.kinds() == ["plan"], "the answer's call would have been the second today"
    assert page.get_by_text("NVIDIA's model-written answer").count() == 0, "the rules wrote the answer"
    note = re.compile(r"The server's model budget is used up \(1 model call a day\), so the rest of this answer was "
                      r"written by the rules without the model\. It resets in \d+ (hours?|minutes?) \(at 00:00 UTC\)\.")
    said = page.get_by_text(note).first
    if not said.is_visible():
        page.get_by_text(re.compile("What went wrong or was skipped")).first.click()
    said.wait_for(timeout=30_000)
