"""The finished run: everything the CLI prints, the UI shows and history stores."""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime
from functools import cached_property
from typing import Literal

from .answer.citations import Reference
from .answer.generator import Answer
from .evidence import to_iso
from .graph import Author, SearchGraph
from .model.usage import ModelUsage
from .phrases import Language, say
from .plan.analysis import Analysis
from .plan.entities import Entity
from .plan.interpretation import Corrections, Interpretation
from .run.rewriter import report_days
from .settings import Backend, Settings, parse_now
from .timecontext import TimeContext

RECORD_VERSION = 1

DataMode = Literal["offline", "replay", "live"]


def new_id() -> str:
    """A run's id: 96 random bits, URL-safe (it is also the share link's capability)."""
    return secrets.token_urlsafe(12)


@dataclasses.dataclass(frozen=True)
class RunConfig:
    """How a run was configured, as the JSON's `config` reports it."""
    llm: Backend
    data: DataMode
    window_hours: float
    floor: float
    undated_weight: float
    time_weighting: bool
    rewriter: bool
    deadline_s: float | None = None     # None: a run stored before runs had one budget
    model: str | None = None            # only with a model

    @classmethod
    def describe(cls, settings: Settings, backend: Backend) -> RunConfig:
        data = "offline" if settings.offline else ("replay" if settings.pack else "live")
        return cls(backend, data, settings.window_hours, settings.floor, settings.undated_weight,
                   settings.time_weighting, settings.rewriter, settings.deadline_s,
                   settings.model if backend == "openai" else None)

    def to_json(self) -> dict:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None or k not in _OPTIONAL}

    @classmethod
    def from_json(cls, raw: dict) -> RunConfig:
        known = {f.name: raw[f.name] for f in dataclasses.fields(cls) if f.name in raw}
        return cls(**{"llm": "heuristic", "data": "live", "window_hours": 72.0, "floor": 0.1,
                      "undated_weight": 0.5, "time_weighting": True, "rewriter": True, **known})


_OPTIONAL = ("deadline_s", "model")


@dataclasses.dataclass(frozen=True)
class RunStats:
    """What a run cost: model calls and tokens, source calls and where they were served from."""
    llm_calls: int = 0
    llm_round_trips_critical_path: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    source_calls: int = 0
    cache_hits: int = 0           # served by the source cache
    upstream_calls: int = 0       # calls that reached the network (not the cache or a pack)
    bytes: int = 0
    nodes_failed: int = 0
    wall_ms: int = 0
    pack_reads: int = 0           # served by a replay pack

    def timing(self, language: Language = "en") -> str:
        """How long the run took, as its badge says it in `language`, with how much of it the
        source cache served ("cached · 12 ms" when all of it: a repeat answers in milliseconds,
        and "0.0 s" read as broken; "2 of 5 cached · 850 ms"); a replay pack's answers are not
        "cached"."""
        took = f"{self.wall_ms} ms" if self.wall_ms < 1000 else f"{self.wall_ms / 1000:.1f} s"
        if not self.cache_hits:
            return took
        if self.cache_hits >= self.source_calls:
            return say("ui.badge.cached", language, took=took)
        return say("ui.badge.some_cached", language, hits=self.cache_hits, calls=self.source_calls, took=took)

    def to_json(self) -> dict:
        out = dataclasses.asdict(self)
        # `cache_misses` is the old name of `upstream_calls`, kept in the JSON for one release.
        ordered = {}
        for key, value in out.items():
            if key == "upstream_calls":
                ordered["cache_misses"] = value
            ordered[key] = value
        return ordered

    @classmethod
    def from_json(cls, raw: dict) -> RunStats:
        known = {f.name: raw[f.name] for f in dataclasses.fields(cls) if f.name in raw}
        if "upstream_calls" not in known and "cache_misses" in raw:
            known["upstream_calls"] = raw["cache_misses"]
        return cls(**known)


