"""Did the answer answer the question? One check per intent the question asked, in code.

For each intent the analysis found (finsearch.plan.intents.INTENT_PATTERNS), an intent is
**answered** when one sentence of the answer says what was asked *and* cites a retrieved item:

| intent       | a sentence that …                                                                 |
|--------------|-----------------------------------------------------------------------------------|
| compare      | names ≥ 2 of the question's instruments (1 when it named one) + a verdict word    |
|              | (larger, outperformed, than, led …; 更大, 领先, 跑赢, 高于 …)                          |
| why          | a move + a cause connector (after, amid, because, due to, on reports …; 因, 由于,     |
|              | 受…影响 …) and cites a news or web item: a reason is only as good as its report     |
| calendar     | a report word + a date                                                           |
| analyst      | a target/rating word + a figure                                                  |
| dividend     | a dividend word + a figure                                                       |
| valuation    | market cap / P/E … + a figure                                                    |
| expensive    | a valuation ratio (P/E, P/S …) + a figure: a market cap alone says not how dear  |
| price        | a move or price word + a % or money figure                                       |
| fundamentals | revenue / profit / EPS … + a figure                                              |
| surprise     | an estimate word + beat/miss/in line                                             |
| guidance     | a guidance/outlook word                                                          |
| holders      | a holder word + a figure                                                         |
| insiders     | a Form 4 / insider / sale / purchase word + a number or money figure              |
| portfolio    | a 13F / holdings / positions word + a % or money figure                           |
| high_low     | a high/low word + a money or number figure                                       |
| profile      | a business/sector word                                                           |
| peers        | a valuation ratio + a figure + an industry/peer word                             |
| news         | cites a news or web item (here a listed headline is the answer)                  |

Both languages' words are matched in every answer (a Chinese answer quotes English titles).
A sentence that only lists the title of what it cites (a headline) answers nothing but `news`:
the writer has to say it. An intent without a rule (today `advice`: the answer gives none) is
**unchecked**, never guessed; so is `fundamentals` in a report-date question (its words are the
date's: "report earnings").
A comparison of several instruments that asks for a metric ("compare the dividend yields") is
answered only by a sentence that ranks by it: a ranking by return answers a question nobody asked.
An intent answered, but only after the opening paragraph, is listed in `not_in_lead`: the lead
answered a default question first.
An intent no sentence answers is **missing**, with a reason: `stated` when a sentence says it
could not be found ("No report on the day explains the move", "未找到分析师数据"), `contradicted`
when it says so while a retrieved item holds it (finsearch.answer.claims; the items are named),
else `absent` (the answer is silent about it, or substitutes something else). An intent that asks
for a document (`DOCUMENTS`: the filings, a 10-K's MD&A) is **missing**, `unretrieved`, when every
search for that document failed or came back empty: the answer may be well grounded, but not in
what was asked for.

How it folds into trust (finsearch.answer.trust): the share of checked intents answered, one
answered only after the lead counting OUTSIDE_LEAD_CREDIT, a stated or unretrieved gap half
(honest — the answer says what it could not find — but still not the answer), a contradicted one
nothing: trust × `share`. No checked intent: share 1.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from typing import Literal

from ..evidence import Evidence
from ..graph import NodeStatus, SearchGraph
from ..phrases import Language, say
from ..plan.analysis import Analysis
from .asked import asked
from .figures import Figure
from .intent_words import (
    ANALYST,
    BEAT_MISS,
    CAUSE,
    DIVIDEND,
    ESTIMATE,
    FUNDAMENTALS,
    GAP,
    GAP_TOPIC,
    GUIDANCE,
    HIGH_LOW,
    HOLDERS,
    INDUSTRY,
    INSIDERS,
    METRIC_WORDS,
    MOVE,
    NAMED_METRICS,
    PORTFOLIO,
    PRICE,
    PROFILE,
    RATIO,
    REPORT,
    VALUATION,
    VERDICT,
)

GapReason = Literal["stated", "absent", "contradicted", "unretrieved"]
STATED_GAP_CREDIT = 0.5
OUTSIDE_LEAD_CREDIT = 0.75      # answered, but not in the opening paragraph a reader reads first

_REPORTED = frozenset({"news", "web"})


@dataclasses.dataclass(frozen=True)
class CitedSentence:
    """One sentence of the answer as the check reads it: its text without markers, the
    figures in it, the retrieved items it cites, and whether it is in the opening paragraph."""
    text: str
    figures: tuple[Figure, ...]
    cited: tuple[Evidence, ...]
    in_lead: bool = False

    def kinds(self, *kinds: str) -> bool:
        return any(f.kind in kinds for f in self.figures)

    @property
    def quotes_a_title(self) -> bool:
        """It is (mostly) the title of an item it cites: a headline listed, not the writer's
        own statement. A list of headlines that happen to carry a reason has not said why. A
        sentence that states a move of its own and quotes the story that gives its reason
        ("fell 8.80% on 2024-10-11; Daily reported that day: “… as …”") is the writer's own."""
        unquoted = _QUOTED.sub(" ", self.text)
        if unquoted != self.text and MOVE.search(unquoted) and _PERCENT.search(unquoted):
            return False
        titles = [e.title for e in self.cited if e.title]
        own = self.text        # "2024-10-11 · Publisher: Title": the listing's own date and publisher set aside
        for piece in [f.text for f in self.figures if f.kind == "date" and not any(f.text in t for t in titles)] \
                + [e.publisher for e in self.cited if e.publisher]:
            own = own.replace(piece, " ")
        own = _folded(own)
        return any(len(title) >= 0.7 * len(own) and title in own
                   for title in map(_folded, titles) if title)

    @property
    def reported(self) -> bool:
        """It cites a news or web item (a report, not computed data)."""
        return any(e.kind in _REPORTED for e in self.cited)


