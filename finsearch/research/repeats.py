"""What a later section would only repeat: sections are written independently, so the same
quote line, earnings sentence or headline turns up in three of them. A sentence or list
item said once (after renumbering, so the same text cites the same numbers) is dropped
where it comes again; dropping it orphans no reference, as its numbers were given where it
was first said. A section's lead (the first sentence of its first paragraph: the answer to
its own question) is kept, and a news section, or one whose supplementary searches found
headlines, keeps its whole list.

A headline line is said once in the whole report, in the section that fits it (`home`): a
rating change under the analysts, guidance under the outlook or the results, a risk under the
risks, the rest under the news.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..evidence import Evidence
from .findings import RISK_WORDS, is_guidance_news, is_rating_news

# A sentence ends at a full stop after its citations, or at a stop before a capital or a CJK letter.
_SENTENCE_END = re.compile(r"(?<=\]\.)\s+|(?<=[。！？])|(?<=[.!?])\s+(?=[A-Z“\"(\u4e00-\u9fff])")
# The sections whose own question is the news: their headlines are their content.
NEWS_SECTIONS = frozenset({"news", "catalysts", "industry_news", "what_happened", "macro_picture", "candidate_news"})


class Repeats:
    def __init__(self, already: set[str] | None = None):
        self.seen: set[str] = set(already or ())

    def fresh(self, paragraph: str, keep: bool = False) -> str:
        """The paragraph without what was said before ("" when nothing is new); with `keep`, a
        list whole and a paragraph's first sentence; remembers what it says."""
        lines = paragraph.split("\n")
        if lines[0].startswith("|"):
            return paragraph
        items = [line for line in lines if line.startswith("- ")]
        if items:
            new = [line for line in items if keep or line not in self.seen]
            self.seen.update(items)
            if not new:
                return ""
            return "\n".join(line for line in lines if not line.startswith("- ") or line in new)
        if paragraph in self.seen and not keep:
            return ""
        kept, dropped = [], False
        for i, sentence in enumerate(s.strip() for s in _SENTENCE_END.split(paragraph)):
            if sentence in self.seen and not (keep and i == 0):
                dropped = True
            elif sentence:
                kept.append(sentence)
                self.seen.add(sentence)
        self.seen.add(paragraph)
        return " ".join(kept) if dropped else paragraph


# -- one home for each story ------------------------------------------------------------------------------

# The sections a story fits, best first, by what its headline is about; the first that lists it gets it.
_FITS: tuple[tuple[Callable[[Evidence], bool], tuple[str, ...]], ...] = (
    (is_rating_news, ("analysts", "vs_analysts")),
    (is_guidance_news, ("catalysts", "outlook", "results", "vs_results")),
    (lambda e: bool(RISK_WORDS.search(e.title)), ("risks", "vs_risks")),
    (lambda e: bool(_RESULTS.search(e.title)), ("results", "vs_results")),
    (lambda e: bool(_VALUATION.search(e.title)), ("valuation", "vs_valuation")),
)
_RESULTS = re.compile(r"\bresults|\bearnings|\bquarter|\brevenue|\bprofit|业绩|财报|营收|净利", re.I)
_VALUATION = re.compile(r"\bvaluation|\bcheap|\bexpensive|\bP/E\b|\bmultiple|估值|市盈率", re.I)


def home(item: Evidence, listed_in: list[str], keys: list[str]) -> str:
    """The one section (by key) where `item`'s headline line stays: the first of the report's
    sections (`keys`) whose kind fits it, else a news section that lists it, else the first
    that lists it (`listed_in`, in report order)."""
    for fits, wanted in _FITS:
        if fits(item):
            for key in wanted:
                if key in keys:
                    return key
    return next((k for k in listed_in if k in NEWS_SECTIONS), listed_in[0])


_HEADLINE = re.compile(r"^- .*\[(\d+)\]\s*$")
_HEADING = re.compile(r"^\*\*[^*\n]+\*\*$")


class Placement:
    """Each headline line's one section: built from every section's renumbered text, before
    any section is written, since the section that fits a story may come after the first
    that lists it. `stories(n)` gives the item behind a report number."""

    def __init__(self, texts: list[tuple[int, str, list[str]]], stories: Callable[[int], Evidence | None]):
        listed: dict[int, list[tuple[int, str]]] = {}
        lines: dict[int, str] = {}
        for index, key, blocks in texts:
            for block in blocks:
                for line in block.split("\n"):
                    match = _HEADLINE.match(line)
                    item = stories(int(match.group(1))) if match else None
                    if item is not None and item.kind != "finance":
                        listed.setdefault(int(match.group(1)), []).append((index, key))
                        lines.setdefault(int(match.group(1)), line)
        self.home: dict[int, int] = {}
        self.moved: dict[int, list[str]] = {}       # section index → headline lines it gains
        keys = [(index, key) for index, key, _ in texts]
        for n, where in listed.items():
            key = home(stories(n), [k for _, k in where], [k for _, k in keys])
            self.home[n] = next((i for i, k in where if k == key), None) or next(i for i, k in keys if k == key)
            if self.home[n] not in {i for i, _ in where}:
                self.moved.setdefault(self.home[n], []).append(lines[n])

    def own(self, index: int, block: str) -> str:
        """The block without the headline lines that belong to another section ("" if nothing is left)."""
        lines = [line for line in block.split("\n")
                 if not (m := _HEADLINE.match(line)) or self.home.get(int(m.group(1)), index) == index]
        if any(line.startswith("- ") for line in block.split("\n")) and not any(x.startswith("- ") for x in lines):
            return ""
        return "\n".join(lines).strip()

    def shown(self) -> frozenset[int]:
        return frozenset(self.home)


def without_orphan_headings(paragraphs: list[str]) -> list[str]:
    """A list's bold heading goes with its list: one left without it is dropped."""
    return [p for i, p in enumerate(paragraphs)
            if not (_HEADING.match(p) and not (i + 1 < len(paragraphs) and paragraphs[i + 1].startswith("- ")))]
