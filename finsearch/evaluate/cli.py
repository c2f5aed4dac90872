"""`python -m finsearch eval DATASET --format mcq|finsearchcomp|report --variants … --out DIR` — the edge.

Bad input raises InputError (the main CLI prints it on one line and exits 2); the summary
table is printed on stdout at the end, progress on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..settings import LLM_CHOICES
from ..settings import from_env as settings_from_env
from ..terminal import terminal_text
from . import rewards, runner, summary, variants


def add_parser(sub) -> argparse.ArgumentParser:
    """Register the `eval` subcommand on the main parser's subparsers."""
    p = sub.add_parser(
        "eval", help="run a benchmark dataset through FinSearch and its ablation variants",
        description="Answer every question of DATASET with each variant, grade it, and write "
                    "DIR/results-<variant>.jsonl, DIR/summary.json and DIR/summary.md. "
                    "A second run into the same DIR skips the ids already answered.")
    p.add_argument("dataset", type=Path, help="JSON Lines file (or a JSON array, like the FinSearchComp release)")
    p.add_argument("--format", dest="fmt", required=True, metavar="mcq|finsearchcomp|report",
                   help="mcq: lettered options, graded by the letter; finsearchcomp: free-form, "
                        "graded by each record's own LLM judge; report: deep research requests, each report "
                        "scored by its audit (and with --judge its presentation and a reference answer)")
    p.add_argument("--variants", default="full", metavar="LIST",
                   help=f"comma-separated, from {','.join(variants.VARIANTS)} (default: full)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for results and summaries")
    p.add_argument("--concurrency", type=int, default=1, metavar="N", help="questions answered at once (default 1)")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N questions")
    p.add_argument("--timeout", type=float, default=180.0, metavar="S",
                   help="seconds per question, answer and grading together (default 180)")
    p.add_argument("--retry-errors", action="store_true",
                   help="on resume, also re-run the questions that ended in an error (e.g. timed out)")
    p.add_argument("--judge", action="store_true",
                   help="also have the LLM judge score presentation (the rewards' presentation component; "
                        "for reports the eight report criteria and the reference answer)")
    p.add_argument("--judge-model", metavar="M", help="judge model on the same server (default: the answering model)")
    p.add_argument("--rewards", type=Path, metavar="FILE", help="write per-question reward trajectories (JSONL)")
    p.add_argument("--reward-weights", metavar="W",
                   help="e.g. coverage=0.3,grounding=0.4,presentation=0.3,tool=1.0 (the defaults)")
    p.add_argument("--llm", choices=[c for c in LLM_CHOICES if c != "auto"],
                   help="backend (default: openai when a key or base URL is set, else heuristic)")
    p.add_argument("--model", help="answering model on the OpenAI-compatible server")
    p.add_argument("--offline", action="store_true", help="use only cached or replayed data")
    p.add_argument("--pack", type=Path, help="replay pack folder (also FINSEARCH_PACK)")
    return p


def run(args: argparse.Namespace) -> int:
    """Run the `eval` subcommand; InputError / ValueError on bad input (exit 2 in the caller)."""
    config = runner.EvalConfig(
        dataset=args.dataset, fmt=(args.fmt or "").strip().lower(), variants=variants.parse_variants(args.variants),
        out=args.out, concurrency=args.concurrency, limit=args.limit, timeout_s=args.timeout,
        judge_model=args.judge_model, retry_errors=args.retry_errors, rewards=args.rewards,
        reward_weights=rewards.parse_weights(args.reward_weights))
    result = runner.run_eval(config, _settings(args), stream=sys.stderr)
    print(terminal_text(summary.markdown(result)), end="")
    return 0


def _settings(args: argparse.Namespace):
    overrides: dict = {}
    if args.llm:
        overrides["llm"] = args.llm
    if args.model:
        overrides["model"] = args.model
    if args.offline:
        overrides["offline"] = True
    if args.pack:
        overrides["pack"] = args.pack
    if args.judge:
        overrides["judge"] = True
    if args.judge_model:
        overrides["judge_model"] = args.judge_model
    return settings_from_env(**overrides)
