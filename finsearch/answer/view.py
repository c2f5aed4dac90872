"""What the rule-based writer reads: the selected evidence, numbered, with the question's
analysis and which instrument each story was searched for.

One object handed to the lead, the causes and the facts, so each finds "the quote of
NVDA" or "the stories about TSLA" the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from datetime import date, datetime
from importlib import resources

from ..evidence import Evidence
from ..graph import SearchGraph
from ..phrases import Language, say
from ..plan.alias_table import alias_table
from ..plan.analysis import Analysis
from . import facts as answer_facts
from .dated import Dating, searched_for
from .freshness import Current, current
from .gaps import sources_read
from .markdown import escape
from .quantities import Quantity, quantities
from .reader import Reader


@dataclasses.dataclass(frozen=True)
class AnswerView:
    analysis: Analysis
    given: tuple[Evidence, ...]            # numbered 1..k in this order
    names: dict[str, str]                  # ticker → display name in the answer's language
    when: str                              # the period as the answer says it
    searched_for: dict[str, str]           # evidence id → the ticker its node was about
    today: date                            # the run's date: an announced day before it has passed

    @classmethod
    def of(cls, analysis: Analysis, given: list[Evidence], graph: SearchGraph, names: dict[str, str],
           when: str, now: datetime) -> AnswerView:
        return cls(analysis, tuple(given), names, when, searched_for(graph), now.date())

    @property
    def language(self) -> Language:
        return self.analysis.language

    @property
    def tickers(self) -> list[str]:
        return list(self.names)

    @property
    def topic(self) -> str:
        """The question without the words that name its instruments: what it asks about them
        ("say about layoffs"), so a story is not taken for on topic because it names the company."""
        text = self.analysis.question
        for entity in self.analysis.entities:
            for word in (entity.mention, entity.name, entity.ticker, self.names.get(entity.ticker or "")):
                if word and len(word) >= 2:
                    text = re.sub(re.escape(word), " ", text, flags=re.I)
        return text

    @functools.cached_property
    def dating(self) -> Dating:
        """Which instrument each item is about; with one instrument, every story is about it."""
        return Dating(self.searched_for, self.tickers[0] if len(self.tickers) == 1 else None)

    def day(self, item: Evidence) -> date | None:
        """The day the answer dates `item` by, the one its References entry shows (`dated`)."""
        return self.dating.day(item)

    def day_text(self, item: Evidence) -> str:
        """That day as the answer writes it: ISO, or "undated"."""
        day = self.day(item)
        return day.isoformat() if day else say("answer.undated", self.language)

    @functools.cached_property
    def reader(self) -> Reader:
        """Every story of the evidence, sentence by sentence (see `reader`), each about the
        instrument `dating` says and dated as it says."""
        return Reader(((item, self.dating.about(item)) for item in self.given
                       if item.kind != "finance"), self.language)

    @functools.cached_property
    def quantities(self) -> list[Quantity]:
        """Every quantity the evidence states (see `quantities`)."""
        return quantities([e for e in self.given if e.kind == "finance"], self.reader.passages)

    def publisher(self, item: Evidence) -> str:
        """Who published a story, as the answer names it (escaped): a Chinese outlet by its English
        name in an English answer, "a report" when nobody is named."""
        name = item.publisher or ""
        if self.language == "en" and name and not name.isascii():
            name = _english_names().get(name.strip(), name)
        return escape(name) if name else say("answer.a_report", self.language)

    def not_found(self, what: str, ticker: str) -> str:
        """"No payout ratio for Verizon (VZ) was found in the 6 items read (quotes, dividends and
        news).": said only after every item about `ticker` was read for it, naming what was read."""
        read = [e for e in self.given if e.ticker == ticker] + self.stories(ticker)
        sources = tuple(dict.fromkeys(e.source for e in read))
        return say("lead.not_in_read", self.language, what=say(f"what.{what}", self.language), who=self.who(ticker),
                   count=str(len(read)), sources=sources_read(sources, self.language) if sources else "—")

    def current(self, kind: str, ticker: str) -> Current | None:
        """The freshest value of `kind` for `ticker`, and a stale one it replaces."""
        return current(self.quantities, kind, ticker)

    @functools.cached_property
    def _numbers(self) -> dict[str, int]:
        return {item.id: n for n, item in enumerate(self.given, start=1)}

    def ref(self, item: Evidence) -> int:
        return self._numbers[item.id]

    def refs(self, items) -> str:
        """"[1][3]": each item's number once, in order."""
        return "".join(f"[{n}]" for n in dict.fromkeys(self.ref(item) for item in items))

    def who(self, ticker: str | None) -> str:
        return answer_facts.label(ticker, self.names, self.language)

    def finance(self, source: str, ticker: str) -> list[Evidence]:
        return [e for e in self.given if e.payload == source and e.ticker == ticker]

    def first(self, source: str, ticker: str) -> Evidence | None:
        found = self.finance(source, ticker)
        return found[0] if found else None

    def stories(self, ticker: str) -> list[Evidence]:
        """News and web items about `ticker`: searched for it, or (searched for nothing in
        particular) naming it; with one instrument, every story."""
        out = []
        for item in self.given:
            if item.kind == "finance":
                continue
            about = self.searched_for.get(item.id)
            if about == ticker or len(self.names) <= 1 or (about is None and self._names_it(item, ticker)):
                out.append(item)
        return out

    def _names_it(self, item: Evidence, ticker: str) -> bool:
        return self.names_in(f"{item.title} {item.snippet}", ticker)

    def names_in(self, text: str, ticker: str) -> bool:
        """Whether `text` names `ticker`'s instrument: its symbol, name or the user's word for it."""
        text = text.lower()
        entity = next((e for e in self.analysis.entities if e.ticker == ticker), None)
        names = (entity.name, entity.mention, alias_table().chinese_name(ticker, entity.name)) if entity else ()
        words = {ticker.lower(), ticker.split(".")[0].lower(), *(w.lower() for w in names if w)}
        return any(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", text) for w in words if len(w) >= 2)


@functools.cache
def _english_names() -> dict[str, str]:
    text = resources.files("finsearch").joinpath("data/publishers.json").read_text("utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def unique(items) -> list[Evidence]:
    """Items without repeats, in order (evidence holds dicts: it is told apart by id)."""
    first: dict[str, Evidence] = {}
    for item in items:
        first.setdefault(item.id, item)
    return list(first.values())


def content_words(question: str) -> set[str]:
    """A question's content words: English words of 4+ letters, Chinese character pairs,
    less the words every question of a kind has."""
    question = question.lower()
    words = {w for w in re.findall(r"[a-z]{4,}", question)} - GENERIC_WORDS
    pairs = {question[i:i + 2] for i in range(len(question) - 1)
             if all("\u4e00" <= ch <= "\u9fff" for ch in question[i:i + 2])} - GENERIC_PAIRS
    return words | pairs


def question_overlap(question: str, text: str) -> int:
    """How many of the question's content words a text shares: which of several headlines
    speaks to what was asked."""
    text = text.lower()
    return sum(1 for w in content_words(question) if w.rstrip("s") in text)


# Words every question of a kind has, which tell one headline from another nothing.
GENERIC_WORDS = frozenset({"when", "does", "what", "which", "will", "report", "earnings", "estimates", "estimate",
                           "beat", "miss", "expectations", "stock", "shares", "their", "with", "from", "about",
                           "give", "gave", "said", "says", "tell", "told", "guidance", "outlook", "many", "much"})
GENERIC_PAIRS = frozenset({"什么", "时候", "是否", "预期", "财报", "股价", "为什", "说了", "了什", "怎么", "么说",
                           "指引", "业绩"})
