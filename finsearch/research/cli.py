"""`python -m finsearch report "QUESTION" …`: the report command, called from finsearch/cli.py."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable

from ..errors import InputError
from ..events import NodeFailed, NodeFinished
from ..sources.setup import with_data_fallback
from ..terminal import json_text, terminal_text
from .budget import ReportBudget
from .outline import Outline
from .result import OutlineReady, ReportFinished, SectionDone, SectionProgress


def run_report_command(args, settings, say: Callable[[str], None]) -> int:
    budget = ReportBudget()
    if args.max_sections is not None:
        if not 1 <= args.max_sections <= 8:
            raise InputError("--max-sections must be between 1 and 8")
        budget = dataclasses.replace(budget, sections=args.max_sections)
    if args.max_source_calls is not None:
        if args.max_source_calls < 1:
            raise InputError("--max-source-calls must be at least 1")
        budget = dataclasses.replace(budget, source_calls=args.max_source_calls)
    if args.outline_only:
        outline = outline_only(args.question, settings, budget)
        print(json_text(outline.to_json()) if args.json else terminal_text(outline_text(outline)))
        return 0
    settings, note = with_data_fallback(settings)
    if note:
        say(f"finsearch: {note}")
    from .run import run_report

    report = None
    progress = not args.json and sys.stderr.isatty()
    for event in run_report(args.question, settings=settings, budget=budget):
        if isinstance(event, ReportFinished):
            report = event.report
        elif progress and isinstance(event, OutlineReady):
            say(f"  outline ({event.outline.question_type}, {event.outline.by}): "
                + " · ".join(s.title for s in event.outline.sections))
        elif progress and isinstance(event, SectionProgress) and isinstance(event.event, (NodeFinished, NodeFailed)):
            node = event.event.node
            mark = "✓" if isinstance(event.event, NodeFinished) else "✗"
            say(f"  §{event.index} {mark} {node.source}: {node.sub_query}")
        elif progress and isinstance(event, SectionDone):
            say(f"  §{event.index} done: {event.found} items, {event.missing} still missing")
    if args.out:
        from .export import write

        write(report, args.out.expanduser())
        say(f"finsearch: wrote {args.out}")
    print(json_text(report.to_dict()) if args.json else terminal_text(report.markdown))
    return 0


def outline_only(question: str, settings, budget: ReportBudget) -> Outline:
    """The outline alone: the question read and outlined (by the model when there is one),
    nothing fetched."""
    from ..context import RunContext
    from .outline import make_outline

    ctx = RunContext.open(question, settings=settings, fetch=False)
    try:
        return make_outline(ctx.analysis, ctx.live_model, budget.sections)
    finally:
        ctx.close()


def outline_text(outline: Outline) -> str:
    lines = [f"{outline.question}  ({outline.question_type}, outline by {outline.by})", ""]
    for i, section in enumerate(outline.sections, start=1):
        lines.append(f"{i}. {section.title}")
        lines += [f"   - {q}" for q in section.key_questions]
    lines += [f"Note: {n}" for n in outline.notes]
    return "\n".join(lines)
