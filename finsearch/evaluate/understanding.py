"""How well the rule-based reading understands questions as people type them.

A table (`tests/data/understanding.json`) gives, for each question, the tickers, the period and
the sources a right reading plans; the question goes through `analyse` and `heuristic_plan`
exactly as a run would, and it is right when all three match. The table's own `rules` say what
each expectation means; its `now` is the clock the expectations were written against.

Each question is also scored by source family (`SourceSpec.family`: price, quote, fundamentals,
filings, news, web): right by family when the tickers and period are right and every family it
expects is planned, whichever source of the family serves it. The families it expects are those
it names (`families`, `families_any`: all of them, one of them) and those of the sources it names;
a question whose source does not exist yet names only the family.

    python -m finsearch.evaluate.understanding tests/data/understanding.json
    python -m finsearch.evaluate.understanding tests/data/understanding_round3.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path

from ..catalogue import CATALOGUE, FAMILIES
from ..errors import FinSearchError, InputError
from ..graph import SearchGraph
from ..plan.analysis import analyse
from ..plan.rules import heuristic_plan

Period = tuple[date, date]


@dataclasses.dataclass(frozen=True)
class Case:
    """One question of the table and what a right reading of it plans."""
    question: str
    language: str                           # "en" | "zh", as the table's author tagged it
    category: str
    tickers: tuple[frozenset[str], ...]     # the expected set first, then equally right ones
    period: Period | None                   # None: the window is not scored
    sources: frozenset[str]                 # every one must be planned
    sources_any: frozenset[str]             # at least one must be planned (when given)
    prior: str | None = None                # the previous turn of a follow-up
    families: frozenset[str] = frozenset()        # each must be planned, by any of its sources
    families_any: frozenset[str] = frozenset()    # at least one must be planned (when given)

    def expected_families(self) -> tuple[frozenset[str], frozenset[str]]:
        """The families every one of which a right plan holds, and those at least one of which it
        holds (empty: none asked): the ones named, and those of the sources named."""
        return (self.families | {family_of(s) for s in self.sources},
                self.families_any or frozenset(family_of(s) for s in self.sources_any))


@dataclasses.dataclass(frozen=True)
class Reading:
    """What the rules made of a question: the tickers found, the period, the sources planned."""
    tickers: frozenset[str]
    period: Period
    sources: frozenset[str]
    planned_tickers: frozenset[str]

    @property
    def families(self) -> frozenset[str]:
        return frozenset(family_of(s) for s in self.sources)


@dataclasses.dataclass(frozen=True)
class Verdict:
    case: Case
    reading: Reading | None                 # None when no valid plan came out
    misses: tuple[str, ...]                 # what was wrong, in words; empty = right
    family_misses: tuple[str, ...] = ()     # what was wrong when sources count by family

    @property
    def right(self) -> bool:
        return not self.misses

    @property
    def right_by_family(self) -> bool:
        return not self.family_misses


@dataclasses.dataclass(frozen=True)
class Table:
    now: datetime
    cases: tuple[Case, ...]


def load(path: Path) -> Table:
    """The table at `path`; InputError naming the question when a record is malformed."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        now = datetime.fromisoformat(doc["now"].replace("Z", "+00:00"))
        return Table(now, tuple(_case(record) for record in doc["questions"]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"{path}: not an understanding table ({type(e).__name__}: {e})") from e


def _case(record: dict) -> Case:
    period = record["period"]
    families = frozenset(record.get("families", [])) | frozenset(record.get("families_any", []))
    if unknown := families - set(FAMILIES):
        raise ValueError(f"{record['question']!r}: no source family {_set(unknown)} (known: {', '.join(FAMILIES)})")
    return Case(
        question=record["question"], language=record["language"], category=record["category"],
        tickers=tuple(frozenset(t) for t in [record["tickers"], *record.get("tickers_also", [])]),
        period=(date.fromisoformat(period[0]), date.fromisoformat(period[1])) if period else None,
        sources=frozenset(record["sources"]), sources_any=frozenset(record.get("sources_any", [])),
        prior=record.get("prior"), families=frozenset(record.get("families", [])),
        families_any=frozenset(record.get("families_any", [])))


def family_of(source: str) -> str:
    """The family of a catalogue source (`SourceSpec.family`); an unknown name is its own family,
    so a table naming a source that is gone misses rather than crashes."""
    spec = CATALOGUE.get(source)
    return spec.family if spec else source


def read(case: Case, now: datetime) -> Reading:
    """Run the question (after its prior turn, if any) through the rule-based analysis and plan.
    PlanError when the plan does not validate."""
    prior = analyse(case.prior, now) if case.prior else None
    analysis = analyse(case.question, now, prior=prior)
    tc = analysis.time_context
    graph = SearchGraph.build(case.question, tc, heuristic_plan(analysis, now))
    return Reading(
        tickers=frozenset(analysis.tickers), period=(tc.start, tc.end),
        sources=_with_stand_ins(node.source for node in graph),
        planned_tickers=frozenset(str(t) for node in graph if (t := node.args.get("ticker"))))


def _with_stand_ins(sources) -> frozenset[str]:
    """The planned sources, and the ones each stands in for (the same kind of data from another
    upstream): a China-market top-10 holders call (`fallback="holders"`) serves what the table
    asks of Yahoo's `holders`; a web search, whose fallback is news, is no news call."""
    planned = set(sources)
    return frozenset(planned | {spec.fallback for s in planned
                                if (spec := CATALOGUE.get(s)) and spec.fallback
                                and spec.kind == CATALOGUE[spec.fallback].kind
                                and not _one_listing(CATALOGUE[spec.fallback])})


def _one_listing(spec) -> bool:
    """A source for one listing only (the A-shares' bars Yahoo's history falls back to): the
    general source it backs up does not stand in for it."""
    return any(arg.listing for arg in spec.args)


def judge(case: Case, now: datetime) -> Verdict:
    """The case scored: right when the tickers are one of the expected sets (and each is fetched),
    the period matches (when scored), the required sources are planned and so are the families
    the question names. Right by family when the tickers, the period and the expected families
    (`Case.expected_families`) are."""
    try:
        reading = read(case, now)
    except FinSearchError as e:
        return Verdict(case, None, (f"no valid plan: {e}",), (f"no valid plan: {e}",))
    found = []
    if reading.tickers not in case.tickers:
        found.append(f"tickers {_set(reading.tickers)}, expected {_set(case.tickers[0])}")
    elif not reading.tickers <= reading.planned_tickers:
        found.append(f"tickers {_set(reading.tickers - reading.planned_tickers)} found but never fetched")
    if case.period and reading.period != case.period:
        found.append(f"period {_span(reading.period)}, expected {_span(case.period)}")
    misses = list(found)
    if missing := case.sources - reading.sources:
        misses.append(f"sources {_set(missing)} not planned (planned {_set(reading.sources)})")
    if case.sources_any and not case.sources_any & reading.sources:
        misses.append(f"none of {_set(case.sources_any)} planned (planned {_set(reading.sources)})")
    misses += _family_misses(reading, case.families, case.families_any)
    return Verdict(case, reading, tuple(misses), tuple(found + _family_misses(reading, *case.expected_families())))


def _family_misses(reading: Reading, every: frozenset[str], any_of: frozenset[str]) -> list[str]:
    planned = reading.families
    misses = []
    if missing := every - planned:
        misses.append(f"families {_set(missing)} not planned (planned {_set(planned)})")
    if any_of and not any_of & planned:
        misses.append(f"none of the families {_set(any_of)} planned (planned {_set(planned)})")
    return misses


def score(table: Table) -> list[Verdict]:
    return [judge(case, table.now) for case in table.cases]


def accuracy(verdicts: Iterable[Verdict]) -> float:
    verdicts = list(verdicts)
    return sum(v.right for v in verdicts) / len(verdicts) if verdicts else 0.0


def family_accuracy(verdicts: Iterable[Verdict]) -> float:
    verdicts = list(verdicts)
    return sum(v.right_by_family for v in verdicts) / len(verdicts) if verdicts else 0.0


def report(verdicts: list[Verdict]) -> str:
    """Overall, per language and per category accuracy, each with the accuracy by source family
    beside it; how often each family was planned where a question expects it; then every miss
    with what was found."""
    lines = [_line("overall", verdicts), ""]
    lines += _breakdown("language", verdicts, lambda v: v.case.language)
    lines += _breakdown("category", verdicts, lambda v: v.case.category)
    lines += _per_family(verdicts)
    misses = [v for v in verdicts if not v.right]
    lines.append(f"misses ({len(misses)})")
    for v in misses:
        lines.append(f"  [{v.case.language} {v.case.category}] {v.case.question}"
                     + (f"   (after: {v.case.prior})" if v.case.prior else ""))
        lines += [f"      {miss}" for miss in v.misses]
        if v.right_by_family:
            lines.append("      (right by family)")
    return "\n".join(lines)


def _breakdown(title: str, verdicts: list[Verdict], key: Callable[[Verdict], str]) -> list[str]:
    groups: dict[str, list[Verdict]] = {}
    for v in verdicts:
        groups.setdefault(key(v), []).append(v)
    return [title] + [_line(f"  {name}", group) for name, group in sorted(groups.items())] + [""]


def _per_family(verdicts: list[Verdict]) -> list[str]:
    """For each family, of the questions that expect every one of it, how many plans hold it."""
    lines = ["family planned where expected"]
    for family in FAMILIES:
        expecting = [v for v in verdicts if family in v.case.expected_families()[0]]
        if expecting:
            held = sum(v.reading is not None and family in v.reading.families for v in expecting)
            lines.append(f"  {family:<22} {held / len(expecting):6.1%}  ({held}/{len(expecting)})")
    return lines + [""]


def _line(label: str, verdicts: list[Verdict]) -> str:
    right, by_family = sum(v.right for v in verdicts), sum(v.right_by_family for v in verdicts)
    count = f"({right}/{len(verdicts)})"
    return (f"{label:<24} {accuracy(verdicts):6.1%}  {count:<11}"
            f"  by family {family_accuracy(verdicts):6.1%}  ({by_family}/{len(verdicts)})")


def _set(items: frozenset[str]) -> str:
    return "{" + ", ".join(sorted(items)) + "}"


def _span(period: Period) -> str:
    return f"{period[0].isoformat()}..{period[1].isoformat()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m finsearch.evaluate.understanding",
        description="Score the rule-based reading of a question table: tickers, period and sources.")
    parser.add_argument("table", type=Path, help="a JSON table like tests/data/understanding.json")
    args = parser.parse_args(argv)
    try:
        verdicts = score(load(args.table))
    except InputError as e:
        print(e, file=sys.stderr)
        return 2
    try:
        print(report(verdicts))
    except BrokenPipeError:         # the reader stopped early (`| head`): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # as the Python docs advise
    return 0


if __name__ == "__main__":
    sys.exit(main())
