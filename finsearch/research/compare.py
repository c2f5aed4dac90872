"""A comparison report's judgement, by fixed rules over each company's findings (`findings`,
`stance`, read once per company): who leads on each dimension, each company's stance, and
which one the rules prefer.

A dimension has a leader when at least two companies have its figure and one is strictly best:

    return      the highest return over the period (the company's longest price history)
    valuation   the lowest positive P/E, forward if two have one, else trailing, else static
    upside      the largest distance to the analysts' mean target
    results     the best of (EPS beat +1 / met 0 / missed −1) + (guidance above +1 / below −1)
    dividend    the highest dividend yield

The preferred company has the highest sum of its stance signals, ties broken by the dimensions
it leads; with a tie on both, no company is preferred.
"""

from __future__ import annotations

import dataclasses
import re

from ..answer.facts import label
from ..phrases import Language, say
from ..phrases.numbers import decimal, pct
from .stance import Rules, Signal, stance

PE_KINDS = ("pe_forward", "pe_trailing", "pe_static")
DIMENSIONS = ("return", "valuation", "upside", "results", "dividend")
_SIGNS = {1: "+", 0: "±", -1: "−"}


@dataclasses.dataclass(frozen=True)
class Lead:
    dimension: str               # one of DIMENSIONS
    leader: str                  # the leading company's ticker
    why: str                     # its figure against the others', cited

    def name(self, language: Language) -> str:
        return say(f"report.dimension.{self.dimension}", language)


