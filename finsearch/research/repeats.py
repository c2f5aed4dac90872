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


# -- one home for each fact ---------------------------------------------------------------------------------

# What a sentence citing finance data is about, read from its sources (so it works in any language):
# one citing several kinds is about the first of this order (a target's upside cites the quote too).
_KINDS = (("analysts", frozenset({"analyst", "cn_profit_forecast"})),
          ("results", frozenset({"earnings", "financials", "cn_financial_abstract", "sec_facts"})),
          ("dividends", frozenset({"dividends", "cn_dividends", "hk_dividends"})),
          ("price", frozenset({"price_history", "cn_daily_bars"})),
          ("valuation", frozenset({"quote", "cn_industry_compare"})))
# The sections a kind fits, best first; dividends fit the sections whose key questions ask for them.
_HOMES = {"analysts": ("analysts", "vs_analysts"), "results": ("results", "vs_results"),
          "price": ("price", "vs_price"), "valuation": ("valuation", "vs_valuation")}
_ASKS_DIVIDENDS = re.compile(r"dividend|分红|股息|派息", re.I)
# Sections whose own question a kind's sentence answers when it is their lead: the earnings data's
# next report day is the outlook's "when does it next report".
_ALSO_LEADS = {"results": frozenset({"catalysts", "outlook", "vs_verdict"})}
_CITE = re.compile(r"\[(\d+)\]")
_FIGURE = re.compile(r"\d{4}-\d{2}-\d{2}|\d[\d,]*(?:\.\d+)?")


def _figures(text: str) -> frozenset[str]:
    """The figures and days a sentence or a table row states, signs and units aside ("-1.80%" and
    "1.80" are one); one with none is its own words."""
    plain = _CITE.sub(" ", text)
    found = frozenset(f.replace(",", "") for f in _FIGURE.findall(plain))
    return found or frozenset({" ".join(plain.split()).rstrip(".。 ").casefold()})


def _prose(block: str) -> bool:
    return bool(block) and "\n" not in block and not block.startswith(("-", "|", "*", "_", "#", ">"))


def _join(sentences: list[str]) -> str:
    return "".join(s if i == 0 or sentences[i - 1].endswith(("。", "！", "？")) else " " + s
                   for i, s in enumerate(sentences))


class _Said:
    """One cited sentence where its section's writer put it."""

    def __init__(self, origin: int, block: int, at: int, text: str, cites: frozenset[int]):
        self.origin, self.block, self.at, self.text, self.cites = origin, block, at, text, cites
        self.figures = _figures(text)
        self.rank, self.dest = 3, origin

    def facts(self) -> set[tuple[int, str]]:
        return {(n, f) for n in self.cites for f in self.figures}


