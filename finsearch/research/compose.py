"""The report's markdown from its researched sections: the title, the trust summary, the
sections with their tables, risks and limitations, references.

Each section's text is its writer's (the rules' or the model's), renumbered into the report's
references; a company report's summary is written from its findings (`summary.rules_summary`),
any other's is each section's opening finding, in the section's own cited words; the risks are
cited headlines that name one and no section listed; the limitations are grouped by what is missing.
"""

from __future__ import annotations

import re

from ..answer.audit import Audit
from ..answer.citations import MARKER_PATTERN, Reference
from ..answer.markdown import href, written
from ..answer.markdown_builder import Markdown, md, say_md
from ..evidence import Evidence
from ..graph import NodeStatus
from ..phrases import Language, say
from .findings import RISK_WORDS
from .numbering import ReportCitations
from .repeats import Repeats
from .result import report_trust
from .section import SectionResult

_CITED = re.compile(MARKER_PATTERN)
MAX_RISKS = 5


def section_markdown(result: SectionResult, text: str, tables: list[str], language: Language) -> Markdown:
    """A section: its heading and key questions (the outline's, so a model's or a visitor's
    words), its writer's text and tables (`written`), what was searched again and what is
    still missing (sub-queries a model may have written): every part built, none trusted."""
    sep = say_md("list.sep", language)
    parts = [md("## {}. {}", result.index, result.section.title),
             md("_{}_", say_md("report.key_questions", language, questions=Markdown(" ").join(
                 result.section.key_questions))),
             written(text.strip()) or say_md("report.nothing_found", language), *map(written, tables)]
    if result.supplements:
        queries = sep.join(md("{} “{}”", s.source, s.query) for s in result.supplements)
        parts.append(say_md("report.supplementary", language, queries=queries))
    if result.missing:
        parts.append(say_md("report.still_missing", language, what=sep.join(dict.fromkeys(result.missing))))
    return Markdown("\n\n").join(parts)


# The order the summary reads a company report in: what happened first, the background last.
SUMMARY_ORDER = ("results", "vs_results", "price", "vs_price", "catalysts", "news", "analysts", "vs_analysts",
                 "valuation", "vs_valuation", "vs_verdict", "risks", "vs_risks", "business", "vs_business")
# Words of the request that make their section the summary's first line ("Analyse Apple's risks").
_ASKED_FIRST = frozenset({"risks", "valuation", "expensive", "analyst", "profile", "holders", "dividend"})


def _summary_rank(result: SectionResult, asked: frozenset[str]) -> tuple[int, int]:
    key = result.section.key
    order = SUMMARY_ORDER.index(key) if key in SUMMARY_ORDER else result.index
    return (0 if asked & _ASKED_FIRST & result.analysis.intents else 1, order)


def executive_summary(sections: list[tuple[SectionResult, str]], language: Language,
                      asked: frozenset[str] = frozenset()) -> Markdown:
    """One line per section: its first cited finding (its writer puts the answer first), the
    sections the request names (`asked`: its intents) first, then what happened before the
    background, so that the first sentence answers the request."""
    lines, repeats = [], Repeats()          # a sentence two sections open with is summarised once
    for result, text in sorted(sections, key=lambda pair: _summary_rank(pair[0], asked)):
        finding = next((p.strip() for p in text.split("\n\n")
                        if _CITED.search(p) and not p.lstrip().startswith(("-", "|", "#", "**"))), None)
        if finding is None:     # a section of headlines only: its first cited headline
            finding = next((line.strip()[2:] for line in text.splitlines()
                            if line.startswith("- ") and _CITED.search(line)), None)
        finding = repeats.fresh(finding) if finding else ""
        if finding:
            lines.append(say_md("report.summary_line", language, title=result.section.title,
                                finding=written(" ".join(finding.split()))))
    return Markdown("\n").join(lines) or say_md("report.no_summary", language)


def title(names: list[str], question: str, kind: str, day: str, language: Language) -> Markdown:
    """"Adobe (ADBE): company report — 2025-03-18", "贵州茅台（600519.SS）公司研究报告 — 2024-10-15";
    a report about no instrument is titled by its request."""
    what = say(f"report.title_kind.{kind}" if f"report.title_kind.{kind}" in _TITLE_KINDS
               else f"report.kind.{kind}", language)
    if names:
        return say_md("report.title_named", language, who=say_md("list.sep", language).join(names), kind=what,
                      day=day)
    request = question.strip().rstrip("?？。.")
    return say_md("report.title_topic", language, kind=_capital(what), topic=request[:1].upper() + request[1:],
                  day=day)


_TITLE_KINDS = frozenset(f"report.title_kind.{k}" for k in ("company", "comparison", "industry", "event", "macro",
                                                            "screening"))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


