"""The evidence reader: every retrieved story read sentence by sentence, so an answer finds
what a snippet says as well as what a headline says.

    view.reader.find(ticker, topic, query) → the sentences on `topic` about `ticker`, best first
    view.reader.searched(ticker)            → what was read (how many stories, from whom, which days):
                                              the words a "not found" sentence names

Sentences are ranked by BM25 against the question's words (rank-bm25; English words, Chinese
character pairs), then by whether they hold a figure, by the story's time weight and by
whether they are in the answer's language. A headline and each sentence of its snippet are
passages of their own, dated as the answer dates the story (`dated`: on the clock of the market
of the instrument it is about).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from datetime import date

from ..evidence import Evidence
from ..phrases import Language
from ..plan.analysis import language_of
from ..sources.sec.text import words as english_words
from .dated import day_of
from .figures import figures_in

# A sentence ends at . ! ? followed by a space and a capital, a digit or a Chinese character (not
# "U.S. may", "$5.71 billion"),
# or at a Chinese full stop, exclamation, question mark or semicolon.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(\u4e00-\u9fff])(?<!\bU\.S\.\s)(?<!\bInc\.\s)"
                           r"(?<!\bCorp\.\s)|(?<=[。！？；])")
MAX_SENTENCES = 6             # per snippet: the rest of a long snippet is rarely the point


@dataclasses.dataclass(frozen=True)
class Passage:
    """One sentence of a story: its headline or a sentence of its snippet."""
    item: Evidence
    text: str
    headline: bool
    language: Language
    day: date | None                  # the story's day, as the answer dates it (`dated`)
    about: str | None                 # the ticker the story was searched for (None: any)

    @property
    def has_figure(self) -> bool:
        return any(f.kind != "date" for f in figures_in(self.text))


@dataclasses.dataclass(frozen=True)
class Searched:
    """What was read for an instrument: the answer's words for a plain "not found"."""
    stories: int
    publishers: tuple[str, ...]
    first: date | None
    last: date | None


def sentences(text: str) -> list[str]:
    """A snippet split into sentences (at most MAX_SENTENCES)."""
    parts = [p.strip() for p in _SENTENCE_END.split(text or "") if p and p.strip()]
    return parts[:MAX_SENTENCES]


def tokens(text: str) -> list[str]:
    """Words to rank by: English words (singular), Chinese character pairs."""
    out = english_words(text)
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        out += [run[i:i + 2] for i in range(len(run) - 1)] or [run]
    return out


class Reader:
    """The stories of an answer's evidence as passages; `stories_of(ticker)` says which
    stories are about which instrument (the view's rule)."""

    def __init__(self, stories: Iterable[tuple[Evidence, str | None]], language: Language):
        self.language = language
        self.passages: list[Passage] = []
        self._days: dict[str, date | None] = {}
        for item, about in stories:
            day = self._days[item.id] = day_of(item, about)
            texts = [(item.title, True)] + [(s, False) for s in sentences(item.snippet)
                                            if s.strip(" .。") and s.strip() != item.title.strip()]
            for text, headline in texts:
                if text and text.strip():
                    self.passages.append(Passage(item, text.strip(), headline, language_of(text), day, about))

    def about(self, items: Iterable[Evidence]) -> list[Passage]:
        wanted = {item.id for item in items}
        return [p for p in self.passages if p.item.id in wanted]

    def find(self, items: Iterable[Evidence], topic: re.Pattern | None = None, query: str = "",
             between: tuple[date, date] | None = None) -> list[Passage]:
        """The passages of `items` on `topic` (all, when None), within `between` (days, both
        included; undated passages are left out of a window), best first."""
        pool = [p for p in self.about(items) if (topic is None or topic.search(p.text))
                and (between is None or (p.day is not None and between[0] <= p.day <= between[1]))]
        if not pool:
            return []
        relevance = _bm25(pool, tokens(query)) if query else [0.0] * len(pool)
        top = max(relevance) or 1.0
        scored = [(r / top + 0.5 * p.has_figure + 0.5 * (p.item.time_weight if p.item.time_weight is not None else 0.5)
                   + 0.3 * (p.language == self.language) + 0.1 * (not p.headline), i, p)
                  for i, (p, r) in enumerate(zip(pool, relevance, strict=True))]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [p for _, _, p in scored]

    def searched(self, items: Iterable[Evidence]) -> Searched:
        mine = list({item.id: item for item in items}.values())
        days = sorted(d for d in (self._days.get(i.id) for i in mine) if d)
        publishers = tuple(dict.fromkeys(i.publisher for i in mine if i.publisher))
        return Searched(len(mine), publishers, days[0] if days else None, days[-1] if days else None)


def _bm25(pool: list[Passage], asked: list[str]) -> list[float]:
    if not asked:
        return [0.0] * len(pool)
    from rank_bm25 import BM25Okapi

    return [max(0.0, float(s)) for s in BM25Okapi([tokens(p.text) or ["_"] for p in pool]).get_scores(asked)]
