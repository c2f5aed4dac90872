"""The benchmark harness (`python -m finsearch eval`): both formats and all four variants end to
end against the loopback model server, with scripted answers and exact accuracies; letter
reading, the FinSearchComp judge, resume, timeout, rewards, bad input and the Evaluate page.

The pipeline variants run on the demo replay pack offline. The loopback model is scripted per
kind of call in the order the runner asks (one question at a time); the tests then check from
the recorded requests that each variant asked what it should (no rewrites without the rewriter,
every evidence weight 1.0 without time weighting).
"""

import dataclasses
import io
import json
import re
import subprocess
import sys
import threading
import time

import pytest
from streamlit.testing.v1 import AppTest

from finsearch import cli
from finsearch.errors import InputError
from finsearch.evaluate import datasets, grading, rewards, summary, summary_files
from finsearch.evaluate.runner import EvalConfig, Progress, run_eval
from finsearch.model.loopback import Reply
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data"
MCQ = DATA / "mcq_sample.jsonl"
FSC = DATA / "finsearchcomp_sample.jsonl"
ALL = "full,llm-only,no-time-weight,no-rewriter"

PLAN = {"nodes": [
    {"id": "n1", "sub_query": "NVDA prices", "source": "price_history",
     "args": {"ticker": "NVDA", "start": "2024-10-07", "end": "2024-10-13"}},
    {"id": "n2", "sub_query": "NVDA news", "source": "news", "args": {"ticker": "NVDA", "query": "Nvidia"},
     "depends_on": ["n1"]},
]}
REWRITE = {"sub_query": "Nvidia news around 2024-10-11", "args": {"ticker": "NVDA", "query": "Nvidia"}}
PRESENTATION = {"presentation": {c: 3 for c in ("conclusion_first", "clear_structure", "key_insights_emphasised",
                                                 "tables_for_dense_data", "aligned_comparisons",
                                                 "consistent_formatting", "claim_evidence_chain",
                                                 "risks_and_limitations")}, "entailment": []}


def scripts(full, no_tw, no_rw, llm):
    return {"full": full, "no-time-weight": no_tw, "no-rewriter": no_rw, "llm-only": llm}


# mcq: ✓ right, ✗ wrong, ? unparsed
#            full  no-tw no-rw llm-only
# fsb-001    ✓     ✓     ✓     ✓        "Answer: B" / "B."
# fsb-002    ✓     ✓     ✗     ✓        "(C)"
# fsb-003    ✓     ✓     ✓     ✗        选A / 答案：B
# fsb-004    ✓     ✗     ✗     ?        **D** / "(A) or (B)"
# fsb-005    ✗     ✗     ✗     ✓        option text "Apple"
# fsb-006    ?     ?     ?     ✗
MCQ_KEYS = {"fsb-001": "Under which ticker symbol", "fsb-002": "trading week of 7–11 October",
            "fsb-003": "贵州茅台（600519.SS）", "fsb-004": "federal funds target range",
            "fsb-005": "largest total revenue", "fsb-006": "benchmark for US large-cap"}
FED_WRONG = "Answer: C. The Fed cut by a quarter point [1]."
UNSURE = "The evidence retrieved does not say which index is meant [1]."
MCQ_ANSWERS = {
    "fsb-001": scripts(*["Answer: B. NVIDIA trades as NVDA on the Nasdaq [1]."] * 3, "B. NVDA is NVIDIA's ticker."),
    "fsb-002": scripts("(C) NVIDIA fell about 7% that week [1].", "(C) NVIDIA fell about 7% that week [1].",
                       "Answer: A. The shares rallied [1].", "The correct answer is (C)."),
    "fsb-003": scripts(*["选A。贵州茅台近一个月股价上涨[1]。"] * 3, "答案：B。"),
    "fsb-004": scripts("**D** The Fed cut the range by 50 basis points [1].", FED_WRONG, FED_WRONG,
                       "It is either (A) or (B); I am not sure."),
    "fsb-005": scripts(*["Answer: B. Microsoft led on revenue [1]."] * 3,
                       "Apple had the largest revenue, about $383 billion."),
    "fsb-006": scripts(UNSURE, UNSURE, UNSURE, "Answer: A"),
}

# finsearchcomp (judge: 1 when the reference figure is in the answer; no verdict for _031)
#                full  no-tw no-rw llm-only
# _001 (2020)    ✓     ✗     ✓     ✗
# b027           ✓     ✓     ✓     ✓
# _017           ✗     ✗     ✓     ✗
# _031           ?     ?     ?     ?
FSC_KEYS = {"(T2)Simple_Historical_Lookup_001": "total assets of Starbucks",
            "(T3)Complex_Historical_Investigation_b027": "沪深300、科创50",
            "(T2)Simple_Historical_Lookup_017": "贵州茅台2023年",
            "(T3)Complex_Historical_Investigation_031": "largest single-month increase"}