MAX_LIMITATIONS = 5
# What a failed search was for, by its source's name: the limitations say each group once.
_GAP_GROUPS = (("prices", ("price", "quote")), ("filings", ("sec_", "filing", "10k")), ("announcements", ("announce",)),
               ("holders", ("holder", "13f", "insider")), ("analysts", ("analyst", "forecast")),
               ("results", ("financ", "earning")), ("profile", ("profile", "business")))


def _group(source: str) -> str:
    return next((group for group, words in _GAP_GROUPS if any(w in source for w in words)), "news")


def limitations(sections: list[SectionResult], extra: list[Markdown], language: Language) -> list[Markdown]:
    """At most MAX_LIMITATIONS lines (`extra` included): what is still missing, one line per kind
    of data, naming what was looked for and the sections that looked."""
    groups: dict[str, tuple[dict[str, None], dict[int, None]]] = {}
    for result in sections:
        missing, supplementary = set(result.missing), {x.node for x in result.supplements}
        for node in result.graph:
            if node.status is NodeStatus.FAILED and node.sub_query in missing and node.id not in supplementary:
                what, where = groups.setdefault(_group(node.source), ({}, {}))
                what[node.sub_query] = None
                where[result.index] = None
    room = max(1, MAX_LIMITATIONS - len(extra))
    ordered = sorted(groups.items(), key=lambda g: -len(g[1][0]))
    if len(ordered) > room:            # the rest in one line
        rest = ordered[room - 1:]
        merged = ({q: None for _, (w, _) in rest for q in w}, {i: None for _, (_, s) in rest for i in s})
        ordered = [*ordered[:room - 1], ("other", merged)]
    sep = say_md("list.sep", language)
    lines = []
    for group, (what, where) in ordered:
        asked = list(what)
        shown = sep.join(asked[:2]) + ("…" if len(asked) > 2 else "")
        lines.append(say_md("report.gap", language, group=say(f"report.gap.{group}", language), what=shown,
                            sections=sep.join(str(i) for i in sorted(where)), count=len(where)))
    return (lines + extra)[:MAX_LIMITATIONS]


def risks(evidence: list[Evidence], citations: ReportCitations, limitations: list[Markdown], language: Language,
          shown: frozenset[int] = frozenset()) -> Markdown:
    """The risk stories no section listed (`shown`: the numbers of the headlines already listed),
    then the limitations."""
    stories = [e for e in evidence if e.kind != "finance" and RISK_WORDS.search(f"{e.title} {e.snippet}")
               and citations.known(e) not in shown]
    stories.sort(key=lambda e: -(e.time_weight or 0))
    parts = []
    if stories:
        lines = []
        for item in sorted(stories[:MAX_RISKS], key=lambda e: e.published or ""):
            n = citations.number(item)
            day = citations.day(n)
            who = md(" · {}", item.publisher) if item.publisher else ""
            lines.append(md("- {}{}: {} [{}]", day.isoformat() if day else say("answer.undated", language), who,
                            item.title, n))
        parts.append(say_md("report.risk_news", language) + Markdown("\n\n") + Markdown("\n").join(lines))
    if limitations:
        parts.append(say_md("report.limitations", language) + Markdown("\n\n")
                     + Markdown("\n").join(md("- {}", x) for x in limitations))
    return Markdown("\n\n").join(parts)


def trust_summary(audit: Audit, answered: int, asked: int, language: Language) -> Markdown:
    """The report's trust in words: its badge (finsearch.answer.trust: the same words and number
    the report page's badge shows), then every part of it."""
    trust = report_trust(audit, answered, asked, language)
    yes = say("report.yes" if audit.integrity else "report.no", language)
    derived = sum(1 for c in audit.checks if c.derived)
    line = say_md("report.trust_line", language, supported=audit.count("supported"), total=len(audit.checks),
               derived=derived,
               misattributed=audit.count("misattributed"), unsupported=audit.count("unsupported"),
               cited=audit.cited_key_sentences, key=audit.key_sentences, resolved=yes,
                  answered=answered, asked=asked)
    out = md("> **{}** {}", say("trust.summary", language, badge=trust.badge(language)), line)
    flagged = audit.flagged[:6]
    if flagged:
        items = say_md("list.sep", language).join(md("“{}” ({})", c.text, c.verdict) for c in flagged)
        out += Markdown("\n>\n> ") + say_md("report.flagged", language, items=items)
    return out


def references_markdown(refs: list[Reference], language: Language) -> Markdown:
    """The references, each with its http(s) address as an autolink rebuilt by `href` (so it
    cannot close the `<…>` and open anything else)."""
    lines = [md("## {}", say("report.references", language)), Markdown("")]
    for ref in refs:
        meta = Markdown(" · ").join(x for x in (ref.publisher or "", ref.day or "") if x)
        target = href(ref.url)
        lines.append(md("{}. {}", ref.n, ref.title) + (md(" — {}", meta) if meta else Markdown(""))
                     + (Markdown(f" <{target}>") if target else Markdown("")))
    return Markdown("\n").join(lines)