_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"")
_PERCENT = re.compile(r"\d%")


def _folded(text: str) -> str:
    return " ".join(re.sub(r"[^\w%.$]+", " ", text.casefold()).split())


def _says_why(text: str) -> bool:
    """A cause word in the writer's own words, or in a quote beside a move the sentence states
    itself; a cause word only inside quoted headlines ("edge up after results") in a list of what
    happened says no more than the headlines did."""
    unquoted = _QUOTED.sub(" ", text)
    if CAUSE.search(unquoted):
        return True
    return bool(CAUSE.search(text)) and bool(MOVE.search(unquoted) and _PERCENT.search(unquoted))


def _all(*patterns: re.Pattern):
    return lambda s: all(p.search(s.text) for p in patterns)


# intent → does this cited sentence answer it? (`compare` needs the question's names: see below)
RULES = {
    "why": lambda s: s.reported and _says_why(s.text) and (bool(MOVE.search(s.text)) or s.kinds("percent")),
    "calendar": lambda s: s.kinds("date") and bool(REPORT.search(s.text)),
    "analyst": lambda s: s.kinds("money", "number", "percent") and bool(ANALYST.search(s.text)),
    "dividend": lambda s: s.kinds("money", "number", "percent", "date") and bool(DIVIDEND.search(s.text)),
    "valuation": lambda s: s.kinds("money", "number") and bool(VALUATION.search(s.text)),
    "expensive": lambda s: s.kinds("money", "number") and bool(RATIO.search(s.text)),
    "price": lambda s: s.kinds("percent", "money") and bool(MOVE.search(s.text) or PRICE.search(s.text)),
    "fundamentals": lambda s: s.kinds("money", "number", "percent") and bool(FUNDAMENTALS.search(s.text)),
    "surprise": _all(ESTIMATE, BEAT_MISS),
    "guidance": _all(GUIDANCE),
    "holders": lambda s: s.kinds("percent", "number", "money") and bool(HOLDERS.search(s.text)),
    "high_low": lambda s: s.kinds("money", "number") and bool(HIGH_LOW.search(s.text)),
    "profile": _all(PROFILE),
    "insiders": lambda s: s.kinds("number", "money") and bool(INSIDERS.search(s.text)),
    "portfolio": lambda s: s.kinds("percent", "money") and bool(PORTFOLIO.search(s.text)),
    "peers": lambda s: s.kinds("number") and bool(RATIO.search(s.text)) and bool(INDUSTRY.search(s.text)),
}
CHECKED = frozenset(RULES) | {"compare", "news"}
# Words one intent reads as part of another: "when does it report earnings" asks for the date,
# not the statements (the planner fetches none: finsearch.plan.rules, `none_of="calendar"`).
READ_AS_PART_OF = {"fundamentals": "calendar"}
# Intents that ask for a document, and the sources that hold it: no other source answers them
# (a 10-K question answered from the news has not been answered).
DOCUMENTS = {"filings": frozenset({"sec_filings", "sec_section", "sec_facts", "cn_announcements",
                                     "hk_announcements"}),
             "mdna": frozenset({"sec_section"})}


