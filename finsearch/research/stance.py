"""A company report's stance, decided by fixed rules from its findings, and the valuation
verdict, by the same rules' valuation signals.

Each rule reads one finding and gives a signal of +1, 0 or -1 with its reason, cited:

    target     the analysts' mean target ≥ 15% above the price: +1; ≥ 5% below it: -1; else 0
    results    the latest quarter's EPS beat its estimate: +1; missed it: -1
    guidance   guidance above expectations: +1; below them: -1
    ratings    more upgrades than downgrades in the retrieved data and news: +1; more downgrades: -1
    trend      the period's return ≥ +10%: +1; ≤ -10%: -1; else 0
    multiple   P/E below 0.8× its industry's (or its peer's forward P/E): +1; above 1.2×: -1; else 0
    risks      three or more retrieved stories that name a risk: -1

The stance is constructive at a sum of +2 or more, cautious at -2 or less, neutral between.
The valuation verdict sums `target` and `multiple`: cheap above 0, expensive below, fair at 0.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Literal

from ..answer.facts import label
from ..answer.markdown_builder import Markdown, md, say_md
from ..evidence import Evidence
from ..phrases import Language, say
from ..phrases.numbers import decimal, money, pct
from .findings import Findings

UPSIDE_HIGH, DOWNSIDE = 15.0, -5.0
TREND = 10.0
CHEAP, DEAR = 0.8, 1.2
RISK_STORIES = 3

Stance = Literal["constructive", "neutral", "cautious"]
Verdict = Literal["cheap", "fair", "expensive"]
Number = Callable[[Evidence], int]


@dataclasses.dataclass(frozen=True)
class Signal:
    rule: str
    sign: int
    reason: str                      # a cited clause in the report's language


class Rules:
    def __init__(self, findings: Findings, number: Number, names: dict[str, str], language: Language):
        self.findings, self.number, self.names, self.language = findings, number, names, language

    def refs(self, *items: Evidence | None) -> Markdown:
        return Markdown("").join(dict.fromkeys(md("[{}]", self.number(i)) for i in items if i is not None))

    def _say(self, key: str, **values) -> Markdown:
        """A reason: our words, with what the sources said (a publisher, a firm) escaped."""
        return say_md(f"report.reason.{key}", self.language, **values)

    def signals(self) -> list[Signal]:
        found = [self.target(), self.results(), self.guidance(), self.ratings(), self.trend(), self.multiple(),
                 self.risks()]
        return [s for s in found if s is not None]

    def target(self) -> Signal | None:
        f = self.findings
        if f.to_target is None:
            return None
        share = f.to_target.value
        sign = 1 if share >= UPSIDE_HIGH else -1 if share <= DOWNSIDE else 0
        key = "upside" if share > 0 else "downside"
        cur = f.price.currency
        return Signal("target", sign, self._say(key, target=money(f.target.value, cur, self.language),
                                                share=pct(share, False), price=money(f.price.value, cur, self.language),
                                                refs=self.refs(f.target.item, f.price.item)))

    def results(self) -> Signal | None:
        verdict = self.findings.results
        if verdict is None:
            return None
        reported, estimate = self.findings.eps
        sign = {"beat": 1, "missed": -1, "met": 0}[verdict]
        return Signal("results", sign, self._say(verdict, reported=decimal(reported.value),
                                                 estimate=decimal(estimate.value), refs=self.refs(reported.item)))

    def guidance(self) -> Signal | None:
        g = self.findings.guidance
        if g is None:
            return None
        key = "guided_below" if g.direction < 0 else "guided_above"
        return Signal("guidance", g.direction, self._say(key, publisher=g.item.publisher or "",
                                                         refs=self.refs(g.item)))

    def ratings(self) -> Signal | None:
        down, up = self.findings.downgrades, self.findings.upgrades
        if not down and not up:
            return None
        sign = 1 if len(up) > len(down) else -1 if len(down) > len(up) else 0
        key = {1: "upgraded", -1: "downgraded", 0: "rated_both"}[sign]
        who = say("list.sep", self.language).join(dict.fromkeys(c.firm for c in down + up if c.firm)) or "—"
        return Signal("ratings", sign, self._say(key, firms=who, refs=self.refs(*(c.item for c in down + up))))

    def trend(self) -> Signal | None:
        stats = self.findings.stats
        if stats is None or stats.return_pct is None:
            return None
        share = stats.return_pct
        sign = 1 if share >= TREND else -1 if share <= -TREND else 0
        return Signal("trend", sign, self._say("rose" if share >= 0 else "fell", share=pct(abs(share), False),
                                               refs=self.refs(self.findings.history)))

    def multiple(self) -> Signal | None:
        f = self.findings
        own, industry = f.value("pe_static") or f.value("pe_trailing"), f.value("industry_pe")
        if own is not None and industry is not None:
            ratio = own.value / industry.value
            return Signal("multiple", _sign(ratio), self._say(
                "vs_industry", pe=decimal(own.value), industry=decimal(industry.value),
                refs=self.refs(own.item, industry.item)))
        mine = f.value("pe_forward") or f.value("pe_trailing")
        for peer in f.peers:
            kind = mine.kind if mine else "pe_forward"
            theirs = f.value(kind, peer)
            if mine is not None and theirs is not None:
                return Signal("multiple", _sign(mine.value / theirs.value), self._say(
                    "vs_peer_forward" if kind == "pe_forward" else "vs_peer", pe=decimal(mine.value),
                    peer=label(peer, self.names, self.language), peer_pe=decimal(theirs.value),
                    refs=self.refs(mine.item, theirs.item)))
        return None

    def risks(self) -> Signal | None:
        stories = self.findings.risk_stories
        if len(stories) < RISK_STORIES:
            return None
        return Signal("risks", -1, self._say("risks", refs=self.refs(*stories[:RISK_STORIES])))


def _sign(ratio: float) -> int:
    return 1 if ratio < CHEAP else -1 if ratio > DEAR else 0


def stance(signals: list[Signal]) -> Stance:
    total = sum(s.sign for s in signals)
    return "constructive" if total >= 2 else "cautious" if total <= -2 else "neutral"


def valuation_verdict(signals: list[Signal]) -> tuple[Verdict, list[Signal]] | None:
    """cheap / fair / expensive from the target and multiple signals, or None without either."""
    used = [s for s in signals if s.rule in ("target", "multiple")]
    if not used:
        return None
    total = sum(s.sign for s in used)
    return ("cheap" if total > 0 else "expensive" if total < 0 else "fair"), used
