"""Every phrase of both phrasebooks, filled the way the code fills them, over the values that
made clumsy sentences: counts of 0, 1 and 2 ("1 of 4 sections were researched in full"),
spans of one day and of several ("(2024-10-10 → 2024-10-10)"), and periods named with a month
or a weekday as people type them ("rose 4.47% oct 10").

What a value is, is read off its name, as a translator reads it: `days`, `count`, `done`, …
are counts; `span`, `usual_span` are spans of days; `date`, `start`, `end`, `as_of`, … are
days; `when` and `label` are the words a question named its period with."""

from __future__ import annotations

import itertools
import re
import string
from datetime import UTC, date, datetime

import pytest

from finsearch.phrases import LANGUAGES, phrasebook, placeholders, say
from finsearch.phrases.dates import DaySpan, capitalised
from finsearch.phrases.numbers import MONTH_NAMES
from finsearch.plan.timectx import resolve
from finsearch.run.rewriter import SpokenDay

NOW = datetime(2024, 11, 15, 21, tzinfo=UTC)
COUNTS = frozenset({
    "n", "count", "done", "total", "days", "top", "max", "stories", "companies", "analysts", "shares", "owned",
    "sections", "sections_used", "calls", "used", "cached", "llm_calls", "tokens", "seconds", "questions",
    "supported", "derived", "misattributed", "unsupported", "cited", "key", "answered", "asked", "traced",
    "flagged", "failed", "window"})
DAYS = frozenset({"date", "start", "end", "start_date", "end_date", "biggest_date", "usual_start", "usual_end",
                  "as_of", "filed", "valued_on", "now", "first", "last"})
MONTHS = frozenset({"month_name", "first_name", "last_name"})
PERIODS = frozenset({"when", "label"})
# Periods as people type them, read by the real time rules (their labels are what answers say).
QUESTIONS = {"en": ("how did amd do oct 10", "amd since sept 3", "nvda last friday", "aapl in march 2024"),
             "zh": ("茅台10月10日表现", "茅台上周五", "英伟达9月以来")}
ONE_DAY, SEVERAL_DAYS = (date(2024, 10, 10), date(2024, 10, 10)), (date(2024, 10, 7), date(2024, 10, 11))


def _labels(language: str) -> tuple[str, ...]:
    return tuple(resolve(q, NOW).label for q in QUESTIONS[language])


def _count_cases(counts: list[str]) -> list[dict[str, str]]:
    """Every count at 0, 1 and 2 together; and each one at 0, 1 and 2 with the others at 3
    ("1 of 3 sections")."""
    cases = [dict.fromkeys(counts, str(v)) for v in (0, 1, 2)]
    cases += [{**dict.fromkeys(counts, "3"), name: str(v)} for name in counts for v in (0, 1, 2)]
    return cases or [{}]


def _value(name: str, days: tuple[date, date], label: str, spoken: SpokenDay):
    if name == "span" or name.endswith("_span"):
        return DaySpan(*days)
    if name == "day":
        return spoken
    if name in DAYS:
        return (days[0] if name in ("start", "first", "usual_start", "start_date") else days[1]).isoformat()
    if name in MONTHS:
        return MONTH_NAMES[days[1].month - 1]
    if name in ("month", "year"):
        return str(getattr(days[1], name))
    if name in PERIODS:
        return label
    return f"<{name}>"


def _filled(language: str, key: str) -> list[str]:
    template = phrasebook(language)[key]
    named = sorted(placeholders(template))
    counts = [n for n in named if n in COUNTS]
    out = []
    for days, label, case in itertools.product((ONE_DAY, SEVERAL_DAYS), _labels(language), _count_cases(counts)):
        spoken = SpokenDay.of(days[1])
        values = {name: case[name] if name in case else _value(name, days, label, spoken) for name in named}
        out.append(say(key, language, **values))
    return out


def _plural_forms() -> tuple[set[str], set[str]]:
    """The singular and plural nouns the English phrasebook chooses between by count (its verbs
    are checked on their own)."""
    ones, manies = set(), set()
    for template in phrasebook("en").values():
        for _, field, spec, _ in string.Formatter().parse(template):
            if field and spec and "|" in spec:
                one, many = spec.split("|", 1)
                if one.split()[0] not in SINGULAR_VERBS:
                    ones.add(one.split()[0])
                manies.add(many.split()[0])
    return ones, manies


LEFTOVER = re.compile(r"\{[\w.\[\]]+(?::[^{}]*)?\}")
SAME_DAY_RANGE = re.compile(r"(\d{4}-\d{2}-\d{2})\s*(?:→|–|—|~|to|至|到)\s*\1(?!\d)")
LOWER_MONTH = re.compile(r"\b(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|january|february|march|april|june"
                         r"|july|august|september|october|november|december)\b")