class Comparison:
    def __init__(self, rules: list[Rules], names: dict[str, str], language: Language):
        self.rules, self.names, self.language = rules, names, language

    def who(self, rules: Rules) -> str:
        return label(rules.findings.ticker, self.names, self.language)

    # -- the dimensions ---------------------------------------------------------------------------

    def leads(self) -> list[Lead]:
        found = [self._return(), self._valuation(), self._upside(), self._results(), self._dividend()]
        return [lead for lead in found if lead is not None]

    def _lead(self, dimension: str, scored: list[tuple[Rules, float, str, list]], lowest: bool = False) -> Lead | None:
        """The strictly best of (rules, score, figure in words, cited items), if two have one."""
        if len(scored) < 2:
            return None
        ordered = sorted(scored, key=lambda s: s[1], reverse=not lowest)
        if ordered[0][1] == ordered[1][1]:
            return None
        best, rest = ordered[0], ordered[1:]
        others = say("list.sep", self.language).join(
            say("report.lead.other", self.language, who=self.who(r), figure=fig) for r, _, fig, _ in rest)
        refs = best[0].refs(*(i for _, _, _, items in ordered for i in items))
        return Lead(dimension, best[0].findings.ticker,
                    say("report.lead.why", self.language, figure=best[2], others=others, refs=refs))

    def _return(self) -> Lead | None:
        scored = [(r, s.return_pct, pct(s.return_pct), [r.findings.history]) for r in self.rules
                  if (s := r.findings.stats) is not None and s.return_pct is not None]
        return self._lead("return", scored)

    def _valuation(self) -> Lead | None:
        for kind in PE_KINDS:
            scored = [(r, q.value, f"{say(f'report.pe.{kind}', self.language)} {decimal(q.value)}", [q.item])
                      for r in self.rules if (q := r.findings.value(kind)) is not None and q.value > 0]
            if len(scored) >= 2:
                return self._lead("valuation", scored, lowest=True)
        return None

    def _upside(self) -> Lead | None:
        scored = [(r, f.to_target.value, pct(f.to_target.value), [f.target.item, f.price.item])
                  for r in self.rules if (f := r.findings).to_target is not None]
        return self._lead("upside", scored)

    def _results(self) -> Lead | None:
        scored = []
        for r in self.rules:
            signals = [s for s in (r.results(), r.guidance()) if s is not None]
            if signals:
                f = r.findings
                items = [f.eps[0].item if f.eps else None, f.guidance.item if f.guidance else None]
                words = say("list.sep", self.language).join(
                    say(f"report.results_word.{w}", self.language) for w in self._results_words(r))
                scored.append((r, sum(s.sign for s in signals), words, [i for i in items if i is not None]))
        return self._lead("results", scored)

    @staticmethod
    def _results_words(rules: Rules) -> list[str]:
        f, out = rules.findings, []
        if f.results:
            out.append(f.results)
        if f.guidance is not None:
            out.append("guided_below" if f.guidance.direction < 0 else "guided_above")
        return out

    def _dividend(self) -> Lead | None:
        scored = [(r, q.value, pct(q.value, False), [q.item]) for r in self.rules
                  if (q := r.findings.value("dividend_yield")) is not None]
        return self._lead("dividend", scored)

    # -- the stances and the preference -------------------------------------------------------------

    def signals(self) -> dict[str, list[Signal]]:
        return {r.findings.ticker: r.signals() for r in self.rules}

    def preferred(self, leads: list[Lead]) -> Rules | None:
        signals = self.signals()

        def rank(r: Rules) -> tuple[int, int]:
            return (sum(s.sign for s in signals[r.findings.ticker]),
                    sum(1 for lead in leads if lead.leader == r.findings.ticker))
        ordered = sorted(self.rules, key=rank, reverse=True)
        return ordered[0] if len(ordered) >= 2 and rank(ordered[0]) > rank(ordered[1]) else None

    def total(self, rules: Rules) -> str:
        value = sum(s.sign for s in self.signals()[rules.findings.ticker])
        return f"{value:+d}".replace("-", "−") if value else "0"

    def preference(self, leads: list[Lead]) -> str:
        best = self.preferred(leads)
        sep = say("list.sep", self.language)
        if best is None:
            return say("report.compare.no_preference", self.language,
                       totals=sep.join(f"{self.who(r)} {self.total(r)}" for r in self.rules))
        others = [r for r in self.rules if r is not best]
        dims = sep.join(lead.name(self.language) for lead in leads if lead.leader == best.findings.ticker)
        return say("report.compare.prefer", self.language, best=self.who(best), total=self.total(best),
                   others=sep.join(self.who(r) for r in others),
                   totals=sep.join(f"{self.who(r)} {self.total(r)}" for r in others),
                   dims=dims or say("report.compare.no_dimension", self.language))

    # -- the summary ----------------------------------------------------------------------------------

    def thesis(self, leads: list[Lead]) -> str | None:
        parts = []
        for r in self.rules:
            mine = [lead for lead in leads if lead.leader == r.findings.ticker]
            if mine:
                refs = "".join(dict.fromkeys(m for lead in mine for m in markers(lead.why)))
                parts.append(say("report.compare.leads", self.language, who=self.who(r), refs=refs,
                                 dims=say("list.sep", self.language).join(lead.name(self.language) for lead in mine)))
        return say("report.compare.thesis", self.language, parts=say("report.thesis_sep", self.language)
                   .join(parts)) if parts else None

    def winners_table(self, leads: list[Lead]) -> str:
        columns = [say(f"report.col.{c}", self.language) for c in ("dimension", "leader", "why")]
        rows = [f"| {_capital(lead.name(self.language))} | {label(lead.leader, self.names, self.language)} "
                f"| {lead.why} |" for lead in leads]
        return "\n".join([f"**{say('report.table.leaders', self.language)}**", "", "| " + " | ".join(columns) + " |",
                          "| --- | --- | --- |", *rows])

    def summary(self) -> str | None:
        """The thesis (who leads on what), the winners' table, each company's stance with its
        cited reasons, the preference and the not-investment-advice line; None without findings."""
        leads, signals = self.leads(), self.signals()
        if not leads and not any(signals.values()):
            return None
        parts = [self.thesis(leads)]
        if leads:
            parts.append(self.winners_table(leads))
        lines = [say("report.compare.stance_rule", self.language)]
        for r in self.rules:
            found = signals[r.findings.ticker]
            reasons = say("report.thesis_sep", self.language).join(
                f"({_SIGNS[s.sign]}) {s.reason}" for s in found) or say("report.compare.no_signals", self.language)
            lines.append(say("report.compare.company_stance", self.language, who=self.who(r), total=self.total(r),
                             stance=say(f"report.stance.{stance(found)}", self.language), reasons=reasons))
        parts += ["\n- ".join(lines), self.preference(leads), "_" + say("report.not_advice", self.language) + "_"]
        return "\n\n".join(p for p in parts if p)

    def verdicts(self) -> list[str]:
        """The verdict section's sentences: who leads on each dimension, and why."""
        return [say("report.compare.verdict_line", self.language, dimension=lead.name(self.language),
                    who=label(lead.leader, self.names, self.language), why=lead.why) for lead in self.leads()]


def markers(text: str) -> list[str]:
    """The citation markers in `text`, in order."""
    return re.findall(r"\[\d+\]", text)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
