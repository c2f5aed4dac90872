"""Markdown that is safe to render: untrusted text in, inert text out.

Retrieved titles and snippets, and model output built from them, may carry HTML,
markdown links with `javascript:` targets or images that call home. Everything that
reaches a page goes through here: `escape` for text we place into markdown ourselves,
`clean_model_markdown` for an answer a model wrote.
"""

from __future__ import annotations

import re

from .evidence import safe_url

# `(`, `)` and `!` are inert once `[` and `]` are escaped; `$` (LaTeX in Streamlit) is
# handled where markdown is rendered, so that stored answers keep plain dollar amounts.
_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def escape(text: str) -> str:
    """Plain text → markdown that renders as the same plain text (no links, no HTML)."""
    return _SPECIAL.sub(r"\\\1", text or "").replace("\n", " ")


def link(text: str, url: str | None) -> str:
    """A markdown link when `url` is http(s), else the escaped text alone."""
    safe = safe_url(url)
    if not safe:
        return escape(text)
    target = safe.replace("(", "%28").replace(")", "%29").replace(" ", "%20")
    return f"[{escape(text)}]({target})"


_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)]*)\)")
_LINK = re.compile(r"(?<!\\)\[([^\]]+)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
_AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*)>")
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")


def clean_model_markdown(text: str) -> str:
    """Keep a model's markdown formatting but drop images, raw HTML and non-http links."""
    text = _IMAGE.sub(lambda m: escape(m.group(1)), text)
    text = _LINK.sub(lambda m: m.group(0) if safe_url(m.group(2)) else m.group(1), text)
    text = _AUTOLINK.sub(lambda m: m.group(1) if safe_url(m.group(1)) else "", text)
    text = _TAG.sub("", text)
    return text
