"""Against a real local model (opt-in: `pytest -m local_model`): a question, a follow-up and a
short report over the answer test pack, each inside its deadline, evidence first, and each
stage's outcome (the model's work or the rules') recorded.

Start the server first: `bash scripts/local-model.sh` (llama.cpp's server with Gemma 3 270M on
127.0.0.1:8080), or point FINSEARCH_LOCAL_MODEL_URL at any OpenAI-compatible one (Ollama, LM
Studio, vLLM); FINSEARCH_LOCAL_MODEL_NAME picks its model (default: the first it lists). Skipped,
saying so, when no server answers there. The same runs are the benchmark's real-model profile
(`python -m finsearch.bench --local-model URL`)."""

from __future__ import annotations

import json
import os
import urllib.error

import pytest

from finsearch.bench import local_model

pytestmark = pytest.mark.local_model

URL = os.environ.get("FINSEARCH_LOCAL_MODEL_URL", "http://127.0.0.1:8080/v1")


@pytest.fixture(scope="module")
def settings():
    try:
        model = os.environ.get("FINSEARCH_LOCAL_MODEL_NAME") or local_model.served_model(URL)
    except (OSError, urllib.error.URLError, ValueError, json.JSONDecodeError) as exc:
        pytest.skip(f"no model server at {URL} ({exc}): start one with `bash scripts/local-model.sh`, "
                    "or set FINSEARCH_LOCAL_MODEL_URL")
    return local_model.settings_for(URL, model)


def record(record_property, run: local_model.LocalRun) -> None:
    """Into the test report (junit XML, -rA): how long, and who did each stage."""
    record_property(run.kind, json.dumps(run.to_json(), ensure_ascii=False))
    print(f"{run.kind}: {run.wall_ms:.0f} ms, first evidence {run.first_evidence_ms} ms, stages {run.stages}")


def check(run: local_model.LocalRun) -> None:
    assert run.in_time, f"{run.kind} took {run.wall_ms:.0f} ms, past its {run.deadline_s:g} s deadline"
    assert run.first_evidence_ms is not None, f"{run.kind}: no evidence at all"
    assert run.first_text_ms is None or run.first_evidence_ms <= run.first_text_ms, "evidence before any text"
    assert set(run.stages.values()) <= {"model", "rules"}
    assert {"plan", "answer"} <= set(run.stages) or {"outline", "plan", "sections", "summary"} <= set(run.stages)


def test_a_question_then_a_follow_up(settings, record_property):
    question, first = local_model.ask(settings)
    record(record_property, question)
    check(question)
    # Issue 27's figures for this question on a 2-core machine: whatever the model does.
    assert question.first_evidence_ms <= local_model.FIRST_EVIDENCE_MS
    assert question.wall_ms <= local_model.ANSWER_MS
    assert first.answer is not None and "AMD" in first.answer.markdown
    later = local_model.follow_up(settings, first)
    record(record_property, later)
    check(later)
    assert later.first_evidence_ms <= local_model.FIRST_EVIDENCE_MS


def test_a_short_report(settings, record_property):
    run = local_model.report(settings)
    record(record_property, run)
    check(run)