# A number right after a month name is a day of a period ("Sept 3 company profile"), not a count.
NOT_A_DAY = "".join(f"(?<!{m} )" for m in {*MONTH_NAMES, *(m[:3] for m in MONTH_NAMES), "Sept"})
# After exactly one: no plural verb ("1 of 4 sections were") and no plural noun ("1 days"). A verb is
# followed by more words: "1 hold" alone is a count of ratings.
ONE_THEN_PLURAL_VERB = re.compile(NOT_A_DAY + r"(?<![\d.,])(?<!of )\b1 (?:of \S+ )?(?:[a-z-]+ ){0,2}?"
                                  r"(?:were|are|have|hold|carry) \w")
ONE_THEN_PLURAL_NOUN = re.compile(NOT_A_DAY + r"(?<![\d.,])\b1 (?:[a-z-]+ )?([a-z][a-z-]*s)\b")
NOT_PLURAL = frozenset({"is", "was", "has", "does", "this", "its", "his", "news", "as", "us", "plus", "less",
                        "holds", "carries", "forecasts"})
# After none, two or three: no singular verb ("2 is found"), no singular noun ("2 day"). Only one word
# between: in "a budget of 2 source calls was spent" the verb is the budget's.
SINGULAR_VERBS = ("was", "is", "has", "holds", "carries")
MANY_THEN_SINGULAR_VERB = re.compile(NOT_A_DAY + r"(?<![\d.,])(?<!of )\b[023] (?:of \S+ )?(?:[a-z-]+ )?(?:"
                                     + "|".join(SINGULAR_VERBS) + r") \w")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phrase_fills_cleanly_for_any_count_span_and_period(language):
    ones, manies = _plural_forms()
    many_then_singular_noun = re.compile(NOT_A_DAY + r"(?<![\d.,])\b[023] (?:[a-z-]+ )?("
                                         + "|".join(sorted(ones)) + r")\b")
    problems = []
    for key in phrasebook(language):
        for text in _filled(language, key):
            found = []
            if LEFTOVER.search(text):
                found.append("a placeholder left in")
            if SAME_DAY_RANGE.search(text):
                found.append("one day written as a range")
            if language == "en":
                if LOWER_MONTH.search(text):
                    found.append("a month name in lower case")
                if ONE_THEN_PLURAL_VERB.search(text):
                    found.append("a plural verb after 1")
                noun = ONE_THEN_PLURAL_NOUN.search(text)
                if noun and noun.group(1) not in NOT_PLURAL:
                    found.append(f"a plural after 1 ({noun.group(1)})")
                if MANY_THEN_SINGULAR_VERB.search(text):
                    found.append("a singular verb after 0, 2 or 3")
                if many_then_singular_noun.search(text):
                    found.append("a singular noun after 0, 2 or 3")
            problems += [f"{key}: {what}: {text}" for what in found]
    assert sorted(set(problems)) == []


@pytest.mark.parametrize(("words", "written"), [
    ("oct 10", "Oct 10"), ("sept 3", "Sept 3"), ("march 2024", "March 2024"), ("last friday", "last Friday"),
    ("past month", "past month"), ("10月10日", "10月10日"),
    ("since the october earnings", "since the October earnings"),
])
def test_month_and_weekday_names_are_capitalised(words, written):
    assert capitalised(words) == written


def test_a_period_a_question_names_with_a_month_reads_capitalised():
    assert resolve("how did amd do oct 10", NOW).label == "Oct 10"
    assert resolve("nvda since sept 3", NOW).label == "since Sept 3"     # said as asked: a period, not a day


def test_one_day_is_one_date_and_several_a_range():
    assert f"{DaySpan(date(2024, 10, 10), date(2024, 10, 10)): → }" == "2024-10-10"
    assert f"{DaySpan('2024-10-07', '2024-10-11'): → }" == "2024-10-07 → 2024-10-11"
    assert f"{DaySpan('2024-10-07', '2024-10-11'): 至 }" == "2024-10-07 至 2024-10-11"
    assert f"{DaySpan('2024-10-07', ''): to }" == "2024-10-07"


def test_the_word_after_a_count_agrees_with_it():
    assert say("report.stopped", "en", done=1, total=4) == \
        "Stopped early by the user: 1 of 4 sections was researched in full."
    assert say("report.stopped", "en", done=0, total=1) == \
        "Stopped early by the user: 0 of 1 section were researched in full."
    assert say("report.stopped", "zh", done=1, total=4) == "已被用户提前停止：4 个章节中有 1 个完成了全部检索。"
    assert say("facts.short_window", "en", end_date="2024-10-11", days="1", end="2024-10-12", ref=2) == \
        "Its prices stop at 2024-10-11, 1 day before the period's end on 2024-10-12 [2]."
    assert say("facts.insider_line", "en", what="Sale", shares="1,000", price="", date="2024-10-10", after="") == \
        "Sale of 1,000 shares on 2024-10-10"
    assert say("facts.insider_line", "en", what="Sale", shares="?", price="", date="2024-10-10", after="") == \
        "Sale of ? shares on 2024-10-10"
