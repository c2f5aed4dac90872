"""Two replicas as one site, in a real browser: two `streamlit run` servers on different ports
share one real redis-server (and nothing else: each has its own data and cache folders).

1. One person (one browser context, so one identity cookie) asks on A; the `?c=` link opens
   the same conversation on B, and B's History lists A's run.
2. Load (bounded, loopback only): 16 people (16 contexts, 16 identities), 8 on each replica,
   ask 16 different sample-pack questions at once; every session finishes with its own answer
   and no other's. Time from Enter to the finished state is printed and written to
   test-artifacts/load-replicas-16.json (p50, p90, max); nothing asserts on speed. It takes
   minutes on two cores, so it is opt-in: `pytest -m load` (pyproject's markers).

Answers come from the heuristic backend on the demo pack, so each one's lead sentence is
known: written out below by hand, one per question, none of them found in another's answer.
"""

from __future__ import annotations

import json
import re
import statistics
import time

import pytest
from playwright.sync_api import expect

from tests.browser_kit import (
    ANSWER_TIMEOUT_MS,
    ARTIFACTS,
    REFERENCES,
    ask,
    running_app,
    screenshot_on_failure,
    statuses,
    wait_for_answer,
)
from tests.conftest import DEMO_PACK
from tests.redis_kit import running_redis

pytestmark = pytest.mark.browser

COOKIE = "finsearch_visitor"
QUESTION = "How is MSFT doing this month?"

# Each question's answer starts with its lead; each lead names its own company and ticker.
LEADS = {
    "Why did NVDA fall last week?": "NVIDIA (NVDA) fell 4.70% on 2024-10-11",
    "贵州茅台最近一个月表现如何？": "贵州茅台（600519.SS）最近一个月",
    QUESTION: "Microsoft (MSFT) rose 8.58% this month",
    "Why did TSLA drop last week?": "Tesla (TSLA) fell 8.80% on 2024-10-11",
    "AAPL price last month": "Apple (AAPL) rose 8.24% last month",
    "How did Apple do last week?": "Apple (AAPL) fell 1.00% last week",
    "Tesla stock this month": "Tesla (TSLA) fell 15.82% this month",
    "Microsoft price last week": "Microsoft (MSFT) rose 8.34% last week",
    "茅台股价走势": "茅台（600519.SS）近期",
    "NVIDIA performance this quarter": "NVIDIA (NVDA) fell 11.02% this quarter",
    "Apple stock this month": "Apple (AAPL) fell 4.46% this month",
    "How did Microsoft do last month?": "Microsoft (MSFT) rose 3.22% last month",
    "Kweichow Moutai price last week": "Kweichow Moutai (600519.SS) fell 2.16% last week",
    "Tesla stock last month": "Tesla (TSLA) fell 1.70% last month",
    "NVDA price last month": "NVIDIA (NVDA) fell 9.26% last month",
    "Moutai last month": "Kweichow Moutai (600519.SS) rose 17.34% last month",
}
SESSIONS = 16
LOAD_DEADLINE_S = 420


@pytest.fixture(scope="module")
def redis(tmp_path_factory):
    yield from running_redis(tmp_path_factory.mktemp("redis"))


@pytest.fixture(scope="module")
def replicas(tmp_path_factory, redis):
    """Replicas A and B: the sample pack offline, a small replay delay so runs overlap without
    making 16 of them on two shared cores take minutes."""
    env = {"FINSEARCH_PACK": str(DEMO_PACK), "FINSEARCH_OFFLINE": "1", "FINSEARCH_NOW": "2024-10-15T20:00:00Z",
           "FINSEARCH_REPLAY_DELAY_MS": "50", "FINSEARCH_REDIS_URL": redis.url}
    with running_app(tmp_path_factory.mktemp("replica-a"), **env) as a, \
            running_app(tmp_path_factory.mktemp("replica-b"), **env) as b:
        assert a.port != b.port
        yield a, b


def answer_text(page) -> str:
    return "\n".join(page.locator("[data-testid=stChatMessage] [data-testid=stMarkdownContainer]").all_inner_texts())


