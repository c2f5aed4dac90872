"""Answers the news states when a structured source has none: the date a company said it
will report ("Tesla to report third-quarter results on October 23", "将于10月23日发布三季报"),
and whether results beat or missed estimates ("deliveries rise 6% but miss estimates",
"业绩不及预期"). Read from headlines and snippets as written; the sentence that uses one
quotes or cites the story it came from. (Figures stated against expectations, guidance and a
company's replies are read sentence by sentence in `stated`.)
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date
from typing import Literal

from ..evidence import Evidence
from ..plan.timectx.words import MONTHS
from .figures import on_or_after
from .view import question_overlap

Verdict = Literal["beat", "missed", "met"]

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_REPORT_DATE_EN = re.compile(
    r"\b(?:report|reports|reporting|results|earnings|release|releases|publish|publishes)\b[^.;]{0,60}?\bon\s+"
    r"(?:(?:mon|tues|wednes|thurs|fri)day,?\s+)?" + _MONTH + r"\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?\b"
    r"(?:,?\s+(?P<year>20\d\d))?", re.I)
_REPORT_DATE_ZH = re.compile(
    r"(?:将于|定于|计划于|拟于)\s*(?:(?P<year>20\d\d)\s*年)?\s*(?P<month>\d{1,2})\s*月\s*(?P<day>\d{1,2})\s*日"
    r"[^。；]{0,12}(?:发布|公布|披露)")
_ESTIMATES = r"(?:estimates?|expectations?|forecasts?|consensus|views)"
_VERDICTS: tuple[tuple[Verdict, re.Pattern], ...] = (
    ("missed", re.compile(r"\b(?:miss|misses|missed|missing|below|short\s+of|fall\s+short|fell\s+short|trail|trails"
                          r"|lag|lags)\b[^.;]{0,30}\b" + _ESTIMATES
                          + r"\b|不及预期|低于预期|逊于预期|未达预期|不如预期", re.I)),
    ("beat", re.compile(r"\b(?:beat|beats|top|tops|topped|exceed|exceeds|exceeded|surpass|surpasses|surpassed|above"
                        r"|ahead\s+of)\b[^.;]{0,30}\b" + _ESTIMATES + r"\b|超预期|超出(?:市场)?预期|好于预期|高于预期",
                        re.I)),
    ("met", re.compile(r"\b(?:in\s+line\s+with|match|matches|matched|meet|meets|met)\b[^.;]{0,20}\b" + _ESTIMATES
                       + r"\b|符合预期", re.I)),
)


@dataclasses.dataclass(frozen=True)
class NewsFact:
    item: Evidence
    text: str                # the headline or snippet it was read from


@dataclasses.dataclass(frozen=True)
class ReportDate(NewsFact):
    day: date


@dataclasses.dataclass(frozen=True)
class NewsVerdict(NewsFact):
    verdict: Verdict


def _published(item: Evidence) -> date | None:
    try:
        return date.fromisoformat((item.published or "")[:10])
    except ValueError:
        return None


def report_date_in(text: str, published: date) -> date | None:
    """The report date a text announces; the year, when not written, is the one that puts
    the date on or after the story's (a story of December announcing "January 28")."""
    match = _REPORT_DATE_EN.search(text) or _REPORT_DATE_ZH.search(text)
    if match is None:
        return None
    month = match.group("month")
    month = int(month) if month.isdigit() else MONTHS[month.lower().rstrip(".")]
    if not match.group("year"):
        return on_or_after(month, int(match.group("day")), published)
    try:
        return date(int(match.group("year")), month, int(match.group("day")))
    except ValueError:
        return None


def report_date(stories: list[Evidence]) -> ReportDate | None:
    """The latest-published story that announces a report date."""
    for item in sorted(stories, key=lambda e: e.published or "", reverse=True):
        published = _published(item)
        if published is None:
            continue
        for text in (item.title, item.snippet):
            day = report_date_in(text or "", published)
            if day is not None:
                return ReportDate(item, text, day)
    return None


def verdict_in(text: str) -> Verdict | None:
    found = [verdict for verdict, pattern in _VERDICTS if pattern.search(text)]
    return found[0] if len(found) == 1 else None       # "beat on sales, missed on profit": no one verdict


def news_verdict(stories: list[Evidence], question: str) -> NewsVerdict | None:
    """The story that says whether results beat or missed, the one closest to what was asked
    first ("Q3 deliveries" prefers the deliveries story), then the latest."""
    found = []
    for item in stories:
        for text in (item.title, item.snippet):
            verdict = verdict_in(text or "")
            if verdict is not None:
                found.append(NewsVerdict(item, text, verdict))
                break
    found.sort(key=lambda f: f.item.published or "", reverse=True)
    found.sort(key=lambda f: -question_overlap(question, f"{f.item.title} {f.item.snippet}"))
    return found[0] if found else None


REMARKS = re.compile(r"\bsaid\b|\bsays\b|\btold\b|\bannounc|\bcomment|\bremarks|表示|称|宣布|公告", re.I)
