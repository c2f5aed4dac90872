"""An outline as plain text a person can edit, and back: one `## heading` per section, its
key questions below it, one per line (a leading `-` is optional).

    ## Recent results
    - What were NVIDIA's latest revenue, net income and EPS?
    - Did NVIDIA's latest results beat estimates?

The app shows this text for the user to approve or change before any research starts.
"""

from __future__ import annotations

import dataclasses

from ..errors import InputError
from .outline import MAX_KEY_QUESTIONS, MAX_SECTIONS, MAX_TEXT, Outline, Section


def outline_text(outline: Outline) -> str:
    return "\n\n".join("## " + s.title + "".join(f"\n- {q}" for q in s.key_questions) for s in outline.sections)


def parse_outline_text(text: str, drafted: Outline, max_sections: int = MAX_SECTIONS) -> Outline:
    """The edited text as the outline to research (the drafted one's question, type and
    language); InputError saying what to fix when it holds no usable section. A section the
    user kept with its title alone is researched on its title as its question."""
    heads: list[tuple[str, list[str]]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            if title:
                heads.append((title[:MAX_TEXT], []))
            continue
        question = line.lstrip("-*•").strip()
        if not heads:
            raise InputError("The outline must start with a section heading: a line that begins with ##.")
        if question:
            heads[-1][1].append(question[:MAX_TEXT])
    if not heads:
        raise InputError("The outline has no sections: write each section's heading on a line that begins "
                         "with ##, and its key questions below it.")
    if len(heads) > max_sections:
        raise InputError(f"The outline has {len(heads)} sections; a report researches at most {max_sections}.")
    known = {s.title: s.key for s in drafted.sections}
    sections = tuple(Section(known.get(title, f"s{i}"), title, tuple(asks[:MAX_KEY_QUESTIONS]) or (title,))
                     for i, (title, asks) in enumerate(heads, start=1))
    if sections == drafted.sections:
        return drafted
    return dataclasses.replace(drafted, sections=sections, by="user")
