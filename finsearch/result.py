"""The finished run: everything the CLI prints, the UI shows and history stores."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from .analysis import Analysis
from .evidence import to_iso
from .generator import Answer
from .graph import SearchGraph


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
        out["notes"] = list(self.notes)
        return out