FSC_MARKERS = {"total assets of Starbucks": "29,374.5", "沪深300、科创50": "70.62", "贵州茅台2023年": "1505.6"}
STARBUCKS_RIGHT = "Starbucks reported total assets of $29,374.5 million as of September 27, 2020 [1]."
STARBUCKS_WRONG = "Starbucks' total assets were about $28.5 billion [1]."
KECHUANG = "年涨幅最高的是科创50，涨幅16.07%；振幅最高的也是科创50，为70.62%[1]。"
MOUTAI_WRONG = "贵州茅台2023年营业总收入约为1200亿元[1]。"
MOUTAI_RIGHT = "贵州茅台2023年营业总收入为1505.60亿元[1]。"
FSC_ANSWERS = {
    "(T2)Simple_Historical_Lookup_001": scripts(STARBUCKS_RIGHT, STARBUCKS_WRONG, STARBUCKS_RIGHT, STARBUCKS_WRONG),
    "(T3)Complex_Historical_Investigation_b027": scripts(*[KECHUANG] * 4),
    "(T2)Simple_Historical_Lookup_017": scripts(MOUTAI_WRONG, MOUTAI_WRONG, MOUTAI_RIGHT, MOUTAI_WRONG),
    "(T3)Complex_Historical_Investigation_031": scripts(*["April 2020, up 12.68% [1]."] * 3, "April 2020."),
}


def official_verdict(score: int) -> str:
    return f"- 【评分依据】：比对标准答案与学生答案。\n- 【JSON】：\n``` \n{{\"answer_score\": {score}}} \n```"


def fsc_verdict(qid: str, answer: str) -> Reply:
    """What the record's judge says of `answer`: 1 when it holds the reference figure; no verdict
    for a question without one."""
    marker = FSC_MARKERS.get(FSC_KEYS[qid])
    if marker is None:
        return Reply(content="Sorry, I cannot grade this one.")
    return Reply(content=official_verdict(int(marker in answer)))


# The runner asks in a fixed order with one question at a time: variants in turn, questions in
# dataset order, and per searching question plan → rewrite (unless no-rewriter, and only when the
# plan was written before a node needed it) → answer → the record's judge (grade). So each kind of
# call is scripted as a list in that order.
SEARCH = {"full": ["plan", "rewrite", "answer"], "no-time-weight": ["plan", "rewrite", "answer"],
          "no-rewriter": ["plan", "answer"], "llm-only": ["llm_only"]}


def in_order(asked: list) -> list:
    """The calls whose order is fixed: a model rewrite runs alongside its template's fetch, so it
    may be asked for after the answer (its count is checked apart)."""
    return [a for a in asked if (a[0] if isinstance(a, tuple) else a) != "rewrite"]


def variants_rewriting(asked: list, variants: list[str], questions: int) -> list[str]:
    """The variant each rewrite in `asked` was asked in, from the fixed calls before it."""
    fixed = [v for v in variants for _ in range(questions) for k in SEARCH[v] if k != "rewrite"]
    seen, out = 0, []
    for call in asked:
        if (call[0] if isinstance(call, tuple) else call) == "rewrite":
            out.append(fixed[seen - 1])
        elif (call[0] if isinstance(call, tuple) else call) != "grade":
            seen += 1
    return out


def script(model, answers: dict, variants: list[str], qids: list[str], grade: bool = False) -> None:
    """Script `answers[qid][variant]` for each variant and question in the runner's order; with
    `grade`, each answer is followed by the record's judge's verdict on it."""
    model.on("plan", Reply(content=json.dumps(PLAN)))
    model.on("rewrite", Reply(content=json.dumps(REWRITE)))
    model.on("judge", Reply(content=json.dumps(PRESENTATION)))
    searched, model_only, grades = [], [], []
    for variant in variants:
        for qid in qids:
            reply = Reply(content=answers[qid][variant])
            (model_only if variant == "llm-only" else searched).append(reply)
            if grade:
                grades.append(fsc_verdict(qid, answers[qid][variant]))
    for kind, replies in (("answer", searched), ("llm_only", model_only), ("grade", grades)):
        if replies:
            model.on(kind, *replies)


def weights_of(request: dict) -> set[str]:
    return set(re.findall(r"; weight ([\d.]+)\)", request["messages"][-1]["content"]))


@pytest.fixture
def eval_env(monkeypatch, sample_app_env, fake_llm):
    """The environment `python -m finsearch eval` reads: the fake model, the demo pack, offline."""
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("FINSEARCH_MODEL", "fake-model")
    monkeypatch.setenv("FINSEARCH_LLM", "openai")
    return sample_app_env


def rows_of(out, variant):
    return {r["id"]: r for r in summary.read_rows(out / f"results-{variant}.jsonl")}


# -- end to end -------------------------------------------------------------------------------

