"""Bad data loses only itself: a malformed price row is dropped and counted, a payload that
cannot be used becomes a note, a bad timestamp makes one item undated, impossible dates in a
question or on the command line are clamped or refused with a reason. Whole runs on hostile
replay packs, through the pipeline, the chart code, the HTML export and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, timedelta

import pytest

from finsearch import pipeline
from finsearch.answer import charts
from finsearch.evidence import Evidence, sanitise
from finsearch.export import answer_html
from finsearch.payloads import clean_price_history
from finsearch.sources.replay import write_recording
from tests.conftest import NOW, ROOT


def weekdays(start: date, end: date) -> list[str]:
    days = (start + timedelta(days=i) for i in range((end - start).days + 1))
    return [d.isoformat() for d in days if d.weekday() < 5]


# Sixty sessions of plausible bars (a price history the pack's nearest-range replay can re-measure).
GOOD = [[day, 120.0 + i, 122.0 + i, 119.0 + i, 121.0 + i, 200_000_000 + i]
        for i, day in enumerate(weekdays(date(2024, 7, 22), date(2024, 10, 11)))]

MALFORMED = [
    ["2024-10-10", 1, 2, 3],                                 # too short
    ["2024-10-10", "131", "133", "130", "132", 1],           # prices as text
    [None, 131, 133, 130, 132, 1],                           # no date
    [20241014, 131, 133, 130, 132, 1],                       # a number for a date
    ["Monday", 131, 133, 130, 132, 1],                       # not a date
    ["2024-10-10", 131, 133, 130, None, 1],                  # no close
    ["2024-10-10", 131, 133, 130, 132, -5],                  # negative volume
    ["2024-10-10", 131, 128, 130, 132, 1],                   # high below low
    ["2024-10-10", True, 133, 130, 132, 1],                  # a boolean price
    "2024-10-10,131,133,130,132,1",                          # a row that is a string
    {"date": "2024-10-10", "close": 132},                    # a row that is an object
]


def prices(rows, **extra) -> dict:
    return {"title": "NVIDIA daily prices", "period": {"start": "2024-10-07", "end": "2024-10-13"},
            "data": {"ticker": "NVDA", "interval": "1d", "currency": "USD",
                     "columns": ["date", "open", "high", "low", "close", "volume"], "rows": rows,
                     "stats": {"return_pct": -2.1, "biggest_moves": [{"date": "2024-10-11", "change_pct": -4.7}]},
                     **extra}}


@pytest.mark.parametrize("row", MALFORMED, ids=range(len(MALFORMED)))
def test_each_malformed_row_is_dropped_and_counted(row):
    data, problems = clean_price_history(prices([*GOOD, row])["data"])
    assert data["rows"] == [[r[0], *map(float, r[1:5]), r[5]] for r in GOOD]
    assert problems == [f"1 of {len(GOOD) + 1} price rows for NVDA were malformed and were dropped"]


@pytest.mark.parametrize(("rows", "problem"), [
    ({"0": GOOD[0]}, "the price rows for NVDA were not a list and were left out"),
    ("not rows", "the price rows for NVDA were not a list and were left out"),
])
def test_rows_that_are_not_a_list_leave_no_rows_and_a_note(rows, problem):
    data, problems = clean_price_history(prices(rows)["data"])
    assert data["rows"] == [] and problems == [problem]


@pytest.mark.parametrize(("changes", "expected"), [
    ({"ticker": ["NVDA"]}, {"ticker": None}),
    ({"ticker": {"a": 1}, "currency": 5}, {"ticker": None, "currency": None}),
    ({"interval": ["1d"]}, {"interval": "1d"}),
    ({"stats": {"focus": "x", "return_pct": "high", "high": 10**400, "start_date": 7}},
     {"stats": {"biggest_moves": []}}),
])
def test_fields_others_read_are_of_their_type_or_absent(changes, expected):
    data, _ = clean_price_history({**prices(GOOD)["data"], **changes})
    for key, value in expected.items():
        assert data[key] == value


def test_integers_too_large_for_a_float_drop_their_row_only():
    data, problems = clean_price_history(prices([*GOOD, ["2024-10-10", 1, 2, 1, 10**400, 1],
                                                 ["2024-10-10", 1, 2, 1, 1, 10**400]])["data"])
    assert len(data["rows"]) == len(GOOD) and problems == [f"2 of {len(GOOD) + 2} price rows for NVDA were malformed "
                                                            "and were dropped"]


def test_moves_that_are_not_moves_are_dropped():
    raw = prices(GOOD)["data"]
    raw["stats"]["biggest_moves"] = [None, {"date": "2024-10-11"}, {"date": 5, "change_pct": 1},
                                     {"date": "2024-10-11", "change_pct": -4.7}]
    data, _ = clean_price_history(raw)
    assert data["stats"]["biggest_moves"] == [{"date": "2024-10-11", "change_pct": -4.7}]


@pytest.fixture
def hostile_pack(tmp_path):
    pack = tmp_path / "pack"
    write_recording(pack, "price_history", {"ticker": "NVDA", "start": "2024-09-01", "end": "2024-10-15"},
                    [prices([*GOOD, *MALFORMED])], NOW)
    write_recording(pack, "price_history", {"ticker": "AMD", "start": "2024-09-01", "end": "2024-10-15"},
                    [{**prices({"0": 1}), "data": {**prices({"0": 1})["data"], "ticker": "AMD"}}], NOW)
    write_recording(pack, "quote", {"ticker": "NVDA"}, [{"title": "NVDA quote", "data": {
        "ticker": "NVDA", "currency": "USD", "last": "a lot", "change_pct": -4.69, "market_cap": [1]}}], NOW)
    write_recording(pack, "news", {"ticker": "NVDA"}, [
        {"title": "Good story", "url": "https://e.test/good", "published": "2024-10-11T13:00:00Z"},
        {"title": "Year 10000", "url": "https://e.test/far", "published": 253402300800},
        {"title": "Huge stamp", "url": "https://e.test/huge", "published": 1e20},
        {"title": "Not a time", "url": "https://e.test/nan", "published": "NaN"},
        {"title": "Edge of time", "url": "https://e.test/edge", "published": "9999-12-31T23:00:00-05:00"},
        {"title": "A bool", "url": "https://e.test/bool", "published": True}], NOW)
    return pack


def test_a_run_on_hostile_data_answers_charts_and_exports(hostile_pack, settings):
    settings = settings.replace(pack=hostile_pack, offline=True)
    result = pipeline.ask("Compare NVDA and AMD last week", settings=settings)
    nvda = next(n for n in result.graph if n.source == "price_history" and n.args["ticker"] == "NVDA")
    rows = nvda.evidence[0].data["rows"]
    assert nvda.status.value == "done" and rows[-1][0] == "2024-10-11" and rows[-1][4] == 121.0 + len(GOOD) - 1
    assert any(f"{len(MALFORMED)} of {len(GOOD) + len(MALFORMED)} price rows for NVDA were malformed" in note
               for note in result.notes)
    assert any("price rows for AMD were not a list" in note for note in result.notes)
    assert [c["ticker"] for c in result.charts] == ["NVDA"]
    figures = charts.figures_for(result.graph)
    assert [title for title, _ in figures] == ["NVDA"]
    page = answer_html.render(result)
    assert "NVDA" in page and "Traceback" not in page


def test_one_bad_timestamp_makes_one_item_undated(hostile_pack):
    raw = json.loads(next(hostile_pack.glob("news-*.json")).read_text())["evidence"]
    items, _ = sanitise(raw, "news", "news")
    assert [(i.title, i.published) for i in items] == [
        ("Good story", "2024-10-11T13:00:00Z"), ("Year 10000", None), ("Huge stamp", None),
        ("Not a time", None), ("Edge of time", None), ("A bool", None)]


def test_a_quote_with_unusable_numbers_keeps_the_usable_ones():
    item = Evidence.from_untrusted({"title": "q", "data": {"ticker": "NVDA", "last": "a lot", "change_pct": -4.69,
                                                            "market_cap": [1]}}, source="quote", kind="finance")
    assert item.data["last"] is None and item.data["market_cap"] is None and item.data["change_pct"] == -4.69


def test_a_stored_run_with_bad_rows_still_loads(tmp_path, hostile_pack, settings):
    from finsearch.store import FileRunStore as RunStore

    result = pipeline.ask("Why did NVDA fall last week?", settings=settings.replace(pack=hostile_pack, offline=True))
    store = RunStore(tmp_path / "data")
    store.save(result)
    path = next((tmp_path / "data" / "runs").glob("*.json"))
    record = json.loads(path.read_text())
    for node in record["graph"]["nodes"]:
        for item in node.get("evidence") or []:
            if item.get("data") and "rows" in item["data"]:
                item["data"]["rows"] = {"tampered": True}
    path.write_text(json.dumps(record))
    loaded = store.load(result.run_id)
    assert loaded is not None and charts.chart_specs(loaded.graph) == []
    assert loaded.answer.references == result.answer.references


def run_cli(*args, tmp_path) -> subprocess.CompletedProcess:
    env = {"FINSEARCH_CACHE_DIR": str(tmp_path), "FINSEARCH_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "finsearch", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def test_the_cli_answers_on_hostile_data(hostile_pack, tmp_path):
    done = run_cli("ask", "Compare NVDA and AMD last week", "--now", "2024-10-15T20:00:00Z", "--offline",
                   "--pack", str(hostile_pack), "--json", tmp_path=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert [c["ticker"] for c in json.loads(done.stdout)["charts"]] == ["NVDA"]


@pytest.mark.parametrize("question", ["What happened to NVDA on 9999-12-31?", "NVDA from 0001-01-01 to 9999-12-31"])
def test_impossible_dates_in_a_question_are_clamped_and_said(question, tmp_path):
    done = run_cli("ask", question, "--now", "2024-10-15T20:00:00Z", "--offline", "--pack",
                   str(ROOT / "finsearch" / "demo_pack"), "--json", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["time_context"]["end"] == "2034-10-13"
    assert any("outside the range that can be searched" in note for note in out["notes"])


@pytest.mark.parametrize(("now", "message"), [
    ("0001-01-01", "finsearch: the time '0001-01-01' is out of range: use a time between 1900 and 2199"),
    ("9999-12-31T23:59:59-12:00", "finsearch: not an ISO time"),
    ("", "finsearch: the time is empty (example: 2024-10-15T20:00:00Z)"),
    ("yesterday", "finsearch: not an ISO time: 'yesterday' (example: 2024-10-15T20:00:00Z)"),
])
def test_a_bad_now_is_refused_with_a_reason(now, message, tmp_path):
    done = run_cli("plan", "Why did NVDA fall last week?", "--now", now, tmp_path=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith(message) and "Traceback" not in done.stderr


# -- any payload shape at all ------------------------------------------------------------------

FIELDS = ["ticker", "currency", "rows", "columns", "stats", "last", "market_cap", "lines", "history", "targets",
          "recommendations", "dividends", "ratios", "major", "institutional", "sector", "next_date", "matches",
          "focus", "biggest_moves", "date", "change_pct", "eps_reported", "amount", "mean", "holder", "pct", "symbol"]
LEAVES = [None, True, 0, -1, 1e308, 10**30, "x", "2024-10-11", "", 3.5, float("nan"), "NVDA", [], {}]


def shape(rng, depth=0):
    roll = rng.random()
    if depth > 4 or roll < 0.3:
        return rng.choice(LEAVES)
    if roll < 0.65:
        return {rng.choice(FIELDS): shape(rng, depth + 1) for _ in range(rng.randint(0, 6))}
    return [shape(rng, depth + 1) for _ in range(rng.randint(0, 5))]


@pytest.mark.parametrize("seed", range(4))
def test_no_payload_shape_crashes_the_answer_the_charts_or_the_rewriter(seed):
    """Random nested payloads for every source, through everything that reads them."""
    import random

    from finsearch.answer.generator import AnswerWriter
    from finsearch.catalogue import CATALOGUE
    from finsearch.graph import NodeStatus, SearchGraph, SearchNode
    from finsearch.plan.analysis import analyse
    from finsearch.run import rewriter

    rng = random.Random(seed)
    analysis = analyse("Why did NVDA fall last week and what do analysts say about its dividend?", NOW)
    for trial in range(60):
        graph = SearchGraph(analysis.question, analysis.time_context)
        for i, source in enumerate(CATALOGUE):
            data = shape(rng)
            raw = {"title": f"t{i}", "url": f"https://e.test/{trial}/{i}", "published": "2024-10-11T12:00:00Z",
                   "data": data if isinstance(data, dict) else {"ticker": "NVDA", "x": data},
                   "period": {"start": "2024-10-07", "end": "2024-10-13"}}
            node = SearchNode(f"n{i + 1}", "q", source, {}, analysis.time_context, status=NodeStatus.DONE)
            node.evidence = (Evidence.from_untrusted(raw, source=source, kind=CATALOGUE[source].kind).with_weight(1),)
            graph._insert(node)
        writer = AnswerWriter(analysis, graph, NOW)
        list(writer.stream())
        assert writer.answer.markdown
        charts.chart_specs(graph)
        charts.figures_for(graph)
        for node in graph:
            rewriter.biggest_move(node), rewriter.resolved_ticker(node), rewriter.summarise(node)
            rewriter.last_report_date(node, NOW.date())
