"""The answer audit: can every figure in an answer be traced to the evidence it cites?

Computed in code, after every answer:
- citation integrity: every [n] resolves, every reference is used, and no reference
  points at an item the run did not retrieve;
- coverage: key-fact sentences (with a figure, or a definite claim about an event)
  that carry a citation, over all key-fact sentences;
- figures: each number, percentage, money amount and date is looked for in the
  evidence its sentence cites (supported), else in the run's other evidence
  (misattributed), else nowhere (unsupported). A % change or a difference counts as
  supported when two cited values give it;
- answered: which of the question's intents a cited sentence answers, whether the opening
  paragraph does, and which "not found" claims a retrieved item contradicts
  (finsearch.answer.answered, finsearch.answer.claims);
- stale: sentences that give a quote's price as current while a daily close days newer was
  retrieved, without saying how old it is;
- grounding = 1 − (unsupported + 0.5 × misattributed) / figures;
- trust: all of these in one number and one verdict, defined once in finsearch.answer.trust
  (`Audit.trust_in(language)`): what the chat's badge, the report and the exports say.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from datetime import date, datetime, timezone
from typing import Literal

from ..evidence import Evidence
from ..graph import NodeStatus, SearchGraph
from ..phrases import Language
from ..plan.analysis import Analysis
from .answered import Answered, CitedSentence, check, names_in, names_of, unretrieved
from .citations import MARKER_PATTERN, Reference, markers, without_markers
from .claims import StaleValue, holds, stale_values
from .figures import Figure, Values, derived, figures_in, matches, values_in
from .titles import instrument_names
from .trust import Trust, trust_score
from .view import AnswerView

CLAIM_WORDS = re.compile(
    r"\b(?:fell|fall|falls|dropped|drops|rose|rise|rises|gained|gains|jumped|surged|plunged|slid|slumped|"
    r"tumbled|rallied|climbed|reported|reports|announced|announces|unveiled|launched|acquired|agreed|cut|"
    r"raised|lowered|upgraded|downgraded|beat|missed|approved|filed|sued|resigned|appointed|said|says)\b"
    r"|下跌|上涨|大涨|大跌|暴跌|暴涨|宣布|发布|公布|收购|上调|下调|超预期|不及预期|表示|跌|涨", re.I)
# A full stop ends a sentence unless it ends an abbreviation ("the U.S. may widen curbs", "Apple Inc. said"):
# a sentence that lost its citations to a bad split would have its figures flagged.
_ABBREVIATIONS = "".join(rf"(?<!\b{a})" for a in (r"U\.S\.", r"U\.K\.", r"Inc\.", r"Corp\.", r"Co\.", r"Ltd\.",
                                                  r"vs\.", r"e\.g\.", r"i\.e\.", r"Mr\.", r"Ms\.", r"Dr\.", r"St\."))
_SENTENCE_END = re.compile(rf"(?<=[.!?]){_ABBREVIATIONS}\s+(?![a-z])|(?<=[。！？])|\n+")
_LEADING_MARKERS = re.compile(rf"^((?:{MARKER_PATTERN}\s*)+)[.。]?\s*")
_FORMATTING = re.compile(r"[*_`#>|]")


log = logging.getLogger(__name__)

Verdict = Literal["supported", "misattributed", "unsupported"]


@dataclasses.dataclass(frozen=True)
class FigureCheck:
    text: str
    sentence: str
    verdict: Verdict
    cited: tuple[str, ...]       # evidence ids the sentence cites
    found_in: tuple[str, ...]    # evidence ids that hold the figure
    derived: bool = False


@dataclasses.dataclass(frozen=True)
class Audit:
    coverage: float
    grounding: float
    trust: float
    checks: tuple[FigureCheck, ...]
    key_sentences: int
    cited_key_sentences: int
    unknown_markers: tuple[int, ...]
    unused_references: tuple[int, ...]
    foreign_references: tuple[int, ...]     # references to evidence the run did not retrieve
    answered: Answered = Answered()         # which of the question's intents it answered
    stale: tuple[StaleValue, ...] = ()      # a stale quote given as the current price

    @property
    def integrity(self) -> bool:
        return not (self.unknown_markers or self.unused_references or self.foreign_references)

    def count(self, verdict: str) -> int:
        return sum(1 for c in self.checks if c.verdict == verdict)

    @property
    def flagged(self) -> list[FigureCheck]:
        return [c for c in self.checks if c.verdict != "supported"]

    def trust_in(self, language: Language) -> Trust:
        """The answer's trust (finsearch.answer.trust), with what was asked and not answered said
        in `language`: the one badge the chat and the export show."""
        return Trust(self.grounding, self.coverage, self.integrity, self.answered.share, len(self.checks),
                     self.count("supported"), self.key_sentences, self.cited_key_sentences,
                     self.answered.not_answered(language), bool(self.stale),
                     not self.checks and not self.answered.answered)

    def summary(self) -> str:
        total = len(self.checks)
        return f"{self.count('supported')} of {total} figures traced to sources" if total else \
            "no figures to trace"

    def to_dict(self) -> dict:
        return {
            "coverage": self.coverage, "grounding": self.grounding, "trust": self.trust,
            "figures": {"total": len(self.checks), "supported": self.count("supported"),
                        "misattributed": self.count("misattributed"), "unsupported": self.count("unsupported")},
            "flagged": [{"text": c.text, "sentence": c.sentence, "verdict": c.verdict, "found_in": list(c.found_in)}
                        for c in self.flagged],
            "citations": {"resolved": not self.unknown_markers, "unknown": list(self.unknown_markers),
                          "unused_references": list(self.unused_references),
                          "not_retrieved": list(self.foreign_references)},
            "key_sentences": self.key_sentences,
            "answered": self.answered.to_json(),
            "stale": [v.to_json() for v in self.stale],
        }


def sentences(markdown: str) -> list[str]:
    """The answer split into sentences (list items and lines count as sentences)."""
    out: list[str] = []
    for part in _SENTENCE_END.split(markdown):
        text = _FORMATTING.sub("", part).strip(" -•\t")
        if not text:
            continue
        lead = _LEADING_MARKERS.match(text)
        if out and lead:                        # "… fell 4.7%. [2] Then …": [2] belongs to the sentence before
            out[-1] = f"{out[-1]} {lead.group(1).strip()}"
            text = text[lead.end():].strip()
        if text:
            out.append(text)
    return out


def is_key_fact(sentence: str, figures: list[Figure]) -> bool:
    return bool(figures) or bool(CLAIM_WORDS.search(sentence))


def audit(markdown: str, references: list[Reference], graph: SearchGraph,
          analysis: Analysis | None = None) -> Audit:
    """The audit of one answer against the run's evidence; with the question's `analysis`,
    also which of its intents the answer answered."""
    retrieved: dict[str, Evidence] = {e.id: e for n in graph if n.status is NodeStatus.DONE for e in n.evidence}
    by_number = {r.n: r for r in references}
    values = {eid: values_in(item) for eid, item in retrieved.items()}

    used = set(markers(markdown))
    unknown = tuple(sorted(n for n in used if n not in by_number))
    unused = tuple(sorted(n for n in by_number if n not in used))
    foreign = tuple(sorted(n for n, r in by_number.items() if r.evidence_id not in retrieved))

    checks: list[FigureCheck] = []
    read: list[CitedSentence] = []
    plain_sentences: list[str] = []
    key = cited_key = 0
    in_lead = len(sentences(markdown.strip().split("\n\n", 1)[0]))
    for index, sentence in enumerate(sentences(markdown)):
        cited_ids = tuple(dict.fromkeys(by_number[n].evidence_id for n in markers(sentence)
                                        if n in by_number and by_number[n].evidence_id in retrieved))
        plain = without_markers(sentence)
        found = figures_in(plain)
        plain_sentences.append(plain)
        read.append(CitedSentence(plain, tuple(found), tuple(retrieved[eid] for eid in cited_ids), index < in_lead))
        if is_key_fact(plain, found):
            key += 1
            cited_key += bool(cited_ids)
        if not found:
            continue
        cited_values = Values()
        for eid in cited_ids:
            cited_values.extend(values[eid])
        cited_values.days |= _days(by_number[n] for n in markers(sentence) if n in by_number)
        said_days = [f.day for f in found if f.kind == "date" and f.day is not None and f.day.year != 2000]
        for figure in found:
            if _a_days_gap(figure, plain, said_days):
                checks.append(FigureCheck(figure.text, sentence, "supported", cited_ids, cited_ids, derived=True))
                continue
            checks.append(_check(figure, sentence, cited_ids, cited_values, values))

    coverage = round(cited_key / key, 4) if key else 1.0
    total = len(checks)
    misattributed = sum(1 for c in checks if c.verdict == "misattributed")
    unsupported = sum(1 for c in checks if c.verdict == "unsupported")
    grounding = round(1 - (unsupported + 0.5 * misattributed) / total, 4) if total else 1.0
    view = _view(analysis, graph) if analysis is not None else None
    answered = check(analysis, read, plain_sentences, _holder(view, analysis)) if analysis is not None \
        else Answered()
    answered = unretrieved(answered, graph)
    stale = tuple(stale_values(view, [(s.text, s.cited) for s in read])) if view is not None else ()
    trust = trust_score(grounding, coverage, not (unknown or unused or foreign), answered.share, bool(stale),
                        not total and not answered.answered)
    return Audit(coverage, grounding, trust, tuple(checks), key, cited_key, unknown, unused, foreign, answered,
                 stale)



def _view(analysis: Analysis, graph: SearchGraph) -> AnswerView:
    """The run's evidence as the rules read it: what the claims are checked against."""
    given = [e for n in graph if n.status is NodeStatus.DONE for e in n.evidence]
    names = instrument_names(analysis, analysis.language)
    today = datetime.combine(analysis.time_context.end, datetime.min.time(), tzinfo=timezone.utc)
    return AnswerView.of(analysis, given, graph, names, "", today)


