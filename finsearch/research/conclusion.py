"""A report's conclusion, written from its findings: the stance restated with the reasons that
decided it, then what would change it (the catalysts and the risks the research found), cited.
"""

from __future__ import annotations

from ..answer.facts import label
from ..answer.markdown import escape
from ..evidence import Evidence
from ..phrases import Language, say
from .stance import Rules, Signal

MAX_REASONS = 2
MAX_RISKS = 2


def decisive(signals: list[Signal]) -> str:
    """The reasons that moved the stance (for or against), at most MAX_REASONS, strongest first."""
    moving = [s for s in signals if s.sign] or signals
    return "; ".join(s.reason for s in moving[:MAX_REASONS])


def what_would_change(rules: list[Rules], risks: list[Evidence], refs, language: Language) -> str:
    """The catalysts (guidance, rating changes, the next results' day) of each company and the
    risks the news names, each cited; a sentence saying none were found otherwise."""
    sep, items = say("list.sep", language), []
    for r in rules:
        f, who = r.findings, label(r.findings.ticker, r.names, language)
        if f.guidance is not None:
            items.append(say("report.conclusion.guidance", language, who=who, refs=r.refs(f.guidance.item),
                             direction=say("report.results_word." + ("guided_below" if f.guidance.direction < 0
                                                                     else "guided_above"), language)))
        if f.changes:
            items.append(say("report.conclusion.ratings", language, who=who, refs=r.refs(*(c.item for c in f.changes))))
        earnings = f.eps[0].item if f.eps else None
        upcoming = str((earnings.data or {}).get("next_date") or "")[:10] if earnings is not None else ""
        if upcoming:
            items.append(say("report.conclusion.next_results", language, who=who, day=upcoming,
                             refs=r.refs(earnings)))
    named = [f"“{escape(e.title)}” {refs(e)}" for e in risks[:MAX_RISKS]]
    if named:
        items.append(say("report.conclusion.risks", language, items=sep.join(named)))
    if not items:
        return say("report.conclusion.nothing", language)
    return say("report.conclusion.change", language, items=sep.join(items))


def section(restated: str, change: str, language: Language) -> str:
    return f"## {say('report.conclusion', language)}\n\n{restated} {change}"