@dataclasses.dataclass(frozen=True)
class Gap:
    intent: str
    reason: GapReason
    found_in: tuple[str, ...] = ()      # contradicted: the retrieved items that hold what was "not found"

    def to_json(self) -> dict:
        out = {"intent": self.intent, "reason": self.reason}
        if self.found_in:
            out["found_in"] = list(self.found_in)
        return out


@dataclasses.dataclass(frozen=True)
class Answered:
    """Which of the question's intents the answer answered (see the module docstring)."""
    intents: tuple[str, ...] = ()       # all the question's intents, sorted
    answered: tuple[str, ...] = ()
    missing: tuple[Gap, ...] = ()
    unchecked: tuple[str, ...] = ()
    not_in_lead: tuple[str, ...] = ()   # answered, but only after the opening paragraph

    @property
    def share(self) -> float:
        """Answered checked intents over checked intents, one answered only after the lead counting
        OUTSIDE_LEAD_CREDIT, a stated or unretrieved gap half, a contradicted one nothing; 1.0 with none."""
        checked = len(self.answered) + len(self.missing)
        if not checked:
            return 1.0
        stated = sum(1 for g in self.missing if g.reason in ("stated", "unretrieved"))
        late = (1 - OUTSIDE_LEAD_CREDIT) * len(self.not_in_lead)
        return round((len(self.answered) - late + STATED_GAP_CREDIT * stated) / checked, 4)

    @property
    def missing_intents(self) -> tuple[str, ...]:
        return tuple(g.intent for g in self.missing)

    def not_answered(self, language: Language) -> str | None:
        """The badge's words, "did not answer: why it moved, the report date (said it was not
        found)", in `language`; None when nothing checked is missing."""
        if not self.missing:
            return None
        parts = []
        for gap in self.missing:
            intent = say(f"intent.{gap.intent}", language)
            key = {"stated": "audit.gap_stated", "contradicted": "audit.gap_contradicted",
                   "unretrieved": "audit.gap_unretrieved"}.get(gap.reason)
            parts.append(say(key, language, intent=intent) if key else intent)
        return say("audit.did_not_answer", language, intents=say("list.sep", language).join(parts))

    def to_json(self) -> dict:
        return {"intents": list(self.intents), "answered": list(self.answered),
                "missing": [g.to_json() for g in self.missing], "unchecked": list(self.unchecked),
                "not_in_lead": list(self.not_in_lead)}

    @classmethod
    def from_json(cls, raw: dict) -> Answered:
        """What `to_json` wrote (a stored run's or report's audit)."""
        return cls(tuple(raw["intents"]), tuple(raw["answered"]),
                   tuple(Gap(g["intent"], g["reason"], tuple(g.get("found_in", ()))) for g in raw["missing"]),
                   tuple(raw["unchecked"]), tuple(raw.get("not_in_lead", ())))


