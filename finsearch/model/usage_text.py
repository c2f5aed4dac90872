"""A run's model usage in words: the short line under an answer and its per-stage detail, in the answer's language.

    usage_line(usage, "en")  → "3 model calls · 4,210 tokens in / 612 out · $0.0021"
    stage_lines(usage, "en") → ["plan: 1 call · 1,180 in / 240 out · $0.0003", …]

None and no lines when no model was called: the heuristic backend's badge already says so, and a
"0 model calls" line under every rule-written answer would be noise.
"""

from __future__ import annotations

from ..phrases import Language, say
from .usage import STAGE_ORDER, ModelUsage, StageUsage


def usage_line(usage: ModelUsage | None, language: Language) -> str | None:
    """The whole run's calls, tokens and (when priced) cost; None when no model was called."""
    if usage is None or not usage.calls:
        return None
    line = say("usage.line", language, calls=f"{usage.calls:,}", approx=_approx(usage.estimated),
               prompt=f"{usage.prompt_tokens:,}", completion=f"{usage.completion_tokens:,}")
    return line + _cost(usage.cost_usd, language)


def stage_lines(usage: ModelUsage | None, language: Language) -> list[str]:
    """One line per stage (and model, when a stage used two), then a word on estimated counts."""
    if usage is None or not usage.calls:
        return []
    models = {s.model for s in usage.by_stage}
    lines = [_stage(s, language, len(models) > 1) for s in usage.by_stage]
    if usage.estimated:
        lines.append(say("usage.estimated", language))
    return lines


def usd(cost: float) -> str:
    """A cost in US dollars without its symbol: to a hundredth of a cent below a dollar (0.0021,
    0.1530), to the cent above (12.40); "<0.0001" for less than that, "0" for nothing."""
    if cost == 0:
        return "0"
    if cost < 0.0001:
        return "<0.0001"
    return f"{cost:.4f}" if cost < 1 else f"{cost:,.2f}"


def _stage(stage: StageUsage, language: Language, name_model: bool) -> str:
    name = say(f"usage.stage.{stage.stage}", language) if stage.stage in STAGE_ORDER else stage.stage
    line = say("usage.stage", language, stage=name + (f" ({stage.model})" if name_model else ""),
               calls=f"{stage.calls:,}", approx=_approx(stage.estimated), prompt=f"{stage.prompt_tokens:,}",
               completion=f"{stage.completion_tokens:,}")
    return line + _cost(stage.cost_usd, language)


def _approx(estimated: bool) -> str:
    return "≈" if estimated else ""


def _cost(cost: float | None, language: Language) -> str:
    return "" if cost is None else say("usage.cost", language, cost=usd(cost))
