"""The report scoring set (tests/probes/reports.json) run offline on its packs with the rules
(no model) and scored by the report rubric (finsearch.research.rubric): one row a request.

    python -m tests.probes.report_check                      # this checkout
    python -m tests.probes.report_check --before DIR         # another checkout's writer, today's rubric
    python -m tests.probes.report_check --out table.txt

With --before, the requests run in DIR's own Python with DIR's code (a git worktree of an
earlier commit, with its .venv), scored by this checkout's rubric loaded from its file.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
REQUESTS = HERE.with_name("reports.json")
RUBRIC = ROOT / "finsearch" / "research" / "rubric.py"
MARKS = {True: "✓", False: "✗"}


@dataclasses.dataclass(frozen=True)
class ReportRequest:
    id: str
    kind: str            # company, comparison, event … : what the set covers, not an input
    pack: str            # relative to the checkout's root
    now: str
    request: str


def load_requests(path: Path = REQUESTS) -> list[ReportRequest]:
    return [ReportRequest(**raw) for raw in json.loads(path.read_text("utf-8"))]


def _rubric():
    """This checkout's rubric; run for another checkout (--before), the file it was given, which
    that checkout's package loads as its own (an older one has none)."""
    path = os.environ.get("FINSEARCH_RUBRIC_FILE")
    if not path:
        from finsearch.research import rubric
        return rubric
    spec = importlib.util.spec_from_file_location("finsearch.research.rubric", path)
    rubric = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = rubric
    spec.loader.exec_module(rubric)
    return rubric


def score_request(request: ReportRequest, root: Path, cache: Path):
    """The request's report, run offline with the rules on its pack, and its rubric."""
    from finsearch.research.run import report
    from finsearch.settings import from_env, parse_now

    settings = from_env({"FINSEARCH_LLM": "heuristic", "FINSEARCH_OFFLINE": "1", "FINSEARCH_CACHE_DIR": str(cache),
                         "FINSEARCH_DATA_DIR": str(cache), "FINSEARCH_PACK": str(root / request.pack)})
    done = report(request.request, now=parse_now(request.now), settings=settings)
    return done, _rubric().score_report(done)


def score_all(requests: list[ReportRequest], root: Path = ROOT) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="report-check-") as cache:
        for request in requests:
            done, rubric = score_request(request, root, Path(cache))
            rows.append({"id": request.id, "kind": request.kind, "type": done.outline.question_type,
                         "pack": Path(request.pack).name, **rubric.to_json()})
    return rows


def table(rows: list[dict]) -> str:
    """Each request's criteria (✓ passed, ✗ failed, – not applicable), score and repeats, the
    failing criteria's reasons below, and the mean score."""
    names = [c["name"] for c in rows[0]["criteria"]] if rows else []
    lines = ["| request | pack | type | " + " | ".join(names) + " | repeats | score |",
             "|" + " --- |" * (len(names) + 5)]
    for row in rows:
        marks = [MARKS[c["passed"]] if c["applies"] else "–" for c in row["criteria"]]
        lines.append(f"| {row['id']} | {row['pack']} | {row['type']} | " + " | ".join(marks)
                     + f" | {row['repeats']} | {row['score']} |")
    mean = sum(r["score"] for r in rows) / len(rows) if rows else 0.0
    lines += ["", f"mean score: {mean:.2f} / 10 over {len(rows)} reports", ""]
    for row in rows:
        failed = [f"{c['name']}: {c['reason']}" for c in row["criteria"] if c["applies"] and not c["passed"]]
        if failed:
            lines.append(f"{row['id']}: " + " · ".join(failed))
    return "\n".join(lines) + "\n"


def _rows_from(checkout: Path) -> list[dict]:
    """The rows with `checkout`'s code and Python, and this rubric."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "FINSEARCH_RUBRIC_FILE": str(RUBRIC)}
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        env.pop(name, None)
    python = checkout / ".venv" / "bin" / "python"
    done = subprocess.run([str(python if python.exists() else sys.executable), str(HERE), "--rows",
                           "--requests", str(REQUESTS)], cwd=checkout, env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.probes.report_check")
    parser.add_argument("--before", type=Path, help="score another checkout's reports (its root, with a .venv)")
    parser.add_argument("--out", type=Path, help="also write the table here")
    parser.add_argument("--requests", type=Path, default=REQUESTS)
    parser.add_argument("--rows", action="store_true", help=argparse.SUPPRESS)     # JSON rows, for --before
    args = parser.parse_args(argv)
    if args.rows:
        print(json.dumps(score_all(load_requests(args.requests), Path.cwd()), ensure_ascii=False))
        return 0
    rows = _rows_from(args.before.resolve()) if args.before else score_all(load_requests(args.requests))
    text = table(rows)
    print(text, end="")
    if args.out:
        args.out.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
