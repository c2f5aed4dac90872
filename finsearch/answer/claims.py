"""Claims an answer makes that the run's own evidence contradicts, for the audit:

    holds(view, intent, ticker)   → the retrieved items that answer `intent` for `ticker` (the same
                                    readers the rules' leads use: quantities, the cause model, the
                                    sentences that state guidance, results, a reply …)
    stale_values(view, sentences) → sentences that give a quote's price as current while a daily
                                    close days newer was retrieved, without saying how old it is

A "not found" about an intent that `holds` finds is contradicted: it counts as not answered at
all (finsearch.answer.answered), and the audit lists it.
"""

from __future__ import annotations

import dataclasses
import re

from ..evidence import Evidence
from .asked import asked
from .causes import explain
from .lead_news import RESPONDS, SAID_BY_ITSELF
from .news_facts import news_verdict, report_date
from .stated import GUIDANCE, guidance_in, reply_points, results_vs_expected
from .view import AnswerView

# intent → the quantities that answer it
_QUANTITIES = {
    "dividend": ("dividend_yield", "payout_ratio", "dividend_per_share"),
    "analyst": ("target_mean",),
    "valuation": ("pe_trailing", "pe_static", "pe_forward", "market_cap"),
    "expensive": ("pe_trailing", "pe_static", "pe_forward"),
    "peers": ("pe_static", "industry_pe", "pe_trailing"),
    "price": ("price",),
}
# A stale quote said with its age, or as a quote of its own day ("was quoted at $94.37 … on 2025-09-23"):
# not given as the price now.
_AGE = re.compile(r"\d+\s*(?:days?|trading\s+days?|天|个交易日)|\bolder\b|\bstale\b|较早|过时|之前的报价"
                  r"|\bwas\s+quoted\s+at\b|的报价为", re.I)


def holds(view: AnswerView, intent: str, ticker: str) -> list[Evidence]:
    """The items that answer `intent` for `ticker` ([] when none does, or the intent has no reader)."""
    if intent in _QUANTITIES:
        metric = asked(view.analysis.question).metric
        kinds = (metric,) if metric in _QUANTITIES[intent] else _QUANTITIES[intent]
        return [c.value.item for kind in kinds if (c := view.current(kind, ticker)) is not None]
    stories = view.stories(ticker)
    passages = view.reader.find(stories, None, view.topic)
    if intent == "guidance":
        found = guidance_in([p for p in passages if GUIDANCE.search(p.text)])
        return [found.passage.item] if found is not None else []
    if intent == "surprise":
        reported, estimate = view.current("eps_reported", ticker), view.current("eps_estimate", ticker)
        if reported and estimate and reported.value.item.source == "earnings":
            return [reported.value.item]
        stated = results_vs_expected(passages)
        if stated:
            return [v.passage.item for v in stated]
        verdict = news_verdict(stories, view.topic)
        return [verdict.item] if verdict is not None else []
    if intent == "why":
        explanation = explain(view, ticker)
        return explanation.cause.items if explanation is not None and explanation.cause is not None else []
    if intent == "response":
        return [p.item for p in passages if reply_points(p.text)
                or (p.item.source in SAID_BY_ITSELF and RESPONDS.search(p.text))][:3]
    if intent == "calendar":
        earnings = view.first("earnings", ticker)
        if earnings is not None and (earnings.data or {}).get("next_date"):
            return [earnings]
        found = report_date(stories)
        return [found.item] if found is not None else []
    return []


@dataclasses.dataclass(frozen=True)
class StaleValue:
    sentence: str
    quote: str                   # the id of the quote the sentence gives as current
    fresher: str                 # the id of the daily close days newer
    days: int

    def to_json(self) -> dict:
        return {"sentence": self.sentence, "quote": self.quote, "fresher": self.fresher, "days": self.days}

    @classmethod
    def from_json(cls, raw: dict) -> StaleValue:
        return cls(str(raw["sentence"]), str(raw["quote"]), str(raw["fresher"]), int(raw["days"]))


def stale_values(view: AnswerView, cited: list[tuple[str, tuple[Evidence, ...]]]) -> list[StaleValue]:
    """Sentences (with the items they cite) that state a stale quote's price without its age."""
    out = []
    for sentence, items in cited:
        for item in items:
            current = view.current("price", item.ticker or "") if item.source == "quote" else None
            if current is None or current.stale is None or current.stale.item.id != item.id:
                continue
            if f"{current.stale.value:.2f}" in sentence.replace(",", "") and not _AGE.search(sentence):
                out.append(StaleValue(sentence, item.id, current.value.item.id, current.age_days))
    return out
