"""Trust: one number and one verdict for an answer or a report, defined here once and shown
the same way in the chat, on the report page and in every export.

    trust = (0.6 × grounding + 0.3 × coverage + 0.1 × integrity) × answered  (× STALE_PENALTY)

- grounding: the figures traced to the sources their sentences cite (finsearch.answer.audit);
- coverage: the key-fact sentences that cite a source;
- integrity: every citation resolves to an item the run retrieved (1 or 0);
- answered: the share of what was asked that was answered — an answer's intents
  (`Answered.share`: an intent whose asked-for source, the 10-K, was not retrieved counts
  half, as a gap the answer states), a report's key questions;
- × STALE_PENALTY when a stale quote is given as the current price;
- 0 when the answer states no figure and answers nothing asked ("Not retrieved: …" is not an
  answer, however well grounded its nothing is).

Its level, which is the badge's colour: **high** (green) from HIGH with no flagged figure, no
broken citation and nothing asked left unanswered; **low** (red) below LOW; **medium** (orange)
otherwise. So no answer is green with trust 0, and none says "all traced" in green while
what it was asked for was missing.

The badge says the number and the one thing a reader needs most beside it: what was asked and
not answered, when something was; else how many figures were traced. `explanation` lists every
part, for the badge's hover and the report's summary.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from ..phrases import Language, say

TrustLevel = Literal["high", "medium", "low"]
HIGH, LOW = 0.8, 0.5
STALE_PENALTY = 0.8
COLOURS: dict[TrustLevel, str] = {"high": "green", "medium": "orange", "low": "red"}


def trust_score(grounding: float, coverage: float, integrity: bool, answered: float, stale: bool = False,
                says_nothing: bool = False) -> float:
    """The number (see the module docstring), rounded to four places."""
    if says_nothing:
        return 0.0
    quality = 0.6 * grounding + 0.3 * coverage + 0.1 * (1.0 if integrity else 0.0)
    return round(quality * answered * (STALE_PENALTY if stale else 1.0), 4)


@dataclasses.dataclass(frozen=True)
class Trust:
    """The parts of one answer's or report's trust, and how it is said."""
    grounding: float
    coverage: float
    integrity: bool
    answered: float                 # the share of what was asked that was answered, 0..1
    figures: int                    # figures checked
    traced: int                     # of them, found in the sources their sentences cite
    key_sentences: int
    cited_key_sentences: int
    unanswered: str | None = None   # what was asked and not answered, in the answer's language
    stale: bool = False
    says_nothing: bool = False

    @property
    def score(self) -> float:
        return trust_score(self.grounding, self.coverage, self.integrity, self.answered, self.stale,
                           self.says_nothing)

    @property
    def level(self) -> TrustLevel:
        if self.score < LOW:
            return "low"
        clean = self.traced == self.figures and self.integrity and self.unanswered is None and not self.stale
        return "high" if self.score >= HIGH and clean else "medium"

    @property
    def colour(self) -> str:
        return COLOURS[self.level]

    def badge(self, language: Language) -> str:
        """"Trust 0.50 · did not answer: the risks it lists (not in the data)", "Trust 1.00 ·
        figures traced: 6 of 6"."""
        if self.unanswered:
            detail = self.unanswered
        elif self.figures:
            detail = say("trust.traced", language, traced=self.traced, total=self.figures)
        else:
            detail = say("trust.no_figures", language)
        return say("trust.badge", language, score=f"{self.score:.2f}", detail=detail)

    def explanation(self, language: Language) -> tuple[str, ...]:
        """Every part of the number, one sentence each, plain text."""
        lines = [say("trust.explain_figures", language, traced=self.traced, total=self.figures,
                     grounding=f"{self.grounding:.0%}"),
                 say("trust.explain_coverage", language, cited=self.cited_key_sentences, key=self.key_sentences,
                     coverage=f"{self.coverage:.0%}"),
                 say("trust.explain_integrity", language,
                     resolved=say("report.yes" if self.integrity else "report.no", language)),
                 say("trust.explain_answered", language, share=f"{self.answered:.0%}")]
        if self.unanswered:
            lines.append(self.unanswered)
        if self.stale:
            lines.append(say("trust.explain_stale", language, penalty=f"{STALE_PENALTY:.1f}"))
        if self.says_nothing:
            lines.append(say("trust.explain_nothing", language))
        lines.append(say("trust.explain_formula", language, high=f"{HIGH:.2f}", low=f"{LOW:.2f}"))
        return tuple(lines)
