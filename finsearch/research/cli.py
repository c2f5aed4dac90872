"""`python -m finsearch report "QUESTION" …`: the report command, called from finsearch/cli.py."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable

from ..errors import InputError
from ..events import NodeFailed, NodeFinished
from ..model.usage_text import stage_lines, usage_line
from ..phrases import say as say_phrase
from ..sources.setup import with_data_fallback
from ..terminal import json_text, terminal_text
from .approval import approve, edit_in_editor, outline_text
from .budget import ReportBudget
from .judge import NEEDS_MODEL, can_judge, judge_with, judgement_text
from .result import OutlineReady, ReportFinished, SectionDone, SectionProgress
from .rubric import score_report
from .run import outline_for, run_report


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
        outline = outline_for(args.question, settings=settings, budget=budget)
        print(json_text(outline.to_json()) if args.json else terminal_text(outline_text(outline)))
        return 0
    if settings.judge and not can_judge(settings):      # said before anything is fetched
        raise InputError(f"{NEEDS_MODEL} (or leave out --judge and FINSEARCH_JUDGE)")
    settings, note = with_data_fallback(settings)
    if note:
        say(f"finsearch: {note}")
    settings = _pinned_to_pack(settings, say)
    outline = None
    if args.approve and not args.yes:
        outline = outline_for(args.question, settings=settings, budget=budget)
        if sys.stdin.isatty():
            outline = approve(outline, _ask, edit_in_editor, lambda text: say(terminal_text(text)))
            if outline is None:
                return 1
        else:
            say(terminal_text(say_phrase("report.approve_no_tty", outline.language)))
    report = None
    progress = not args.json and sys.stderr.isatty()
    for event in run_report(args.question, settings=settings, budget=budget, outline=outline):
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
        from ..export.report import write

        write(report, args.out.expanduser())
        say(f"finsearch: wrote {args.out}")
    if args.json:       # one object: the verdict goes in it
        judged = judge_with(settings, report.question, report.markdown) if settings.judge else None
        print(json_text({**report.to_dict(), "rubric": score_report(report).to_json(),
                         **({"judge": judged.to_json()} if judged else {})}))
        return 0
    print(terminal_text(report.markdown), flush=True)      # the report first: the judge may take a while
    used = usage_line(report.usage, "en")
    if used:
        say(f"finsearch: model use: {used} ({'; '.join(stage_lines(report.usage, 'en'))})")
    if settings.judge:
        say(f"finsearch: {judgement_text(judge_with(settings, report.question, report.markdown))}")
    return 0


def _ask(prompt: str) -> str:
    """A reply typed at the terminal; end of input is a no. The prompt goes to stderr, as the
    outline does: stdout is the report's (with --json, one JSON object)."""
    sys.stderr.write(terminal_text(prompt))
    sys.stderr.flush()
    try:
        return input()
    except EOFError:
        return "n"


def _pinned_to_pack(settings, say: Callable[[str], None]):
    """A sample pack's own "today" when no --now was given, so that "recent" means the
    days its data covers (as the offline sample does), said once on stderr."""
    if settings.pack is None or settings.now is not None:
        return settings
    from ..settings import parse_now
    from ..sources.replay import open_pack

    info = open_pack(settings.pack).info
    if not info.sample or not info.now:
        return settings
    try:
        pinned = parse_now(info.now)
    except ValueError:
        return settings
    say(f"finsearch: sample data; time pinned to {pinned:%Y-%m-%d %H:%M} UTC, the sample's own date.")
    return settings.replace(now=pinned)
