"""`eval --format report`: one deep research request → its report → one result row, scored.

In code, from the report's own audit: citation integrity, key-fact coverage, the figures
traced (supported directly, derived from two cited values, misattributed, unsupported) and
the share of the outline's key questions answered; the rule-based rubric (sections with cited
figures, no repeated evidence, a stance, a valuation verdict, tables, …: finsearch.research.rubric).
With `--judge`: the report judge's eight presentation criteria and, when the record has a
reference answer, the share of its key points the report covers (finsearch.research.judge).

A report has no gold answer, so `correct` stays null: the summary scores reports by these
numbers instead of accuracy.
"""

from __future__ import annotations

import dataclasses
import threading
import time

from ..errors import FinSearchError, InputError
from ..research.judge import NEEDS_MODEL, can_judge, judge_with
from ..research.rubric import score_report
from ..settings import Settings
from .datasets import Question
from .variants import graph_summary, plan_of, settings_for

LLM_ONLY = ("the llm-only variant answers in one model call and writes no report: leave it out of --variants "
            "with --format report")
JUDGE_NEEDS_MODEL = f"{NEEDS_MODEL} (--judge-model picks its model)"


@dataclasses.dataclass(frozen=True)
class ReportScores:
    """What the audit says about one report."""
    integrity: bool                 # every [n] resolves, every reference is used and was retrieved
    coverage: float                 # key-fact sentences with a citation ÷ key-fact sentences
    trust: float                    # the report's: scaled by the key questions answered
    supported: int                  # figures found in the evidence their sentence cites
    derived: int                    # figures two cited values give (a % change, a difference)
    misattributed: int              # found only in other retrieved evidence
    unsupported: int                # found nowhere
    key_questions: int
    answered: int                   # key questions a cited sentence of their section answers
    sections: int
    references: int

    @classmethod
    def of(cls, report) -> ReportScores:
        audit = report.audit.audit
        derived = sum(1 for c in audit.checks if c.verdict == "supported" and c.derived)
        return cls(audit.integrity, audit.coverage, report.audit.trust, audit.count("supported") - derived, derived,
                   audit.count("misattributed"), audit.count("unsupported"), len(report.audit.key_questions),
                   report.audit.answered, len(report.sections), len(report.references))

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def check(variants: tuple[str, ...], settings: Settings) -> None:
    """Before any request runs: the variants a report can be written by, a judge's model."""
    if "llm-only" in variants:
        raise InputError(LLM_ONLY)
    # The judge needs a model server, not a model-written report: the rules' reports are judged too.
    if settings.judge and not can_judge(settings):
        raise InputError(JUDGE_NEEDS_MODEL)


def report_row(question: Question, variant: str, settings: Settings, cancel: threading.Event,
               judge_model: str | None = None) -> dict:
    """One result row; whatever goes wrong is its `error`, never raised."""
    from ..research.run import report

    started = time.perf_counter()
    row = {"id": question.id, "variant": variant, "category": question.category, "question": question.text,
           "prediction": None, "correct": None, "unparsed": False, "latency_ms": None, "llm_calls": None,
           "prompt_tokens": None, "completion_tokens": None, "source_calls": None, "graph": None, "plan": [],
           "audit": None, "report": None, "rubric": None, "judge": None, "presentation": None, "reference_score": None,
           "answer": None, "writer": None, "error": None, "usage": None}
    reference = question.record.get("reference")
    if reference:
        row["reference"] = reference
    try:
        done = report(question.text, now=question.now, settings=settings_for(variant, settings), cancel=cancel)
    except FinSearchError as exc:
        row.update(error=str(exc), latency_ms=_elapsed(started))
        return row
    except Exception as exc:           # a bug must not end the whole benchmark run
        row.update(error=f"unexpected error: {type(exc).__name__}: {exc}", latency_ms=_elapsed(started))
        return row
    stats, audit = done.stats, done.audit.audit
    row.update(latency_ms=_elapsed(started), llm_calls=stats.llm_calls, prompt_tokens=stats.prompt_tokens,
               completion_tokens=stats.completion_tokens, source_calls=stats.source_calls,
               graph=graph_summary(done.graph), plan=plan_of(done.graph), answer=done.markdown, writer=done.writer,
               audit={"coverage": audit.coverage, "grounding": audit.grounding, "trust": done.audit.trust},
               report=ReportScores.of(done).to_json(), rubric=score_report(done).to_json(),
               usage=done.usage.to_json() if done.usage is not None else None)
    if settings.judge and not cancel.is_set():
        verdict = judge_with(settings, question.text, done.markdown, reference, judge_model)
        row.update(judge=verdict.to_json(), presentation=verdict.presentation, reference_score=verdict.reference)
    return row


def _elapsed(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
