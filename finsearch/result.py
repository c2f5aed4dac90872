"""The finished run: everything the CLI prints, the UI shows and history stores."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from functools import cached_property

from .answer.generator import Answer
from .evidence import to_iso
from .graph import SearchGraph
from .plan.analysis import Analysis
from .plan.entities import Entity
from .plan.timectx import TimeContext
from .settings import parse_now

RECORD_VERSION = 1


@dataclasses.dataclass(frozen=True)
class RunResult:
    run_id: str
    analysis: Analysis
    now: datetime
    config: dict
    graph: SearchGraph
    answer: Answer | None
    charts: list[dict]
    stats: dict
    planner: str                      # "llm" | "heuristic"
    notes: tuple[str, ...] = ()
    sample: bool = False              # answered from a pack labelled as sample data
    cancelled: bool = False
    judgement: dict | None = None     # the optional LLM judge's verdict (finsearch.answer.judge)

    @cached_property
    def audit(self):
        """The answer's audit (finsearch.answer.audit), computed once from the answer and graph."""
        from .answer.audit import audit_result

        return audit_result(self)

    @property
    def question(self) -> str:
        return self.analysis.question

    def to_dict(self, with_answer: bool = True) -> dict:
        """The `ask --json` object of DESIGN.md (without answer parts for `plan --json`)."""
        out = {
            "run_id": self.run_id,
            "question": self.question,
            "now": to_iso(self.now),
            "language": self.analysis.language,
            "config": self.config,
            "entities": [e.to_dict() for e in self.analysis.entities],
            "time_context": self.analysis.time_context.to_dict(),
            "planner": self.planner,
            "graph": self.graph.to_dict(with_evidence=with_answer),
        }
        if with_answer:
            out["answer"] = self.answer.to_dict() if self.answer else None
            out["writer"] = self.answer.writer if self.answer else None
            out["charts"] = self.charts
            out["stats"] = self.stats
            out["sample_data"] = self.sample
            out["cancelled"] = self.cancelled
            out["audit"] = self.audit.to_dict() if self.audit else None
            if self.judgement is not None:
                out["judge"] = self.judgement
        out["notes"] = list(self.notes)
        return out

    # -- storage (history, permalinks) -------------------------------------------------------

    def to_record(self) -> dict:
        """Everything needed to show this run again later, as JSON."""
        record = self.to_dict()
        a = self.analysis
        record["record_version"] = RECORD_VERSION
        record["analysis"] = {
            "entities": [dataclasses.asdict(e) for e in a.entities],
            "intents": sorted(a.intents), "inherited": list(a.inherited),
            "time_explicit": a.time_context.explicit,
        }
        if self.answer:
            record["answer"].update(writer=self.answer.writer, dropped_citations=self.answer.dropped_citations,
                                    notes=list(self.answer.notes))
        return record

    @classmethod
    def from_record(cls, record: dict) -> RunResult:
        extra = record.get("analysis") or {}
        tc = TimeContext.from_dict({**record["time_context"], "explicit": extra.get("time_explicit", True)})
        analysis = Analysis(
            question=record["question"], language=record.get("language", "en"),
            entities=tuple(Entity(**e) for e in extra.get("entities", [])), time_context=tc,
            intents=frozenset(extra.get("intents", [])), inherited=tuple(extra.get("inherited", [])))
        raw_answer = record.get("answer")
        answer = None
        if raw_answer:
            answer = Answer(raw_answer["markdown"], raw_answer.get("language", analysis.language),
                            raw_answer.get("references", []), raw_answer.get("writer", "heuristic"),
                            raw_answer.get("dropped_citations", 0), tuple(raw_answer.get("notes", [])))
        return cls(
            run_id=record["run_id"], analysis=analysis, now=parse_now(record["now"]), config=record["config"],
            graph=SearchGraph.from_dict(analysis.question, tc, record["graph"]), answer=answer,
            charts=record.get("charts", []), stats=record.get("stats", {}), planner=record.get("planner", ""),
            notes=tuple(record.get("notes", [])), sample=record.get("sample_data", False),
            cancelled=record.get("cancelled", False), judgement=record.get("judge"))
