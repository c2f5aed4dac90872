"""Real-browser tests of the live search graph: it fills in before the reader's eyes (a node
is seen grey or amber before it is seen green), it keeps one frame and fixed positions while
the run goes, and a click on a node works mid-run.

The run is slowed so the live states last: replayed calls take 4 s each (the first node
runs, its two dependants wait for it), or a minute each for the click test, so the run is
certainly still going when the node is clicked. States are read from the graph itself
(each node's state and the colour its circle is painted), never guessed from timing.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser_kit import (
    GRAPH_FRAME,
    SAMPLE,
    ask,
    click_graph_node,
    graph_frame,
    graph_nodes,
    open_page,
    running_app,
    statuses,
    wait_graph,
    wait_status,
)

pytestmark = pytest.mark.browser

# The colours of ui/graph_view.COLOURS, written out by hand.
PAINT = {"pending": [0xB9, 0xBE, 0xC8], "running": [0xF2, 0xA9, 0x3B], "done": [0x2E, 0x9E, 0x5B]}
REWRITTEN = [0x8E, 0x44, 0xAD]      # ui/graph_view.REWRITTEN_BORDER
QUESTION = "Why did NVDA fall last week?"     # n1 (prices), then n2 and n3 after it


@pytest.fixture
def page(browser, request):
    return open_page(browser, request)


def frame_load_time(page) -> float | None:
    """When the graph's frame document was loaded (a new value: the frame was reloaded)."""
    frame = graph_frame(page)
    try:
        return frame.evaluate("() => performance.timeOrigin") if frame is not None else None
    except Exception:   # the frame is being replaced
        return None


def test_the_graph_fills_in_live_at_fixed_places_in_one_frame(page, tmp_path):
    with running_app(tmp_path, **SAMPLE, FINSEARCH_REPLAY_DELAY_MS="4000") as app:
        ask(page, app.url, QUESTION)
        seen: dict[str, list[str]] = {}          # node id -> the states it was seen painted in, in order
        places: dict[str, set[tuple]] = {}       # node id -> every position it was drawn at
        frames: set[float] = set()
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            state = (statuses(page) or [""])[-1]
            nodes = graph_nodes(page)
            for node in nodes:
                if node["status"] in PAINT:
                    assert node["fill"] == PAINT[node["status"]], f"{node['id']} is painted as its state"
                    states = seen.setdefault(node["id"], [])
                    if not states or states[-1] != node["status"]:
                        states.append(node["status"])
                places.setdefault(node["id"], set()).add((node["x"], node["y"], round(node["cx"]), round(node["cy"])))
            if nodes and (loaded := frame_load_time(page)) is not None:
                frames.add(loaded)
            if state == "done" and nodes and all(n["status"] in ("done", "question") for n in nodes):
                last = nodes
                break
            page.wait_for_timeout(150)
        else:
            raise AssertionError(f"the run did not finish with every node done; seen {seen}")

    assert set(seen) == {"n1", "n2", "n3"}
    for node_id, states in seen.items():
        assert states[-1] == "done"
        assert states[0] in ("pending", "running"), f"{node_id} was seen grey or amber before green: {states}"
    assert "pending" in seen["n2"] or "pending" in seen["n3"], "a dependent node waits, grey, for its parent"
    # n2 and n3 are rewritten from n1's prices (the day of the fall): ringed in violet.
    assert {n["id"] for n in last if n["ringed"] and n["stroke"] == REWRITTEN} == {"n2", "n3"}
    moved = {node_id: spots for node_id, spots in places.items() if len(spots) > 1}
    assert not moved, f"nodes stay where they were first drawn, on the page too: {moved}"
    assert len(frames) == 1, "one frame from the plan to the finished answer (no reload, no placeholder)"


def test_a_node_clicked_while_the_run_goes_shows_its_evidence_panel(page, tmp_path):
    with running_app(tmp_path, **SAMPLE, FINSEARCH_REPLAY_DELAY_MS="60000") as app:
        ask(page, app.url, QUESTION)
        wait_graph(page, lambda nodes: any(n["id"] == "n1" and n["status"] == "running" for n in nodes))
        click_graph_node(page, "n1")
        page.get_by_text(re.compile(r"^Sub-query: ")).first.wait_for(timeout=60_000)
        page.get_by_text("Waiting for results…").first.wait_for(timeout=60_000)
        assert statuses(page)[-1] == "running", "the panel opened while the run was still going"
        ringed = wait_graph(page, lambda nodes: any(n["selected"] for n in nodes))
        assert [n["id"] for n in ringed if n["selected"]] == ["n1"]
        assert page.locator(GRAPH_FRAME).count() == 1

        click_graph_node(page, "n2")            # another node, still mid-run: the panel follows
        page.get_by_text(re.compile(r"^n2 · ")).first.wait_for(timeout=60_000)
        n3 = page.frame_locator(GRAPH_FRAME).first.locator('g.node[data-id="n3"]')
        n3.focus()                              # and from the keyboard
        n3.press("Enter")
        page.get_by_text(re.compile(r"^n3 · ")).first.wait_for(timeout=60_000)
        page.get_by_role("button", name=re.compile("Stop")).click()
        wait_status(page, "stopped", timeout_ms=60_000)
