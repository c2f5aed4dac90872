"""Which filing a question asks for: the form or report it names in either language ("10-Q",
"20-F", "proxy", "年报", "一季报"), what SEC EDGAR and cninfo call it, and when a report about
the question's period was filed."""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timedelta

from ..timecontext import TimeContext
from . import timectx

# Latin letters around a form name, never CJK: "英伟达最新的10-Q" names the form as "NVDA 10-Q" does
# (\b does not: to Python's re a Chinese character is a word character too).
_L, _R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"


@dataclasses.dataclass(frozen=True)
class ReportKind:
    """One kind of filing as people name it, and what each filing source calls it."""
    words: str                  # regex: how it is named (English, Chinese, the forms' own names)
    sec_form: str | None        # the SEC form asked (catalogue.SEC_FORMS), None: any
    cninfo_category: str | None  # cninfo's announcement category (cn_announcements), None: any
    periodic: bool              # a report about a period, filed in the months after it ends


# First match wins: the narrower kinds before the broader ones they contain (半年报 before 年报).
REPORT_KINDS: tuple[ReportKind, ...] = (
    ReportKind(r"半年(?:度报告|报)(?!了)|(?<!集)中报(?!道)|中期报告|\binterim\s+(?:results\s+)?report"
               r"|\bhalf[- ]year(?:ly)?\s+report|\bsemi-?annual\s+report|\bh1\s+report", None, "半年报", True),
    ReportKind(r"一季(?:度报告|报)(?!了)|\b(?:q1|first[- ]quarter)\s+(?:report|10-?q)", "10-Q", "一季报", True),
    # An A-share's second quarter is reported in its half-year report, its fourth in the annual one.
    ReportKind(r"二季(?:度报告|报)(?!了)|\b(?:q2|second[- ]quarter)\s+(?:report|10-?q)", "10-Q", "半年报", True),
    ReportKind(r"三季(?:度报告|报)(?!了)|\b(?:q3|third[- ]quarter)\s+(?:report|10-?q)", "10-Q", "三季报", True),
    ReportKind(r"四季(?:度报告|报)(?!了)", "10-K", "年报", True),
    ReportKind(rf"季(?:度报告|报)(?!了)|\bquarterly\s+(?:report|filing)s?\b|{_L}10-?q{_R}", "10-Q", None, True),
    ReportKind(rf"(?<![今去明半])年(?:度报告|报)(?!了)|\bannual\s+(?:report|filing)s?\b|{_L}(?:10-?k|20-?f|40-?f){_R}",
               "10-K", "年报", True),
    ReportKind(rf"{_L}(?:8-?k|6-?k){_R}|\bcurrent\s+reports?\b", "8-K", None, False),
    ReportKind(rf"\bproxy\b(?!\s+for\b)|{_L}def\s*14a{_R}|委托书|代理声明", "DEF 14A", "股东大会",
               False),
    ReportKind(rf"招股(?:说明)?书|\bprospectus|\bipo\s+filing|\bregistration\s+statement|{_L}[sf]-1{_R}", "S-1", None,
               False),
)
_KINDS = tuple((re.compile(kind.words, re.I), kind) for kind in REPORT_KINDS)
# What names a filing, for the "filings" intent.
FILING_WORDS = "|".join(kind.words for kind in REPORT_KINDS)
_FILING_WORDS = re.compile(FILING_WORDS, re.I)
# The forms typed by name: the one asked, where a kind's default would be another (a 20-F is
# an annual report, but a foreign issuer's; "6-K" is not "8-K").
_FORMS = re.compile(rf"{_L}(10-?K|10-?Q|8-?K|20-?F|6-?K|[SF]-1|DEF\s*14A){_R}", re.I)
# A report about a period is filed after it: a US 10-K within 60-90 days of the year's end, a 20-F
# within four months, an A-share's annual report by the end of April.
FILED_WITHIN_DAYS = 120


def report_asked(question: str) -> ReportKind | None:
    """The kind of filing a question names ("宁德时代半年报" → the half-year report), if one."""
    return next((kind for pattern, kind in _KINDS if pattern.search(question)), None)


def form_asked(question: str) -> str | None:
    """The SEC form a question asks for ("Tesla 8-K filings" → "8-K", "苹果最新年报" → "10-K"), if one."""
    m = _FORMS.search(question)
    if m is not None:
        form = re.sub(r"[\s-]", "", m.group(1).upper())
        return "DEF 14A" if form == "DEF14A" else f"{form[:-1]}-{form[-1]}"
    kind = report_asked(question)
    return kind.sec_form if kind else None


def category_asked(question: str) -> str | None:
    """cninfo's category of the report a question names ("五粮液最新的一季报" → "一季报"), if one."""
    kind = report_asked(question)
    return kind.cninfo_category if kind else None


def filing_window(question: str, time_context: TimeContext, now: datetime) -> tuple[str | None, str | None]:
    """The days to look for a filing on: none (the latest ones) unless the question names a past
    period. A periodic report about that period was filed up to FILED_WITHIN_DAYS after it
    ("比亚迪2023年年报" → 2023-01-01..2024-04-29); anything else on the period's days. A period
    read from the report's name alone ("苹果最新年报": the last year ended) is no period named: the
    latest report is the one asked for, whenever its fiscal year ended."""
    if not time_context.explicit or time_context.forward:
        return None, None
    kind = report_asked(question)
    if kind is None or not kind.periodic:
        return time_context.start.isoformat(), time_context.end.isoformat()
    if not timectx.resolve(_FILING_WORDS.sub(" ", question), now).explicit:
        return None, None
    end = min(time_context.end + timedelta(days=FILED_WITHIN_DAYS), now.date())
    return time_context.start.isoformat(), end.isoformat()


def filed_basis(question: str, freq: str) -> str:
    """Fiscal years or quarters of filed figures: a 10-K's are annual, a 10-Q's quarterly."""
    form = form_asked(question)
    if form in ("10-K", "20-F", "10-Q"):
        return "quarterly" if form == "10-Q" else "annual"
    return "annual" if freq in ("annual", "ttm") else "quarterly"
