"""How fast the app's screens are, measured in real Chromium on the demo pack (offline).

Three figures, medians over `--runs`:
- **event → screen**: for every node of a slowed run (`--delay-ms` per replayed call), the time
  it was first seen running and first seen done on the page, minus the engine's own offset for
  that change (the stored run's `started_ms` / `finished_ms`). Both are counted from Enter, and
  the engine's run starts a little after Enter, so each lag is an upper bound.
- **Enter → answer**: a sample-pack question with no delay, from Enter until the turn is done
  and its answer text is on the page, timed in the page (the Enter key's event to the DOM change).
- **restore**: a conversation of five turns opened by its `?c=` link in a new tab, until all
  five turns are done, with their answers and graphs drawn (`restore_5_turns_s`), and until the
  latest turn's K-line is drawn too (`restore_with_chart_s`; a restored page keeps every chart
  behind its toggle, which this clicks), timed in the page from opening the link.

    python scripts/bench_ui.py --runs 5
    python scripts/bench_ui.py --runs 5 --only answer restore     # leave out the slowed runs
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from finsearch.settings import from_env  # noqa: E402
from finsearch.store import open_store  # noqa: E402
from tests.browser_kit import ask, chromium, graph_nodes, running_app, statuses, wait_for_answer  # noqa: E402
from tests.conftest import DEMO_PACK  # noqa: E402

SLOW_QUESTION = "Why did NVDA fall last week?"
QUICK_QUESTION = "How did AAPL do last month?"
TURNS = ("How did AAPL do last month?", "and MSFT?", "Why did NVDA fall last week?",
         "What's the latest news on Tesla?", "茅台最近一个月表现如何？")
ENDED = ("done", "stopped", "failed")
FIGURES = ("events", "answer", "restore")


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def _p90(values: list[float]) -> float | None:
    return round(sorted(values)[int(0.9 * (len(values) - 1))], 3) if values else None


def _stored_nodes(home: Path, question: str) -> dict[str, dict]:
    """The newest stored run of `question`: node id → its engine offsets (seconds)."""
    store = open_store(from_env({}, data_dir=home / "data", cache_dir=home / "cache"))
    summary = next(s for s in store.list(50) if s.question == question)
    run = store.load(summary.run_id)
    return {n.id: {"running": (n.started_ms or 0) / 1000, "done": (n.finished_ms or 0) / 1000} for n in run.graph}


def event_lags(page, url: str, home: Path, every_ms: int) -> list[float]:
    """One slowed run: the screen-minus-engine lag of every running and done state seen."""
    ask(page, url, SLOW_QUESTION)
    entered = time.monotonic()
    seen: dict[tuple[str, str], float] = {}
    while time.monotonic() - entered < 300:
        now = time.monotonic() - entered
        for node in graph_nodes(page):
            state = "done" if node["status"] in ("done", "failed") else node["status"]
            seen.setdefault((node["id"], state), now)
        if (statuses(page) or [""])[-1] in ENDED:
            break
        page.wait_for_timeout(every_ms)
    engine = _stored_nodes(home, SLOW_QUESTION)
    return [max(0.0, at - engine[node][state]) for (node, state), at in seen.items()
            if node in engine and state in ("running", "done")]


QUICK_ANSWER = r"Apple \(AAPL\) (?:rose|fell)"
# Timed by the page itself, from the Enter key's event to the DOM change that shows the turn
# done with its answer: timed from here, each poll of the page adds up to 0.5 s on a busy machine.
ANSWER_CLOCK = """(pattern) => {
  const answer = new RegExp(pattern);
  window.__answered = null;
  document.addEventListener('keydown', e => { if (e.key === 'Enter') window.__entered = performance.now(); },
                            {capture: true, once: true});
  const look = () => {
    const done = [...document.querySelectorAll('[class*="st-key-turn-"]')]
      .some(e => /st-key-turn-\\S+-done\\b/.test(e.className));
    if (window.__answered === null && done
        && [...document.querySelectorAll('[data-testid=stChatMessage] p')].some(p => answer.test(p.textContent)))
      window.__answered = performance.now();
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


def enter_to_answer(page, url: str) -> float:
    page.goto(url)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=120_000)
    page.evaluate(ANSWER_CLOCK, QUICK_ANSWER)
    box.fill(QUICK_QUESTION)
    box.press("Enter")
    wait_for_answer(page)
    page.get_by_text(re.compile(QUICK_ANSWER)).first.wait_for(timeout=120_000)
    page.wait_for_function("() => window.__answered !== null", timeout=10_000)
    return page.evaluate("(window.__answered - window.__entered) / 1000")


def conversation_link(page, url: str) -> str:
    """Ask the five turns in one tab; the page's `?c=` link."""
    page.goto(url)
    for n, question in enumerate(TURNS, start=1):
        box = page.get_by_test_id("stChatInputTextArea")
        box.wait_for(timeout=120_000)
        page.wait_for_function("() => !document.querySelector('[data-testid=stChatInputTextArea]').disabled",
                               timeout=120_000)
        box.fill(question)
        box.press("Enter")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and [s for s in statuses(page) if s in ENDED].__len__() < n:
            page.wait_for_timeout(200)
    page.wait_for_url(re.compile(r"\?c="), timeout=60_000)
    return page.url


# The page's own clock (milliseconds since the link was opened), checked every 20 ms: when every
# turn has ended with its graph's nodes drawn in its frame (`__graphs`), and when the latest
# turn's K-line has drawn (`__chart`). Timed from Python, the polls took 1-2 s of their own.
RESTORE_CLOCK = """(turns) => {
  window.__graphs = window.__chart = null;
  const ended = /st-key-turn-\\S+-(done|stopped|failed)\\b/;
  const look = () => {
    const now = performance.now();
    if (window.__graphs === null) {
      const done = [...document.querySelectorAll('[class*="st-key-turn-"]')].filter(e => ended.test(e.className));
      const frames = [...document.querySelectorAll('iframe[title$="search_graph"]')];
      const drawn = frames.filter(f => {
        try { return f.contentDocument.querySelector('g.node'); } catch (e) { return false; }
      });
      if (done.length >= turns && drawn.length >= turns) window.__graphs = now;
    }
    const messages = document.querySelectorAll('[data-testid=stChatMessage]');
    const latest = messages[messages.length - 1];
    if (window.__chart === null && latest && latest.querySelector('.js-plotly-plot .main-svg')) window.__chart = now;
    if (window.__graphs === null || window.__chart === null) setTimeout(look, 20);
  };
  look();
}"""


def restore(browser_context, link: str) -> tuple[float, float]:
    """Seconds from opening `link` until every turn is done with its graph drawn, and until the
    latest turn's K-line is drawn as well (opened by its toggle when the page folded it)."""
    page = browser_context.new_page()
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', () => ({RESTORE_CLOCK})({len(TURNS)}))")
    page.goto(link)
    page.wait_for_function("() => window.__graphs !== null", timeout=120_000)
    fold = page.get_by_test_id("stChatMessage").last.get_by_text("Show the price chart")
    if fold.count():
        fold.click()
    page.wait_for_function("() => window.__chart !== null", timeout=120_000)
    graphs, chart = page.evaluate("[window.__graphs / 1000, window.__chart / 1000]")
    page.close()
    return graphs, max(graphs, chart)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--delay-ms", default="800")
    parser.add_argument("--every-ms", type=int, default=50)
    parser.add_argument("--only", nargs="+", choices=FIGURES, default=FIGURES, help="the figures to measure")
    args = parser.parse_args()
    base = {"FINSEARCH_PACK": str(DEMO_PACK), "FINSEARCH_OFFLINE": "1", "FINSEARCH_NOW": "2024-10-15T20:00:00Z"}
    report: dict = {"load_average_at_start": round(os.getloadavg()[0], 2), "runs": args.runs}

    if "events" in args.only:
        report["event_to_screen_s"] = events(base, args)
    if "answer" in args.only or "restore" in args.only:
        report.update(answer_and_restore(base, args))
    report["load_average_at_end"] = round(os.getloadavg()[0], 2)
    print(json.dumps(report, indent=2))


def events(base: dict, args) -> dict:
    home = Path(tempfile.mkdtemp())
    with running_app(home, **base, FINSEARCH_REPLAY_DELAY_MS=args.delay_ms) as app, chromium() as browser:
        warm = browser.new_page()
        event_lags(warm, app.url, home, args.every_ms)          # untimed: the first run of a server
        warm.close()
        lags: list[float] = []
        for _ in range(args.runs):
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            lags += event_lags(page, app.url, home, args.every_ms)
            page.close()
    return {"median": _median(lags), "p90": _p90(lags), "events": len(lags)}


def answer_and_restore(base: dict, args) -> dict:
    report = {}
    home = Path(tempfile.mkdtemp())
    with running_app(home, **base) as app, chromium() as browser:
        warm = browser.new_page()
        enter_to_answer(warm, app.url)
        warm.close()
        if "answer" in args.only:
            answers = []
            for _ in range(args.runs):
                page = browser.new_page(viewport={"width": 1400, "height": 1400})
                answers.append(enter_to_answer(page, app.url))
                page.close()
            report["enter_to_answer_s"] = {"median": _median(answers), "max": round(max(answers), 3)}
        if "restore" in args.only:
            context = browser.new_context(viewport={"width": 1400, "height": 1400})
            link = conversation_link(context.new_page(), app.url)
            graphs, charts = zip(*(restore(context, link) for _ in range(args.runs)), strict=True)
            report["restore_5_turns_s"] = {"median": _median(list(graphs)), "max": round(max(graphs), 3)}
            report["restore_with_chart_s"] = {"median": _median(list(charts)), "max": round(max(charts), 3)}
    return report


if __name__ == "__main__":
    main()
