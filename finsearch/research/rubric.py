"""A rule-based rubric over a finished report: what an analyst checks first, scored without a model.

Eight criteria, each passed or failed with a short reason (a criterion that does not apply to
the report, say a valuation verdict in an event report, is left out of the score):

- sections: every planned section is present and cites at least one figure;
- repeats: no evidence item (a cited sentence, a headline, a table) appears twice;
- stance: the executive summary takes a stance, and the report says it is not investment advice;
- verdict: the valuation section says cheap / expensive / fair, or the upside to a target in %;
- tables: a section whose evidence is tabular (prices, quote and profile, financials, targets) has a table;
- limitations: at most five lines;
- title: names the company and its ticker (company and comparison reports) and a date;
- summary: written, not pasted from the sections' opening sentences.

It reads the markdown, so it scores any writer's report the same way; `ReportText.of` adds what
only the run knows (the planned sections, the companies, the evidence each section was given).
"""

from __future__ import annotations

import dataclasses
import re

MAX_LIMITATION_LINES = 5
# Evidence a reader wants laid out as a table (a quote is tabular beside a profile).
TABULAR_SOURCES = frozenset({"price_history", "cn_daily_bars", "financials", "cn_financial_abstract", "sec_facts",
                             "analyst", "cn_profit_forecast"})
PAIRED_SOURCES = (frozenset({"quote"}), frozenset({"profile", "cn_profile"}))

_CITE = re.compile(r"\[(\d+)\]")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\d{4}年\d{1,2}月(?:\d{1,2}日)?|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|"
                   r"sep|oct|nov|dec)[a-z]* \d{4}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* "
                   r"\d{1,2},? \d{4}\b", re.I)
_HEADLINE = re.compile(r"^[-*] \d{4}-\d{2}-\d{2} · ")
_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+")
_LABEL = re.compile(r"^[-*]\s+\*\*[^*]{1,60}\*\*\s*")
_SUMMARY = re.compile(r"summary|摘要|核心观点|投资要点", re.I)
_LIMITATIONS = re.compile(r"limitation|局限", re.I)
_REFERENCES = re.compile(r"^(?:references|sources|参考资料|参考文献|来源)", re.I)
_VALUATION = re.compile(r"valuation|估值", re.I)
_STANCE = re.compile(r"\b(?:constructive|neutral|cautious|bullish|bearish)\b|建设性|中性|谨慎|看多|看空", re.I)
_NOT_ADVICE = re.compile(r"not (?:investment|financial) advice|not a recommendation|not advice|"
                         r"(?:do(?:es)? not|doesn't) (?:constitute|give|offer) (?:investment )?advice|"
                         r"不构成(?:任何)?投资建议|非投资建议|不提供投资建议|不作为投资建议", re.I)
_VERDICT = re.compile(r"\b(?:cheap(?:er|est)?|expensive|inexpensive|fair(?:ly)?[- ]valued|fair value|undervalued|"
                      r"overvalued|richly valued)\b|低估|高估|估值合理|合理估值|估值偏低|估值偏高|偏贵|便宜|昂贵", re.I)
_TARGET_GAP = re.compile(r"(?:upside|downside|上涨空间|下跌空间|上行空间|下行空间)[^.。;；]{0,80}?\d[\d.,]*\s*%|"
                         r"\d[\d.,]*\s*%[^.。;；]{0,60}?(?:upside|downside|上涨空间|下跌空间|上行空间|下行空间)", re.I)


@dataclasses.dataclass(frozen=True)
class Company:
    names: tuple[str, ...]          # any of these in the title names it ("五粮液", "Wuliangye")
    ticker: str


@dataclasses.dataclass(frozen=True)
class ReportText:
    """A report as the rubric reads it: its markdown and what the run knew beside it."""
    markdown: str
    planned: tuple[str, ...] = ()         # the outline's section titles; empty: every numbered section
    companies: tuple[Company, ...] = ()   # a company or comparison report's subjects
    tabular: tuple[str, ...] = ()         # titles of sections whose evidence is tabular

    @classmethod
    def of(cls, report) -> ReportText:
        """From a finished `Report` (finsearch.research.result)."""
        from ..answer.titles import instrument_names

        companies, kind = (), report.outline.question_type
        # A comparison of two or three companies (written as industry research by older writers) names them too.
        if kind in ("company", "comparison") or (kind == "industry" and 2 <= len(report.analysis.tickers) <= 3):
            shown = instrument_names(report.analysis, report.analysis.language)
            companies = tuple(Company(tuple(dict.fromkeys(n for n in (shown.get(e.ticker), e.name) if n)), e.ticker)
                              for e in report.analysis.entities if e.ticker)[:3]
        return cls(report.markdown, tuple(s.title for s in report.outline.sections), companies,
                   tuple(s.section.title for s in report.sections if _is_tabular({e.source for e in s.given})))