def test_mcq_all_variants_end_to_end(eval_env, fake_llm, capsys):
    script(fake_llm, MCQ_ANSWERS, ALL.split(","), list(MCQ_KEYS))
    out = eval_env / "mcq"
    code = cli.main(["eval", str(MCQ), "--format", "mcq", "--variants", ALL, "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    result = json.loads((out / "summary.json").read_text("utf-8"))
    got = {name: (v["n"], v["correct"], v["accuracy"], v["unparsed"]) for name, v in result["variants"].items()}
    assert got == {"full": (6, 4, 0.6667, 1), "llm-only": (6, 3, 0.5, 1),
                   "no-time-weight": (6, 3, 0.5, 1), "no-rewriter": (6, 2, 0.3333, 1)}
    assert list(result["variants"]) == ["full", "llm-only", "no-time-weight", "no-rewriter"]
    full = result["variants"]["full"]
    assert {c: v["accuracy"] for c, v in full["by_category"].items()} == {
        "a-shares": 1.0, "equity": 0.6667, "macro": 0.5}
    # plan and answer; a rewrite too when the model had finished its plan before a node needed one
    # (while it plans, the rules rewrite: the model is asked one thing at a time)
    assert 2 <= full["llm_calls_mean"] <= 3 and full["source_calls_mean"] >= 2 and full["tokens_mean"] > 0
    assert result["variants"]["no-rewriter"]["llm_calls_mean"] == 2
    assert set(full["latency_ms"]) == {"mean", "median", "p90"}

    rows = rows_of(out, "full")
    assert rows["fsb-006"]["prediction"] is None and rows["fsb-006"]["unparsed"] and rows["fsb-006"]["correct"] is False
    assert rows["fsb-003"]["prediction"] == "A" and rows["fsb-003"]["correct"] is True
    # The rules read the options as tickers too; the model's plan (NVDA's prices and news) dropped
    # those searches, kept NVDA's filings as context (not in the pack: failed) and added the prices.
    graph = rows["fsb-001"]["graph"]
    assert graph["nodes"] >= 12 and graph["depth"] == 1 and graph["failed"] == 1
    assert set(rows["fsb-001"]["audit"]) == {"coverage", "grounding", "trust"} and rows["fsb-001"]["error"] is None
    for key in ("id", "prediction", "correct", "latency_ms", "llm_calls", "prompt_tokens", "completion_tokens",
                "source_calls", "graph", "audit", "error"):
        assert key in rows["fsb-002"]
    llm_only = rows_of(out, "llm-only")
    assert llm_only["fsb-005"]["prediction"] == "A", "read from the quoted option text"
    assert llm_only["fsb-004"]["unparsed"] and llm_only["fsb-001"]["source_calls"] == 0
    assert llm_only["fsb-001"]["llm_calls"] == 1 and llm_only["fsb-001"]["graph"]["nodes"] == 0
    expected = [k for v in ALL.split(",") for _ in MCQ_KEYS for k in SEARCH[v]]
    # (rewrites: at most one per searched question and only with the rewriter, as no-rewriter's 2 calls say)
    assert in_order(fake_llm.kinds()) == in_order(expected)
    assert fake_llm.kinds().count("rewrite") <= expected.count("rewrite")
    assert set(variants_rewriting(fake_llm.kinds(), ALL.split(","), len(MCQ_KEYS))) <= {"full", "no-time-weight"}
    answered = [r for r, kind in zip(fake_llm.requests, fake_llm.kinds(), strict=True) if kind == "answer"]
    asked_about = zip(answered, list(MCQ_KEYS) * 3, strict=True)
    assert all(MCQ_KEYS[qid] in r["messages"][-1]["content"] for r, qid in asked_about)
    assert all(weights_of(r) == {"1.0"} for r in answered[6:12]), "no-time-weight weighs all evidence alike"
    assert all(weights_of(r) != {"1.0"} for r in answered[:6] + answered[12:])
    assert all(len(q) <= 2000 for q in (r["question"] for r in rows.values()))

    md = (out / "summary.md").read_text("utf-8")
    assert "| full | 6 | 0.6667 | 1 |" in md and "counted under `unparsed` and as not correct" in md
    assert "## Accuracy by category" in md and "| full | 6 | 0.6667 | 1 |" in captured.out
    assert captured.err.count("\n") == 1 and captured.err.startswith("finsearch eval: 6 questions × 4 variants")


def test_finsearchcomp_all_variants_with_the_records_own_judge(eval_env, fake_llm, capsys):
    script(fake_llm, FSC_ANSWERS, ALL.split(","), list(FSC_KEYS), grade=True)
    out = eval_env / "fsc"
    code = cli.main(["eval", str(FSC), "--format", "finsearchcomp", "--variants", ALL, "--out", str(out),
                     "--judge-model", "judge-model"])
    assert code == 0, capsys.readouterr().err
    result = json.loads((out / "summary.json").read_text("utf-8"))
    got = {name: (v["n"], v["correct"], v["accuracy"], v["unparsed"]) for name, v in result["variants"].items()}
    assert got == {"full": (4, 2, 0.6667, 1), "llm-only": (4, 1, 0.3333, 1),
                   "no-time-weight": (4, 1, 0.3333, 1), "no-rewriter": (4, 3, 1.0, 1)}
    assert result["variants"]["full"]["by_category"]["Simple_Historical_Lookup(Greater China)"]["accuracy"] == 0.0
    rows = rows_of(out, "full")
    unparsed = rows["(T3)Complex_Historical_Investigation_031"]
    assert unparsed["correct"] is None and unparsed["unparsed"] and unparsed["judge"]["score"] is None
    assert rows["(T2)Simple_Historical_Lookup_001"]["judge"]["score"] == 1
    assert "answer_score" in rows["(T2)Simple_Historical_Lookup_001"]["judge"]["reply"]
    asked = [(kind, r["model"]) for kind, r in zip(fake_llm.kinds(), fake_llm.requests, strict=True)]
    grading = ("grade", "judge-model")
    expected = [a for v in ALL.split(",") for _ in FSC_KEYS for a in [(k, "fake-model") for k in SEARCH[v]] + [grading]]
    assert in_order(asked) == in_order(expected)
    # A rewrite is asked only of a node that starts after the model's plan is written: at most one
    # per question, and only in the variants with the rewriter.
    assert set(variants_rewriting(asked, ALL.split(","), len(FSC_KEYS))) <= {"full", "no-time-weight"}
    assert asked.count(("rewrite", "fake-model")) <= expected.count(("rewrite", "fake-model"))
    graded = [r["messages"][-1]["content"] for r in fake_llm.requests if r["model"] == "judge-model"]
    assert all(FSC_KEYS[qid] in text for text, qid in zip(graded, list(FSC_KEYS) * 4, strict=True))
    judge_prompt = next(r for r in fake_llm.requests if "<学生答案>" in r["messages"][-1]["content"])
    text = judge_prompt["messages"][-1]["content"]
    assert text.startswith("<题目>：\n") and "{response}" not in text and "评分要点" in text
    english = next(r for r in fake_llm.requests if "<student answer>" in r["messages"][-1]["content"])
    assert 'ending with {"answer_score": 0}' in english["messages"][-1]["content"], "doubled braces undone"
    md = (out / "summary.md").read_text("utf-8")
    assert "left out of the denominator" in md
    assert "Latest run: model fake-model (judge judge-model), offline data" in md


def test_resume_skips_done_ids_and_makes_no_new_model_calls(eval_env, fake_llm, capsys):
    script(fake_llm, MCQ_ANSWERS, ["full", "llm-only"], ["fsb-001", "fsb-002"])
    out = eval_env / "resume"
    args = ["eval", str(MCQ), "--format", "mcq", "--variants", "full,llm-only", "--out", str(out)]
    assert cli.main([*args, "--limit", "2"]) == 0
    first = len(fake_llm.requests)
    assert cli.main([*args, "--limit", "2"]) == 0
    assert len(fake_llm.requests) == first, "nothing new to answer"
    script(fake_llm, MCQ_ANSWERS, ["full", "llm-only"], ["fsb-003"])
    assert cli.main([*args, "--limit", "3"]) == 0
    new = fake_llm.requests[first:]
    assert in_order(fake_llm.kinds()[first:]) == ["plan", "answer", "llm_only"]
    # Rewrites come only when the plan was in before a node's parents were done, which is timing
    # (one on an idle machine, three on a busy one); every new call is about fsb-003 all the same.
    assert set(fake_llm.kinds()[first:]) <= {"plan", "rewrite", "answer", "llm_only"}
    assert all(MCQ_KEYS["fsb-003"] in r["messages"][-1]["content"] for r in new[1:])
    assert [r["id"] for r in summary.read_rows(out / "results-full.jsonl")] == ["fsb-001", "fsb-002", "fsb-003"]
    result = json.loads((out / "summary.json").read_text("utf-8"))
    assert result["variants"]["full"]["n"] == 3 and result["variants"]["llm-only"]["n"] == 3


def test_a_question_over_its_timeout_is_recorded_and_the_run_goes_on(llm_settings, fake_llm, tmp_path, capsys):
    # Margins for a busy machine: the slow question takes 8 s, the timeout is 2.5 s, the quick
    # one answers at once; only "did not wait for the slow one" is timed, and loosely.
    fake_llm.on("llm_only", Reply(content="Answer: B", delay_s=8.0), Reply(content="Answer: C"))   # fsb-001, fsb-002
    out = tmp_path / "out"
    config = EvalConfig(dataset=MCQ, fmt="mcq", variants=("llm-only",), out=out, limit=2, timeout_s=2.5)
    started = time.monotonic()
    result = run_eval(config, llm_settings, stream=sys.stderr)
    assert time.monotonic() - started < 7.0, "did not wait for the slow question"
    rows = rows_of(out, "llm-only")
    assert rows["fsb-001"]["error"] == "timed out" and rows["fsb-001"]["correct"] is False
    assert 2400 <= rows["fsb-001"]["latency_ms"] < 7000
    assert rows["fsb-002"]["error"] is None and rows["fsb-002"]["prediction"] == "C"
    assert result["variants"]["llm-only"]["accuracy"] == 0.5 and result["variants"]["llm-only"]["errors"] == 1
    deadline = time.monotonic() + 15                      # let the abandoned call finish before going on
    while time.monotonic() < deadline and any(t.name.startswith("eval-") for t in threading.enumerate()):
        time.sleep(0.05)

    fake_llm.on("llm_only", Reply(content="Answer: B"))            # fsb-001 again, now in time
    asked = len(fake_llm.requests)
    assert run_eval(config, llm_settings, stream=sys.stderr)["variants"]["llm-only"]["accuracy"] == 0.5
    assert len(fake_llm.requests) == asked, "a plain resume keeps the timed-out row"
    again = run_eval(dataclasses.replace(config, retry_errors=True), llm_settings, stream=sys.stderr)
    assert len(fake_llm.requests) == asked + 1, "only the timed-out question is asked again"
    assert again["variants"]["llm-only"]["n"] == 2
    assert again["variants"]["llm-only"]["accuracy"] == 1.0 and again["variants"]["llm-only"]["errors"] == 0


def test_rewards_export_with_the_judge(eval_env, fake_llm, capsys):
    script(fake_llm, MCQ_ANSWERS, ["full", "llm-only"], ["fsb-001", "fsb-002"])
    out, file = eval_env / "rl", eval_env / "rl" / "rewards.jsonl"
    assert cli.main(["eval", str(MCQ), "--format", "mcq", "--variants", "full,llm-only", "--out", str(out),
                     "--limit", "2", "--judge", "--rewards", str(file),
                     "--reward-weights", "coverage=0.2,grounding=0.5"]) == 0
    items = [json.loads(line) for line in file.read_text("utf-8").splitlines()]
    assert [(i["variant"], i["id"]) for i in items] == [("full", "fsb-001"), ("full", "fsb-002"),
                                                         ("llm-only", "fsb-001"), ("llm-only", "fsb-002")]
    full = items[0]
    # The rules' draft ran at once (the options read as tickers too); the model's plan kept NVDA's
    # news, added its prices and dropped the searches about the other "tickers" (drawn skipped).
    assert full["components"]["presentation"] == 0.5 and full["components"]["tool_penalty"] == 0.0
    plan = [(n["source"], n["status"]) for n in full["plan"]]
    assert plan[0] == ("news", "done") and ("price_history", "done") in plan and ("quote", "skipped") in plan
    assert set(full["plan"][0]) == {"id", "source", "sub_query", "status"}
    c = full["components"]
    assert full["reward"] == pytest.approx(0.2 * c["coverage"] + 0.5 * c["grounding"] + 0.3 * 0.5)
    assert "Under which ticker symbol" in full["question"] and full["answer"].startswith("Answer: B")
    llm_only = items[2]
    assert llm_only["components"]["tool_penalty"] == -1.0 and llm_only["plan"] == []


def test_progress_bar_on_a_terminal_only():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen, pipe = Terminal(), io.StringIO()
    for stream in (screen, pipe):
        bar = Progress(stream, "full", 3, already=1)
        bar.advance({"correct": True})
        bar.advance({"correct": False, "unparsed": True})
        bar.close()
    assert pipe.getvalue() == ""
    last = screen.getvalue().split("\r")[-1]
    assert "[########################] 3/3" in last and "acc 50%" in last and "unparsed 1" in last
    assert last.endswith("\n")


# -- rewards -----------------------------------------------------------------------------------

@pytest.mark.parametrize("calls, penalty", [(0, -1.0), (1, -0.5), (2, -0.5), (3, 0.0), (11, 0.0)])
def test_tool_penalty(calls, penalty):
    assert rewards.tool_penalty(calls) == penalty


def test_reward_renormalises_missing_components():
    weights = rewards.DEFAULT_WEIGHTS
    row = {"answer": "x", "source_calls": 3, "audit": {"coverage": 1.0, "grounding": 0.5, "trust": 0.7}}
    parts = rewards.components(row)
    assert parts == {"coverage": 1.0, "grounding": 0.5, "tool_penalty": 0.0}
    # presentation missing: 0.3 and 0.4 scaled to keep their total of 1.0
    assert rewards.reward(parts, weights) == pytest.approx((0.3 * 1.0 + 0.4 * 0.5) / 0.7, abs=1e-6)
    judged = {**parts, "presentation": 0.25, "tool_penalty": -0.5}
    assert rewards.reward(judged, weights) == pytest.approx(0.3 + 0.2 + 0.075 - 0.5)
    assert rewards.components({"answer": None, "source_calls": None}) is None


@pytest.mark.parametrize("text", ["speed=1", "coverage=x", "coverage=-1"])
def test_bad_reward_weights(text):
    with pytest.raises(InputError):
        rewards.parse_weights(text)


# -- grading -----------------------------------------------------------------------------------

OPTIONS = {"A": "Apple", "B": "Microsoft", "C": "Tesla", "D": "Nvidia"}


@pytest.mark.parametrize("text, letter", [
    ("Answer: B", "B"),
    ("The correct answer is (C) because deliveries fell.", "C"),
    ("**D** — its data-centre sales led.", "D"),
    ("I choose A.", "A"),
    ("B. Microsoft, on cloud growth [1].", "B"),
    ("Final answer: **C**", "C"),
    ("The correct option is option B.", "B"),
    ("答案：B", "B"),
    ("选B。微软营收最高。", "B"),
    ("正确答案是（C）", "C"),
    ("答案为 **D**，英伟达。", "D"),
    ("我认为应选A，因为苹果的营收最高。", "A"),
    ("Apple had the largest revenue in fiscal 2023.", "A"),
    ("特斯拉的营收最低，Tesla 排名靠后。", "C"),
])
def test_letters_are_read_in_english_and_chinese(text, letter):
    assert grading.extract_letter(text, OPTIONS) == letter


@pytest.mark.parametrize("text", [
    "It is either (A) or (B).",
    "Answer: A. On reflection, answer: C.",
    "Apple and Microsoft were close.",
    "The evidence does not say.",
    "The answer depends on the fiscal calendar.",
    "答案是A或者选B。",
    "",
])
def test_ambiguous_or_missing_letters_are_unparsed(text):
    assert grading.extract_letter(text, OPTIONS) is None


def test_an_option_inside_a_longer_option_does_not_count_twice():
    options = {"A": "5%", "B": "15%", "C": "50%"}
    assert grading.extract_letter("Revenue grew 15% last year.", options) == "B"
    assert grading.extract_letter("Revenue grew 5% last year.", options) == "A"


@pytest.mark.parametrize("template", [
    "Q: {prompt}\nRef: {response_reference}\nA: {response}",
    "Q: {question}\nRef: {reference}\nA: {answer}",
    "Q: {{prompt}}\nRef: {{ response_reference }}\nA: {{response}}",
    "Q: {{question}}\nRef: {{reference}}\nA: {{answer}}",
])
def test_judge_placeholders_single_double_and_aliases(template):
    filled = grading.fill_judge_prompt(template, question="Q1", reference="R1", answer="my {prompt} answer")
    assert filled == "Q: Q1\nRef: R1\nA: my {prompt} answer"


def test_format_style_templates_undouble_literal_braces_and_fill_ground_truth():
    template = 'Truth: {ground_truth}\nA: {response}\nReply {{"answer_score": 1}}'
    assert grading.fill_judge_prompt(template, question="q", reference="ref", answer="a") == \
        'Truth: ref\nA: a\nReply {"answer_score": 1}'
    mustache = 'A: {{answer}} {"answer_score": {"nested": 1}}'
    assert grading.fill_judge_prompt(mustache, question="q", reference="r", answer="a") == \
        'A: a {"answer_score": {"nested": 1}}'


@pytest.mark.parametrize("reply, score", [
    (official_verdict(1), 1),
    (official_verdict(0), 0),
    ('```json\n{"answer_score": 1}\n```', 1),
    ('Rationale {not json}. {"answer_score": "0"}', 0),
    ('{"answer_score": [[1]]}', 1),
    ('{"answer_score"：1}', 1),
    ('{"answer_score": 2}', None),
    ('{"answer_score": true}', None),
    ('{"score": 1}', None),
    ("I cannot grade this.", None),
])
def test_judge_verdicts(reply, score):
    assert grading.parse_verdict(reply) == score


# -- datasets ----------------------------------------------------------------------------------

def test_datasets_dates_arrays_and_length_limit(tmp_path):
    questions = {q.id: q for q in datasets.load(MCQ, "mcq")}
    assert questions["fsb-004"].now.isoformat() == "2024-10-01T20:00:00+00:00"
    assert questions["fsb-006"].now.isoformat() == "2024-10-15T14:30:00+00:00"
    assert questions["fsb-003"].language == "zh" and "答案：X" in questions["fsb-003"].text
    assert "A. Apple" in questions["fsb-005"].text and '"Answer: X"' in questions["fsb-005"].text
    array = tmp_path / "fsc.json"
    array.write_text(json.dumps([json.loads(line) for line in FSC.read_text("utf-8").splitlines()]), "utf-8")
    assert len(datasets.load(array, "finsearchcomp")) == 4
    long = tmp_path / "long.jsonl"
    long.write_text(json.dumps({"id": 1, "question": "Why? " * 500, "answer": "A",
                                "options": {"A": "x" * 900, "B": "y" * 300}}) + "\n", "utf-8")
    (question,) = datasets.load(long, "mcq")
    assert question.truncated and len(" ".join(question.text.split())) <= 2000
    assert question.text.endswith("then explain briefly.") and "B. yyy" in question.text


@pytest.mark.parametrize("content, message", [
    ('{"id": 1, "question": "q", "options": {"A": "a", "B": "b"}, "answer": "A"}\n'
     '{"id": 1, "question": "q", "options": {"A": "a", "B": "b"}, "answer": "A"}\n', "line 2: duplicate id '1'"),
    ('{"id": 1, "question": "q", "options": {"A": "a", "B": "b"}, "answer": "E"}\n', "line 1: \"answer\" must be"),
    ('{"id": 1, "question": "q", "options": {"A": "a", "B": "b"}, "answer": "A", "date": "15/08/2024"}\n',
     "line 1: \"date\""),
    ('[1, 2]', "item 1 is not a JSON object"),
])
def test_dataset_problems_name_the_record(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, "utf-8")
    with pytest.raises(InputError, match=re.escape(message)):
        datasets.load(path, "mcq")


# -- the command line's bad input ------------------------------------------------------------------

@pytest.fixture
def no_model(monkeypatch, tmp_path):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "FINSEARCH_LLM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def bad_lines(tmp_path):
    path = tmp_path / "bad.jsonl"
    good = json.dumps({"id": 1, "question": "q", "options": {"A": "a", "B": "b"}, "answer": "A"})
    path.write_text(f"{good}\n\n{{not json\n", "utf-8")
    return path


@pytest.mark.parametrize("args, message", [
    (["missing.jsonl", "--format", "mcq"], "no such dataset file"),
    ([None, "--format", "mcq"], "line 3 is not valid JSON"),
    ([str(MCQ), "--format", "csv"], "unknown format 'csv'"),
    ([str(MCQ), "--format", "mcq", "--variants", "full,fast"], "unknown variant 'fast'"),
    ([str(MCQ), "--format", "mcq", "--variants", "llm-only"], "the llm-only variant needs a model"),
    ([str(FSC), "--format", "finsearchcomp"], "grading FinSearchComp needs an LLM judge"),
    ([str(MCQ), "--format", "mcq", "--reward-weights", "tool=lots"], "reward weight tool needs a number"),
    ([str(MCQ), "--format", "mcq", "--concurrency", "0"], "--concurrency must be 1 or more"),
])
def test_bad_input_exits_2_with_one_line(no_model, capsys, args, message):
    args = [str(bad_lines(no_model)) if a is None else a for a in args]
    code = cli.main(["eval", *args, "--out", str(no_model / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not (no_model / "out" / "summary.json").exists()


def test_the_eval_subcommand_from_a_shell(tmp_path):
    done = subprocess.run([sys.executable, "-m", "finsearch", "eval", str(tmp_path / "none.jsonl"), "--format", "mcq",
                           "--out", str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)})
    assert done.returncode == 2 and done.stderr.strip() == f"finsearch: no such dataset file: {tmp_path / 'none.jsonl'}"


# -- the Evaluate page -------------------------------------------------------------------------------

def test_evaluate_page_shows_a_summary_and_explains_a_broken_one(monkeypatch, tmp_path):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "FINSEARCH_LLM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FINSEARCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FINSEARCH_ADMIN", "1")           # folder browsing is for the operator
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    run = tmp_path / "data" / "eval" / "run-1"
    run.mkdir(parents=True)
    rows = [{"id": "q1", "category": "equity", "correct": True, "latency_ms": 100, "llm_calls": 3,
             "prompt_tokens": 10, "completion_tokens": 5, "source_calls": 2},
            {"id": "q2", "category": "macro", "correct": False, "unparsed": True, "latency_ms": 300, "llm_calls": 3,
             "prompt_tokens": 10, "completion_tokens": 5, "source_calls": 2}]
    for variant in ("full", "llm-only"):
        for row in rows:
            summary.append_row(run / f"results-{variant}.jsonl", row)
    summary.write(run, summary.summarise(run, "mcq", "bench.jsonl"))

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.switch_page("pages/evaluate.py").run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Evaluate"
    table = at.dataframe[0].value
    assert list(table["variant"]) == ["full", "llm-only"] and list(table["accuracy"]) == [0.5, 0.5]
    assert len(at.get("vega_lite_chart")) == 2, "an accuracy and a latency bar chart"
    assert list(at.dataframe[1].value["category"]) == ["equity", "macro"]

    broken = tmp_path / "data" / "eval" / "broken"
    broken.mkdir()
    (broken / "summary.json").write_text('{"variants": [1, 2', "utf-8")
    at.text_input[0].set_value("broken").run()
    assert not at.exception
    assert "summary.json is not valid JSON" in at.error[0].value and not at.dataframe

    (broken / "summary.json").write_text('{"runs": {}}', "utf-8")
    at.run()
    assert not at.exception and 'has no "variants" object' in at.error[0].value

    (tmp_path / "data" / "eval" / "empty").mkdir()
    at.text_input[0].set_value("empty").run()
    assert not at.exception and not at.error and "No summary.json here yet" in at.info[0].value


def test_evaluate_page_notes_name_fields_as_code_not_backticks(monkeypatch, tmp_path):
    monkeypatch.setenv("FINSEARCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FINSEARCH_ADMIN", "1")           # folder browsing is for the operator
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    run = tmp_path / "data" / "eval"
    run.mkdir(parents=True)
    summary.append_row(run / "results-full.jsonl", {"id": "q1", "correct": True, "latency_ms": 100})
    summary.write(run, summary.summarise(run, "finsearchcomp", "bench.jsonl"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.switch_page("pages/evaluate.py").run()
    assert not at.exception
    assert at.selectbox[0].options == ["eval"], "the eval folder itself is named, not '.'"
    notes = [c.value for c in at.caption if "judge reply" in c.value]
    assert notes and "`answer_score`" in notes[0] and "`unparsed`" in notes[0]
    assert "\\`" not in notes[0], "no escaped (literal) backticks"
    [box] = at.get("file_uploader")
    assert box.proto.max_upload_size_mb == summary_files.SUMMARY_MAX_MB, "the box's limit is the one it is read with"
    assert "MB" not in box.proto.label, "one limit, stated once (by the box)"


def test_a_symlink_out_of_the_data_directory_is_not_followed(monkeypatch, tmp_path):
    monkeypatch.setenv("FINSEARCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FINSEARCH_ADMIN", "1")           # folder browsing is for the operator
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FINSEARCH_EVAL_ANY_FOLDER", raising=False)
    outside = tmp_path / "outside"
    outside.mkdir()
    summary.write(outside, {"format": "mcq", "variants": {"secret": {"accuracy": 1.0}}})
    root = tmp_path / "data" / "eval"
    (root / "linked-file").mkdir(parents=True)
    (root / "linked-dir").symlink_to(outside, target_is_directory=True)
    (root / "linked-file" / "summary.json").symlink_to(outside / "summary.json")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.switch_page("pages/evaluate.py").run()
    assert not at.exception and not at.selectbox and not at.dataframe
    assert "No summary.json here yet" in at.info[0].value
    assert str(tmp_path) not in at.info[0].value, "the server's paths are not shown to a visitor"
    at.text_input[0].set_value("linked-dir").run()
    assert not at.exception and not at.dataframe
    assert at.error[0].value == "Only folders inside this server's data directory can be read here."
    at.text_input[0].set_value("linked-file").run()
    assert not at.exception and not at.dataframe and not at.error
    assert "No summary.json here yet" in at.info[0].value


@pytest.mark.parametrize("typed", ["a\x00b", "~nobody-has-this-name/x"])
def test_a_folder_name_no_file_system_takes_is_refused_with_a_message(tmp_path, typed):
    with pytest.raises(InputError, match="That is not a folder name this page can read."):
        summary_files.eval_folder(tmp_path / "data", typed)


@pytest.mark.parametrize("typed", ["/etc", "../../..", "/", "~"])
def test_evaluate_page_reads_only_the_data_directory(monkeypatch, tmp_path, typed):
    monkeypatch.setenv("FINSEARCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FINSEARCH_ADMIN", "1")           # folder browsing is for the operator
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FINSEARCH_EVAL_ANY_FOLDER", raising=False)
    outside = tmp_path / "outside"
    outside.mkdir()
    summary.write(outside, {"format": "mcq", "variants": {"full": {"accuracy": 1.0}}})
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.switch_page("pages/evaluate.py").run()
    at.text_input[0].set_value(typed).run()
    assert not at.exception
    assert at.error[0].value == "Only folders inside this server's data directory can be read here."
    assert not at.selectbox and not at.dataframe


def test_an_operator_may_allow_any_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("FINSEARCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FINSEARCH_ADMIN", "1")           # folder browsing is for the operator
    monkeypatch.setenv("FINSEARCH_EVAL_ANY_FOLDER", "1")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "summary.json").write_text(json.dumps({"format": "mcq", "variants": {"full": {"accuracy": 1.0}}}))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.switch_page("pages/evaluate.py").run()
    at.text_input[0].set_value(str(outside)).run()
    assert not at.exception and not at.error and list(at.dataframe[0].value["variant"]) == ["full"]


@pytest.mark.parametrize(("content", "message"), [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (json.dumps({"variants": {"full": {"x": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}}}), "nested too deeply"),
    ("{" + " " * 2_100_000 + "}", "a summary is at most 2 MB"),
])
def test_a_hostile_summary_is_refused_with_a_reason(content, message):
    with pytest.raises(InputError, match=message):
        summary_files.parse_summary(content.encode(), "summary.json")


def test_a_datasets_text_never_reaches_the_terminal_as_control_sequences(eval_env, fake_llm, capsys):
    fake_llm.default = Reply(content="Answer: B")
    dataset = eval_env / "hostile.jsonl"
    dataset.write_text(json.dumps({"id": "q\x1b]0;PWNED\x07", "question": "Which? \x1b[2J", "answer": "B",
                                   "options": {"A": "x", "B": "y"}, "date": "2024-10-15",
                                   "category": "\x1b]0;PWNED\x07\x1b[31mred\u009b\u202e"}) + "\n", "utf-8")
    code = cli.main(["eval", str(dataset), "--format", "mcq", "--variants", "llm-only", "--out",
                     str(eval_env / "out")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    for stream in (captured.out, captured.err):
        assert not any(ch in stream for ch in "\x1b\x07\u009b\u202e")
    assert "]0;PWNED[31mred" in captured.out
