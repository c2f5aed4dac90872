"""An outline as plain text a person can edit, and back: one `## heading` per section, its
key questions below it, one per line (a leading `-` is optional).

    ## Recent results
    - What were NVIDIA's latest revenue, net income and EPS?
    - Did NVIDIA's latest results beat estimates?

The app shows this text for the user to approve or change before any research starts.
"""

from __future__ import annotations

from ..errors import InputError
from .outline import MAX_SECTIONS, Outline, edit_outline


def outline_text(outline: Outline) -> str:
    return "\n\n".join("## " + s.title + "".join(f"\n- {q}" for q in s.key_questions) for s in outline.sections)


def parse_outline_text(text: str, drafted: Outline, max_sections: int = MAX_SECTIONS) -> Outline:
    """The edited text as the outline to research (`edit_outline` of the drafted one);
    InputError saying what to fix when it holds no usable section. A section the user kept
    with its title alone is researched on its title as its question."""
    heads: list[tuple[str, list[str]]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            if title:
                heads.append((title, []))
            continue
        question = line.lstrip("-*•").strip()
        if not heads:
            raise InputError("The outline must start with a section heading: a line that begins with ##.")
        if question:
            heads[-1][1].append(question)
    if not heads:
        raise InputError("The outline has no sections: write each section's heading on a line that begins "
                         "with ##, and its key questions below it.")
    return edit_outline(drafted, [(title, asks or [title]) for title, asks in heads], max_sections)
