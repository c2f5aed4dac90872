"""Many people at once on one server (sample pack, scripted model): every session finishes
and shows its own answer. Before the fix, finished turns stayed in their polling fragment
and were redrawn twice a second in every session; with 8 sessions most never finished.

Times from Enter to the finished state are written to test-artifacts/load-<n>.json (p50,
p90, max) for the record; the test asserts completeness and isolation, not speed."""

from __future__ import annotations

import json
import re
import statistics
import time

import pytest

from finsearch.model.loopback import LoopbackModel, Reply
from tests.browser_kit import ARTIFACTS, running_app, statuses
from tests.conftest import DEMO_PACK

pytestmark = pytest.mark.browser

LABELS = "abcdefghijklmnopqrstuvwxyz"     # one per session

QUESTIONS = ["Why did NVDA fall last week?", "Compare AAPL and MSFT year to date", "What's the latest news on Tesla?",
             "贵州茅台最近一个月表现如何？", "How is MSFT doing this month?", "Why did TSLA drop last week?",
             "AAPL price last month", "NVDA news this week", "How did Apple do last week?", "Tesla stock this month",
             "Microsoft latest news", "Compare NVDA and TSLA last month", "Apple vs Microsoft last week",
             "茅台股价走势", "NVIDIA performance this quarter", "What happened to Tesla in October?"]


@pytest.fixture(scope="module")
def model():
    """Plans and rewrites that fall back to the rules (answers are scripted by each test)."""
    server = LoopbackModel()
    server.on("plan", Reply(content="no JSON", delay_s=0.3))
    server.on("rewrite", Reply(content="no JSON", delay_s=0.3))
    yield server.start()
    server.stop()


def label(n: int) -> str:
    return LABELS[n]


def numbered_answers(model: LoopbackModel, count: int) -> int:
    """The next `count` answers are «a», «b», … in the order they are asked for, streamed at a
    model's pace so sessions overlap; returns how many requests came before them. (Letters, not
    numbers: the audit marks a number no source holds, and the mark would split it.)"""
    model.on("answer", *[Reply(stream_pieces=["Answer ", "labelled ", f"«{label(n)}» ", "[1]."], token_delay_s=0.15)
                         for n in range(count)])
    return len(model.requests)


def shown_answer(page, timeout_s: float = 30) -> list[str]:
    """The chat's markdown once the finished turn's answer is drawn: its header (with the
    "done" state) reaches the page before the answer below it does on a busy machine."""
    deadline = time.monotonic() + timeout_s
    while True:
        texts = page.locator("[data-testid=stChatMessage] [data-testid=stMarkdownContainer]").all_inner_texts()
        if re.search(r"«[a-z]»", "\n".join(texts)) or time.monotonic() > deadline:
            return texts
        time.sleep(0.2)


@pytest.fixture(scope="module")
def app(tmp_path_factory, model):
    with running_app(tmp_path_factory.mktemp("load"), FINSEARCH_PACK=str(DEMO_PACK), FINSEARCH_OFFLINE="1",
                     FINSEARCH_NOW="2024-10-15T20:00:00Z", FINSEARCH_REPLAY_DELAY_MS="300",
                     OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="test-key") as running:
        yield running


@pytest.mark.timeout(600)
# 8 at once: where most sessions never finished before the fix. 16 cost the suite another ~20 s for the
# same path under more contention; the opt-in load test (test_browser_replicas, -m load) runs 16.
@pytest.mark.parametrize("sessions", [8])
def test_every_session_finishes_with_its_own_answer(browser, app, model, sessions):
    before = numbered_answers(model, sessions)
    opened = time.monotonic()
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(sessions)]
    pages = [c.new_page() for c in contexts]
    try:
        for page in pages:
            page.goto(app.url)
        for page in pages:
            page.get_by_test_id("stChatInputTextArea").wait_for(timeout=120_000)
        print(f"\n{sessions} pages ready in {time.monotonic() - opened:.1f} s")
        asked, started = {}, {}
        for i, page in enumerate(pages):
            asked[i] = QUESTIONS[i % len(QUESTIONS)]
            box = page.get_by_test_id("stChatInputTextArea")
            box.fill(asked[i])
            box.press("Enter")
            started[i] = time.monotonic()
        finished: dict[int, float] = {}
        deadline = time.monotonic() + 240
        while len(finished) < sessions and time.monotonic() < deadline:
            for i, page in enumerate(pages):
                if i not in finished and (statuses(page) or [""])[-1] == "done":
                    finished[i] = time.monotonic() - started[i]
            time.sleep(0.2)
        stuck = {asked[i]: statuses(p) for i, p in enumerate(pages) if i not in finished}
        assert not stuck, f"sessions that never finished: {stuck}"
        answered = [r for r, kind in zip(model.requests[before:], model.kinds()[before:], strict=True)
                    if kind == "answer"]
        assert len(answered) == sessions, "one answer call per session"
        for i, page in enumerate(pages):
            answer = shown_answer(page)
            shown = re.findall(r"«([a-z])»", "\n".join(answer))
            if not shown and any("heuristic backend" in text for text in answer):
                # Past its deadline on a loaded server the run answers by the rules, and says so:
                # still its own answer, to its own question (the model's came too late to use).
                assert asked[i] in answer, f"session {i} shows its own question: {answer}"
                continue
            assert len(shown) == 1, f"session {i} shows one answer, not {shown}: {answer}"
            prompt = answered[LABELS.index(shown[0])]["messages"][1]["content"]
            assert asked[i] in prompt, f"session {i} shows the answer written for its question"
        times = sorted(finished.values())
        record = {"sessions": sessions, "p50_s": round(statistics.median(times), 2),
                  "p90_s": round(times[max(0, int(round(0.9 * len(times))) - 1)], 2), "max_s": round(times[-1], 2)}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"load-{sessions}.json").write_text(json.dumps(record) + "\n")
        print(f"\n{sessions} sessions: {record}")
    finally:
        for context in contexts:
            context.close()
