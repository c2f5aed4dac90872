"""`eval --format report` on the report pack: each request's report scored by its audit
(citation integrity, coverage, figures traced, key questions answered), and with `--judge`
the report judge's eight criteria and the reference answer, scripted on the loopback model."""

from __future__ import annotations

import json

import pytest

from finsearch import cli
from finsearch.errors import InputError
from finsearch.evaluate import datasets, summary
from finsearch.model.llm import LLMClient
from finsearch.model.loopback import Reply
from finsearch.research.judge import CRITERIA, judge_report
from tests.conftest import ROOT

SAMPLE = ROOT / "tests" / "data" / "report_sample.jsonl"
PACK = ROOT / "tests" / "fixtures" / "report_pack"
VERDICT = {"presentation": {"structure": 5, "conclusion_first": 3, "data_support": 5, "citation": 5,
                            "analysis_depth": 1, "risk_disclosure": 3, "readability": 3, "timeliness": 5},
           "reference_points": [{"point": "Q3 beat: EPS $0.81 vs $0.75", "verdict": "covered"},
                                {"point": "Q4 guide about $37.5B", "verdict": "covered"},
                                {"point": "Revenue about $35.1B", "verdict": "covered"},
                                {"point": "China export curbs are a risk", "verdict": "missing"}]}


@pytest.fixture
def report_env(sample_app_env, monkeypatch):
    monkeypatch.setenv("FINSEARCH_PACK", str(PACK))
    return sample_app_env


def test_the_sample_requests_load_with_their_references_and_dates():
    loaded = datasets.load(SAMPLE, "report")
    assert [q.id for q in loaded] == ["nvda-outlook", "report-2", "nvda-zh"]
    assert loaded[0].record["reference"].startswith("NVIDIA's third quarter of fiscal 2025 beat estimates")
    assert loaded[1].record["reference"] is None and loaded[1].now.isoformat() == "2024-11-22T20:00:00+00:00"
    assert loaded[2].language == "zh"


@pytest.mark.parametrize(("line", "message"), [
    ('{"question": ""}', 'line 1: "question" must be non-empty text'),
    ('{"question": "Analyse NVIDIA", "reference": 3}', 'line 1: "reference" must be text'),
    ('{"question": "Analyse NVIDIA", "now": "soon"}', 'line 1: "now" \'soon\' is not a date'),
])
def test_a_bad_report_request_names_its_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n", "utf-8")
    with pytest.raises(InputError, match=message):
        datasets.load(path, "report")


def test_reports_are_scored_by_their_audit(report_env, capsys):
    out = report_env / "reports"
    assert cli.main(["eval", str(SAMPLE), "--format", "report", "--out", str(out), "--offline"]) == 0
    rows = {r["id"]: r for r in summary.read_rows(out / "results-full.jsonl")}
    assert set(rows) == {"nvda-outlook", "report-2", "nvda-zh"}
    nvda = rows["nvda-outlook"]
    assert nvda["error"] is None and nvda["correct"] is None and nvda["writer"] == "heuristic"
    scored = nvda["report"]
    assert scored["integrity"] is True and scored["sections"] == 7
    # The report pack holds no cause of NVIDIA's price moves, which the price section's question asks for.
    assert (scored["key_questions"], scored["answered"]) == (12, 11)
    assert scored["supported"] > 100 and scored["misattributed"] == 0 and scored["unsupported"] <= 3
    assert nvda["answer"].startswith("# NVIDIA (NVDA): company report — ")
    assert nvda["presentation"] is None and nvda["judge"] is None       # no --judge
    # The rule-based rubric scores every report without a model.
    assert [c["name"] for c in nvda["rubric"]["criteria"]] == ["sections", "repeats", "stance", "verdict", "tables",
                                                               "limitations", "title", "summary"]
    # AMD has no statements or earnings in the pack: fewer key questions answered.
    assert rows["report-2"]["report"]["answered"] < rows["report-2"]["report"]["key_questions"]
    written = json.loads((out / "summary.json").read_text("utf-8"))
    full = written["variants"]["full"]["report"]
    assert full["reports"] == 3 and full["integrity"] == 1.0
    assert full["rubric_mean"] == round(sum(r["rubric"]["score"] for r in rows.values()) / 3, 2)
    assert set(full["rubric_passed"]) <= {c["name"] for c in nvda["rubric"]["criteria"]}
    asked = sum(r["report"]["key_questions"] for r in rows.values())
    assert full["answered_share"] == round(sum(r["report"]["answered"] for r in rows.values()) / asked, 4)
    assert full["figures"]["total"] == sum(sum(r["report"][k] for k in ("supported", "derived", "misattributed",
                                                                         "unsupported")) for r in rows.values())
    table = (out / "summary.md").read_text("utf-8")
    assert "| variant | n | errors | integrity | coverage | figures traced | supported | derived |" in table
    assert "| key questions answered | trust | rubric | presentation |" in table
    assert "## Accuracy by category" not in table
    printed = capsys.readouterr()
    assert "| full | 3 | 0 | 1 |" in printed.out
    assert "key questions answered" in printed.err