@dataclasses.dataclass(frozen=True)
class Criterion:
    name: str
    passed: bool
    reason: str
    applies: bool = True

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Rubric:
    criteria: tuple[Criterion, ...]
    repeats: int                          # evidence items seen again after their first place

    @property
    def score(self) -> float:
        """0–10: the share of the criteria that apply and pass."""
        applied = [c for c in self.criteria if c.applies]
        return round(10 * sum(c.passed for c in applied) / len(applied), 1) if applied else 0.0

    def get(self, name: str) -> Criterion:
        return next(c for c in self.criteria if c.name == name)

    def to_json(self) -> dict:
        return {"score": self.score, "repeats": self.repeats, "criteria": [c.to_json() for c in self.criteria]}


@dataclasses.dataclass(frozen=True)
class _Part:
    heading: str                          # without its "## " and number
    lines: tuple[str, ...]

    @property
    def body(self) -> str:
        return "\n".join(self.lines)


def score(text: ReportText) -> Rubric:
    title, parts = _split(text.markdown)
    summary = next((p for p in parts if _SUMMARY.search(p.heading)), None)
    limitations = next((p for p in parts if _LIMITATIONS.search(p.heading)), None)
    body = [p for p in parts if p is not summary and not _REFERENCES.match(p.heading)]
    repeats, repeated = _repeats(body)
    return Rubric((
        _sections(text.planned, [p for p in body if p is not limitations]),
        Criterion("repeats", not repeats, f"{repeats} repeated, first {repeated}" if repeats else "every item once"),
        _stance(summary, text.markdown),
        _verdict(body),
        _tabular(text.tabular, body),
        _limitations(limitations),
        _title(title, text.companies),
        _pasted(summary, body),
    ), repeats)


def score_report(report) -> Rubric:
    return score(ReportText.of(report))


def _is_tabular(sources: set[str]) -> bool:
    return bool(sources & TABULAR_SOURCES) or all(sources & pair for pair in PAIRED_SOURCES)


def _split(markdown: str) -> tuple[str, list[_Part]]:
    title, parts, heading, lines = "", [], None, []
    for line in markdown.splitlines():
        if line.startswith("# ") and not title and heading is None:
            title = line[2:].strip()
        elif line.startswith("## "):
            if heading is not None:
                parts.append(_Part(heading, tuple(lines)))
            heading, lines = re.sub(r"^\d+[.、]\s*", "", line[3:].strip()), []
        elif heading is not None:
            lines.append(line)
    if heading is not None:
        parts.append(_Part(heading, tuple(lines)))
    return title, parts


def _norm(text: str) -> str:
    return " ".join(_CITE.sub(" ", text).replace("*", "").split()).casefold()


def _key(sentence: str) -> str:
    return _norm(sentence).rstrip(".。 ")


def _sentences(part: _Part) -> list[str]:
    """The part's prose sentences and list items, without its italic notes, headings and tables."""
    out = []
    for line in part.lines:
        line = line.strip()
        if not line or line.startswith(("|", "#", ">")) or (line.startswith("_") and line.endswith("_")):
            continue
        if line.startswith(("- ", "* ")):
            out.append(line)
        else:
            out.extend(s.strip() for s in _SENTENCE_END.split(line) if s and s.strip())
    return out


def _tables_in(part: _Part) -> list[frozenset[str]]:
    """Each markdown table of the part as the set of its data rows."""
    tables, rows = [], []
    for line in (*part.lines, ""):
        if line.strip().startswith("|"):
            rows.append(" ".join(line.split()))
        elif rows:
            tables.append(frozenset(r for r in rows[2:] if not re.fullmatch(r"[|\s:-]+", r)))
            rows = []
    return tables


def _has_figure(sentence: str) -> bool:
    return bool(_CITE.search(sentence)) and bool(re.search(r"\d", _DATE.sub(" ", _CITE.sub(" ", sentence))))


def _cited_figures(part: _Part) -> int:
    prose = sum(1 for s in _sentences(part) if not _HEADLINE.match(s) and _has_figure(s))
    return prose + sum(1 for t in _tables_in(part) for row in t if _has_figure(row))


def _sections(planned: tuple[str, ...], body: list[_Part]) -> Criterion:
    wanted = planned or tuple(p.heading for p in body)
    if not wanted:
        return Criterion("sections", False, "no sections")
    missing, bare = [], []
    for title in wanted:
        part = next((p for p in body if _norm(title) in _norm(p.heading)), None)
        if part is None:
            missing.append(title)
        elif not _cited_figures(part):
            bare.append(title)
    reasons = ([f"missing: {', '.join(missing)}"] if missing else []) + \
              ([f"no cited figure: {', '.join(bare)}"] if bare else [])
    return Criterion("sections", not reasons, "; ".join(reasons) or f"all {len(wanted)} present with cited figures")


