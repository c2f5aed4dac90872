"""What a report run yields: its own events (outline, sections, the finished report) and
the finished `Report` with `to_dict()`, the `report --json` contract."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from ..answer.audit import Audit
from ..answer.citations import Reference
from ..answer.trust import Trust
from ..events import Event
from ..evidence import to_iso
from ..graph import SearchGraph
from ..model.usage import ModelUsage
from ..phrases import Language, say
from ..plan.analysis import Analysis
from ..result import new_id
from .budget import ReportBudget
from .outline import Outline, Section
from .section import SectionResult


@dataclasses.dataclass(frozen=True)
class OutlineReady:
    at_ms: float
    outline: Outline


@dataclasses.dataclass(frozen=True)
class SectionStarted:
    at_ms: float
    index: int
    section: Section


@dataclasses.dataclass(frozen=True)
class SectionProgress:
    """An executor event of one section's graph (node ids are the section's own)."""
    at_ms: float
    index: int
    event: Event


@dataclasses.dataclass(frozen=True)
class SectionWriting:
    """A piece of one section's text as its writer streams it (`restart`: discard the text so
    far; the model failed mid-answer and the rules write it). Its numbers are the section's
    own [k]: the report renumbers them once every section is written."""
    at_ms: float
    index: int
    text: str
    restart: bool = False


@dataclasses.dataclass(frozen=True)
class SectionDone:
    at_ms: float
    index: int
    found: int                  # evidence items the section's writer was given
    missing: int                # searches still without evidence


@dataclasses.dataclass(frozen=True)
class ReportFinished:
    at_ms: float
    report: Report


@dataclasses.dataclass(frozen=True)
class KeyQuestionCheck:
    section: int
    question: str
    intents: tuple[str, ...]
    answered: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.missing

    def to_json(self) -> dict:
        return {"section": self.section, "question": self.question, "intents": list(self.intents),
                "answered": list(self.answered), "missing": list(self.missing), "ok": self.ok}


@dataclasses.dataclass(frozen=True)
class ReportAudit:
    audit: Audit                              # the whole report, as an answer is audited
    key_questions: tuple[KeyQuestionCheck, ...]

    @property
    def answered(self) -> int:
        return sum(1 for k in self.key_questions if k.ok)

    @property
    def trust(self) -> float:
        return self.trust_in("en").score

    def trust_in(self, language: Language) -> Trust:
        return report_trust(self.audit, self.answered, len(self.key_questions), language)

    def to_dict(self) -> dict:
        return {**self.audit.to_dict(), "trust": self.trust, "key_questions": [k.to_json() for k in self.key_questions],
                "key_questions_answered": self.answered}


def report_trust(audit: Audit, answered: int, asked: int, language: Language) -> Trust:
    """A report's trust (finsearch.answer.trust) with the outline's key questions as what was
    asked: a report that answers half its key questions is not to be trusted as a whole,
    however well grounded. Without key questions, the whole report's audit as an answer's."""
    if not asked:
        return audit.trust_in(language)
    unanswered = say("trust.key_questions", language, answered=answered, asked=asked) if answered < asked else None
    return Trust(audit.grounding, audit.coverage, audit.integrity, answered / asked, len(audit.checks),
                 audit.count("supported"), audit.key_sentences, audit.cited_key_sentences, unanswered)


@dataclasses.dataclass(frozen=True)
class ReportStats:
    sections: int
    source_calls: int
    cache_hits: int
    refused_calls: int            # past the budget
    most_calls_at_once: int
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    wall_ms: float

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Report:
    analysis: Analysis
    now: datetime
    outline: Outline
    sections: tuple[SectionResult, ...]
    graph: SearchGraph                 # every section's nodes, ids prefixed s<i>
    markdown: str
    references: list[Reference]
    audit: ReportAudit
    budget: ReportBudget
    stats: ReportStats
    writer: str
    sample: bool = False
    cancelled: bool = False
    notes: tuple[str, ...] = ()
    report_id: str = dataclasses.field(default_factory=new_id)   # its id in the store (`?report=`)
    summary_by: str = "heuristic"      # who wrote the executive summary: "llm" or "heuristic"
    usage: ModelUsage | None = None    # model calls, tokens and cost per stage; None: stored before it was kept

    @property
    def question(self) -> str:
        return self.analysis.question

    def to_dict(self) -> dict:
        return {
            "report_id": self.report_id, "question": self.question, "now": to_iso(self.now),
            "language": self.analysis.language, "outline": self.outline.to_json(),
            "sections": [{"index": s.index, "title": s.section.title, "key_questions": list(s.section.key_questions),
                          "planner": s.planner, "started_ms": s.started_ms, "finished_ms": s.finished_ms,
                          "graph": s.graph.to_dict(with_evidence=False),
                          "supplements": [dataclasses.asdict(x) for x in s.supplements],
                          "missing": s.missing} for s in self.sections],
            "markdown": self.markdown, "references": [r.to_json() for r in self.references],
            "audit": self.audit.to_dict(), "budget": self.budget.to_json(), "stats": self.stats.to_json(),
            "writer": self.writer, "summary_by": self.summary_by, "sample": self.sample, "cancelled": self.cancelled,
            "notes": list(self.notes), "usage": self.usage.to_json() if self.usage is not None else None,
        }
