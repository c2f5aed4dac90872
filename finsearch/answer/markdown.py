"""Markdown that is safe to render: untrusted text in, inert text out.

Retrieved titles and snippets, and model output built from them, may carry HTML,
markdown links with `javascript:` targets, URLs crafted to close a link and open
another, images that call home, Streamlit directives (`:red[…]`, `:material/…:`) and
`$…$` that KaTeX would typeset. Everything that reaches a page goes through here:

    escape(text)                 retrieved text we place into markdown ourselves (its home, with
                                 the builder that makes escaping structural: `markdown_builder`)
    written(text)                a writer's text (the rules' or a model's) as `Markdown`, cleaned
    plain(text)                  the same, ready for st.markdown (escape + for_streamlit)
    link(text, url), href(url)   links built from parts: the URL rebuilt and percent-encoded
                                 so it cannot close the link, only http(s) ever clickable
    clean_model_markdown(text)   an answer a model wrote: formatting kept; HTML removed, its
                                 links and images reduced to words, other brackets escaped
    highlight(text, marks)       mark figures (each in its own sentence) outside citation
                                 markers, links and code
                                 (`render_marks` turns the marks into directives, last)
    for_streamlit(text)          last step before st.markdown: `$`, directive colons and
                                 bare URLs made literal (stored answers keep plain text)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple
from urllib.parse import quote, urlsplit

from ..evidence import safe_url, visible_text
from .citations import MARKER_PATTERN
from .markdown_builder import Markdown, escape

_URL_KEEP = "/:?#&=%+,;@!-._~"          # what stays as is in a path, query or fragment


def plain(text: str) -> str:
    """Text from anywhere (a question, a title, an error) as Streamlit markdown that shows
    exactly that text."""
    return for_streamlit(escape(text))


_CODE_SPAN = re.compile(r"`([^`\n]{1,200})`")


def plain_with_code(text: str) -> str:
    """`plain`, except that `code` spans stay code spans (shown in code type, not with their
    backticks): markdown shows a code span's content literally, so nothing in it is read as
    markup either."""
    out, start = [], 0
    for match in _CODE_SPAN.finditer(text or ""):
        out += [plain(text[start:match.start()]), f"`{match.group(1)}`"]
        start = match.end()
    out.append(plain((text or "")[start:]))
    return "".join(out)


def href(url: str | None) -> str | None:
    """A link target that cannot break out of `(…)`: http(s) only (`safe_url` has rebuilt
    its host and port from checked parts), with every character of the path, query and
    fragment that markdown or HTML could read as syntax (`()[]{}<>|^$` …) percent-encoded.
    None for anything else."""
    safe = safe_url(url)
    if not safe:
        return None
    parts = urlsplit(safe)
    rest = safe[len(parts.scheme) + 3 + len(parts.netloc):]
    return f"{parts.scheme}://{parts.netloc}{quote(rest, safe=_URL_KEEP)}"


def st_href(url: str | None) -> str | None:
    """`href` for st.markdown, where an `&` could start an entity that the link then decodes."""
    target = href(url)
    return target.replace("&", "&amp;") if target else None


def link(text: str, url: str | None) -> str:
    """A link for st.markdown: the text shown exactly, the target an http(s) `href`; the text
    alone when there is no such target."""
    target = st_href(url)
    return f"[{plain(text)}]({target})" if target else plain(text)


_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)]*)\)")
_LINK = re.compile(r"(?<!\\)\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))*)(?:\s+\"[^\"]*\")?\)")
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
# What stays syntax in a model's text: citation markers (when nothing after them could make
# them a link's text or a reference definition; a marker right after another, "[1][2]", is
# fine: no definition can exist for it to refer to) and backslash escapes. Every other `[`, `]`,
# `<`, `!`, `&` and backtick is escaped, so no link, image (`![1]` would become one once the
# citation is linked), reference, footnote, autolink, entity, HTML or code span can form (a
# code span's edges are easy to misjudge, and inside one nothing is escaped).
_MODEL_TOKEN = re.compile(rf"{MARKER_PATTERN}(?:(?![(\[:])|(?={MARKER_PATTERN}))"
                          r"|\\[!-/:-@\[-`{-~]|[\[\]<`!&]")


def clean_model_markdown(text: str) -> str:
    """A model's answer with its formatting (emphasis, lists, headings, tables) kept and
    nothing that could fetch, link or run: raw HTML removed; images and links reduced to
    their words (the sources are linked through the citations); every other bracket, angle
    bracket and backtick escaped; invisible and control characters stripped."""
    text = _SCRIPT_BLOCK.sub("", visible_text(text))
    text = _HTML_TAG.sub("", text)
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(lambda m: m.group(1), text)
    return _MODEL_TOKEN.sub(lambda m: m.group(0) if len(m.group(0)) > 1 else "\\" + m.group(0), text)


def written(text: str | None) -> Markdown:
    """A writer's text (an answer, a section, a rules' builder's table) as Markdown to assemble
    a report from: `clean_model_markdown`, so its formatting stays and nothing in it can link,
    fetch or run; Markdown built by `markdown_builder` passes unchanged."""
    return text if isinstance(text, Markdown) else Markdown(clean_model_markdown(text or ""))


# -- rendering in Streamlit -------------------------------------------------------------------

# Streamlit turns URLs, www. names and e-mail addresses in text into links, and `:name:` into
# emoji, icons and its logo, after escapes and entities are decoded and whatever comes
# before them; a word joiner (invisible) inside each keeps it text.
_AUTOLINKED = re.compile(r"(?i)://|www\.|@(?=[\w-])")
_SHORTCODE = re.compile(r":(?=[A-Za-z_+-])|(?<!\d):(?=\d)")      # times (10:30) stay as they are


def for_streamlit(part: str) -> str:
    """Markdown for `st.markdown`: every `$` an entity (never KaTeX); a word joiner after every
    colon that could open a directive, icon, emoji or logo (`:red[…]`, `:material/…:`,
    `:rocket:`, `:+1:`, `:streamlit:`) and inside every `://`, `www.` and `name@host`, so none
    of them ever is one. For text that holds no code span (escaped, or cleaned model text),
    never for a link built here (`link` and `link_citations` come after)."""
    out: list[str] = []
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "\\" and i + 1 < len(part) and part[i + 1] in _PUNCTUATION:
            out.append("&#36;" if part[i + 1] == "$" else part[i:i + 2])
            i += 2
            continue
        out.append("&#36;" if ch == "$" else ch)
        i += 1
    text = _SHORTCODE.sub(":\u2060", "".join(out))
    return _AUTOLINKED.sub(lambda m: m.group(0)[0] + "\u2060" + m.group(0)[1:] if m.group(0) != "@"
                           else "\u2060@", text)


_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


# Where a figure must not be marked: citation markers, links (text and target), code, marks.
_UNTOUCHABLE = re.compile(r"\\?\[[\d,\s]+\\?\](?:\([^)]*\))?|\[[^\]]*\]\([^)]*\)|(`+).+?\1|&#\d+;"
                          r"|\x01[^\x03]*\x03", re.S)
# A mark is held in control characters (which `clean_model_markdown` strips from any text
# it is given, so nothing retrieved or written by a model can forge one) until `for_streamlit`
# has run, then becomes a Streamlit directive.
_MARK = re.compile(r"\x01([a-z-]+)\x02([^\x03]*)\x03")


class Mark(NamedTuple):
    """A figure to mark, how (a Streamlit background directive) and, when known, the sentence
    it was flagged in: then it is marked there and nowhere else (the same "1" elsewhere, a count
    in a report's header say, is left alone)."""
    figure: str
    directive: str
    sentence: str | None = None


def highlight(text: str, spans: Iterable[tuple[str, ...]]) -> str:
    """Mark each `Mark` at its first occurrence that stands alone (not part of a longer number or
    word) outside citation markers, links, code and earlier marks; within its sentence when one
    is given (not marked at all when that sentence is not in `text`).
    Marks become `:directive[figure]` in `render_marks`."""
    for span in spans:
        figure, directive, sentence = Mark(*span)
        if not figure:
            continue
        pattern = _standalone(figure)
        hits = _free_hits(pattern, text)
        if sentence is not None:
            at = _figure_in_sentence(text, sentence, pattern)
            hits = [m for m in hits if m.start() == at]
        if hits:
            hit = hits[0]
            text = text[:hit.start()] + f"\x01{directive}\x02{figure}\x03" + text[hit.end():]
    return text


# What the audit's sentences leave out of the markdown they were read from (see audit.sentences).
_FORMATTING = frozenset("*_`#>|")
# How much of the sentence before the figure locates it: more first, less if a model's formatting
# was cleaned in between.
_CONTEXT = (60, 20)


def _standalone(figure: str) -> re.Pattern:
    """The figure, not part of a longer number or word."""
    return re.compile(r"(?<![\w.,\\:])" + re.escape(figure) + r"(?![\w%(\[{]|[.,]\d)")


def _free_hits(pattern: re.Pattern, text: str) -> list[re.Match]:
    allowed = _free_ranges(text)
    return [m for m in pattern.finditer(text) if any(a <= m.start() and m.end() <= b for a, b in allowed)]


def _figure_in_sentence(text: str, sentence: str, pattern: re.Pattern) -> int | None:
    """Where in `text` the figure of `sentence` starts: the sentence up to the figure's first
    free occurrence is found in `text` read without its formatting."""
    hits = _free_hits(pattern, sentence)
    if not hits:
        return None
    start, end = hits[0].span()
    kept = [i for i, ch in enumerate(text) if ch not in _FORMATTING]
    unformatted = "".join(text[i] for i in kept)
    for before in _CONTEXT:
        context = sentence[max(0, start - before):end]
        found = unformatted.find(context)
        if found >= 0:
            return kept[found + len(context) - (end - start)]
    return None


def render_marks(text: str) -> str:
    # The word joiner keeps whatever came before (a `\`, a `:`) from taking the directive apart.
    return _MARK.sub(lambda m: f"\u2060:{m.group(1)}[{m.group(2)}]", text)


def _free_ranges(text: str) -> list[tuple[int, int]]:
    ranges, last = [], 0
    for match in _UNTOUCHABLE.finditer(text):
        ranges.append((last, match.start()))
        last = match.end()
    ranges.append((last, len(text)))
    return ranges