def test_the_judge_scores_the_eight_criteria_and_the_reference(report_env, monkeypatch, fake_llm):
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("FINSEARCH_MODEL", "fake-model")
    fake_llm.on("judge", Reply(content=json.dumps(VERDICT)), Reply(content="no JSON here"))
    out = report_env / "judged"
    assert cli.main(["eval", str(SAMPLE), "--format", "report", "--out", str(out), "--offline", "--llm", "heuristic",
                     "--judge", "--limit", "2"]) == 0
    rows = {r["id"]: r for r in summary.read_rows(out / "results-full.jsonl")}
    judged = rows["nvda-outlook"]
    # (4 + 2 + 4 + 4 + 0 + 2 + 2 + 4) / 4 / 8 = 0.6875; 3 of 4 reference points covered.
    assert judged["presentation"] == 0.6875 and judged["reference_score"] == 0.75
    assert judged["judge"]["presentation"]["analysis_depth"] == 1
    assert fake_llm.kinds() == ["judge", "judge"]            # the reports themselves were the rules'
    user = fake_llm.requests[0]["messages"][1]["content"]
    assert "Reference answer:\nNVIDIA's third quarter of fiscal 2025 beat estimates" in user
    assert "Report:\n# NVIDIA (NVDA): company report — " in user
    assert rows["report-2"]["judge"]["error"].startswith("the judge failed")
    assert rows["report-2"]["presentation"] is None
    full = json.loads((out / "summary.json").read_text("utf-8"))["variants"]["full"]["report"]
    assert full["presentation_mean"] == 0.6875 and full["reference_mean"] == 0.75
    assert full["criteria_mean"]["structure"] == 5.0 and full["criteria_mean"]["analysis_depth"] == 1.0
    assert "## Presentation by criterion (mean score, 1–5)" in (out / "summary.md").read_text("utf-8")


def test_a_judged_report_without_a_reference_has_no_reference_score(llm_settings, fake_llm):
    # Points the judge lists with no reference to read them from are its own invention: dropped.
    fake_llm.on("judge", Reply(content=json.dumps({**VERDICT, "presentation": {"structure": 3, "citation": 7}})))
    with LLMClient(llm_settings) as client:
        verdict = judge_report("Analyse NVIDIA", "# Report\n\nNVIDIA rose [1].", client)
    assert verdict.scores == {c: (3 if c == "structure" else None) for c in CRITERIA}
    assert verdict.presentation == 0.5 and verdict.points == () and verdict.reference is None
    assert judge_report("Analyse NVIDIA", "  ", client).error == "there is no report to judge"


def test_a_report_evaluation_refuses_what_cannot_write_a_report(report_env, capsys):
    assert cli.main(["eval", str(SAMPLE), "--format", "report", "--variants", "full,llm-only", "--out",
                     str(report_env / "x")]) == 2
    assert "the llm-only variant answers in one model call and writes no report" in capsys.readouterr().err
    assert cli.main(["eval", str(SAMPLE), "--format", "report", "--judge", "--llm", "heuristic", "--out",
                     str(report_env / "y")]) == 2
    assert "--judge needs a model: set OPENAI_API_KEY or OPENAI_BASE_URL" in capsys.readouterr().err


def test_the_report_command_judges_its_report_when_asked(report_env, monkeypatch, fake_llm, capsys):
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("FINSEARCH_NOW", "2024-11-22T21:00:00Z")
    fake_llm.on("judge", Reply(content=json.dumps(VERDICT)), Reply(content=json.dumps(VERDICT)))
    request = "Analyse NVIDIA's recent performance and outlook"
    assert cli.main(["report", request, "--offline", "--llm", "heuristic", "--judge"]) == 0
    printed = capsys.readouterr()
    assert printed.out.startswith("# NVIDIA (NVDA): company report — ")
    assert ("finsearch: judge: presentation 0.69 (structure 5, conclusion first 3, data support 5, citation 5, "
            "analysis depth 1, risk disclosure 3, readability 3, timeliness 5; each 1, 3 or 5)") in printed.err
    assert cli.main(["report", request, "--offline", "--llm", "heuristic", "--judge", "--json"]) == 0
    judged = json.loads(capsys.readouterr().out)["judge"]
    assert judged["presentation_score"] == 0.6875 and judged["reference_points"] == []   # no reference given
    assert fake_llm.kinds() == ["judge", "judge"]            # the reports themselves were the rules'


def test_the_report_command_says_the_judge_needs_a_model_before_fetching(report_env, capsys):
    assert cli.main(["report", "Analyse NVIDIA", "--offline", "--llm", "heuristic", "--judge"]) == 2
    printed = capsys.readouterr()
    assert "--judge needs a model: set OPENAI_API_KEY or OPENAI_BASE_URL" in printed.err and not printed.out
    assert cli.main(["report", "Analyse NVIDIA", "--outline-only", "--judge"]) == 0, "an outline is not judged"
