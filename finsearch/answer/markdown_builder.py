"""Markdown built from parts: every text argument escaped unless it is already `Markdown`.

A report or an answer is assembled from our own templates and from text we do not control: a
section title from a model's outline or a visitor's edit, a failed search's sub-query, a
headline, a publisher. An `escape()` forgotten at one of those joins let a title carry an image
that called home into every exported report (issue 31). Here the safe way is the only way:

    Markdown                 text known to be markdown we built (a `str`, so it prints as one)
    escape(text)             untrusted text → Markdown that shows exactly that text
    md(template, *a, **kw)   our template (a literal), its arguments escaped unless Markdown
    Markdown(sep).join(xs)   the same for a join; `Markdown + str` escapes the str too
    say_md(key, lang, **kw)  a phrase (our own words) with its text values escaped
    markdown.written(text)   a writer's answer (the rules' or a model's) as Markdown: its
                             formatting kept, nothing in it that could link, fetch or run

so a plain `str` that reaches a join by mistake shows as literal text, never as a link.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..phrases import Language, say

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!])")


class Markdown(str):
    """Markdown we built: safe to place into more markdown as it is."""

    __slots__ = ()

    def __add__(self, other: str) -> Markdown:
        return Markdown(str.__add__(self, as_markdown(other)))

    def __radd__(self, other: str) -> Markdown:
        return Markdown(str.__add__(as_markdown(other), self))

    def join(self, parts: Iterable[str]) -> Markdown:
        return Markdown(str.join(self, (as_markdown(p) for p in parts)))

    def format(self, *args, **kwargs) -> Markdown:
        return Markdown(str.format(self, *(_arg(a) for a in args), **{k: _arg(v) for k, v in kwargs.items()}))


def escape(text: str | None) -> Markdown:
    """Plain text → markdown that renders as the same plain text (no links, no HTML)."""
    return Markdown(_SPECIAL.sub(r"\\\1", text or "").replace("\n", " "))


def as_markdown(value: str | None) -> Markdown:
    """`value` as it may be placed into markdown: Markdown as it is, any other text escaped."""
    return value if isinstance(value, Markdown) else escape(value)


def _arg(value):
    """A template's argument: text escaped unless Markdown; numbers, dates and other values as
    they format (their digits and words are never syntax)."""
    return as_markdown(value) if isinstance(value, str) else value


def md(template: str, /, *args, **kwargs) -> Markdown:
    """Our own `template` (a literal, never retrieved text) filled with escaped arguments."""
    return Markdown(template).format(*args, **kwargs)


def say_md(key: str, language: Language, /, **values) -> Markdown:
    """The phrase `key` (our words, their formatting kept) with every text value escaped unless
    it is Markdown already."""
    return Markdown(say(key, language, **{k: _arg(v) for k, v in values.items()}))

