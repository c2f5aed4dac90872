"""What the rules write from a report's findings, by the report's type: the executive summary
(a company's from `summary.rules_summary`, a comparison's from `compare`, an event's, an
industry's or a macro report's from `theme`), the type's tables, the sentences a section ends
with (the valuation verdict, a comparison's per-dimension verdicts) and the conclusion.

The runner builds one `Substance` once every section is written and numbered; each part
returns None (or nothing) when the findings hold none of it, and the runner keeps what it had.
"""

from __future__ import annotations

import re

from ..answer.facts import label
from ..answer.markdown import escape
from ..evidence import Evidence
from ..phrases import Language, say
from . import conclusion
from .compare import Comparison, markers
from .findings import read
from .side_tables import comparison_tables, price_action
from .stance import Number, Rules, stance
from .summary import rules_summary, verdict_sentence
from .tables import company_tables
from .theme import IMPACT_STANCE, Theme

DESCRIPTION_CHARS = 320     # a profile's description: its first sentences, up to this long
# Where a theme's reaction table goes: the section about the market's moves.
_REACTION = {"event": "reaction", "industry": "leaders", "macro": "markets"}


class Substance:
    def __init__(self, kind: str, tickers: list[str], question: str, evidence: list[Evidence], number: Number,
                 names: dict[str, str], language: Language):
        self.kind, self.evidence, self.number, self.names, self.language = kind, evidence, number, names, language
        named = list(dict.fromkeys(tickers[:3]))
        self.rules = [Rules(read(_about(evidence, t, names) if len(named) > 1 else evidence, t), number, names,
                            language) for t in named]
        self.comparison = Comparison(self.rules, names, language) if kind == "comparison" else None
        self.theme = Theme(self.rules, evidence, question, number, names, language) \
            if kind in _REACTION and not self.comparison else None

    def refs(self, *items: Evidence | None) -> str:
        return "".join(dict.fromkeys(f"[{self.number(i)}]" for i in items if i is not None))

    def who(self) -> str:
        return label(self.rules[0].findings.ticker, self.names, self.language) if self.rules else ""

    def summary(self) -> str | None:
        if self.kind == "company" and self.rules:
            return rules_summary(self.rules[0], self.who(), self.language)
        if self.comparison is not None and len(self.rules) >= 2:
            return self.comparison.summary()
        return self.theme.summary() if self.theme is not None else None

    def tables(self) -> dict[str, str]:
        """section key → its table (a company's, a comparison's side by side, a theme's reaction)."""
        if self.kind == "company" and self.rules:
            return company_tables(self.rules[0].findings, self.evidence, self.number, self.names, self.language)
        if self.comparison is not None:
            return comparison_tables(self.rules, self.evidence, self.language)
        reaction = price_action(self.rules, self.language) if self.theme is not None else ""
        return {_REACTION[self.kind]: reaction} if reaction else {}

    def after_lead(self, key: str) -> list[str]:
        """What the section of `key` says right after its lead: what the company says it does."""
        if key == "business" and self.kind == "company" and self.rules:
            return self._described(self.rules[0].findings.ticker)
        return []

    def ending(self, key: str) -> list[str]:
        """What the section of `key` ends with: the valuation verdict, a comparison's verdicts."""
        if key == "valuation" and self.kind == "company" and self.rules:
            verdict = verdict_sentence(self.rules[0], self.language)
            return [verdict] if verdict else []
        if key == "vs_verdict" and self.comparison is not None:
            return self.comparison.verdicts()
        return []

    def _described(self, ticker: str | None) -> list[str]:
        """The company's profile in its own words (its description's first sentences) and its
        head count: the business section's substance, where the chat's facts give only a sector."""
        profile = next((e for e in self.evidence if e.source == "profile" and e.ticker == ticker and e.data), None)
        if profile is None:
            return []
        d, ref, out = profile.data, self.refs(profile), []
        described = _first_sentences(str(d.get("summary") or ""), DESCRIPTION_CHARS).rstrip(".。")
        if described:
            out.append(say("report.business.described", self.language, summary=escape(described), ref=ref))
        if isinstance(d.get("employees"), int) and d["employees"] > 0:
            out.append(say("report.business.employees", self.language, employees=f"{d['employees']:,}", ref=ref))
        return [" ".join(out)] if out else []

    def conclusion(self) -> str | None:
        """The conclusion section: the stance restated with its deciding reasons, and what would change it."""
        risks = self._risks()
        if self.kind == "company" and self.rules:
            signals = self.rules[0].signals()
            if not signals:
                return None
            restated = say("report.conclusion.company", self.language, who=self.who(), reasons=conclusion.decisive(
                signals), stance=say(f"report.stance.{stance(signals)}", self.language))
        elif self.comparison is not None and len(self.rules) >= 2:
            leads = self.comparison.leads()
            if not leads and not any(self.comparison.signals().values()):
                return None
            refs = "".join(dict.fromkeys(m for lead in leads for m in markers(lead.why)))
            restated = say("report.conclusion.compare", self.language,
                           preference=self.comparison.preference(leads).replace("**", ""), refs=refs)
        elif self.theme is not None:
            signals = self.theme.signals()
            if not signals:
                return None
            impact = self.theme.impact(signals)
            restated = say("report.conclusion.theme", self.language,
                           impact=say(f"report.impact.{impact}", self.language), who=self.theme.subject(),
                           stance=say(f"report.stance.{IMPACT_STANCE[impact]}", self.language),
                           reasons=conclusion.decisive(signals))
        else:
            return None
        change = conclusion.what_would_change(self.rules, risks, self.refs, self.language)
        return conclusion.section(restated, change, self.language)

    def _risks(self) -> list[Evidence]:
        if self.theme is not None:
            return self.theme.risk_stories()
        stories = [s for r in self.rules for s in r.findings.risk_stories]
        return sorted({s.id: s for s in stories}.values(), key=lambda e: -(e.time_weight or 0))


def _about(evidence: list[Evidence], ticker: str, names: dict[str, str]) -> list[Evidence]:
    """The evidence a company's findings read in a report about several: every finance item
    (the others' multiples are its peers'), its own stories, and a story tagged with no company
    only if it names this one (a downgrade of Adobe is not Salesforce's)."""
    name = names.get(ticker) or ticker
    words = {ticker.split(".")[0].casefold(), name.casefold(), name.split()[0].casefold()}

    def names_it(item: Evidence) -> bool:
        text = f"{item.title} {item.snippet}".casefold()
        return any(re.search(rf"(?<![\w&]){re.escape(w)}(?![\w&])", text) if w.isascii() else w in text
                   for w in words if w)
    return [e for e in evidence if e.kind == "finance" or e.ticker == ticker or (e.ticker is None and names_it(e))]


def _first_sentences(text: str, limit: int) -> str:
    """The whole sentences of `text` that fit in `limit` characters (at least the first, cut)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = max(text.rfind(". ", 0, limit), text.rfind("。", 0, limit))
    return text[:cut + 1] if cut > 0 else text[:limit - 1].rstrip() + "…"