def names_of(analysis: Analysis) -> list[tuple[str, ...]]:
    """Per instrument of the question, the words that may name it in an answer: its ticker
    (and the code before the exchange suffix), its name and first word, the user's own words."""
    out = []
    for entity in analysis.entities:
        words = {entity.mention, entity.name, entity.name.split()[0] if entity.name.split() else ""}
        if entity.ticker:
            words |= {entity.ticker, entity.ticker.split(".")[0].lstrip("^")}
        out.append(tuple(w for w in words if len(w) >= 2))
    return out


def names_in(text: str, names: list[tuple[str, ...]]) -> int:
    lowered = text.lower()
    return sum(1 for words in names if any(_named(lowered, w.lower()) for w in words))


def _named(text: str, word: str) -> bool:
    if not word.isascii():
        return word in text
    return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text) is not None


def check(analysis: Analysis, cited_sentences: Iterable[CitedSentence], all_sentences: Iterable[str],
          holds: Callable[[str, list[str]], tuple[str, ...]] | None = None) -> Answered:
    """Which intents of `analysis` the cited sentences answer (and whether the opening does); the
    gaps the plain sentences state, and those `holds` (intent, the gap's sentences → the ids of
    retrieved items that answer it) shows to be false."""
    intents = tuple(sorted(analysis.intents))
    cited = [s for s in cited_sentences if s.cited]
    names = names_of(analysis)
    needed = min(2, len(names))
    metric_asked = asked(analysis.question).metric or ""
    metric = METRIC_WORDS.get(metric_asked) if len(names) > 1 else None
    # One figure of an intent asked by name ("the payout ratio", "the forward P/E", "the upside"):
    # a sentence with another figure of the intent ("it yields 6.27%") does not answer it.
    named = METRIC_WORDS.get(metric_asked) if metric_asked in NAMED_METRICS else None

    def answers(intent: str, s: CitedSentence) -> bool:
        if intent == "news":                 # what the news is: the headlines, listed, are the answer
            return s.reported
        if s.quotes_a_title:
            return False
        if intent == "compare":              # ranked by what was asked: yields, not returns
            return names_in(s.text, names) >= needed and bool(VERDICT.search(s.text)) \
                and (metric is None or bool(metric.search(s.text)))
        if intent in NAMED_METRICS[metric_asked] if named is not None else False:
            return RULES[intent](s) and bool(named.search(s.text))
        return RULES[intent](s)

    answered, missing, unchecked, late = [], [], [], []
    gaps = [t for t in all_sentences if GAP.search(t)]
    for intent in intents:
        if intent not in CHECKED or READ_AS_PART_OF.get(intent) in intents:
            unchecked.append(intent)
        elif any(answers(intent, s) for s in cited):
            answered.append(intent)
            if not any(answers(intent, s) for s in cited if s.in_lead):
                late.append(intent)
        else:
            said = [t for t in gaps if GAP_TOPIC[intent].search(t)]
            found = holds(intent, said) if said and holds is not None else ()
            reason: GapReason = "contradicted" if found else "stated" if said else "absent"
            missing.append(Gap(intent, reason, tuple(found)))
    return Answered(intents, tuple(answered), tuple(missing), tuple(unchecked), tuple(late))


def unretrieved(answered: Answered, graph: SearchGraph) -> Answered:
    """`answered` with each intent that asks for a document (`DOCUMENTS`) whose searches all
    found nothing moved to `missing` (`unretrieved`): "what did nvidia say about risks in its
    latest 10-k" with no 10-K retrieved is not answered by the news, however well its figures
    are traced."""
    moved = []
    for intent in answered.unchecked:
        searched = [n for n in graph if n.source in DOCUMENTS.get(intent, ())
                    and n.status in (NodeStatus.DONE, NodeStatus.FAILED)]
        if searched and not any(n.status is NodeStatus.DONE and n.evidence for n in searched):
            moved.append(intent)
    if not moved:
        return answered
    return dataclasses.replace(answered, missing=answered.missing + tuple(Gap(i, "unretrieved") for i in moved),
                               unchecked=tuple(i for i in answered.unchecked if i not in moved))