def _repeats(body: list[_Part]) -> tuple[int, str]:
    """Items (cited sentences and headlines, tables) seen before, and the first one repeated."""
    seen: dict[tuple, int] = {}
    tables: list[frozenset[str]] = []
    repeats, first = 0, ""
    for part in body:
        for sentence in _sentences(part):
            text = _key(re.sub(r"^[-*]\s+", "", sentence))
            cites = frozenset(_CITE.findall(sentence))
            if not cites or len(text.rstrip(":： ")) < 12:
                continue
            key = (text, cites)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                repeats += 1
                first = first or f"“{sentence[:80]}” ×{seen[key]}"
        for table in _tables_in(part):
            if len(table) >= 2 and any(table <= t or t <= table for t in tables):
                repeats += 1
                first = first or f"a table in {part.heading}"
            tables.append(table)
    return repeats, first


def _stance(summary: _Part | None, markdown: str) -> Criterion:
    if summary is None:
        return Criterion("stance", False, "no executive summary")
    stance = _STANCE.search(summary.body)
    advice = _NOT_ADVICE.search(summary.body) or _NOT_ADVICE.search(markdown)
    if stance and advice:
        return Criterion("stance", True, f"“{stance.group(0)}”, with a not-investment-advice line")
    return Criterion("stance", False, "; ".join(r for r in ("" if stance else "no stance in the summary",
                                                              "" if advice else "no not-investment-advice line") if r))


def _verdict(body: list[_Part]) -> Criterion:
    parts = [p for p in body if _VALUATION.search(p.heading)]
    if not parts:
        return Criterion("verdict", True, "no valuation section", applies=False)
    text = " ".join(_CITE.sub(" ", s) for p in parts for s in _sentences(p))     # not its key questions
    found = _VERDICT.search(text) or _TARGET_GAP.search(text)
    return Criterion("verdict", bool(found), f"“{found.group(0)}”" if found else "valuation states no verdict")


def _tabular(tabular: tuple[str, ...], body: list[_Part]) -> Criterion:
    if not tabular:
        return Criterion("tables", True, "no section's evidence is tabular", applies=False)
    # A missing section is the sections criterion's to count; here, those written without a table.
    written = {t: [p for p in body if _norm(t) in _norm(p.heading)] for t in tabular}
    bare = [t for t, parts in written.items() if parts and not any(any(_tables_in(p)) for p in parts)]
    return Criterion("tables", not bare, f"no table in: {', '.join(bare)}" if bare
                     else f"{sum(1 for p in written.values() if p)} sections with tabular evidence have a table")


def _limitations(part: _Part | None) -> Criterion:
    if part is None:
        return Criterion("limitations", True, "no limitations section")
    lines = list(part.lines)
    # A combined "Risks and limitations" part: the limitations are what follows their own label.
    start = next((i + 1 for i, line in enumerate(lines) if _LIMITATIONS.search(line)), 0)
    count = sum(1 for line in lines[start:] if line.strip())
    return Criterion("limitations", count <= MAX_LIMITATION_LINES,
                     f"{count} line{'' if count == 1 else 's'} (at most {MAX_LIMITATION_LINES})")


def _title(title: str, companies: tuple[Company, ...]) -> Criterion:
    if not title:
        return Criterion("title", False, "no title")
    folded, problems = title.casefold(), []
    for company in companies:
        # "Toyota" names Toyota Motor; a ticker stands alone ("(T)", "000858.SZ"), not inside "AT&T".
        if not any(n.casefold() in folded or n.split()[0].casefold() in folded for n in company.names if n.split()):
            problems.append(f"no name for {company.ticker}")
        code = re.escape(company.ticker.split(".")[0])
        if not re.search(rf"(?<![\w&.-]){code}(?![\w&-])", title):
            problems.append(f"no ticker {company.ticker}")
    if not _DATE.search(title):
        problems.append("no date")
    return Criterion("title", not problems, "; ".join(problems) or "names the subject and a date")


def _pasted(summary: _Part | None, body: list[_Part]) -> Criterion:
    if summary is None:
        return Criterion("summary", False, "no executive summary")
    openings = {_key(s) for part in body for s in _SENTENCE_END.split(_first_paragraph(part)) if s.strip()}
    said = [_key(s) for line in _sentences(summary) for s in _SENTENCE_END.split(_LABEL.sub("", line))]
    said = [s for s in said if len(s) > 12]
    copied = sum(1 for s in said if s in openings)
    return Criterion("summary", not copied, f"{copied} of {len(said)} summary sentences are a section's opening"
                     if copied else "written, not pasted")


def _first_paragraph(part: _Part) -> str:
    """The part's first prose paragraph (its key-questions note, headings, lists and tables skipped)."""
    lines = []
    for line in part.lines:
        line = line.strip()
        prose = line and not line.startswith(("|", "#", ">", "- ", "* ", "**")) and \
            not (line.startswith("_") and line.endswith("_"))
        if prose:
            lines.append(line)
        elif lines:
            break
    return " ".join(lines)
