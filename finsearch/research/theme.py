"""An event, industry or macro report's judgement, by fixed rules over its findings: what
happened (the story that names the request's topic best), the market's reaction (each named
company's move over the period), who is most exposed, and the theme's impact.

Each rule gives a signal of +1, 0 or -1 with its cited reason:

    move       a named company's shares fell 3% or more over the period: -1; rose 3% or more: +1
    guidance   a named company's guidance above (+1) or below (-1) expectations, as in a company report
    ratings    more upgrades (+1) or downgrades (-1) of a named company
    risks      three or more retrieved stories that name a risk: -1

The impact is negative when some signal is against and none for, positive the reverse, mixed
with both and unclear with neither; the stance follows it (cautious, constructive, neutral).
"""

from __future__ import annotations

import re

from ..answer.facts import label
from ..answer.markdown import escape
from ..evidence import Evidence
from ..phrases import Language, say
from ..phrases.numbers import pct
from .findings import RISK_WORDS
from .stance import Number, Rules, Signal

MOVE = 3.0
RISK_STORIES = 3
_SIGNS = {1: "+", 0: "±", -1: "−"}
IMPACT_STANCE = {"negative": "cautious", "positive": "constructive", "mixed": "neutral", "unclear": "neutral"}
_WORD = re.compile(r"[a-z]{4,}|[\u4e00-\u9fff]{2,}", re.I)
_COMMON = frozenset("what impact does about their with from into have over after this that which mean".split())


class Theme:
    def __init__(self, rules: list[Rules], evidence: list[Evidence], question: str, number: Number,
                 names: dict[str, str], language: Language):
        self.rules, self.question, self.number = rules, question, number
        self.names, self.language = names, language
        self.stories = [e for e in evidence if e.kind != "finance" and e.title]

    def refs(self, *items: Evidence | None) -> str:
        return "".join(dict.fromkeys(f"[{self.number(i)}]" for i in items if i is not None))

    def who(self, rules: Rules) -> str:
        return label(rules.findings.ticker, self.names, self.language)

    def moved(self) -> list[Rules]:
        return [r for r in self.rules if r.findings.stats is not None and r.findings.stats.return_pct is not None]

    def signals(self) -> list[Signal]:
        out = []
        for r in self.rules:
            stats = r.findings.stats
            if stats is not None and stats.return_pct is not None:
                share = stats.return_pct
                sign = 1 if share >= MOVE else -1 if share <= -MOVE else 0
                reason = say(f"report.reason.{'rose' if share >= 0 else 'fell'}", self.language,
                             share=pct(abs(share), False), refs=r.refs(r.findings.history))
                out.append(Signal("move", sign, f"{self.who(r)}: {reason}"))
            for signal in (r.guidance(), r.ratings()):
                if signal is not None:
                    out.append(Signal(signal.rule, signal.sign, f"{self.who(r)}: {signal.reason}"))
        risky = self.risk_stories()
        if len(risky) >= RISK_STORIES:
            out.append(Signal("risks", -1, say("report.reason.risks", self.language,
                                               refs=self.refs(*risky[:RISK_STORIES]))))
        return out

    def risk_stories(self) -> list[Evidence]:
        found = [e for e in self.stories if RISK_WORDS.search(f"{e.title} {e.snippet}")]
        return sorted(found, key=lambda e: -(e.time_weight or 0))

    @staticmethod
    def impact(signals: list[Signal]) -> str:
        against, up = any(s.sign < 0 for s in signals), any(s.sign > 0 for s in signals)
        return "mixed" if against and up else "negative" if against else "positive" if up else "unclear"

    def subject(self) -> str:
        return say("list.sep", self.language).join(self.who(r) for r in self.rules) or \
            say("report.theme.the_market", self.language)

    def happened(self) -> Evidence | None:
        """The story whose headline and summary share most words with the request, the earliest
        of those (it tells what happened, the later ones the fallout)."""
        words = {w.casefold() for w in _WORD.findall(self.question)} - _COMMON
        scored = [(sum(1 for w in words if w in f"{e.title} {e.snippet}".casefold()), e) for e in self.stories]
        scored = [(n, e) for n, e in scored if n]
        if not scored:
            return None
        top = max(n for n, _ in scored)
        return min((e for n, e in scored if n == top), key=lambda e: e.published or "9999")

    def summary(self) -> str | None:
        """What happened, the reaction with figures, who is most exposed, the stance on the
        impact with its cited reasons and the not-investment-advice line; None without findings."""
        signals, story, moved = self.signals(), self.happened(), self.moved()
        if not signals and story is None:
            return None
        parts = []
        if story is not None:
            parts.append(say("report.theme.happened", self.language, title=escape(story.title),
                             publisher=escape(story.publisher or ""), day=(story.published or "")[:10],
                             refs=self.refs(story)))
        if moved:
            ordered = sorted(moved, key=lambda r: r.findings.stats.return_pct)
            moves = say("list.sep", self.language).join(
                f"{self.who(r)} {pct(r.findings.stats.return_pct)}" for r in ordered)
            line = say("report.theme.reaction", self.language, moves=moves,
                       refs=self.refs(*(r.findings.history for r in ordered)))
            worst = ordered[0]
            if len(ordered) >= 2 and worst.findings.stats.return_pct < 0:
                line += " " + say("report.theme.exposed", self.language, who=self.who(worst),
                                  share=pct(worst.findings.stats.return_pct), refs=self.refs(worst.findings.history))
            parts.append(line)
        impact = self.impact(signals)
        parts.append(say("report.theme.stance", self.language, stance=say(f"report.stance.{IMPACT_STANCE[impact]}",
                                                                          self.language),
                         impact=say(f"report.impact.{impact}", self.language), who=self.subject()))
        parts.append("\n".join(f"- ({_SIGNS[s.sign]}) {s.reason}" for s in signals))
        parts.append("_" + say("report.not_advice", self.language) + "_")
        return "\n\n".join(p for p in parts if p)
