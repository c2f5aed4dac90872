"""The rule-based answer, paragraph by paragraph, each given as soon as it is written (`paragraphs`):

1. the lead: what was asked, answered (`lead`);
2. for a "why" question, the explanation: the other stories that give the cause, what speaks
   against it, and the caveat when causes compete (`causes`);
3. the detail: each instrument's figures (`facts`, `company_facts`, `ownership_facts`), less the
   sentences whose every figure the lead already gave;
4. the headlines not cited above, each story once: those of the asked period, then those
   before or after it (after an explanation in prose, only their citations: the References list
   below names them);
5. what could not be found (`gaps`), and the sample-data label.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from datetime import datetime

from ..evidence import Evidence
from ..graph import SearchGraph
from ..phrases import Language, say
from ..phrases.numbers import money
from ..plan.analysis import Analysis
from ..sources.coverage import PackCoverage
from . import company_facts, ownership_facts
from . import facts as answer_facts
from .cause_sentences import explanation_sentences
from .citations import markers
from .gaps import gaps_paragraph
from .lead import opening
from .markdown import escape
from .titles import instrument_names
from .told import Told
from .view import AnswerView

log = logging.getLogger(__name__)

HEADLINES_PER_ANSWER = 6
HEADLINES_AT_LEAST = 4
HEADLINE_MIN_WEIGHT = 0.25      # older stories stay in the evidence panel, not the answer


def _when(item: Evidence) -> str:
    return item.published or ((item.period or {}).get("end") or "") or "9999"


def paragraphs(analysis: Analysis, given: list[Evidence], graph: SearchGraph, now: datetime, sample: bool,
               coverage: PackCoverage | None) -> Iterator[str]:
    """The rule-based answer for the numbered evidence `given` (its paragraphs, to be joined by
    blank lines), each paragraph as soon as it is written: the lead before the explanation and
    the detail are worked out, so a reader sees the answer to the question first."""
    language = analysis.language
    names = instrument_names(analysis, language)
    when = analysis.time_context.label if analysis.time_context.explicit else say("when.over_the_period", language)
    index = {e.id: i for i, e in enumerate(given, start=1)}
    joiner = say("answer.sentence_sep", language)
    finance = [e for e in given if e.kind == "finance"]
    order = list(names) + [t for t in ((e.ticker or "") for e in finance) if t not in names]
    written: list[str] = []

    def done(paragraph: str) -> str:
        written.append(paragraph)
        return paragraph

    if analysis.unknown and not analysis.entities:
        # Said first: the question named something we do not know, and nothing else is about it.
        yield done(escape(joiner.join(n for n in analysis.notes if any(w in n for w in analysis.unknown))))
    # The answer to what was asked first, then what explains it, then the detail that supports it.
    view = AnswerView.of(analysis, given, graph, names, when, now)
    lead = opening(view)
    if lead.sentences:
        yield done(joiner.join(lead.sentences))
    explained = [s for e in lead.explained for s in explanation_sentences(e, view)]
    if explained:
        yield done(joiner.join(explained))
    histories = [(e, index[e.id]) for e in finance if e.payload == "price_history"]
    ranked = answer_facts.comparison(histories, names, language, when) if len(histories) > 1 else ""
    if ranked and not any(s.startswith(ranked.rstrip("。.")) for s in lead.sentences):
        yield done(ranked)
    else:
        ranked = ""
    # What the opening, its explanation and the ranking gave, figure by figure, for the detail to leave out.
    opened = Told.of(lead.sentences + tuple(explained) + ((ranked,) if ranked else ()))
    for ticker in dict.fromkeys(order):
        # An instrument's detail tells its own later sentences, not another's (two stocks can both
        # move -0.60% on one day).
        told = opened
        mine = [e for e in finance if (e.ticker or "") == ticker]
        mine.sort(key=lambda e: e.payload != "price_history")
        sentences = []
        for item in mine:
            left_behind = _left_behind(view, item, ticker)
            written_out = answer_facts.quote(item, index[item.id], names, language, dated=True, told=told) \
                if left_behind else item_facts(item, index[item.id], names, language, when, told)
            new = [s for s in written_out if not lead.says(s) and not _all_said(s, opened)]
            told = told.and_then(new)
            sentences += new
            sentences += _stale(view, item, ticker, lead)
        if sentences:
            yield done(joiner.join(sentences))
    cited = {given[n - 1].id for text in written for n in markers(text) if 0 < n <= len(given)}
    inside, outside = _headlines(view, index, cited)
    if lead.explained:
        # An explanation in prose: the other stories are references below it, each headline shown once
        # (in the References list), not listed again here.
        refs = [say(key, language, refs="".join(re.findall(r"\[\d+\]$", line)[0] for line in lines))
                for key, lines in (("answer.other_stories", inside), ("answer.other_stories_outside", outside))
                if lines]
        if refs:
            yield done(joiner.join(refs))
    else:
        if inside:
            yield done(say("answer.headlines", language) + "\n\n" + "\n".join(inside))
        if outside:
            yield done(say("answer.other_coverage", language) + "\n\n" + "\n".join(outside))
    gaps = gaps_paragraph(graph, analysis, coverage, lead.stated)
    if gaps:
        yield done(gaps)
    if not written:
        yield done(say("answer.no_evidence", language))
    if sample:
        yield done(say("answer.sample_data", language))


def _left_behind(view: AnswerView, item: Evidence, ticker: str) -> bool:
    """A quote whose price newer daily closes have replaced: it is no 'last trade'."""
    current = view.current("price", ticker) if item.source == "quote" else None
    return current is not None and current.stale is not None and current.stale.item.id == item.id


def _stale(view: AnswerView, item: Evidence, ticker: str, lead) -> list[str]:
    """A quote the daily closes have left behind says how old it is (once: not when the lead did)."""
    if not _left_behind(view, item, ticker):
        return []
    current = view.current("price", ticker)
    fresh = current.value
    sentence = say("facts.stale_quote", view.language, days=str(current.age_days),
                   quote_date=current.stale.as_of.isoformat() if current.stale.as_of else "",
                   price=money(fresh.value, fresh.currency, view.language),
                   date=fresh.as_of.isoformat() if fresh.as_of else "", ref=view.ref(fresh.item))
    return [] if any(str(current.age_days) in s and fresh.as_of and fresh.as_of.isoformat() in s
                     for s in lead.sentences) else [sentence]


MOSTLY_SAID = 2 / 3        # a detail sentence two thirds of whose figures the lead gave would only repeat it


def _all_said(sentence: str, told: Told) -> bool:
    """Most figures of a detail sentence (every one, when it has fewer than three) are ones the
    lead gave, each for the same day when it is said of one: the sentence would repeat it."""
    figures, repeated = told.repeated(sentence)
    return bool(figures) and (repeated == figures or (figures >= 3 and repeated >= MOSTLY_SAID * figures))


def item_facts(item: Evidence, number: int, names: dict, language: Language, when: str,
               told: Told = answer_facts.NOTHING_TOLD) -> list[str]:
    """The sentences one finance item gives, less the figures `told` gave for the same day or
    evidence; an item whose payload cannot be read gives none (payloads are checked where they
    enter, this is the last line)."""
    try:
        if item.payload == "price_history":
            return answer_facts.price_history(item, number, names, language, when, told)
        if item.source in answer_facts.TOLD_WRITERS:
            return answer_facts.TOLD_WRITERS[item.source](item, number, names, language, told=told)
        writer = answer_facts.WRITERS.get(item.source) or company_facts.WRITERS.get(item.source) \
            or ownership_facts.WRITERS.get(item.source)
        if writer is not None:
            return writer(item, number, names, language)
    except Exception:  # a payload shape nobody foresaw: leave its figures out, say nothing wrong
        log.exception("could not read a %s payload", item.source)
    return []


def _headlines(view: AnswerView, index: dict[str, int], cited: set[str]) -> tuple[list[str], list[str]]:
    """The best-weighted stories the paragraphs above did not cite, as dated lines: those of the
    asked period, and those before or after it (only a period the question named has an outside)."""
    stories = [e for e in view.given if e.kind != "finance" and e.id not in cited]
    stories.sort(key=lambda e: e.published or "", reverse=True)        # ties: newest first
    stories.sort(key=lambda e: -(e.time_weight or 0))
    best = [e for e in stories if (e.time_weight or 0) >= HEADLINE_MIN_WEIGHT][:HEADLINES_PER_ANSWER]
    if len(best) < HEADLINES_AT_LEAST:       # a quiet window: show the freshest older stories too
        best += [e for e in stories if e not in best][: HEADLINES_AT_LEAST - len(best)]
    period = view.analysis.time_context
    inside: list[str] = []
    outside: list[str] = []
    for item in sorted(best, key=_when):
        day = view.day(item)
        who = f" · {escape(item.publisher)}" if item.publisher else ""
        shown = day or say("answer.undated", view.language)
        line = f"- {shown}{who}: {escape(item.title)} [{index[item.id]}]"
        away = period.explicit and day is not None and not period.start <= day <= period.end
        (outside if away else inside).append(line)
    return inside, outside