@pytest.mark.timeout(600)
def test_a_conversation_started_on_a_restores_on_b_and_b_history_lists_it(browser, replicas, request):
    a, b = replicas
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        ask(page, a.url, QUESTION)
        wait_for_answer(page)
        page.wait_for_url(re.compile(r"\?c="), timeout=ANSWER_TIMEOUT_MS)
        conversation = page.evaluate("() => new URLSearchParams(location.search).get('c')")
        assert LEADS[QUESTION] in answer_text(page)

        # Cookies are scoped to a host, not a port (RFC 6265 §8.5): the cookie A's page set on
        # 127.0.0.1 is sent to B as well. The test relies on that, and checks it here, rather
        # than copying the cookie across with add_cookies.
        on_a = [c["value"] for c in context.cookies(a.url) if c["name"] == COOKIE]
        on_b = [c["value"] for c in context.cookies(b.url) if c["name"] == COOKIE]
        assert len(on_a) == 1 and on_b == on_a, "one identity for both replicas"

        page.goto(f"{b.url}/?c={conversation}")                # the same conversation, on B
        wait_for_answer(page)
        assert page.get_by_test_id("stChatMessage").count() == 2, "the question and its answer, restored"
        page.get_by_test_id("stChatMessage").first.get_by_text(QUESTION).wait_for(timeout=ANSWER_TIMEOUT_MS)
        assert LEADS[QUESTION] in answer_text(page)

        page.goto(f"{b.url}/history")                          # B lists A's run
        page.get_by_text("Your answers in this browser").wait_for(timeout=ANSWER_TIMEOUT_MS)
        page.get_by_text(QUESTION).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        # One run (A's), theirs to delete: its row's buttons are drawn after its question.
        expect(page.get_by_role("button", name=re.compile("Delete"))).to_have_count(1, timeout=ANSWER_TIMEOUT_MS)
        assert page.get_by_text("No answers yet").count() == 0
    finally:
        screenshot_on_failure(request, page)
        context.close()


def percentile(times: list[float], share: float) -> float:
    """Nearest-rank percentile of sorted times."""
    return times[max(0, int(round(share * len(times))) - 1)]


@pytest.mark.load           # about 3 minutes on two busy cores: opt-in, `pytest -m load`
@pytest.mark.timeout(600)
def test_sixteen_people_across_two_replicas_each_get_their_own_answer(browser, replicas, request):
    questions = list(LEADS)
    assert len(questions) == SESSIONS and len(set(LEADS.values())) == SESSIONS
    servers = [replicas[i % 2] for i in range(SESSIONS)]               # 8 on A, 8 on B
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(SESSIONS)]
    pages = [c.new_page() for c in contexts]
    try:
        opened = time.monotonic()
        for page, server in zip(pages, servers, strict=True):
            page.goto(server.url)
        for page in pages:
            page.get_by_test_id("stChatInputTextArea").wait_for(timeout=ANSWER_TIMEOUT_MS)
        print(f"\n{SESSIONS} pages ready in {time.monotonic() - opened:.1f} s")
        started: dict[int, float] = {}
        for i, page in enumerate(pages):
            box = page.get_by_test_id("stChatInputTextArea")
            box.fill(questions[i])
            box.press("Enter")
            started[i] = time.monotonic()
        finished: dict[int, float] = {}
        deadline = time.monotonic() + LOAD_DEADLINE_S
        while len(finished) < SESSIONS and time.monotonic() < deadline:
            for i, page in enumerate(pages):
                if i not in finished and (statuses(page) or [""])[-1] == "done":
                    finished[i] = time.monotonic() - started[i]
            time.sleep(0.2)
        stuck = {questions[i]: statuses(p) for i, p in enumerate(pages) if i not in finished}
        assert not stuck, f"sessions that never finished: {stuck}"

        for i, page in enumerate(pages):
            page.get_by_text(REFERENCES).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
            assert page.get_by_test_id("stChatMessage").count() == 2, f"session {i}: one question, one answer"
            shown = answer_text(page)
            assert LEADS[questions[i]] in shown, f"session {i} ({questions[i]}) shows its own answer: {shown[:300]}"
            others = [lead for q, lead in LEADS.items() if q != questions[i] and lead in shown]
            assert not others, f"session {i} ({questions[i]}) shows another session's answer: {others}"

        times = sorted(finished.values())
        record = {"sessions": SESSIONS, "replicas": 2, "p50_s": round(statistics.median(times), 2),
                  "p90_s": round(percentile(times, 0.9), 2), "max_s": round(times[-1], 2),
                  "per_replica_p50_s": [round(statistics.median(sorted(t for i, t in finished.items()
                                                                         if i % 2 == r)), 2) for r in (0, 1)]}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"load-replicas-{SESSIONS}.json").write_text(json.dumps(record) + "\n")
        print(f"\n{SESSIONS} sessions on 2 replicas: {record}")
    finally:
        screenshot_on_failure(request, pages[0])
        for context in contexts:
            context.close()
