"""The response generator: evidence → a cited answer, streamed.

1. Select: evidence of finished nodes, deduplicated (same URL, or near-identical
   titles; the better-weighted copy wins), the best-weighted kept under a context
   budget, then put in chronological order and numbered [1..k] for the writer.
2. Write: the LLM writer streams an answer that may cite only those numbers, in the
   question's language, treating evidence as data; the heuristic writer states the
   figures and top headlines extractively, every sentence cited.
3. Renumber: citations become [1..n] by first use; unknown numbers are dropped and
   counted; the references list is built from what was actually cited.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Iterator
from datetime import date, datetime

from .. import markets
from ..coverage import PackCoverage
from ..dedupe import near as _near
from ..dedupe import title_key as _title_key
from ..dedupe import url_key as _url_key
from ..errors import LLMError, Stopped
from ..evidence import Evidence, to_iso
from ..graph import Author, NodeStatus, SearchGraph
from ..model.language_model import LanguageModel
from ..model.llm import fill, prompt
from ..model.text import ReasoningFilter
from ..phrases import Language, say
from ..plan.analysis import Analysis
from . import company_facts, ownership_facts
from . import facts as answer_facts
from .causes import moves_to_explain
from .citations import Reference, Renumberer, references
from .gaps import gap_sentences, gaps_paragraph
from .lead import opening
from .markdown import clean_model_markdown, escape
from .titles import instrument_names, reference_title
from .view import AnswerView

log = logging.getLogger(__name__)

CONTEXT_BUDGET_CHARS = 14_000
MAX_ITEMS = 40
HEADLINES_PER_ANSWER = 6
HEADLINES_AT_LEAST = 4
HEADLINE_MIN_WEIGHT = 0.25      # older stories stay in the evidence panel, not the answer


@dataclasses.dataclass(frozen=True)
class Answer:
    markdown: str
    language: str
    references: list[Reference]
    writer: Author
    dropped_citations: int = 0
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"markdown": self.markdown, "language": self.language,
                "references": [r.to_json() for r in self.references]}


# -- selection ------------------------------------------------------------------------------

def _when(item: Evidence) -> str:
    return item.published or ((item.period or {}).get("end") or "") or "9999"


def select_evidence(graph: SearchGraph, budget: int = CONTEXT_BUDGET_CHARS) -> list[Evidence]:
    """Deduplicated, best-weighted-first under the budget, then chronological."""
    pool = [e for n in graph if n.status is NodeStatus.DONE for e in n.evidence]
    pool.sort(key=lambda e: -(e.time_weight if e.time_weight is not None else 0.5))
    kept: list[Evidence] = []
    urls: set[str] = set()
    titles: list[str] = []
    size = 0
    for item in pool:
        url, title = _url_key(item.url), _title_key(item.title)
        if item.kind != "finance":
            if (url and url in urls) or any(_near(title, t) for t in titles):
                continue
        cost = len(item.title) + len(item.snippet) + (600 if item.data else 0)
        if kept and (size + cost > budget or len(kept) >= MAX_ITEMS) and item.kind != "finance":
            continue
        kept.append(item)
        size += cost
        if url:
            urls.add(url)
        if item.kind != "finance":
            titles.append(title)
    return sorted(kept, key=_when)


# -- writers --------------------------------------------------------------------------------

class AnswerWriter:
    """Streams an answer; after `stream()` is exhausted, `answer` holds the result."""

    def __init__(self, analysis: Analysis, graph: SearchGraph, now: datetime,
                 llm: LanguageModel | None = None, sample: bool = False,
                 coverage: PackCoverage | None = None):
        self.analysis = analysis
        self.graph = graph
        self.now = now
        self.llm = llm
        self.sample = sample
        self.coverage = coverage          # what the offline sample holds, for its gap sentences
        self.given = select_evidence(graph)
        self.answer: Answer | None = None

    def stream(self) -> Iterator[tuple[str, bool]]:
        """(text, restart) pieces; restart=True means discard what was shown so far."""
        notes: list[str] = []
        if self.llm is not None and self.given:
            renum = Renumberer(self.given)
            reasoning = ReasoningFilter()
            shown: list[str] = []
            try:
                for piece in self.llm.stream(self._messages(), call="answer"):
                    visible = reasoning.feed(piece)
                    if reasoning.restart:         # what was shown was the model's reasoning
                        renum, shown = Renumberer(self.given), []
                        yield "", True
                    text = renum.feed(visible)
                    if text:
                        shown.append(text)
                        yield text, False
                tail = renum.feed(reasoning.flush()) + renum.flush()
                if tail:
                    shown.append(tail)
                    yield tail, False
                markdown = clean_model_markdown("".join(shown)).strip()
                if not markdown:
                    raise LLMError("the model's answer held no text outside its reasoning")
                if not renum.order:
                    notes.append("The model cited no sources; check its claims against the evidence panel.")
                self.answer = self._finish(markdown, renum, "llm", notes)
                return
            except Stopped:
                notes.append("Stopped while the model was writing; the rules wrote this answer from what "
                             "was found.")
                if shown:
                    yield "", True
            except LLMError as exc:
                notes.append(f"The LLM answer failed ({exc}); wrote a rule-based answer instead.")
                if shown:
                    yield "", True
        renum = Renumberer(self.given)
        text = renum.feed(self._heuristic_text()) + renum.flush()
        for paragraph in re.split(r"(?<=\n\n)", text):
            if paragraph:
                yield paragraph, False
        self.answer = self._finish(text.strip(), renum, "heuristic", notes)

    def _finish(self, markdown: str, renum: Renumberer, writer: str, notes: list[str]) -> Answer:
        if renum.dropped:
            notes.append(f"Dropped {renum.dropped} citation(s) that pointed at no retrieved evidence.")
        language = self.analysis.language
        names = instrument_names(self.analysis, language)
        cited = references(renum.cited(), lambda item: reference_title(item, names, language))
        return Answer(markdown, language, cited, writer, renum.dropped, tuple(notes))

    # -- LLM -------------------------------------------------------------------------------

    def _messages(self) -> list[dict]:
        lines = [render_evidence(i, e) for i, e in enumerate(self.given, start=1)]
        moves = moves_to_explain(AnswerView.of(self.analysis, self.given, self.graph, self._names(), "", self.now)) \
            if "why" in self.analysis.intents else []
        # The same sentences the rules write: the model may copy them, never an internal reason.
        failures = [f"- {sentence}" for sentence in gap_sentences(self.graph, self.analysis, self.coverage)]
        return [
            {"role": "system", "content": prompt("answer_system")},
            {"role": "user", "content": fill(
                prompt("answer_user"), now=to_iso(self.now), question=self.analysis.question,
                language=say("language.name", self.analysis.language),
                time_context=json.dumps(self.analysis.time_context.to_dict(), ensure_ascii=False),
                evidence="\n".join(lines), failures="\n".join(failures) or "(none)",
                moves="\n".join(moves) or "(not asked why)")},
        ]

    # -- heuristic -------------------------------------------------------------------------

    def _names(self) -> dict[str, str]:
        return instrument_names(self.analysis, self.analysis.language)

    def _heuristic_text(self) -> str:
        language = self.analysis.language
        names = self._names()
        when = self.analysis.time_context.label if self.analysis.time_context.explicit else \
            say("when.over_the_period", language)
        index = {e.id: i for i, e in enumerate(self.given, start=1)}
        joiner = say("answer.sentence_sep", language)
        finance = [e for e in self.given if e.kind == "finance"]
        order = list(names) + [t for t in ((e.ticker or "") for e in finance) if t not in names]
        # The answer to what was asked first, then the detail that supports it.
        view = AnswerView.of(self.analysis, self.given, self.graph, names, when, self.now)
        lead = opening(view)
        paragraphs = [joiner.join(lead.sentences)] if lead.sentences else []
        histories = [(e, index[e.id]) for e in finance if e.payload == "price_history"]
        ranked = answer_facts.comparison(histories, names, language, when) if len(histories) > 1 else ""
        if ranked and not any(s.startswith(ranked.rstrip("。.")) for s in lead.sentences):
            paragraphs.append(ranked)
        for ticker in dict.fromkeys(order):
            mine = [e for e in finance if (e.ticker or "") == ticker]
            mine.sort(key=lambda e: e.payload != "price_history")
            sentences = []
            for item in mine:
                sentences += [s for s in self._facts(item, index[item.id], names, language, when)
                              if not lead.says(s)]
            if sentences:
                paragraphs.append(joiner.join(sentences))
        inside, outside = self._headlines(index, view)
        if inside:
            paragraphs.append(say("answer.headlines", language) + "\n\n" + "\n".join(inside))
        if outside:
            paragraphs.append(say("answer.other_coverage", language) + "\n\n" + "\n".join(outside))
        gaps = self._gaps(lead.stated)
        if gaps:
            paragraphs.append(gaps)
        if not paragraphs:
            paragraphs.append(say("answer.no_evidence", language))
        if self.sample:
            paragraphs.append(say("answer.sample_data", language))
        return "\n\n".join(paragraphs)

    def _facts(self, item: Evidence, number: int, names: dict, language: Language, when: str) -> list[str]:
        """The sentences one finance item gives; an item whose payload cannot be read gives
        none (payloads are checked where they enter, this is the last line)."""
        try:
            if item.payload == "price_history":
                return answer_facts.price_history(item, number, names, language, when)
            writer = answer_facts.WRITERS.get(item.source) or company_facts.WRITERS.get(item.source) \
                or ownership_facts.WRITERS.get(item.source)
            if writer is not None:
                return writer(item, number, names, language)
        except Exception:  # a payload shape nobody foresaw: leave its figures out, say nothing wrong
            log.exception("could not read a %s payload", item.source)
        return []

    def _headlines(self, index: dict[str, int], view: AnswerView) -> tuple[list[str], list[str]]:
        """The best-weighted stories as dated lines: those of the asked period, and those
        before or after it (only a period the question named has an outside)."""
        stories = [e for e in self.given if e.kind != "finance"]
        stories.sort(key=lambda e: e.published or "", reverse=True)        # ties: newest first
        stories.sort(key=lambda e: -(e.time_weight or 0))
        best = [e for e in stories if (e.time_weight or 0) >= HEADLINE_MIN_WEIGHT][:HEADLINES_PER_ANSWER]
        if len(best) < HEADLINES_AT_LEAST:       # a quiet window: show the freshest older stories too
            best += [e for e in stories if e not in best][: HEADLINES_AT_LEAST - len(best)]
        period = self.analysis.time_context
        inside: list[str] = []
        outside: list[str] = []
        for item in sorted(best, key=_when):
            day = story_day(item, view.searched_for.get(item.id))
            who = f" · {escape(item.publisher)}" if item.publisher else ""
            shown = day or say("answer.undated", self.analysis.language)
            line = f"- {shown}{who}: {escape(item.title)} [{index[item.id]}]"
            away = period.explicit and day is not None and not period.start <= day <= period.end
            (outside if away else inside).append(line)
        return inside, outside

    def _gaps(self, stated: frozenset[tuple[str, str]] = frozenset()) -> str:
        """What could not be found, one human sentence per missing piece (see `gaps`), but for
        the pieces the opening has said are missing."""
        return gaps_paragraph(self.graph, self.analysis, self.coverage, stated)


def story_day(item: Evidence, ticker: str | None) -> date | None:
    """The day a story came out on the clock of the market it is about (a cninfo notice of
    10-18 stamped midnight Beijing is 10-17 in UTC), else in UTC; None when undated."""
    if not item.published:
        return None
    try:
        return markets.bar_day(item.published, markets.zone_for(None, ticker))
    except ValueError:
        return None


def render_evidence(number: int, item: Evidence) -> str:
    """One evidence item as a prompt line: metadata, then text or compact data."""
    when = item.published or (f"{item.period['start']}..{item.period['end']}" if item.period else "undated")
    head = f"[{number}] ({item.source}; {item.publisher or 'n/a'}; {when}; weight {item.time_weight})"
    if item.data:
        data = {k: v for k, v in item.data.items() if k not in ("rows", "columns")}
        return f"{head} {item.title}: {json.dumps(data, ensure_ascii=False)[:1500]}"
    return f"{head} {item.title} — {item.snippet[:500]}"
