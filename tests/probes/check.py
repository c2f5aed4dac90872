"""The probe set: questions on invented packs, each with mechanical checks on what a reader
reads first. The score is the share of checks that pass, and the share of questions whose
every check passes.

    python -m tests.probes.check               # the development questions (questions.json)
    python -m tests.probes.check --heldback    # the held-back third (heldback.json): run at the end only
    python -m tests.probes.check -v            # … and the opening of every question that failed a check

The checks (the lead is the answer's first paragraph):

    lead_figures        every value is stated in the lead (as written, within its precision; signs ignored)
    lead_figures_any    at least one of the values is
    lead_date           the day is named (2025-03-14, March 14, 3月14日 …)
    lead_dates_any      one of the days is
    lead_any            one of the words is (case-insensitive)
    lead_order          each group's first mention comes before the next group's
    lead_no_cjk         an English lead with no Chinese characters (a headline left untranslated)
    not_in_lead         none of these words is
    answer_any          one of the words is somewhere in the answer
    no_not_found        the answer nowhere says something was not found
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import tempfile
from datetime import datetime
from pathlib import Path

from finsearch import pipeline
from finsearch.answer.figures import figures_in
from finsearch.settings import from_env

HERE = Path(__file__).resolve().parent
PACKS = HERE / "packs"
NOT_FOUND = re.compile(
    r"\bnot\s+(?:been\s+)?found\b|\bfound\s+no\b|\bno\s+\w+(?:\s+\w+)?\s+(?:was|were)\s+found|\bcould\s+not\s+find"
    r"|\bdid\s+not\s+find|\bnone\s+of\s+the\s+news|\bno\s+report\s+on\s+the\s+day|\bneither\s+the\b"
    r"|\bnothing\s+in\s+the\s+(?:news|evidence)|未找到|没有找到|未能找到|没有报道|当天没有|均未|暂无", re.I)
CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclasses.dataclass(frozen=True)
class Outcome:
    id: str
    question: str
    passed: tuple[str, ...]
    failed: tuple[str, ...]
    lead: str


def lead_of(markdown: str) -> str:
    return markdown.replace("\\", "").split("\n\n", 1)[0]


def _has_figure(text: str, value: float) -> bool:
    for figure in figures_in(text):
        if figure.kind == "date":
            continue
        slack = max(figure.tolerance, 0.002 * abs(value), 0.011 if abs(value) < 1e4 else 0) + 1e-9
        if abs(abs(figure.value) - abs(value)) <= slack:
            return True
    return False


def _has_date(text: str, day: str) -> bool:
    wanted = datetime.fromisoformat(day).date()
    for figure in figures_in(text):
        if figure.kind == "date" and figure.day is not None:
            if figure.day == wanted or (figure.day.year == 2000 and (figure.day.month, figure.day.day)
                                        == (wanted.month, wanted.day)):
                return True
    return day[5:] in text and day[:4] in text


def _first_index(text: str, words: list[str]) -> int:
    found = [text.lower().find(w.lower()) for w in words]
    found = [i for i in found if i >= 0]
    return min(found) if found else -1


def check(kind: str, expected, lead: str, answer: str) -> bool:
    if kind == "lead_figures":
        return all(_has_figure(lead, v) for v in expected)
    if kind == "lead_figures_any":
        return any(_has_figure(lead, v) for v in expected)
    if kind == "lead_date":
        return _has_date(lead, expected)
    if kind == "lead_dates_any":
        return any(_has_date(lead, d) for d in expected)
    if kind == "lead_any":
        return any(w.lower() in lead.lower() for w in expected)
    if kind == "answer_any":
        return any(w.lower() in answer.lower() for w in expected)
    if kind == "not_in_lead":
        return not any(w.lower() in lead.lower() for w in expected)
    if kind == "lead_order":
        places = [_first_index(lead, group) for group in expected]
        return all(p >= 0 for p in places) and places == sorted(places)
    if kind == "lead_no_cjk":
        return not CJK.search(lead)
    if kind == "no_not_found":
        return not NOT_FOUND.search(answer)
    raise ValueError(f"unknown check {kind!r}")


def _pack_now(pack: Path) -> datetime:
    now = json.loads((pack / "_pack.json").read_text("utf-8"))["now"]
    return datetime.fromisoformat(now.replace("Z", "+00:00"))


def run(questions: list[dict], work: Path) -> list[Outcome]:
    outcomes = []
    for q in questions:
        pack = PACKS / q["pack"]
        settings = from_env({}, cache_dir=work / "cache" / q["pack"], data_dir=work / "data", llm="heuristic",
                            now=_pack_now(pack), node_timeout_s=5.0).replace(pack=pack, offline=True)
        markdown = pipeline.ask(q["question"], settings=settings).answer.markdown
        lead, answer = lead_of(markdown), markdown.replace("\\", "")
        passed, failed = [], []
        for item in q["checks"]:
            (kind, expected), = item.items()
            (passed if check(kind, expected, lead, answer) else failed).append(f"{kind}={expected}")
        outcomes.append(Outcome(q["id"], q["question"], tuple(passed), tuple(failed), lead))
    return outcomes


def load(heldback: bool) -> list[dict]:
    return json.loads((HERE / ("heldback.json" if heldback else "questions.json")).read_text("utf-8"))


def score(outcomes: list[Outcome]) -> tuple[int, int, int, int]:
    checks = sum(len(o.passed) + len(o.failed) for o in outcomes)
    return sum(len(o.passed) for o in outcomes), checks, sum(not o.failed for o in outcomes), len(outcomes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heldback", action="store_true", help="run the held-back questions")
    parser.add_argument("-v", "--verbose", action="store_true", help="show the lead of each failed question")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        outcomes = run(load(args.heldback), Path(work))
    for o in outcomes:
        mark = "PASS" if not o.failed else "FAIL"
        print(f"{mark} {o.id}: {o.question}" + (f"\n     failed: {'; '.join(o.failed)}" if o.failed else ""))
        if o.failed and args.verbose:
            print("     lead: " + o.lead.replace("\n", " ")[:900])
    passed, checks, whole, questions = score(outcomes)
    print(f"\nchecks {passed}/{checks} ({passed / checks:.0%}) · questions fully passed {whole}/{questions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
