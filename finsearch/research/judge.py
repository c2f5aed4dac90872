"""The optional judge of a whole report (one `judge` call): the eight presentation criteria
of a financial research report (DeepFinance's), each 1, 3 or 5, normalised to 0–1 and
averaged, and, given a reference answer, the share of its key points the report covers.

The figures audit never depends on it (research.run audits the report in code).
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from ..errors import LLMError
from ..model.language_model import LanguageModel
from ..model.llm import LLMClient
from ..model.prompts import fill, prompt
from ..model.text import parse_json_object
from ..settings import Settings

CRITERIA = ("structure", "conclusion_first", "data_support", "citation", "analysis_depth", "risk_disclosure",
            "readability", "timeliness")
PointVerdict = Literal["covered", "contradicted", "missing"]
POINT_VERDICTS: tuple[PointVerdict, ...] = ("covered", "contradicted", "missing")
MAX_POINTS = 8
MAX_REPORT_CHARS = 24_000        # the judge reads the report's head when it is longer
NEEDS_MODEL = "--judge needs a model: set OPENAI_API_KEY or OPENAI_BASE_URL"

SCHEMA = {
    "type": "object",
    "properties": {
        "presentation": {"type": "object", "properties": {c: {"type": "integer", "enum": [1, 3, 5]}
                                                          for c in CRITERIA}},
        "reference_points": {"type": "array", "maxItems": MAX_POINTS, "items": {
            "type": "object",
            "properties": {"point": {"type": "string"}, "verdict": {"type": "string", "enum": list(POINT_VERDICTS)}},
            "required": ["point", "verdict"]}},
    },
    "required": ["presentation", "reference_points"],
}


@dataclasses.dataclass(frozen=True)
class ReferencePoint:
    point: str
    verdict: PointVerdict


@dataclasses.dataclass(frozen=True)
class ReportJudgement:
    scores: dict[str, int | None] = dataclasses.field(default_factory=dict)   # criterion → 1, 3, 5 or None
    points: tuple[ReferencePoint, ...] = ()
    error: str | None = None

    @property
    def presentation(self) -> float | None:
        """The criteria given a score, each (score − 1) / 4, averaged; None when none was."""
        known = [v for v in self.scores.values() if v is not None]
        return round(sum((v - 1) / 4 for v in known) / len(known), 4) if known else None

    @property
    def reference(self) -> float | None:
        """Covered points ÷ the reference's points; None without a reference."""
        if not self.points:
            return None
        return round(sum(1 for p in self.points if p.verdict == "covered") / len(self.points), 4)

    def to_json(self) -> dict:
        if self.error:
            return {"error": self.error}
        return {"presentation": dict(self.scores), "presentation_score": self.presentation,
                "reference_points": [{"point": p.point, "verdict": p.verdict} for p in self.points],
                "reference_score": self.reference}


def judge_report(question: str, markdown: str, model: LanguageModel, reference: str | None = None) -> ReportJudgement:
    """The judge's verdict on a report's markdown; the error said, never raised, when it cannot judge."""
    if not markdown.strip():
        return ReportJudgement(error="there is no report to judge")
    report = markdown if len(markdown) <= MAX_REPORT_CHARS else markdown[:MAX_REPORT_CHARS] + "\n[…]"
    user = fill(prompt("report_judge_user"), question=question, criteria=", ".join(CRITERIA),
                reference=(reference or "").strip() or "(none)", report=report)
    messages = [{"role": "system", "content": prompt("report_judge_system")}, {"role": "user", "content": user}]
    try:
        raw = parse_json_object(model.complete(messages, call="judge", schema=SCHEMA, max_tokens=1200).text)
    except (LLMError, ValueError) as exc:
        return ReportJudgement(error=f"the judge failed: {exc}")
    given = raw.get("presentation") if isinstance(raw.get("presentation"), dict) else {}
    scores = {c: given.get(c) if given.get(c) in (1, 3, 5) else None for c in CRITERIA}
    points = []
    if reference and reference.strip():         # points without a reference are the judge's invention
        for item in raw.get("reference_points") or []:
            if isinstance(item, dict) and item.get("verdict") in POINT_VERDICTS and isinstance(item.get("point"), str):
                points.append(ReferencePoint(item["point"].strip()[:300], item["verdict"]))
    return ReportJudgement(scores, tuple(points[:MAX_POINTS]))


def can_judge(settings: Settings) -> bool:
    """A model server to judge with (the report itself may be the rules')."""
    return bool(settings.api_key or settings.base_url)


def judge_with(settings: Settings, question: str, markdown: str, reference: str | None = None,
               judge_model: str | None = None) -> ReportJudgement:
    """Judge on the configured server, with `judge_model`, the judge setting's model or the model."""
    judge_settings = settings.replace(llm="openai", model=judge_model or settings.judge_model or settings.model)
    with LLMClient(judge_settings) as client:
        return judge_report(question, markdown, client, reference)


def judgement_text(verdict: ReportJudgement) -> str:
    """One line for the terminal."""
    if verdict.error:
        return f"the report was not judged: {verdict.error}"
    scores = ", ".join(f"{c.replace('_', ' ')} {v if v is not None else '–'}" for c, v in verdict.scores.items())
    overall = "–" if verdict.presentation is None else f"{verdict.presentation:.2f}"
    return f"judge: presentation {overall} ({scores}; each 1, 3 or 5)"
