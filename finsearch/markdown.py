"""Markdown that is safe to render: untrusted text in, inert text out.

Retrieved titles and snippets, and model output built from them, may carry HTML,
markdown links with `javascript:` targets, URLs crafted to close a link and open
another, images that call home, Streamlit directives (`:red[…]`, `:material/…:`) and
`$…$` that KaTeX would typeset. Everything that reaches a page goes through here:

    escape(text)                 retrieved text we place into markdown ourselves
    plain(text)                  the same, ready for st.markdown (escape + for_streamlit)
    link(text, url), href(url)   links built from parts: the URL percent-encoded so it
                                 cannot close the link, only http(s) ever clickable
    clean_model_markdown(text)   an answer a model wrote: formatting kept; HTML, images and
                                 links to anything the run did not retrieve dropped
    highlight(text, spans)       mark figures outside citation markers, links and code
                                 (`render_marks` turns the marks into directives, last)
    for_streamlit(text)          last step before st.markdown: `$`, directive colons and
                                 bare URLs made literal (stored answers keep plain text)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import quote, urlsplit

from .evidence import safe_url, visible_text

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")
_URL_KEEP = "/:?#&=%+,;@!-._~"          # what stays as is in a path, query or fragment


def escape(text: str) -> str:
    """Plain text → markdown that renders as the same plain text (no links, no HTML)."""
    return _SPECIAL.sub(r"\\\1", text or "").replace("\n", " ")


def plain(text: str) -> str:
    """Text from anywhere (a question, a title, an error) as Streamlit markdown that shows
    exactly that text."""
    return for_streamlit(escape(text))


def href(url: str | None) -> str | None:
    """A link target that cannot break out of `(…)`: http(s) only, with every character
    that markdown or HTML could read as syntax (`()[]{}<>|^$` …) percent-encoded, and the
    path, query and fragment in ASCII. None for anything else."""
    safe = safe_url(url)
    if not safe:
        return None
    parts = urlsplit(safe)
    netloc = parts.netloc
    if not netloc.isascii():
        try:
            netloc = (parts.hostname or "").encode("idna").decode("ascii") + (f":{parts.port}" if parts.port else "")
        except (UnicodeError, ValueError):
            return None
    rest = safe[len(parts.scheme) + 3 + len(parts.netloc):]
    return f"{parts.scheme}://{netloc}{quote(rest, safe=_URL_KEEP)}"


def link(text: str, url: str | None) -> str:
    """A markdown link when `url` is http(s), else the escaped text alone."""
    target = href(url)
    return f"[{escape(text)}]({target})" if target else escape(text)


_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)]*)\)")
_LINK = re.compile(r"(?<!\\)\[([^\]]+)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
_AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*)>")
# Raw HTML a model might write is removed; any other angle-bracket text ("<Why it fell>") is
# the model's words, kept and escaped.
_HTML_TAG = re.compile(
    r"</?(?:a|abbr|address|area|article|aside|audio|b|base|bdi|bdo|blockquote|body|br|button|canvas|caption|"
    r"cite|code|col|colgroup|data|datalist|dd|del|details|dfn|dialog|div|dl|dt|em|embed|fieldset|figcaption|"
    r"figure|font|footer|form|frame|frameset|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|kbd|label|"
    r"legend|li|link|main|map|mark|marquee|math|meta|meter|nav|noscript|object|ol|optgroup|option|output|p|"
    r"param|picture|pre|progress|q|s|samp|script|section|select|small|source|span|strong|style|sub|summary|"
    r"sup|svg|table|tbody|td|template|textarea|tfoot|th|thead|time|title|tr|track|u|ul|var|video|wbr)"
    r"(?=[\s/>])[^>]*>", re.I)
_SCRIPT_BLOCK = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.I | re.S)
_ANGLE = re.compile(r"(?<!\\)(<)")       # a lone `>` opens nothing (at most a quote)


def clean_model_markdown(text: str, allowed_urls: Iterable[str] | None = None) -> str:
    """Keep a model's markdown formatting but drop images, raw HTML and links. A link
    survives only when it points at one of `allowed_urls` (the evidence the run retrieved,
    so a retrieved page cannot make the model plant a link of its choosing); with
    `allowed_urls` None, any http(s) link survives. Other angle brackets are escaped."""
    allowed = None if allowed_urls is None else {u for u in allowed_urls if u}

    def keep_link(match: re.Match) -> str:
        target = href(match.group(2))
        if target and (allowed is None or match.group(2) in allowed):
            return f"[{match.group(1)}]({target})"
        return match.group(1)

    text = visible_text(text)
    text = _IMAGE.sub(lambda m: escape(m.group(1)), text)
    text = _LINK.sub(keep_link, text)
    text = _AUTOLINK.sub(lambda m: m.group(1) if safe_url(m.group(1)) and allowed is None else "", text)
    text = _SCRIPT_BLOCK.sub("", text)
    text = _HTML_TAG.sub("", text)
    return _protected_sub(_ANGLE, r"\\\1", text)


# -- rendering in Streamlit -------------------------------------------------------------------

_CODE = re.compile(r"(`+)(?:.+?)\1", re.S)
_MD_LINK = re.compile(r"\[(?:\\.|[^\]\\])*\]\([^)\s]*\)")
_DOLLAR = re.compile(r"(?<!\\)\$")
_DIRECTIVE_COLON = re.compile(r"\\?:(?=[A-Za-z])")     # even `\:material/…:` renders an icon
_BARE_URL = re.compile(r"\b(https?)://", re.I)


def for_streamlit(text: str) -> str:
    """Markdown for `st.markdown`: every `$` literal (not KaTeX); every colon that could
    start a Streamlit directive, icon or emoji shortcode (`:red[…]`, `:material/…:`,
    `:rocket:`) written as an entity, which renders as a plain colon; and bare URLs kept
    from turning into links (only links built with `link` are clickable). Code spans are
    left alone. Apply before adding our own directives (highlights)."""
    def fix(part: str) -> str:
        return _DIRECTIVE_COLON.sub("&#58;", _DOLLAR.sub(r"\\$", part))

    def outside_links(part: str) -> str:
        out, last = [], 0
        for found in _MD_LINK.finditer(part):
            out += [fix(_BARE_URL.sub(r"\1&#58;//", part[last:found.start()])), _link_part(found.group(0), fix)]
            last = found.end()
        out.append(fix(_BARE_URL.sub(r"\1&#58;//", part[last:])))
        return "".join(out)

    out, last = [], 0
    for code in _CODE.finditer(text):
        out += [outside_links(text[last:code.start()]), code.group(0)]
        last = code.end()
    out.append(outside_links(text[last:]))
    return "".join(out)


def _link_part(link_text: str, fix) -> str:
    """A markdown link with its label made literal and its target left as built."""
    label, _, target = link_text.rpartition("](")
    return fix(label) + "](" + target


# Where a figure must not be marked: citation markers, links (text and target), code, marks.
_UNTOUCHABLE = re.compile(r"\\?\[[\d,\s]+\\?\](?:\([^)]*\))?|\[[^\]]*\]\([^)]*\)|(`+).+?\1|&#\d+;"
                          r"|\x01[^\x03]*\x03", re.S)
# A mark is held in control characters (which `clean_model_markdown` strips from any text
# it is given, so nothing retrieved or written by a model can forge one) until `for_streamlit`
# has run, then becomes a Streamlit directive.
_MARK = re.compile(r"\x01([a-z-]+)\x02([^\x03]*)\x03")


def highlight(text: str, spans: Iterable[tuple[str, str]]) -> str:
    """Mark each (figure, directive) at its first occurrence that stands alone (not part
    of a longer number or word) outside citation markers, links, code and earlier marks.
    Marks become `:directive[figure]` in `render_marks`."""
    for figure, directive in spans:
        if not figure:
            continue
        allowed = _free_ranges(text)
        pattern = re.compile(r"(?<![\w.,])" + re.escape(figure) + r"(?![\w%]|[.,]\d)")
        hits = [m for m in pattern.finditer(text) if any(a <= m.start() and m.end() <= b for a, b in allowed)]
        if hits:
            hit = hits[0]
            text = text[:hit.start()] + f"\x01{directive}\x02{figure}\x03" + text[hit.end():]
    return text


def render_marks(text: str) -> str:
    return _MARK.sub(lambda m: f":{m.group(1)}[{m.group(2)}]", text)


def _free_ranges(text: str) -> list[tuple[int, int]]:
    ranges, last = [], 0
    for match in _UNTOUCHABLE.finditer(text):
        ranges.append((last, match.start()))
        last = match.end()
    ranges.append((last, len(text)))
    return ranges


def _protected_sub(pattern: re.Pattern, replacement: str, text: str) -> str:
    """`pattern.sub` outside code spans (where markdown escapes would show)."""
    out, last = [], 0
    for code in _CODE.finditer(text):
        out += [pattern.sub(replacement, text[last:code.start()]), code.group(0)]
        last = code.end()
    out.append(pattern.sub(replacement, text[last:]))
    return "".join(out)
