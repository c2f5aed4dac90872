"""A notice as plain text: its title, its markdown as written, then its references with their URLs —
the e-mail's text part, and the text of chat messages that take no markup."""

from __future__ import annotations

from ..answer.citations import Reference
from ..answer.markdown import href
from ..phrases import say
from .notice import Notice


def one_line(text: str, limit: int = 200) -> str:
    """`text` as one printable line (a subject, a push title): no line breaks or control characters."""
    line = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


def reference_line(ref: Reference) -> str:
    """"[n] title — publisher · day", its URL on the next line when it is an http(s) one."""
    meta = " · ".join(x for x in (ref.publisher or "", ref.day or "") if x)
    line = f"[{ref.n}] {one_line(ref.title, 300)}" + (f" — {one_line(meta)}" if meta else "")
    url = href(ref.url)
    return f"{line}\n    {url}" if url else line


def plain_text(notice: Notice) -> str:
    parts = [one_line(notice.title), "", notice.markdown.strip()]
    if notice.references:
        parts += ["", say("report.references", notice.language)]
        parts += [reference_line(r) for r in notice.references]
    return "\n".join(parts) + "\n"