class Homes:
    """Each fact of the finance data said once, in the section whose kind fits it best.

    Sections are written independently, so the analysts' target, the quote line or the period's
    ranking turns up in two or three of them, in the same words or in others. A cited sentence's
    kind is read from the sources it cites (`item(n)` gives the item behind a report number); a
    sentence whose every figure (or, with none, its words) is already stated with one of its own
    citations by another section (a kept sentence, or a table) is dropped, the one in a section of
    its kind kept first. One in a section that does not fit moves to the first that does. A
    section's lead stays where it answers the section's own question: in a section of its kind,
    or one its kind also answers (`_ALSO_LEADS`); a section left with nothing cited by its lead leaving says
    where it went (`emptied`: position → the position it went to). Sentences citing only news and
    web stories are left to `Repeats`. Sections are given in report order as (key, key questions,
    blocks, tables)."""

    def __init__(self, sections: list[tuple[str, tuple[str, ...], list[str], list[str]]],
                 item: Callable[[int], Evidence | None]):
        homes: dict[str, list[int]] = {}
        for pos, (key, asks, _, _) in enumerate(sections):
            for kind, keys in _HOMES.items():
                if key in keys:
                    homes.setdefault(kind, []).append(pos)
            if any(_ASKS_DIVIDENDS.search(q) for q in asks):
                homes.setdefault("dividends", []).append(pos)
        tabled: dict[tuple[int, str], set[int]] = {}
        for pos, (_, _, _, tables) in enumerate(sections):
            for table in tables:
                for row in table.split("\n"):
                    cites = {int(n) for n in _CITE.findall(row)}
                    for fact in ((n, f) for n in cites for f in _figures(row)):
                        tabled.setdefault(fact, set()).add(pos)
        said: list[_Said] = []
        for pos, (key, _, blocks, _) in enumerate(sections):
            for b, block in enumerate(blocks):
                if not _prose(block):
                    continue
                for at, text in enumerate(s.strip() for s in _SENTENCE_END.split(block)):
                    sources = {e.source for n in _CITE.findall(text) if (e := item(int(n))) and e.kind == "finance"}
                    if not sources:
                        continue
                    one = _Said(pos, b, at, text, frozenset(int(n) for n in _CITE.findall(text)))
                    kind = next((k for k, known in _KINDS if sources & known), "")
                    fits = homes.get(kind, [])
                    lead = b == 0 and at == 0
                    if lead and (pos in fits or key in _ALSO_LEADS.get(kind, ())):
                        one.rank = 0                        # the answer to its section's own question
                    elif pos in fits:
                        one.rank = 1
                    elif fits:
                        one.rank, one.dest = 2, fits[0]
                    said.append(one)
        stated: dict[tuple[int, str], set[int]] = {}     # fact → the sections where a kept sentence states it
        self.dropped: set[tuple[int, int, int]] = set()
        self.moved: dict[int, list[_Said]] = {}
        went: dict[int, int] = {}                          # a section whose lead left → where it went
        for one in sorted(said, key=lambda s: (s.rank, -len(s.figures), s.origin, s.block, s.at)):
            where = self._covered(one, stated, tabled)
            if where is None and one.dest != one.origin:
                self.moved.setdefault(one.dest, []).append(one)
            if where is None:                               # said here, or where it moved: later ones are repeats
                for fact in one.facts():
                    stated.setdefault(fact, set()).add(one.dest)
            if where is not None or one.dest != one.origin:
                self.dropped.add((one.origin, one.block, one.at))
                if one.block == 0 and one.at == 0:
                    went[one.origin] = one.dest if where is None else where
        self._sections = sections
        self._item = item
        self.emptied = {pos: to for pos, to in went.items()        # nothing cited left: notes are no answer
                        if not any(_CITE.search(b) for b in self.blocks(pos)) and not sections[pos][3]}

    @staticmethod
    def _covered(one: _Said, stated, tabled) -> int | None:
        """The section (a kept sentence's or a table's) that already states each of `one`'s figures
        with one of its citations, other than its own section if it stays there (a writer may repeat
        a figure within a section); None if some figure is new."""
        where, own = None, one.origin if one.dest == one.origin else None
        for figure in one.figures:
            by = next((p for n in one.cites for p in (*stated.get((n, figure), ()), *tabled.get((n, figure), ()))
                       if p != own), None)
            if by is None:
                return None
            where = by if where is None else where
        return where

    def _finance(self, block: str) -> bool:
        return _prose(block) and any((e := self._item(int(n))) is not None and e.kind == "finance"
                                     for n in _CITE.findall(block))

    def blocks(self, pos: int) -> list[str]:
        """Section `pos`'s blocks: its own sentences less those said elsewhere, with those moved here
        after its last cited paragraph."""
        out: list[str] = []
        for b, block in enumerate(self._sections[pos][2]):
            if _prose(block) and any((pos, b, at) in self.dropped for at in range(len(_SENTENCE_END.split(block)))):
                block = _join([s for at, s in enumerate(x.strip() for x in _SENTENCE_END.split(block))
                               if s and (pos, b, at) not in self.dropped])
            if block:
                out.append(block)
        moved = sorted(self.moved.get(pos, []), key=lambda s: (s.origin, s.block, s.at))
        if moved:                       # after the section's last paragraph stating finance data
            at = max((i + 1 for i, block in enumerate(out) if self._finance(block)), default=0)
            out.insert(at, _join([s.text for s in moved]))
        return out
