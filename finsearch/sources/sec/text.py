"""A filed document's text: one item's section found, cut into passages, and the passages
most relevant to a sub-query kept.

    section(html, "1A") → the text of "Item 1A. Risk Factors" (None when not found)
    passages(text)      → paragraphs joined up to ~PASSAGE_CHARS each
    relevant(passages, query, keep) → the best `keep`, by BM25 (rank-bm25), or the section's
                                      opening when the query shares no telling word with it

A 10-K names each item twice: in its table of contents and at the item itself. The section
is the longest stretch from an item's heading to the next item's, so the contents line
(a few characters) never wins.
"""

from __future__ import annotations

import html
import re
from collections import Counter

from ...markup import drop_blocks, sub_tags

PASSAGE_CHARS = 900
# The item that follows each item in a 10-K/10-Q (where its section ends).
NEXT_ITEMS = {"1": ("1A", "1B", "2"), "1A": ("1B", "1C", "2"), "7": ("7A", "8"), "7A": ("8",)}
TITLES = {"1": "Business", "1A": "Risk Factors", "7": "Management's Discussion and Analysis", "7A":
          "Quantitative and Qualitative Disclosures About Market Risk"}

_BLOCKS = re.compile(r"</?(?:p|div|br|tr|li|h[1-6]|table|section)\b[^>]*>", re.I)
_DROP = ("script", "style", "ix:header")      # blocks dropped whole (`markup`: in linear time)
_TAG = re.compile(r"<[^>]+>")
_DIGITS = re.compile(r"\d+")
RUNNING_CHARS, RUNNING_TIMES = 80, 5     # a short line on five pages or more is a page header/footer
_HEADED = re.compile(r"^[^.:;]{1,80}: ")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Words that say nothing about which passage is meant ("what risks did Apple list in its latest 10-K").
STOP = frozenset("""a an and are as at be by did do does for from has have how in is it its of on or our that the
their them these this to was were what which who will with we us list listed latest recent most main company
10 k q item risk risks factor factors""".split())


def plain_lines(document: str) -> list[str]:
    """The document's visible text, one block (paragraph, table row, heading) per line, without
    its running page headers and footers ("Apple Inc. | 2024 Form 10-K | 11") and page numbers."""
    text = sub_tags(_BLOCKS, "\n", drop_blocks(document, _DROP))
    text = html.unescape(sub_tags(_TAG, " ", text)).replace("\xa0", " ")
    lines = [line for line in (" ".join(part.split()) for part in text.split("\n")) if line]
    shapes = Counter(_DIGITS.sub("#", line) for line in lines if len(line) <= RUNNING_CHARS)
    return [line for line in lines if not _DIGITS.fullmatch(line)
            and not (len(line) <= RUNNING_CHARS and shapes[_DIGITS.sub("#", line)] >= RUNNING_TIMES)]


def _heading(item: str) -> re.Pattern:
    return re.compile(rf"^item\s*{re.escape(item)}\s*[.:\-–—]?(?:\s|$)", re.I)


def section(document: str, item: str) -> str | None:
    """The text of `item`'s section (its heading line first), or None."""
    lines = plain_lines(document)
    start_at = _heading(item)
    ends = [_heading(nxt) for nxt in NEXT_ITEMS.get(item, ())]
    # One pass each way, not a walk from every heading (a document of ten thousand "Item 1A"
    # lines and no "Item 1B" made that quadratic): where the next item begins after each line,
    # and the characters up to each line.
    next_end, end_at = [len(lines)] * len(lines), len(lines)
    for i in range(len(lines) - 1, -1, -1):
        next_end[i] = end_at
        if any(end.match(lines[i]) for end in ends):
            end_at = i
    upto = [0]
    for line in lines:
        upto.append(upto[-1] + len(line))
    best, best_size = (0, 0), 0
    for i, line in enumerate(lines):
        if start_at.match(line) and upto[next_end[i]] - upto[i] > best_size:
            best, best_size = (i, next_end[i]), upto[next_end[i]] - upto[i]
    chosen = lines[best[0]:best[1]]
    return "\n".join(chosen) if len(chosen) > 1 else None


def passages(text: str, size: int = PASSAGE_CHARS) -> list[str]:
    """Paragraphs joined into passages of about `size` characters (a long one stays whole);
    a sub-heading ("Business Risks") starts a new passage, so a passage keeps to one topic,
    and reads as "Business Risks: The Company depends on …"."""
    out: list[str] = []
    current = ""
    for paragraph in text.split("\n")[1:]:          # the heading line is not a passage
        heading = _subheading(paragraph)
        if current and (len(current) + len(paragraph) > size or heading):
            out.append(current)
            current = ""
        current = f"{current} {paragraph}".strip()
        if heading:
            current += ":"
    if current:
        out.append(current)
    return out


def overview(chunks: list[str], keep: int) -> list[int]:
    """The passages that best show what a section covers, for a query that names no topic:
    the ones that open a sub-heading first (each a topic), then the rest, in order."""
    headed = [i for i, c in enumerate(chunks) if _HEADED.match(c)]
    opening = frozenset(headed)
    return (headed + [i for i in range(len(chunks)) if i not in opening])[:keep]


def _subheading(line: str) -> bool:
    return len(line) <= 80 and not line.rstrip().endswith((".", ":", ";"))


def words(text: str) -> list[str]:
    """The telling words of `text`, plurals made singular ("price cuts" finds "cut prices"). Measured on
    the judged queries of tests/test_sources_sec.py: exact words 5/6 at rank 1, this 6/6; cutting words
    to 6 letters as well gained nothing there."""
    out = []
    for word in _WORD.findall(text.lower()):
        if word in STOP or len(word) < 2:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


def relevant(chunks: list[str], query: str | None, keep: int,
             ignore: frozenset[str] = frozenset()) -> list[tuple[int, float]]:
    """(passage index, score) of the `keep` passages best matching `query`, best first; the
    `overview` with score 0 when the query has no word that tells the passages apart. Words in
    `ignore` (the company's own name: its filing calls it "the Company") are not asked for."""
    from rank_bm25 import BM25Okapi

    asked = [w for w in words(query or "") if w not in ignore]
    if not chunks:
        return []
    if asked:
        scores = BM25Okapi([words(c) or ["_"] for c in chunks]).get_scores(asked)
        ranked = sorted(range(len(chunks)), key=lambda i: (-scores[i], i))
        if scores[ranked[0]] > 0:
            return [(i, round(float(scores[i]), 3)) for i in ranked[:keep] if scores[i] > 0]
    return [(i, 0.0) for i in overview(chunks, keep)]
