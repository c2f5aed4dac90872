"""A finished report as a stored record (History, `?report=`, share links) and back.

`Report.to_dict()` is the `report --json` contract and leaves out what only the page needs
(the evidence behind the charts and the search graphs, every figure the audit checked, the
analysis's entities). The record keeps all of that, so a stored report redraws exactly as it
was shown. A section keeps its research (graph, supplements, gaps, timing); its written text
is already in the report's markdown, so its `answer` and the evidence its writer was given
come back empty: they were only read while the report was being composed.
"""

from __future__ import annotations

import dataclasses

from ..answer.answered import Answered
from ..answer.audit import Audit, FigureCheck
from ..answer.citations import Reference
from ..answer.claims import StaleValue
from ..evidence import to_iso
from ..graph import SearchGraph
from ..model.usage import ModelUsage
from ..plan.analysis import Analysis
from ..plan.entities import Entity
from ..settings import parse_now
from ..timecontext import TimeContext
from .budget import ReportBudget
from .outline import Outline, Section
from .result import KeyQuestionCheck, Report, ReportAudit, ReportStats
from .section import SectionResult, Supplement

RECORD_VERSION = 1
KIND = "report"                 # a stored record's `kind`; a run's record has none (store.runs)


def to_record(report: Report) -> dict:
    """Everything needed to draw `report` again later, as JSON."""
    return {
        "kind": KIND, "record_version": RECORD_VERSION, "report_id": report.report_id,
        "question": report.question, "now": to_iso(report.now), "analysis": _analysis(report.analysis),
        "outline": report.outline.to_json(), "sections": [_section(s) for s in report.sections],
        "graph": _graph(report.graph), "markdown": report.markdown,
        "references": [r.to_json() for r in report.references], "audit": _audit(report.audit),
        "budget": report.budget.to_json(), "stats": report.stats.to_json(), "writer": report.writer,
        "summary_by": report.summary_by, "sample": report.sample, "cancelled": report.cancelled,
        "notes": list(report.notes), "usage": report.usage.to_json() if report.usage is not None else None,
    }


def from_record(record: dict) -> Report:
    """A report as `to_record` wrote it. Raises KeyError/TypeError/ValueError on a damaged record
    (the store treats one as absent)."""
    analysis = _analysis_back(record["analysis"])
    return Report(
        analysis=analysis, now=parse_now(record["now"]), outline=Outline.from_json(record["outline"]),
        sections=tuple(_section_back(s) for s in record["sections"]), graph=_graph_back(record["graph"]),
        markdown=str(record["markdown"]), references=[Reference.from_json(r) for r in record["references"]],
        audit=_audit_back(record["audit"]), budget=ReportBudget(**record["budget"]),
        stats=ReportStats(**record["stats"]), writer=str(record["writer"]), sample=bool(record.get("sample")),
        cancelled=bool(record.get("cancelled")), notes=tuple(str(n) for n in record.get("notes", ())),
        report_id=str(record["report_id"]), summary_by=str(record.get("summary_by", "heuristic")),
        usage=ModelUsage.from_json(record["usage"]) if isinstance(record.get("usage"), dict) else None)


def _analysis(a: Analysis) -> dict:
    return {"question": a.question, "language": a.language, "entities": [dataclasses.asdict(e) for e in a.entities],
            "time_context": {**a.time_context.to_dict(), "explicit": a.time_context.explicit},
            "intents": sorted(a.intents), "inherited": list(a.inherited), "notes": list(a.notes)}


def _analysis_back(raw: dict) -> Analysis:
    return Analysis(question=str(raw["question"]), language=raw["language"],
                    entities=tuple(Entity.from_record(e) for e in raw["entities"]),
                    time_context=TimeContext.from_dict(raw["time_context"]), intents=frozenset(raw["intents"]),
                    inherited=tuple(raw.get("inherited", ())), notes=tuple(raw.get("notes", ())))


def _graph(graph: SearchGraph) -> dict:
    return {"question": graph.question, "time_context": {**graph.time_context.to_dict(),
                                                         "explicit": graph.time_context.explicit},
            **graph.to_dict(with_evidence=True)}


def _graph_back(raw: dict) -> SearchGraph:
    return SearchGraph.from_dict(str(raw["question"]), TimeContext.from_dict(raw["time_context"]), raw)


def _section(s: SectionResult) -> dict:
    return {"index": s.index, "section": s.section.to_json(), "analysis": _analysis(s.analysis),
            "graph": _graph(s.graph), "planner": s.planner,
            "supplements": [dataclasses.asdict(x) for x in s.supplements], "missing": list(s.missing),
            "started_ms": s.started_ms, "finished_ms": s.finished_ms, "notes": list(s.notes)}


def _section_back(raw: dict) -> SectionResult:
    section = raw["section"]
    return SectionResult(
        index=int(raw["index"]), section=Section(str(section["key"]), str(section["title"]),
                                                 tuple(section["key_questions"])),
        analysis=_analysis_back(raw["analysis"]), graph=_graph_back(raw["graph"]), planner=str(raw["planner"]),
        supplements=[Supplement(**x) for x in raw.get("supplements", ())], missing=list(raw.get("missing", ())),
        started_ms=float(raw["started_ms"]), finished_ms=float(raw["finished_ms"]), notes=list(raw.get("notes", ())))


def _audit(audit: ReportAudit) -> dict:
    a = audit.audit
    return {"coverage": a.coverage, "grounding": a.grounding, "trust": a.trust,
            "checks": [dataclasses.asdict(c) for c in a.checks], "key_sentences": a.key_sentences,
            "cited_key_sentences": a.cited_key_sentences, "unknown_markers": list(a.unknown_markers),
            "unused_references": list(a.unused_references), "foreign_references": list(a.foreign_references),
            "answered": a.answered.to_json(), "stale": [v.to_json() for v in a.stale],
            "key_questions": [k.to_json() for k in audit.key_questions]}


def _audit_back(raw: dict) -> ReportAudit:
    checks = tuple(FigureCheck(str(c["text"]), str(c["sentence"]), c["verdict"], tuple(c["cited"]),
                               tuple(c["found_in"]), bool(c.get("derived"))) for c in raw["checks"])
    answered = raw["answered"]
    audit = Audit(float(raw["coverage"]), float(raw["grounding"]), float(raw["trust"]), checks,
                  int(raw["key_sentences"]), int(raw["cited_key_sentences"]), tuple(raw["unknown_markers"]),
                  tuple(raw["unused_references"]), tuple(raw["foreign_references"]),
                  Answered.from_json(answered), tuple(StaleValue.from_json(v) for v in raw.get("stale", ())))
    keys = tuple(KeyQuestionCheck(int(k["section"]), str(k["question"]), tuple(k["intents"]), tuple(k["answered"]),
                                  tuple(k["missing"])) for k in raw["key_questions"])
    return ReportAudit(audit, keys)
