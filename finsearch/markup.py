"""Markup taken out of text in time linear in its length: whole blocks (a script, a style) and
tags, as the obvious regular expressions would, without their quadratic worst case.

`<(script|style)\\b.*?</\\1>` tries every opening it finds against the rest of the text, and
`<[^>]*>` every `<`: on a page that opens a hundred thousand and closes none (a hostile title, a
broken filing) that is hours of work holding the interpreter, not milliseconds. Here a block
whose closing tag is nowhere after it is looked for once, and a tag pattern is only tried where
a `>` still follows.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=16)
def _openings(names: tuple[str, ...]) -> re.Pattern:
    return re.compile(r"<(" + "|".join(re.escape(n) for n in names) + r")\b", re.I)


@lru_cache(maxsize=64)
def _closing(name: str) -> re.Pattern:
    return re.compile(r"</" + re.escape(name) + r"\s*>", re.I)


def drop_blocks(text: str, names: tuple[str, ...], replacement: str = " ") -> str:
    """`text` with each `<name …>…</name>` block (any case, the nearest closing tag) replaced,
    as `re.sub(r"<(name|…)\\b.*?</\\1\\s*>", replacement, text, flags=re.I | re.S)` does."""
    openings = _openings(names)
    unclosed: set[str] = set()           # names with no closing tag after the last opening tried
    parts: list[str] = []
    pos = kept_from = 0
    while (opening := openings.search(text, pos)) is not None:
        name = opening.group(1).lower()
        closing = None if name in unclosed else _closing(name).search(text, opening.end())
        if closing is None:
            unclosed.add(name)           # nor after any later opening of it
            pos = opening.end()
            continue
        parts += [text[kept_from:opening.start()], replacement]
        pos = kept_from = closing.end()
    if not parts:
        return text
    parts.append(text[kept_from:])
    return "".join(parts)


def sub_tags(pattern: re.Pattern, replacement: str, text: str) -> str:
    """`pattern.sub(replacement, text)` for a tag pattern (each match starts with `<` and ends
    at the first `>` after it), tried only up to the last `>`: past it no tag can close."""
    end = text.rfind(">") + 1
    return pattern.sub(replacement, text[:end]) + text[end:] if end else text
