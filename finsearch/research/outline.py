"""The outline, written before anything is fetched: the question's type and its sections,
each with the key questions its research answers.

Rules: the type from the question's words and entities, then that type's default shape
(`SHAPES`), its titles and key questions from the phrasebook in the question's language.
Model: one streamed `outline` call, judged as it arrives (`ReplyWatch`) and capped by the
sections asked for, whose JSON is validated here; anything that does not fit the shape falls
back to the rules, with a note saying so.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from typing import Literal

from ..errors import InputError, LLMError
from ..model.language_model import LanguageModel
from ..model.prompts import fill, prompt
from ..model.reply_check import watched_reply
from ..model.text import parse_json_object
from ..model.usage import ModelUsage
from ..phrases import Language, say
from ..plan.analysis import Analysis
from ..surrogates import replace_lone
from .asks import facts

QuestionType = Literal["company", "comparison", "industry", "event", "macro", "screening"]
QUESTION_TYPES: tuple[QuestionType, ...] = ("company", "comparison", "industry", "event", "macro", "screening")
MAX_SECTIONS = 8
MAX_KEY_QUESTIONS = 3
MAX_TEXT = 300
MAX_COMPARED = 3                 # more companies than this are an industry's, not a comparison
# A section (a title and up to three questions) is about 80 tokens of JSON: an outline may take a
# section's worth more than it needs, and never more than OUTLINE_TOKENS_MAX.
OUTLINE_TOKENS_PER_SECTION, OUTLINE_TOKENS_MAX = 100, 900
PROMPTS = ("outline_system", "outline_user")     # what a reply must not write back (`ReplyWatch`)

# Each type's default sections, in reading order; titles and key questions live in the
# phrasebook as `report.section.<id>` and `report.ask.<id>`, filled with `asks.Facts`. A company's
# follows the analysts' report (the summary and the conclusion are the composer's, from these).
SHAPES: dict[QuestionType, tuple[str, ...]] = {
    "company": ("business", "results", "valuation", "analysts", "price", "risks", "catalysts"),
    "comparison": ("vs_business", "vs_results", "vs_valuation", "vs_price", "vs_analysts", "vs_risks",
                   "vs_verdict"),
    "industry": ("landscape", "leaders", "industry_news", "outlook"),
    "event": ("what_happened", "reaction", "implications"),
    "macro": ("macro_picture", "markets", "macro_outlook"),
    "screening": ("candidates", "candidate_value", "candidate_news"),
}
# Another phrasing of a section's questions when a fact they name is not known: a company with
# no rival we know of, an industry or an event whose companies the request does not name.
_WHEN_UNKNOWN = {"valuation": ("peer", "valuation_alone"), "leaders": ("name", "leaders_unnamed"),
                 "reaction": ("name", "reaction_unnamed")}

# Words that say what kind of request it is.
_SCREENING = re.compile(r"\bscreen|\bwhich stocks|\bfind (?:me )?stocks|\bshortlist|\bbest stocks|筛选|选股|"
                        r"哪些股票|哪只股票", re.I)
_MACRO = re.compile(r"\binflation|\binterest rates?\b|\bthe fed\b|\bfederal reserve|\bgdp\b|\bcpi\b|"
                    r"\brecession|\bmacro|\bcentral bank|\byields?\b|\bunemployment|通胀|利率|宏观|央行|"
                    r"美联储|经济增长|降息|加息", re.I)
_EVENT = re.compile(r"\bimpact of|\bafter the\b|\bin the wake|\bfallout|\bwhat does .{3,60} mean for|"
                    r"\breaction to|\bannouncement|\bacquisition|\bmerger|\btariff|\bban\b|事件|影响|"
                    r"收购|并购|关税|禁令", re.I)
_INDUSTRY = re.compile(r"\bindustry|\bsector|\bbanks\b|\bmakers\b|\bchipmakers|\bsemiconductors|"
                       r"\bcompetitive landscape|行业|板块|产业|赛道", re.I)
_COMPARING = re.compile(r"\bvs\.?(?!\w)|\bversus\b|\bcompar(?:e|ed|ing|ison)\b|\bhead[- ]to[- ]head\b|"
                        r"对比|比较|相比|孰优|谁更", re.I)


@dataclasses.dataclass(frozen=True)
class Section:
    key: str                               # the shape's id ("results"), or "s<i>" for a model's section
    title: str
    key_questions: tuple[str, ...]

    def to_json(self) -> dict:
        return {"key": self.key, "title": self.title, "key_questions": list(self.key_questions)}


@dataclasses.dataclass(frozen=True)
class Outline:
    question: str
    question_type: QuestionType
    language: Language
    sections: tuple[Section, ...]
    by: Literal["heuristic", "llm"]
    notes: tuple[str, ...] = ()
    edited: bool = False                   # changed by the reader after it was written
    # What writing it cost, when it was written apart from its report (`outline_for`): the report adds it.
    usage: ModelUsage | None = dataclasses.field(default=None, compare=False)

    def to_json(self) -> dict:
        return {"question": self.question, "type": self.question_type, "language": self.language,
                "by": self.by, "edited": self.edited, "sections": [s.to_json() for s in self.sections],
                "notes": list(self.notes)}

    @classmethod
    def from_json(cls, raw: dict) -> Outline:
        """An outline as `to_json` wrote it (a stored report, a report job's progress); KeyError/TypeError
        on a damaged one."""
        sections = tuple(Section(str(s["key"]), str(s["title"]), tuple(str(q) for q in s["key_questions"]))
                         for s in raw["sections"])
        return cls(str(raw["question"]), raw["type"], raw["language"], sections, raw["by"],
                   tuple(str(n) for n in raw.get("notes", ())), bool(raw.get("edited")))


def edit_outline(outline: Outline, sections: Sequence[tuple[str, Sequence[str]]],
                 max_sections: int = MAX_SECTIONS) -> Outline:
    """The outline with the reader's sections, (title, key questions) in reading order; a
    section left as it was keeps its key. InputError in the outline's language when the
    edit cannot be researched: no sections, too many, or a section without key questions."""
    language = outline.language
    if not sections:
        raise InputError(say("report.edit_unusable", language, reason=say("report.edit_empty", language)))
    if len(sections) > max_sections:
        raise InputError(say("report.edit_unusable", language,
                             reason=say("report.edit_too_many", language, sections=max_sections)))
    kept = {(s.title, s.key_questions): s.key for s in outline.sections}
    out = []
    for i, (title, asks) in enumerate(sections, start=1):
        # A lone surrogate in the edit is U+FFFD: the report could not be saved with one.
        asks = tuple(" ".join(replace_lone(q).split())[:MAX_TEXT] for q in asks if q.strip())[:MAX_KEY_QUESTIONS]
        title = " ".join(replace_lone(title).split())[:MAX_TEXT] or (asks[0] if asks else "")
        if not asks:
            raise InputError(say("report.edit_unusable", language,
                                 reason=say("report.edit_no_questions", language, title=title)))
        out.append(Section(kept.get((title, asks), f"s{i}"), title, asks))
    out = tuple(out)
    return outline if out == outline.sections else dataclasses.replace(outline, sections=out, edited=True)


def question_type(analysis: Analysis) -> QuestionType:
    """The kind of request. Screening words first; two or three companies set side by side
    ("NVDA vs AMD", "比较茅台和五粮液") are a comparison, even in an industry or of their dividend
    yields; then the economy's words, an event's; two or three companies named with no industry
    word are a comparison too; an industry's words, or four companies and more, an industry
    view, unless one company is named ("NVIDIA's position in the chip industry" is about NVIDIA)."""
    question, named = analysis.question, _companies(analysis)
    compared = 2 <= named <= MAX_COMPARED and all(e.kind == "equity" for e in analysis.entities if e.ticker)
    if _SCREENING.search(question):
        return "screening"
    if compared and _COMPARING.search(question):
        return "comparison"
    if _MACRO.search(question):
        return "macro"
    if _EVENT.search(question):
        return "event"
    if compared and not _INDUSTRY.search(question):
        return "comparison"
    return "company" if named == 1 else "industry"


def _companies(analysis: Analysis) -> int:
    return sum(1 for e in analysis.entities if e.ticker)


def rule_outline(analysis: Analysis, max_sections: int = MAX_SECTIONS) -> Outline:
    """The type's default shape, its key questions filled with what is known of the request
    before anything is fetched (`asks.facts`)."""
    kind = question_type(analysis)
    language = analysis.language
    values = facts(analysis).values()
    sections = []
    for key in SHAPES[kind][:max_sections]:
        fact, other = _WHEN_UNKNOWN.get(key, ("name", key))
        phrasing = key if values[fact] else other
        asks = say(f"report.ask.{phrasing}", language, **values).split("\n")
        sections.append(Section(key, say(f"report.section.{key}", language),
                                tuple(_possessive(q.strip(), language) for q in asks if q.strip())))
    return Outline(analysis.question, kind, language, tuple(sections), "heuristic")


def _possessive(text: str, language: Language) -> str:
    """"Advanced Micro Devices's" → "Advanced Micro Devices'" (a name ending in s)."""
    return re.sub(r"(?<=s)'s\b", "'", text) if language == "en" else text


def make_outline(analysis: Analysis, model: LanguageModel | None,
                 max_sections: int = MAX_SECTIONS) -> Outline:
    """The model's outline when there is a model and its reply fits, else the rules'."""
    rules = rule_outline(analysis, max_sections)
    if model is None or not model.available:
        return rules
    try:
        # Streamed, so that a reply that is no outline is given up on in its first tokens.
        text = watched_reply(model, _messages(analysis, rules), call="outline", json=True, prompts=PROMPTS,
                             max_tokens=min(OUTLINE_TOKENS_MAX, OUTLINE_TOKENS_PER_SECTION * (max_sections + 1)))
        return parse_outline(text, analysis, max_sections)
    except (LLMError, ValueError) as exc:
        return dataclasses.replace(rules, notes=(f"The model's outline was not usable ({exc}); "
                                                 "the rules wrote it.",))


def parse_outline(text: str, analysis: Analysis, max_sections: int = MAX_SECTIONS) -> Outline:
    """The model's JSON as an Outline; ValueError naming the first thing that does not fit."""
    raw = parse_json_object(text)
    kind = raw.get("type")
    if kind not in QUESTION_TYPES:
        raise ValueError(f"unknown question type {kind!r}")
    items = raw.get("sections")
    if not isinstance(items, list) or len(items) < 2:
        raise ValueError("an outline needs at least two sections")
    sections = []
    for i, item in enumerate(items[:max_sections], start=1):
        title = item.get("title") if isinstance(item, dict) else None
        asks = item.get("key_questions") if isinstance(item, dict) else None
        if not isinstance(title, str) or not title.strip() or len(title) > MAX_TEXT:
            raise ValueError(f"section {i} has no usable title")
        if not isinstance(asks, list) or not asks or not all(isinstance(q, str) and q.strip() for q in asks):
            raise ValueError(f"section {i} has no key questions")
        sections.append(Section(f"s{i}", title.strip(), tuple(q.strip()[:MAX_TEXT] for q in asks[:MAX_KEY_QUESTIONS])))
    return Outline(analysis.question, kind, analysis.language, tuple(sections), "llm")


def _messages(analysis: Analysis, draft: Outline) -> list[dict]:
    user = fill(prompt("outline_user"), question=analysis.question, language=say("language.name", analysis.language),
                instruments=json.dumps([e.ticker for e in analysis.entities if e.ticker]),
                draft=json.dumps(draft.to_json(), ensure_ascii=False))
    return [{"role": "system", "content": prompt("outline_system")}, {"role": "user", "content": user}]
