"""`python -m finsearch plan|ask|report|record|eval|mcp|worker|scheduler …` — the command line edge.

This is where errors become messages for people: bad input exits with code 2 and a
one-line reason, anything unexpected with code 1 and no traceback (set
FINSEARCH_DEBUG=1 to see it).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from . import pipeline
from .api.cli import add_parser as add_api_parser
from .api.cli import run as run_api
from .errors import FinSearchError, InputError
from .evaluate.cli import add_parser as add_eval_parser
from .evaluate.cli import run as run_eval
from .events import Event, NodeFailed, NodeFinished
from .evidence import to_iso
from .graph import ROOT, NodeStatus
from .jobs.cli import add_parser as add_jobs_parser
from .jobs.cli import run as run_jobs
from .mcp_server.cli import add_parser as add_mcp_parser
from .mcp_server.cli import run as run_mcp
from .model.usage_text import stage_lines, usage_line
from .phrases.dates import DaySpan
from .plan.interpretation import Corrections
from .plan.interpretation_text import command_line_choices
from .result import RunResult
from .service.lines import event_line
from .settings import LLM_CHOICES, parse_now
from .settings import from_env as settings_from_env
from .sources.replay import MANIFEST
from .sources.setup import with_data_fallback
from .surrogates import has_lone
from .terminal import json_text, terminal_text
from .watch.cli import add_parser as add_brief_parser
from .watch.cli import run as run_brief

STATUS_MARK = {"done": "✓", "failed": "✗", "skipped": "–", "pending": "·", "running": "…"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m finsearch",
                                     description="Real-time financial search: plan, search, cite.")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("question", help="the question, in quotes")
        p.add_argument("--now", help="pin the current time (ISO, e.g. 2024-10-15T20:00:00Z)")
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.add_argument("--llm", choices=[c for c in LLM_CHOICES if c != "auto"],
                       help="backend (default: openai when a key or base URL is set, else heuristic)")
        p.add_argument("--model", help="model name for the OpenAI-compatible server")
        p.add_argument("--ticker", action="append", default=[], metavar="WORDS=TICKER",
                       help="read an instrument of the question as another ticker, e.g. SOL=SOL-USD "
                            "(repeatable; WORDS is its symbol or the question's words for it)")
        p.add_argument("--period", metavar="START:END",
                       help="the period to search instead of the one read, e.g. 2024-09-18:2024-10-15")

    plan = sub.add_parser("plan", help="show the search graph for a question; fetch nothing")
    common(plan)

    ask = sub.add_parser("ask", help="answer a question with cited evidence")
    common(ask)
    ask.add_argument("--offline", action="store_true", help="use only cached or replayed data")
    ask.add_argument("--pack", type=Path, help="replay pack folder (also FINSEARCH_PACK)")
    ask.add_argument("--no-time-weight", action="store_true", help="every evidence weight is 1 (ablation)")
    ask.add_argument("--no-rewriter", action="store_true", help="run sub-queries as planned (ablation)")
    ask.add_argument("--judge", action="store_true", help="also have an LLM judge presentation and entailment")
    ask.add_argument("--events", action="store_true",
                     help="print one JSON line per pipeline event (type, at_ms, node id and status) before the result")
    report = sub.add_parser("report", help="write a deep research report: outline, research by section, audit")
    common(report)
    report.add_argument("--offline", action="store_true", help="use only cached or replayed data")
    report.add_argument("--pack", type=Path, help="replay pack folder (also FINSEARCH_PACK)")
    report.add_argument("--out", type=Path, help="also write the report to a file: .md, .html or .pdf")
    report.add_argument("--outline-only", action="store_true", help="write the outline and stop; fetch nothing")
    report.add_argument("--approve", action="store_true",
                        help="show the outline and ask yes / no / edit before researching (on a terminal)")
    report.add_argument("--yes", action="store_true", help="with --approve: research the outline without asking")
    report.add_argument("--judge", action="store_true",
                        help="also have an LLM judge the report on eight criteria (needs a model server)")
    report.add_argument("--max-sections", type=int, default=None, help="at most this many sections (default 8)")
    report.add_argument("--max-source-calls", type=int, default=None,
                        help="at most this many source calls (default 60)")
    record = sub.add_parser("record", help="run a question live and write every source call into a replay pack")
    record.add_argument("question")
    record.add_argument("--pack", type=Path, required=True, help="folder to write the pack into")
    record.add_argument("--now", help="the question's time (ISO); data is fetched live regardless")
    record.add_argument("--llm", choices=[c for c in LLM_CHOICES if c != "auto"])
    record.add_argument("--model")
    record.add_argument("--json", action="store_true")
    add_brief_parser(sub)
    add_eval_parser(sub)
    add_api_parser(sub)
    add_mcp_parser(sub)
    add_jobs_parser(sub)
    return parser


class _NoTracebacks(logging.Formatter):
    """Log lines for people: the message, never a traceback (FINSEARCH_DEBUG=1 shows them)."""

    def format(self, record: logging.LogRecord) -> str:
        return terminal_text(f"{record.levelname.lower()}: {record.getMessage()}")


def main(argv: list[str] | None = None) -> int:
    handler = logging.StreamHandler()
    if not os.environ.get("FINSEARCH_DEBUG"):
        handler.setFormatter(_NoTracebacks())
    logging.basicConfig(level=logging.WARNING, handlers=[handler], format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("yfinance").setLevel(logging.CRITICAL)   # failures reach people as node reasons
    parser = build_parser()
    args = parser.parse_args(argv)
    undecodable = _undecodable(args)
    if undecodable:                       # a usage error, like argparse's own: exit code 2
        parser.error(f"{undecodable} is not valid text: it holds bytes that are not UTF-8 "
                     "(is the terminal set to UTF-8?)")
    try:
        if args.command == "brief":
            return run_brief(args, _say)
        if args.command == "eval":
            return run_eval(args)
        if args.command in ("api", "api-key"):
            return run_api(args)
        if args.command == "mcp":
            return run_mcp(args)
        if args.command in ("worker", "scheduler"):
            return run_jobs(args)
        settings = _settings(args)
        corrections = Corrections.parse(getattr(args, "ticker", []), getattr(args, "period", None))
        if args.command == "plan":
            result = pipeline.plan_only(args.question, settings=settings, corrections=corrections)
            _print(result, args.json, with_answer=False)
            return 0
        if args.command == "record":
            return _record(args, settings)
        if args.command == "report":
            from .research.cli import run_report_command

            return run_report_command(args, settings, _say)
        result = _ask(args, settings, corrections)
        _print(result, args.json, with_answer=True)
        return 0
    except InputError as exc:             # includes ConfigError: a bad --now, a bad environment value
        _say(f"finsearch: {exc}")
        return 2
    except FinSearchError as exc:
        _say(f"finsearch: {exc}")
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:              # no traceback reaches a user
        if os.environ.get("FINSEARCH_DEBUG"):
            raise
        _say(f"finsearch: unexpected error ({type(exc).__name__}: {exc}); set FINSEARCH_DEBUG=1 for details")
        return 1


# The text arguments, as a message names them (paths such as --pack may be any bytes the file system takes).
_TEXT_ARGUMENTS = {"question": "the question", "now": "--now", "model": "--model", "ticker": "--ticker",
                   "period": "--period"}


def _undecodable(args: argparse.Namespace) -> str | None:
    """The first text argument holding bytes that are not UTF-8, as a message names it: Python hands
    such bytes over as lone surrogates (0xFF → U+DCFF), which no JSON or terminal output can carry."""
    for name, label in _TEXT_ARGUMENTS.items():
        value = getattr(args, name, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and has_lone(v) for v in values):
            return label
    return None


def _settings(args):
    overrides: dict = {}
    if args.now is not None:                # `--now ""` is a mistake to report, not to ignore
        overrides["now"] = parse_now(args.now)
    if args.llm:
        overrides["llm"] = args.llm
    if args.model:
        overrides["model"] = args.model
    if getattr(args, "offline", False):
        overrides["offline"] = True
    if getattr(args, "pack", None):
        overrides["pack"] = args.pack
    if getattr(args, "no_time_weight", False):
        overrides["time_weighting"] = False
    if getattr(args, "no_rewriter", False):
        overrides["rewriter"] = False
    if getattr(args, "judge", False):
        overrides["judge"] = True
    return settings_from_env(**overrides)


def _record(args, settings) -> int:
    folder = args.pack.expanduser()
    settings = settings.replace(pack=None, offline=False, record_to=folder)
    result = pipeline.ask(args.question, settings=settings)
    recorded = [p for p in folder.glob("*.json") if p.name != MANIFEST] if folder.is_dir() else []
    if not recorded:
        _say("finsearch: nothing was recorded: every source call failed "
             + "; ".join(sorted({n.error for n in result.graph if n.error})))
        return 1
    manifest = {"label": f"Recorded live on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC", "sample": False,
                "now": to_iso(result.now)}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", "utf-8")
    _print(result, args.json, with_answer=True)
    _say(f"finsearch: recorded {len(recorded)} source calls into {folder}")
    return 0


def _ask(args, settings, corrections: Corrections) -> RunResult:
    settings, note = with_data_fallback(settings)
    if note:
        _say(f"finsearch: {note}")
    events = pipeline.run(args.question, settings=settings, corrections=corrections)
    if args.events:
        events = _event_lines(events)
    elif not args.json and sys.stderr.isatty():
        events = _progress(events)
    return pipeline.finished(events)


def _event_lines(events: Iterator[Event]) -> Iterator[Event]:
    """Pass the events on, printing each as one JSON line, so a run can be timed from outside."""
    for event in events:
        print(json.dumps(event_line(event), ensure_ascii=False), flush=True)
        yield event


def _progress(events: Iterator[Event]) -> Iterator[Event]:
    """Pass the events on, telling the terminal as each search ends."""
    for event in events:
        if isinstance(event, (NodeFinished, NodeFailed)):
            node = event.node
            _say(f"  {STATUS_MARK[node.status.value]} {node.id} {node.source}: {node.sub_query}")
        yield event


def _print(result: RunResult, as_json: bool, with_answer: bool) -> None:
    if as_json:
        print(json_text(result.to_dict(with_answer=with_answer)))
        return
    print(terminal_text(render_text(result, with_answer)))


def _say(message: str) -> None:
    print(terminal_text(message), file=sys.stderr)



def render_text(result: RunResult, with_answer: bool = True) -> str:
    tc = result.analysis.time_context
    entities = ", ".join(f"{e.name} ({e.ticker})" if e.ticker and e.name != e.ticker else (e.ticker or e.name)
                         for e in result.analysis.entities) or "none"
    lines = [
        f"Question: {result.question}",
        f"Time: {tc.label} ({DaySpan(tc.start, tc.end): → })   Entities: {entities}",
        *(f"Read: {line}" for line in command_line_choices(result.interpretation)),
        f"Backend: planner {result.planner}, answer {result.answer.writer if result.answer else '-'}   "
        f"Data: {result.config.data}" + ("   SAMPLE DATA (not real quotes)" if result.sample else ""),
        "",
        "Search graph",
        *graph_tree(result),
    ]
    if with_answer and result.answer:
        lines += ["", "Answer", "", result.answer.markdown, ""]
        if result.answer.references:
            lines.append("References")
            for ref in result.answer.references:
                meta = " · ".join(x for x in (ref.publisher, ref.day) if x)
                lines.append(f"[{ref.n}] {ref.title}" + (f" — {meta}" if meta else "")
                             + (f"\n    {ref.url}" if ref.url else ""))
        if result.charts:
            lines.append("Charts: " + ", ".join(f"{c['ticker']} candlestick ({c['rows']} bars)"
                                                for c in result.charts))
        if result.audit:
            audit = result.audit
            not_answered = audit.answered.not_answered(result.analysis.language)
            lines.append(f"Audit: {audit.summary()}, trust {audit.trust:.2f}"
                         + (f"; {not_answered}" if not_answered else ""))
        stats = result.stats
        served = f"{stats.cache_hits} cached" + (f", {stats.pack_reads} from the pack" if stats.pack_reads else "")
        lines.append(f"Stats: {stats.source_calls} source calls ({served}), "
                     f"{stats.llm_calls} LLM calls, {stats.wall_ms} ms")
        used = usage_line(result.usage, "en")
        if used:
            lines.append(f"Model use: {used} ({'; '.join(stage_lines(result.usage, 'en'))})")
    for note in result.notes:
        lines.append(f"Note: {note}")
    return "\n".join(lines)


def graph_tree(result: RunResult) -> list[str]:
    graph = result.graph
    lines = [f"{ROOT} {result.question}"]
    placed: set[str] = set()

    def walk(node_id: str, prefix: str) -> None:
        kids = [n for n in (graph.children(node_id) if node_id != ROOT else
                            [n for n in graph if not n.depends_on])
                if n.id not in placed and (node_id == ROOT or n.depends_on[0] == node_id)]
        for i, node in enumerate(kids):
            placed.add(node.id)
            last = i == len(kids) - 1
            mark = STATUS_MARK[node.status.value]
            weight = f" w={node.time_weight:.2f}" if node.time_weight is not None else ""
            extra = f" (also after {', '.join(node.depends_on[1:])})" if len(node.depends_on) > 1 else ""
            lines.append(f"{prefix}{'└─' if last else '├─'} {mark} {node.id} [{node.source}] {node.sub_query}"
                         f"{weight}{extra}")
            sub = prefix + ("   " if last else "│  ")
            if node.rewritten:
                lines.append(f"{sub}   rewritten ({node.rewritten_by}) from: {node.original_sub_query}")
            if node.status is not NodeStatus.DONE and node.error:
                lines.append(f"{sub}   {node.error}")
            walk(node.id, sub)

    walk(ROOT, "")
    return lines