def _holder(view: AnswerView | None, analysis: Analysis):
    """The `holds` of answered.check: the items that answer an intent for the instruments a
    "not found" sentence names (all of the question's, when it names none)."""
    if view is None:
        return None
    names = dict(zip(analysis.tickers, names_of(analysis), strict=False))

    def held(intent: str, said: list[str]) -> tuple[str, ...]:
        named = [t for t, words in names.items() if any(names_in(s, [words]) for s in said)] or view.tickers
        try:
            return tuple(dict.fromkeys(e.id for t in named for e in holds(view, intent, t)))
        except Exception:       # a payload nobody foresaw: no claim is contradicted by it
            log.exception("could not check a not-found claim about %s", intent)
            return ()
    return held


def _days(refs) -> set[date]:
    """The days the cited references show (`dated`): the day an answer dates an item by is
    traced to that item, whichever market's clock it was read on."""
    out = set()
    for ref in refs:
        try:
            out.add(date.fromisoformat(str(ref.day or "")))
        except ValueError:
            continue
    return out


_DAYS_AFTER = re.compile(r"\s*(?:calendar\s+)?(?:days?\b|天)", re.I)


def _a_days_gap(figure: Figure, sentence: str, days: list[date]) -> bool:
    """"3 days before the close of 2025-09-26" in a sentence dating the quote 2025-09-23: a count of
    days that two dates the sentence itself gives make (an age, derived), not a value to look up."""
    if figure.kind != "number" or not float(figure.value).is_integer() or len(days) < 2:
        return False
    if not _DAYS_AFTER.match(sentence, figure.start + len(figure.text)):
        return False
    return any(abs((a - b).days) == figure.value for i, a in enumerate(days) for b in days[i + 1:])


def _check(figure: Figure, sentence: str, cited: tuple[str, ...], cited_values: Values,
           everything: dict[str, Values]) -> FigureCheck:
    if matches(figure, cited_values):
        return FigureCheck(figure.text, sentence, "supported", cited, cited)
    if derived(figure, cited_values):
        return FigureCheck(figure.text, sentence, "supported", cited, cited, derived=True)
    elsewhere = tuple(eid for eid, v in everything.items() if eid not in cited and matches(figure, v))
    verdict = "misattributed" if elsewhere else "unsupported"
    return FigureCheck(figure.text, sentence, verdict, cited, elsewhere)


def audit_result(result) -> Audit | None:
    """The audit of a finished run's answer (None when it has no answer)."""
    if result.answer is None:
        return None
    return audit(result.answer.markdown, result.answer.references, result.graph, result.analysis)
