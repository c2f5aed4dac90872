"""How the live search graph reaches the screen, measured in real Chromium.

Starts the app on the demo pack with replayed calls slowed (`--delay-ms`), asks a question,
and reads the graph's SVG every `--every-ms` (each node's state, painted colour, place and
the engine's start/finish offsets). Per run it reports: Enter → first graph on screen,
engine event → screen for each node's running and done states (the screen time minus the
engine's offset from Enter: an upper bound, the run starts a little after Enter), whether
each node was seen grey or amber before green, whether any node moved, and how many times
the graph's frame was loaded. Medians over `--runs`.

    python scripts/live_graph_probe.py --runs 5 --delay-ms 1200
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser_kit import ask, chromium, graph_frame, graph_nodes, running_app, statuses  # noqa: E402
from tests.conftest import DEMO_PACK  # noqa: E402


def one_run(page, url: str, question: str, every_ms: int) -> dict:
    ask(page, url, question)
    entered = time.monotonic()
    first_graph = None
    seen: dict[str, list[tuple[str, float]]] = {}
    places: dict[str, set] = {}
    loads: set[float] = set()
    while time.monotonic() - entered < 300:
        now = time.monotonic() - entered
        nodes = graph_nodes(page)
        frame = graph_frame(page)
        if nodes and frame is not None:
            first_graph = first_graph if first_graph is not None else now
            try:
                loads.add(frame.evaluate("() => performance.timeOrigin"))
            except Exception:   # the frame is being replaced: count it next time
                pass
        for node in nodes:
            if node["status"] == "question":
                continue
            states = seen.setdefault(node["id"], [])
            if not states or states[-1][0] != node["status"]:
                states.append((node["status"], now))
            places.setdefault(node["id"], set()).add((node["x"], node["y"], round(node["cx"]), round(node["cy"])))
        done = nodes and all(n["status"] in ("done", "failed", "skipped", "question") for n in nodes)
        if done and (statuses(page) or [""])[-1] in ("done", "stopped", "failed"):
            break
        page.wait_for_timeout(every_ms)
    return {"first_graph_s": first_graph, "frame_loads": len(loads),
            "grey_or_amber_before_green": all(s[0][0] in ("pending", "running") for s in seen.values()),
            "moved": sorted(i for i, p in places.items() if len(p) > 1),
            "states": {i: [s for s, _ in states] for i, states in seen.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--delay-ms", default="1200")
    parser.add_argument("--every-ms", type=int, default=200)
    parser.add_argument("--question", default="Why did NVDA fall last week?")
    parser.add_argument("--warm-up", default="Compare AAPL and MSFT year to date",
                        help="asked first, untimed: imports and the first chart are not measured")
    args = parser.parse_args()
    env = {"FINSEARCH_PACK": str(DEMO_PACK), "FINSEARCH_OFFLINE": "1", "FINSEARCH_NOW": "2024-10-15T20:00:00Z",
           "FINSEARCH_REPLAY_DELAY_MS": args.delay_ms}
    with running_app(Path(tempfile.mkdtemp()), **env) as app, chromium() as browser:
        warm = browser.new_page()
        one_run(warm, app.url, args.warm_up, args.every_ms)
        warm.close()
        runs = []
        for _ in range(args.runs):
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            runs.append(one_run(page, app.url, args.question, args.every_ms))
            page.close()
            print(json.dumps(runs[-1]), flush=True)

    def median(values):
        return round(statistics.median(values), 2) if values else None

    print(json.dumps({
        "load_average": os.getloadavg()[0], "runs": len(runs),
        "first_graph_s_median": median([r["first_graph_s"] for r in runs if r["first_graph_s"] is not None]),
        "all_grey_or_amber_before_green": all(r["grey_or_amber_before_green"] for r in runs),
        "any_moved": any(r["moved"] for r in runs),
        "frame_loads_max": max(r["frame_loads"] for r in runs)}))


if __name__ == "__main__":
    main()