@dataclasses.dataclass(frozen=True)
class RunResult:
    run_id: str
    analysis: Analysis
    now: datetime
    config: RunConfig
    graph: SearchGraph
    answer: Answer | None
    charts: list[dict]
    stats: RunStats | None            # None: planned only
    planner: Author
    notes: tuple[str, ...] = ()
    sample: bool = False              # answered from a pack labelled as sample data
    cancelled: bool = False
    judgement: dict | None = None     # the optional LLM judge's verdict (finsearch.answer.judge)
    corrections: Corrections = Corrections()   # what the user chose instead of the first reading
    usage: ModelUsage | None = None   # model calls, tokens and cost per stage; None: stored before it was kept
    cached_at: datetime | None = None  # given again from the answer cache (`answer_cache`): when it was written

    @cached_property
    def audit(self):
        """The answer's audit (finsearch.answer.audit), computed once from the answer and graph."""
        from .answer.audit import audit_result

        return audit_result(self)

    @cached_property
    def interpretation(self) -> Interpretation:
        """How the question was read, with the choices the user may change; a guessed period
        ("since earnings") as the run's earnings calendar dated it."""
        dated = report_days(list(self.graph), self.now.date())
        return Interpretation.of(self.analysis, self.now, self.corrections, dated)

    @property
    def clock_note(self) -> str | None:
        """For sample data, the clock it was answered at: a sample pack's "today" is the day it
        was recorded, so "last week" means a week long gone. None for real data."""
        if not self.sample:
            return None
        return say("note.sample_clock", self.analysis.language, when=f"{self.now:%Y-%m-%d %H:%M}")

    @property
    def question(self) -> str:
        return self.analysis.question

    @property
    def answered_by(self) -> str | None:
        """The model that wrote the answer; None when the rules wrote it."""
        return (self.config.model or "LLM") if self.answer and self.answer.writer == "llm" else None

    @property
    def planned_by(self) -> str | None:
        """The model that planned the search; None when the rules planned it."""
        return (self.config.model or "LLM") if self.planner == "llm" else None

    def to_dict(self, with_answer: bool = True) -> dict:
        """The `ask --json` object of DESIGN.md (without answer parts for `plan --json`)."""
        out = {
            "run_id": self.run_id,
            "question": self.question,
            "now": to_iso(self.now),
            "language": self.analysis.language,
            "config": self.config.to_json(),
            "entities": [e.to_dict() for e in self.analysis.entities],
            "time_context": self.analysis.time_context.to_dict(),
            "interpretation": self.interpretation.to_json(),
            "planner": self.planner,
            "graph": self.graph.to_dict(with_evidence=with_answer),
        }
        if with_answer:
            out["answer"] = self.answer.to_dict() if self.answer else None
            out["writer"] = self.answer.writer if self.answer else None
            out["charts"] = self.charts
            out["stats"] = self.stats.to_json() if self.stats else {}
            out["sample_data"] = self.sample
            out["cancelled"] = self.cancelled
            out["audit"] = self.audit.to_dict() if self.audit else None
            out["cached_at"] = to_iso(self.cached_at) if self.cached_at else None
            if self.judgement is not None:
                out["judge"] = self.judgement
        out["usage"] = self.usage.to_json() if self.usage is not None else None
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
            entities=tuple(Entity.from_record(e) for e in extra.get("entities", [])), time_context=tc,
            intents=frozenset(extra.get("intents", [])), inherited=tuple(extra.get("inherited", [])))
        raw_answer = record.get("answer")
        answer = None
        if raw_answer:
            references = [Reference.from_json(r) for r in raw_answer.get("references", [])]
            answer = Answer(raw_answer["markdown"], raw_answer.get("language", analysis.language),
                            references, raw_answer.get("writer", "heuristic"),
                            raw_answer.get("dropped_citations", 0), tuple(raw_answer.get("notes", [])))
        return cls(
            run_id=record["run_id"], analysis=analysis, now=parse_now(record["now"]),
            config=RunConfig.from_json(record.get("config") or {}),
            graph=SearchGraph.from_dict(analysis.question, tc, record["graph"]), answer=answer,
            charts=record.get("charts", []), stats=RunStats.from_json(record["stats"]) if record.get("stats") else None,
            planner=record.get("planner", "heuristic"),
            notes=tuple(record.get("notes", [])), sample=record.get("sample_data", False),
            cancelled=record.get("cancelled", False), judgement=record.get("judge"),
            corrections=Corrections.from_json((record.get("interpretation") or {}).get("corrections")),
            usage=ModelUsage.from_json(record["usage"]) if isinstance(record.get("usage"), dict) else None,
            cached_at=parse_now(record["cached_at"]) if isinstance(record.get("cached_at"), str) else None)
