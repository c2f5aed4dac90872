"""Real-browser test of the interpretation bar: a stored run read "SOL" as the listed stock
and offers Solana; one click on the switch re-plans the question as a new turn, whose graph
searches SOL-USD. Playwright drives Debian's Chromium against the app on the demo pack."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser_kit import (
    ANSWER_TIMEOUT_MS,
    click_graph_node,
    open_page,
    running_app,
    statuses,
    wait_graph,
    wait_status,
)
from tests.interpretation_seed import seed_ambiguous_sol

pytestmark = pytest.mark.browser

FAILED = [0xD6, 0x45, 0x45]       # ui/graph_view.COLOURS["failed"]: the pack holds no SOL-USD data
SAMPLE = {"FINSEARCH_OFFLINE": "1", "FINSEARCH_NOW": "2024-10-15T20:00:00Z"}


@pytest.fixture
def page(browser, request):
    return open_page(browser, request, height=1600)


def wait_turns(page, count: int, wanted: str = "done") -> None:
    """Wait until the page shows `count` turns, the last one in state `wanted`."""
    deadline = time.monotonic() + ANSWER_TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        current = statuses(page)
        if len(current) == count and current[-1] == wanted:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never {count} turns with the last {wanted}: {statuses(page)}")


def click_failed_node_of_last_graph(page) -> None:
    def painted_failed(nodes):
        return [n for n in nodes if n["status"] == "failed" and n["fill"] == FAILED]

    nodes = wait_graph(page, painted_failed)       # the re-planned graph is drawn, with its failed searches
    click_graph_node(page, painted_failed(nodes)[0]["id"])


def test_switching_an_ambiguous_symbol_re_plans_the_graph(page, tmp_path):
    from tests.conftest import DEMO_PACK

    conversation = seed_ambiguous_sol(tmp_path / "data")
    with running_app(tmp_path, **SAMPLE, FINSEARCH_PACK=str(DEMO_PACK)) as app:
        page.goto(f"{app.url}/?c={conversation}")
        page.get_by_text("SOL = Emeren Group (SOL)").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        wait_status(page, "done")
        page.get_by_role("button", name=re.compile(r"switch to Solana \(SOL-USD\)")).first.click()
        wait_turns(page, 2)
        page.get_by_text("Solana (SOL-USD): your choice").first.wait_for(timeout=60_000)
        page.get_by_text("Re-planned with SOL as SOL-USD").first.wait_for(timeout=60_000)
        click_failed_node_of_last_graph(page)
        sub_query = page.get_by_text(re.compile(r"^Sub-query: .*Solana \(SOL-USD\)")).first
        sub_query.wait_for(timeout=60_000)
        assert "SOL-USD" in sub_query.inner_text()
