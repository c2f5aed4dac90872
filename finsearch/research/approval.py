"""The outline shown to the reader before any research, in the question's language, and
`report --approve`: researched as written (y), not at all (n), or edited first (e) in the
reader's editor, as numbered titles with their key questions below them.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError
from ..phrases import say
from .outline import MAX_KEY_QUESTIONS, MAX_SECTIONS, Outline, edit_outline

_TITLE = re.compile(r"^\s*\d+\s*[.)、．]\s*(.*)$")
_QUESTION = re.compile(r"^\s*[-*•]\s*(.*)$")


def outline_text(outline: Outline) -> str:
    """The outline as a reader sees it: a head line, the numbered sections, the notes."""
    language = outline.language
    head = say("report.outline_head", language, question=outline.question,
               kind=say(f"report.kind.{outline.question_type}", language),
               by=say(f"report.by.{outline.by}", language))
    notes = [say("report.outline_note", language, note=n) for n in outline.notes]
    return "\n".join([head, "", sections_text(outline), *(["", *notes] if notes else [])])


def sections_text(outline: Outline) -> str:
    lines = []
    for i, section in enumerate(outline.sections, start=1):
        lines.append(f"{i}. {section.title}")
        lines += [f"   - {q}" for q in section.key_questions]
    return "\n".join(lines)


def parse_sections(text: str, outline: Outline) -> Outline:
    """The reader's edited text as the outline to research; InputError (in the outline's
    language) when it cannot be researched."""
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        asked = _QUESTION.match(line)
        if asked:
            if not sections:
                raise InputError(say("report.edit_unusable", outline.language,
                                     reason=say("report.edit_orphan", outline.language, question=asked[1].strip())))
            sections[-1][1].append(asked[1])
            continue
        titled = _TITLE.match(line)
        sections.append(((titled[1] if titled else line).strip(), []))
    return edit_outline(outline, sections)


def approve(outline: Outline, ask: Callable[[str], str], edit: Callable[[str], str | None],
            say_line: Callable[[str], None]) -> Outline | None:
    """Ask until the reader says yes (the outline, perhaps edited) or no (None).
    `ask` shows a prompt and returns the reply; `edit` returns the edited text, or None
    when there is no editor to edit in."""
    language = outline.language
    say_line(outline_text(outline))
    while True:
        reply = ask(say("report.approve_ask", language)).strip().lower()
        if reply in ("y", "yes", "是"):
            return outline
        if reply in ("n", "no", "否", "q"):
            say_line(say("report.approve_declined", language))
            return None
        if reply not in ("e", "edit", "编辑"):
            continue
        help_line = say("report.edit_help", language, sections=MAX_SECTIONS, questions=MAX_KEY_QUESTIONS)
        edited = edit(help_line + "\n\n" + sections_text(outline) + "\n")
        if edited is None:
            say_line(say("report.approve_no_editor", language))
            continue
        try:
            outline = parse_sections(edited, outline)
        except InputError as exc:
            say_line(str(exc))
            continue
        say_line(outline_text(outline))


def edit_in_editor(text: str) -> str | None:
    """`text` edited in $VISUAL, $EDITOR or the first of nano / vi found; None when there is
    none, or it failed to start."""
    command = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    argv = shlex.split(command) if command else next(([found] for name in ("nano", "vi")
                                                      if (found := shutil.which(name))), None)
    if not argv:
        return None
    with tempfile.TemporaryDirectory(prefix="finsearch-outline-") as folder:
        path = Path(folder) / "outline.txt"
        path.write_text(text, "utf-8")
        try:
            subprocess.run([*argv, str(path)], check=True)
        except (OSError, subprocess.CalledProcessError):
            return None
        return path.read_text("utf-8")
