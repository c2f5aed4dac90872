"""`python -m finsearch` as a user runs it: a real subprocess, the demo pack, no network."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import DEMO_PACK, ROOT

NOW = "2024-10-15T20:00:00Z"


def cli(*args, pack=DEMO_PACK, tmp_path=None, extra_env=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FINSEARCH_"))}
    env.update({"FINSEARCH_PACK": str(pack), "PYTHONPATH": str(ROOT)})
    if tmp_path is not None:
        env["FINSEARCH_CACHE_DIR"] = str(tmp_path / "cache")
        env["HOME"] = str(tmp_path)
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "-m", "finsearch", *args], capture_output=True, text=True,
                          env=env, timeout=120, cwd=ROOT)


def test_ask_json_matches_the_contract(tmp_path):
    done = cli("ask", "Why did NVDA fall last week?", "--now", NOW, "--offline", "--json", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    for key in ("question", "now", "config", "entities", "time_context", "graph", "answer", "charts", "stats"):
        assert key in out
    assert out["now"] == NOW
    assert out["config"] == {"llm": "heuristic", "data": "offline", "window_hours": 72.0, "floor": 0.1,
                             "undated_weight": 0.5, "time_weighting": True, "rewriter": True, "deadline_s": 45.0}
    assert out["entities"] == [{"name": "NVIDIA", "ticker": "NVDA"}]
    assert out["time_context"] == {"start": "2024-10-07", "end": "2024-10-13", "label": "last week"}
    nodes = {n["id"]: n for n in out["graph"]["nodes"]}
    assert nodes["n0"]["source"] == "question"
    assert {"finance", "news", "web"} <= {n["kind"] for n in nodes.values()}
    rewritten = [n for n in nodes.values() if n["original_sub_query"] != n["sub_query"]]
    assert rewritten and all("2024-10-11" in n["sub_query"] and n["depends_on"] for n in rewritten)
    refs = out["answer"]["references"]
    evidence_ids = {e["id"] for n in nodes.values() for e in n["evidence"]}
    assert refs and all(r["evidence_id"] in evidence_ids for r in refs)
    assert out["charts"][0]["type"] == "candlestick" and out["charts"][0]["ticker"] == "NVDA"
    for key in ("llm_calls", "llm_round_trips_critical_path", "prompt_tokens", "completion_tokens",
                "source_calls", "cache_hits", "wall_ms"):
        assert isinstance(out["stats"][key], int)
    assert out["sample_data"] is True


def test_no_time_weight_flag(tmp_path):
    done = cli("ask", "Why did NVDA fall last week?", "--now", NOW, "--offline", "--json", "--no-time-weight",
               tmp_path=tmp_path)
    out = json.loads(done.stdout)
    weights = {e["time_weight"] for n in out["graph"]["nodes"] for e in n["evidence"]}
    assert weights == {1.0} and out["config"]["time_weighting"] is False


def test_no_rewriter_flag(tmp_path):
    done = cli("ask", "Why did NVDA fall last week?", "--now", NOW, "--offline", "--json", "--no-rewriter",
               tmp_path=tmp_path)
    out = json.loads(done.stdout)
    assert all(n["sub_query"] == n["original_sub_query"] for n in out["graph"]["nodes"])
    assert out["config"]["rewriter"] is False


def test_finsearch_now_pins_the_clock_like_the_flag(tmp_path):
    done = cli("plan", "What happened last week?", "--json", tmp_path=tmp_path, extra_env={"FINSEARCH_NOW": NOW})
    assert json.loads(done.stdout)["time_context"]["start"] == "2024-10-07"


def test_plan_json_has_no_answer_or_evidence(tmp_path):
    done = cli("plan", "贵州茅台最近一个月表现如何？", "--now", NOW, "--json", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert "answer" not in out and "stats" not in out and "charts" not in out
    assert all("evidence" not in n for n in out["graph"]["nodes"])
    assert out["entities"] == [{"name": "Kweichow Moutai", "ticker": "600519.SS"}]


def test_text_mode_shows_answer_references_and_the_graph_tree(tmp_path):
    done = cli("ask", "Why did NVDA fall last week?", "--now", NOW, "--offline", tmp_path=tmp_path)
    assert done.returncode == 0
    assert "Search graph" in done.stdout and "└─ ✓ n1 [price_history]" in done.stdout
    assert "rewritten (heuristic) from:" in done.stdout
    assert "References" in done.stdout and "[1] " in done.stdout and "SAMPLE DATA" in done.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["ask", "", "--offline"], "Please type a question"),
    (["ask", "   ", "--offline"], "Please type a question"),
    (["ask", "why " * 600, "--offline"], "keep it under 2,000 characters"),
    (["plan", "NVDA", "--now", "yesterday-ish"], "not an ISO time"),
])
def test_bad_input_exits_2_with_a_clear_message_and_no_traceback(tmp_path, args, message):
    done = cli(*args, tmp_path=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr and not done.stdout


def test_llm_unreachable_falls_back_and_says_so(tmp_path):
    done = cli("ask", "Why did NVDA fall last week?", "--now", NOW, "--offline", "--json", "--llm", "openai",
               tmp_path=tmp_path, extra_env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
                                             "OPENAI_API_KEY": "sk-test-SECRET-123"})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["planner"] == "heuristic" and out["writer"] == "heuristic"
    assert any("heuristic" in note for note in out["notes"])
    assert "SECRET-123" not in done.stdout + done.stderr, "the key is never echoed"


def test_offline_with_an_empty_cache_finishes_with_a_reason_on_each_node(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FINSEARCH_"))}
    env.update({"FINSEARCH_CACHE_DIR": str(tmp_path / "empty"), "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)})
    done = subprocess.run([sys.executable, "-m", "finsearch", "ask", "Why did NVDA fall last week?", "--now", NOW,
                           "--offline", "--json"], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    nodes = [n for n in out["graph"]["nodes"] if n["id"] != "n0"]
    assert nodes and all(n["status"] == "failed" and n["error"].startswith("not cached offline") for n in nodes)
    assert out["stats"]["upstream_calls"] == 0


def test_record_writes_a_pack_that_replays_offline(tmp_path, monkeypatch, capsys):
    from finsearch import cli
    from finsearch.sources import setup

    class Fake:          # the network boundary
        def fetch(self, source, args):
            if source == "price_history":
                return [{"title": "NVDA prices", "period": {"start": args["start"], "end": args["end"]},
                         "data": {"ticker": "NVDA", "rows": [["2024-10-11", 1, 2, 0.5, 1.5, 10]],
                                  "stats": {"biggest_moves": [{"date": "2024-10-11", "change_pct": -4.7}]}}}]
            return [{"title": f"{source} story", "url": f"https://example.com/{source}",
                     "published": "2024-10-11T12:00:00Z"}]

    monkeypatch.setattr(setup, "live_adapters", lambda settings: {s: Fake() for s in
                                                                  ("price_history", "news", "web_search")})
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    pack = tmp_path / "pack"
    assert cli.main(["record", "Why did NVDA fall last week?", "--pack", str(pack), "--now", NOW, "--json"]) == 0
    assert len([p for p in pack.glob("*.json") if p.name != "_pack.json"]) == 3
    manifest = json.loads((pack / "_pack.json").read_text())
    assert manifest["sample"] is False and manifest["now"] == NOW
    capsys.readouterr()
    assert cli.main(["ask", "Why did NVDA fall last week?", "--pack", str(pack), "--offline", "--now", NOW,
                     "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert all(n["status"] == "done" for n in replayed["graph"]["nodes"])


def test_events_flag_prints_one_json_line_per_event_then_the_result(tmp_path):
    done = cli("ask", "Why did NVDA fall last week?", "--now", NOW, "--offline", "--events", "--json",
               tmp_path=tmp_path, extra_env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
                                             "OPENAI_API_KEY": "sk-not-to-be-printed"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    events = [json.loads(line) for line in lines[:-1]]
    result = json.loads(lines[-1])
    types = [e["type"] for e in events]
    # A model is configured (though unreachable): the rules' draft runs at once, as the plan.
    assert types[:2] == ["PlanReady", "NodeStarted"] and types[-1] == "RunFinished" and "AnswerDelta" in types
    assert events[0]["nodes"] == ["n1", "n2", "n3"] and events[0]["planner"] == "heuristic"
    assert events[0]["model_plans"] is True
    assert types.index("AnswerStarted") < types.index("AnswerDelta")
    finished = {e["node"]: e for e in events if e["type"] in ("NodeFinished", "NodeFailed")}
    assert set(finished) == {"n1", "n2", "n3"} and finished["n1"]["status"] == "done"
    assert finished["n1"]["source"] == "price_history" and finished["n1"]["evidence"] >= 1
    assert [e["at_ms"] for e in events] == sorted(e["at_ms"] for e in events)
    assert result["question"] == "Why did NVDA fall last week?"
    assert "sk-not-to-be-printed" not in done.stdout
