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

from ..dedupe import near as _near
from ..dedupe import title_key as _title_key
from ..dedupe import url_key as _url_key
from ..errors import LLMError, Stopped
from ..evidence import Evidence, to_iso
from ..graph import Author, NodeStatus, SearchGraph
from ..model.language_model import CallKind, LanguageModel
from ..model.prompts import fill, prompt
from ..model.reply_check import ReplyWatch
from ..model.text import ReasoningFilter
from ..phrases import say
from ..plan.analysis import Analysis
from ..sources.coverage import PackCoverage
from .brief import facts_brief
from .citations import Reference, Renumberer, references
from .compose import paragraphs
from .dated import Dating
from .gaps import gap_sentences
from .markdown import clean_model_markdown
from .titles import instrument_names, reference_title
from .view import AnswerView

log = logging.getLogger(__name__)

CONTEXT_BUDGET_CHARS = 14_000
MAX_ITEMS = 40
# The model's answer is judged as it streams (besides `ReplyWatch`): a few hundred tokens make an
# answer, so it may write at most ANSWER_TOKENS, and one that has cited nothing after CITES_WITHIN
# characters is not the cited answer asked for. Either way the rules write the answer instead.
ANSWER_TOKENS = 800
CITES_WITHIN = 800
PROMPTS = ("answer_system", "answer_user")


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
    """Streams an answer; after `stream()` is exhausted, `answer` holds the result. `call`: the
    stage its model call is counted under ("section" when it writes a report's section)."""

    def __init__(self, analysis: Analysis, graph: SearchGraph, now: datetime,
                 llm: LanguageModel | None = None, sample: bool = False,
                 coverage: PackCoverage | None = None, begin_within: float | None = None,
                 call: CallKind = "answer"):
        self.analysis = analysis
        self.call = call
        self.begin_within = begin_within  # seconds the model may read its prompt before it must begin
        self.graph = graph
        self.now = now
        self.llm = llm
        self.sample = sample
        self.coverage = coverage          # what the offline sample holds, for its gap sentences
        self.given = select_evidence(graph)
        self.dating = Dating.of(graph, list(self._names()))
        self.answer: Answer | None = None

    def stream(self) -> Iterator[tuple[str, bool]]:
        """(text, restart) pieces; restart=True means discard what was shown so far."""
        notes: list[str] = []
        if self.llm is not None and self.given:
            renum = Renumberer(self.given)
            reasoning = ReasoningFilter()
            watch = ReplyWatch(PROMPTS)
            shown: list[str] = []
            try:
                for piece in self.llm.stream(self._messages(), call=self.call, max_tokens=ANSWER_TOKENS,
                                             begin_within=self.begin_within):
                    visible = reasoning.feed(piece)
                    if reasoning.restart:         # what was shown was the model's reasoning
                        renum, shown, watch = Renumberer(self.given), [], ReplyWatch(PROMPTS)
                        yield "", True
                    watch.feed(visible)
                    text = renum.feed(visible)
                    if text:
                        shown.append(text)
                        yield text, False
                    if not renum.order and len(watch.text) > CITES_WITHIN:
                        raise LLMError(f"it cited no evidence in its first {CITES_WITHIN} characters")
                rest = reasoning.flush()
                watch.feed(rest)
                watch.finish()
                tail = renum.feed(rest) + renum.flush()
                if tail:
                    shown.append(tail)
                    yield tail, False
                markdown = clean_model_markdown(whole_sentences("".join(shown))).strip()
                if not markdown:
                    raise LLMError("the model's answer held no text outside its reasoning")
                if not renum.order:
                    raise LLMError("it cited none of the evidence")
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
        # The rules' answer streams too, a paragraph at a time as each is written: the lead is
        # shown while the rest is still being worked out, as a model's first tokens are.
        renum, shown = Renumberer(self.given), []
        for i, paragraph in enumerate(paragraphs(self.analysis, self.given, self.graph, self.now, self.sample,
                                                 self.coverage)):
            piece = renum.feed(("\n\n" if i else "") + paragraph)
            if piece:
                shown.append(piece)
                yield piece, False
        tail = renum.flush()
        if tail:
            shown.append(tail)
            yield tail, False
        self.answer = self._finish("".join(shown).strip(), renum, "heuristic", notes)

    def _finish(self, markdown: str, renum: Renumberer, writer: str, notes: list[str]) -> Answer:
        if renum.dropped:
            notes.append(f"Dropped {renum.dropped} citation(s) that pointed at no retrieved evidence.")
        language = self.analysis.language
        names = instrument_names(self.analysis, language)
        cited = references(renum.cited(), self.dating.day, lambda item: reference_title(item, names, language))
        return Answer(markdown, language, cited, writer, renum.dropped, tuple(notes))

    # -- LLM -------------------------------------------------------------------------------

    def _messages(self) -> list[dict]:
        lines = [render_evidence(i, e, self.dating.day(e)) for i, e in enumerate(self.given, start=1)]
        view = AnswerView.of(self.analysis, self.given, self.graph, self._names(), "", self.now)
        try:
            brief = facts_brief(view)
        except Exception:       # a payload nobody foresaw: the model still has the evidence itself
            log.exception("could not write the facts brief")
            brief = []
        # The same sentences the rules write: the model may copy them, never an internal reason.
        failures = [f"- {sentence}" for sentence in gap_sentences(self.graph, self.analysis, self.coverage)]
        return [
            {"role": "system", "content": prompt("answer_system")},
            {"role": "user", "content": fill(
                prompt("answer_user"), now=to_iso(self.now), question=self.analysis.question,
                language=say("language.name", self.analysis.language),
                time_context=json.dumps(self.analysis.time_context.to_dict(), ensure_ascii=False),
                evidence="\n".join(lines), failures="\n".join(failures) or "(none)",
                facts="\n".join(brief) or "(none)")},
        ]

    def _names(self) -> dict[str, str]:
        return instrument_names(self.analysis, self.analysis.language)


_SENTENCE_END = re.compile(r"[.!?。！？)\]|*_`]\s*$")


def whole_sentences(text: str) -> str:
    """`text` up to its last full sentence (or line): an answer the token cap cut mid-sentence
    ends where its last sentence did."""
    if not text.strip() or _SENTENCE_END.search(text):
        return text
    ends = [m.end() for m in re.finditer(r"[.!?][\])]*(?=\s)|[。！？][\])]*|\n", text)]
    return text[:ends[-1]] if ends else text


def render_evidence(number: int, item: Evidence, day: date | None = None) -> str:
    """One evidence item as a prompt line: metadata, then text or compact data; a story whose
    `day` (the day the answer dates it by, `dated`) is not its UTC date says so, so the model's
    answer dates it as the References list does."""
    when = item.published or (f"{item.period['start']}..{item.period['end']}" if item.period else "undated")
    if day is not None and item.published and not item.published.startswith(day.isoformat()):
        when = f"{when}, dated {day.isoformat()}"
    head = f"[{number}] ({item.source}; {item.publisher or 'n/a'}; {when}; weight {item.time_weight})"
    if item.data:
        data = {k: v for k, v in item.data.items() if k not in ("rows", "columns")}
        return f"{head} {item.title}: {json.dumps(data, ensure_ascii=False)[:1500]}"
    return f"{head} {item.title} — {item.snippet[:500]}"
