"""A deep research report, as a stream of events: `run_report(question, …)`.

    analyse → outline (rules, or one model call) → OutlineReady
    → every section researched at once (SectionStarted, SectionProgress*, SectionWriting*, SectionDone),
      under one bound on source calls in flight and one budget of calls, one cache and hub
    → the report written and renumbered once → audited → ReportFinished(report)

`report(...)` is the blocking form. Like `pipeline.run`, an unusable question raises
InputError before any event; everything else is recorded in the report.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from ..answer.audit import audit
from ..answer.dated import Dating, searched_for
from ..answer.markdown import written
from ..answer.markdown_builder import Markdown, escape, md, say_md
from ..answer.titles import instrument, instrument_names, reference_title
from ..context import RunContext
from ..events import AnswerDelta
from ..evidence import Evidence, to_iso
from ..graph import SearchGraph
from ..phrases import say
from ..plan.analysis import analyse
from ..settings import Settings, from_env
from ..sources.hub import DataHub
from . import compose
from .budget import ReportBudget, SharedHub
from .numbering import ReportCitations
from .outline import Outline, make_outline
from .repeats import NEWS_SECTIONS, Homes, Placement, Repeats, without_orphan_headings
from .result import (
    KeyQuestionCheck,
    OutlineReady,
    Report,
    ReportAudit,
    ReportFinished,
    ReportStats,
    SectionDone,
    SectionProgress,
    SectionStarted,
    SectionWriting,
)
from .section import SectionResult, research
from .substance import Substance
from .summary import model_summary
from .tables import tables


def run_report(question: str, *, now: datetime | None = None, settings: Settings | None = None,
               budget: ReportBudget | None = None, cancel: threading.Event | None = None,
               hub: DataHub | None = None, outline: Outline | None = None) -> Iterator:
    """The report's events, ending with ReportFinished. With `outline` (one the reader
    approved or edited, e.g. from `outline_for` and `edit_outline`) the research follows it
    as given, cut to the budget's sections; without one it is written first, as usual."""
    budget = budget or ReportBudget()
    settings = settings or from_env()
    # One time budget for the whole report: the single question's is far too short for it.
    settings = settings.replace(deadline_s=max(settings.deadline_s, budget.seconds))
    ctx = RunContext.open(question, settings=settings, now=now, cancel=cancel, hub=hub)
    try:
        yield from _execute(dataclasses.replace(ctx, hub=SharedHub(ctx.hub, budget)), budget, outline)
    finally:
        ctx.close()


def outline_for(question: str, *, now: datetime | None = None, settings: Settings | None = None,
                budget: ReportBudget | None = None, cancel: threading.Event | None = None) -> Outline:
    """The outline alone, nothing fetched: the question read and outlined (by the model when
    there is one), to show, approve or edit (`edit_outline`) before `run_report(outline=…)`.
    InputError for an unusable question, as `run_report`."""
    budget = budget or ReportBudget()
    ctx = RunContext.open(question, settings=settings or from_env(), now=now, cancel=cancel, fetch=False)
    try:
        return dataclasses.replace(make_outline(ctx.analysis, ctx.live_model, budget.sections), usage=ctx.usage)
    finally:
        ctx.close()


def report(question: str, **kwargs) -> Report:
    done = None
    for event in run_report(question, **kwargs):
        if isinstance(event, ReportFinished):
            done = event.report
    return done


def _execute(ctx: RunContext, budget: ReportBudget, outline: Outline | None) -> Iterator:
    if outline is None:
        outline = make_outline(ctx.analysis, ctx.live_model, budget.sections)
    else:
        outline = dataclasses.replace(outline, sections=outline.sections[:budget.sections])
    yield OutlineReady(ctx.clock(), outline)

    inbox: queue.Queue = queue.Queue()
    results: dict[int, SectionResult] = {}
    interrupted: set[int] = set()        # sections that ended after Stop: they hold what was found by then
    with ThreadPoolExecutor(max_workers=len(outline.sections), thread_name_prefix="finsearch-section") as pool:
        futures = {}
        for index, section in enumerate(outline.sections, start=1):
            yield SectionStarted(ctx.clock(), index, section)
            post = (lambda i: lambda event: inbox.put(_progress(ctx.clock(), i, event)))(index)
            futures[index] = pool.submit(research, ctx, index, section, post)
        pending = set(futures)
        while pending:
            try:
                yield inbox.get(timeout=0.05)
            except queue.Empty:
                pass
            finished = [i for i in pending if futures[i].done()]
            # A section posts its events before its future is done: they go out before its SectionDone.
            while finished and not inbox.empty():
                yield inbox.get_nowait()
            for index in finished:
                pending.discard(index)
                result = futures[index].result()
                results[index] = result
                if ctx.cancel.is_set():
                    interrupted.add(index)
                yield SectionDone(ctx.clock(), index, len(result.given), len(result.missing))
        while not inbox.empty():
            yield inbox.get_nowait()
    sections = [results[i] for i in sorted(results)]
    yield ReportFinished(ctx.clock(), _write(ctx, outline, sections, budget, interrupted))


def _progress(at_ms: float, index: int, event):
    if isinstance(event, AnswerDelta):
        return SectionWriting(at_ms, index, event.text, event.restart)
    return SectionProgress(at_ms, index, event)


def _write(ctx: RunContext, outline, sections: list[SectionResult], budget: ReportBudget,
           interrupted: set[int]) -> Report:
    language = ctx.analysis.language
    names = instrument_names(ctx.analysis, language)
    for result in sections:
        names.update({k: v for k, v in instrument_names(result.analysis, language).items() if k not in names})
    # An item no section cited (a risk story, a table's row) is dated as a section would have.
    dating = Dating({k: v for r in sections for k, v in searched_for(r.graph).items()},
                    next(iter(names)) if len(names) == 1 else None)
    citations = ReportCitations(lambda item: reference_title(item, names, language), dating.day)
    # Every section's text renumbered first: a headline's home is known before any section is written.
    texts = [(r.index, r.section.key, [citations.cite(p, r.answer.references, {e.id: e for e in r.given}).strip()
                                       for p in _blocks(r.answer.markdown if r.answer else "",
                                                        say("answer.headlines", language))])
             for r in sections]
    placement = Placement(texts, lambda n: citations.cited[n - 1] if 0 < n <= len(citations.cited) else None)
    every: list[Evidence] = list({e.id: e for r in sections for e in r.given}.values())
    company = ctx.analysis.tickers[0] if outline.question_type == "company" and ctx.analysis.tickers else None
    # The summary, the tables, the verdicts and the conclusion the rules write from the findings, by type.
    substance = Substance(outline.question_type, list(ctx.analysis.tickers), ctx.analysis.question, every,
                          citations.number, names, language)
    placed = _place(substance.tables(), sections)
    written_sections: list[tuple[SectionResult, str]] = []
    bodies, drawn, own_tables = [], set(), {}
    for result in sections:                                       # a table is drawn once
        own_tables[result.index] = placed.get(result.index, []) if company or placed else \
            [t for t in tables(result.given, citations.number, names, language) if t not in drawn]
        drawn.update(own_tables[result.index])
    # Each fact of the finance data once, in the section of its kind (repeats.Homes).
    homes = Homes([(r.section.key, r.section.key_questions, [own for x in blocks if (own := placement.own(r.index, x))],
                    own_tables[r.index]) for r, (_, _, blocks) in zip(sections, texts, strict=True)],
                  lambda n: citations.cited[n - 1] if 0 < n <= len(citations.cited) else None)
    repeats = Repeats({say("answer.sample_data", language)})      # said once, under the limitations
    for pos, (result, (_, _, blocks)) in enumerate(zip(sections, texts, strict=True)):
        kept = []
        # A news section's headlines are its content; so are those a supplementary search found.
        own_list = result.section.key in NEWS_SECTIONS or any(x.found for x in result.supplements)
        for i, cited in enumerate(homes.blocks(pos)):
            lead = i == 0 and not cited.startswith(("-", "|", "*"))
            fresh = repeats.fresh(cited, keep=lead or (own_list and "\n- " in cited))
            if fresh:
                kept.append(fresh)
        if pos in homes.emptied:                            # its lead went to the section that fits it
            home = sections[homes.emptied[pos]]
            kept.append(say_md("report.see_section", language, n=home.index, title=home.section.title))
        if placement.moved.get(result.index):              # the headlines that fit here best
            heading = say("answer.headlines", language)
            at = next((i for i, p in enumerate(kept) if p.startswith(heading)), None)
            own = kept.pop(at).split("\n\n", 1)[1].split("\n") if at is not None else []
            lines = sorted([*own, *placement.moved[result.index]], key=lambda line: line[2:12])
            kept.insert(len(kept) if at is None else at, heading + "\n\n" + "\n".join(lines))
        kept[1:1] = substance.after_lead(result.section.key)
        kept += substance.ending(result.section.key)
        text = "\n\n".join(without_orphan_headings(kept))
        # What the section found, repeats included: its key questions read that (a market cap first
        # said under another heading still answers "its market cap?").
        written_sections.append((result, "\n\n".join(p for p in blocks if p)))
        bodies.append(compose.section_markdown(result, text, own_tables[result.index], language))
    hub: SharedHub = ctx.hub
    extra = [say_md("report.budget_spent", language, calls=budget.source_calls)] if hub.refused else []
    if ctx.hub.sample:
        extra.append(say_md("answer.sample_data", language))
    risks = compose.risks(every, citations, compose.limitations(sections, extra, language), language,
                          placement.shown())
    who = [instrument(t, names, language) for t in ctx.analysis.tickers[:3]]
    summary_note = by_model = None
    if ctx.live_model is not None and citations.cited:
        by_model, summary_note = model_summary(ctx.analysis.question,
                                               [(r.section.title, t) for r, t in written_sections],
                                               len(citations.cited), language, ctx.live_model)
    # The rules' summary only when it is the one shown: it may cite what no section did.
    summary = written(by_model or substance.summary()) or compose.executive_summary(written_sections, language,
                                                                                     ctx.analysis.intents)
    conclusion = written(substance.conclusion())   # before the references are taken: it may cite what no section did
    refs = citations.references()
    summary_by = "llm" if by_model else "heuristic"
    body = Markdown("\n\n").join([md("## {}", say("report.executive", language)), summary, *bodies,
                                   *filter(None, [conclusion]), md("## {}", say("report.risks", language)), risks])
    merged = _merged_graph(ctx, sections)
    whole = audit(_claims(body, language), refs, merged, ctx.analysis)
    checks = _key_questions(ctx, sections, written_sections, refs, merged)
    answered = sum(1 for c in checks if c.ok)
    stats = ReportStats(len(sections), hub.calls, hub.stats.cache_hits, hub.refused, hub.most_in_flight,
                        ctx.usage.calls, ctx.usage.prompt_tokens, ctx.usage.completion_tokens, round(ctx.clock()))
    writer = "llm" if any(r.answer and r.answer.writer == "llm" for r in sections) else "heuristic"
    meta = say_md("report.meta", language, now=to_iso(ctx.now)[:16].replace("T", " "),
                  kind=say(f"report.kind.{outline.question_type}", language),
                  outline_by=say(f"report.by.{outline.by}", language), writer=say(f"report.by.{writer}", language))
    head = [md("# {}", compose.title([escape(w) for w in who], ctx.analysis.question, outline.question_type,
                                     to_iso(ctx.now)[:10], language)),
            compose.trust_summary(whole, answered, len(checks), language),
            md("_{}{}_", meta, md(" · {}", say("report.outline_edited", language)) if outline.edited else ""),
            md("_{}_", say_md("report.budget", language, sections=budget.sections, calls=budget.source_calls,
                              sections_used=len(sections), used=hub.calls, cached=hub.stats.cache_hits,
                              llm_calls=ctx.usage.calls, tokens=ctx.usage.prompt_tokens + ctx.usage.completion_tokens,
                              seconds=f"{ctx.clock() / 1000:.1f}"))]
    # Stopped only if the Stop cut a section short: one that lands while the finished report is
    # being written leaves it whole (and the flag and the sentence can never disagree).
    stopped = bool(interrupted)
    if stopped:
        cut = say_md("list.sep", language).join(r.section.title for r in sections if r.index in interrupted)
        stopped_line = md("**{}**", say("report.stopped", language, done=len(sections) - len(interrupted),
                                        total=len(sections)))
        head.insert(1, stopped_line + (md(" {}", say_md("report.stopped_cut", language, sections=cut)) if cut else ""))
    markdown = Markdown("\n\n").join([*head, body, compose.references_markdown(refs, language)]) + Markdown("\n")
    notes = tuple(dict.fromkeys([*outline.notes, *ctx.hub.notices(), *(n for r in sections for n in r.notes),
                                 *((summary_note,) if summary_note else ())]))
    return Report(ctx.analysis, ctx.now, outline, tuple(sections), merged, markdown, refs,
                  ReportAudit(whole, tuple(checks)), budget, stats, writer, ctx.hub.sample,
                  stopped, notes, summary_by=summary_by,
                  usage=ctx.usage.plus(outline.usage) if outline.usage is not None else ctx.usage)


# Where a company table goes when the outline has no section of its key.
_TABLE_FALLBACK = {"analysts": ("valuation",), "results": ("business", "news"), "price": ("news",),
                   "valuation": ("analysts", "business")}


def _place(by_key: dict[str, str], sections: list[SectionResult]) -> dict[int, list[str]]:
    """section index → the company tables it shows: each in the section of its key, else a
    related one, else the first."""
    index = {}
    for r in sections:
        index.setdefault(r.section.key, r.index)
    out: dict[int, list[str]] = {}
    for key, table in by_key.items():
        where = next((index[k] for k in (key, *_TABLE_FALLBACK.get(key, ())) if k in index), sections[0].index)
        out.setdefault(where, []).append(table)
    return out


# The report's notes on its own research (what was searched again, what is still missing, the
# budget): their dates and numbers are the searches', not claims about the company.
_NOTES = (("report.supplementary", "queries"), ("report.still_missing", "what"), ("report.budget_spent", "calls"),
          ("report.gap", "group"))


def _claims(body: str, language) -> str:
    """The body without the research notes: what the audit reads."""
    blank = {name: "\0" for _, name in _NOTES} | {"what": "\0", "sections": "\0", "count": 1}
    heads = tuple(say(key, language, **blank).split("\0")[0] for key, _ in _NOTES)
    return "\n".join(line for line in body.split("\n") if not line.removeprefix("- ").startswith(heads))


def _blocks(markdown: str, headlines: str) -> list[str]:
    """A section's text in paragraphs, the headlines' heading kept with its list."""
    out: list[str] = []
    for paragraph in markdown.split("\n\n"):
        if out and out[-1] == headlines:
            out[-1] += "\n\n" + paragraph
        else:
            out.append(paragraph)
    return out


def _merged_graph(ctx: RunContext, sections: list[SectionResult]) -> SearchGraph:
    """Every section's nodes in one graph, ids prefixed by the section (s2n3): what the
    audit reads as "retrieved", and what the charts and the exports draw."""
    merged = SearchGraph(ctx.analysis.question, ctx.analysis.time_context)
    for result in sections:
        prefix = f"s{result.index}"
        for node in result.graph.topological():
            copy = node.copy()
            copy.id = prefix + node.id
            copy.depends_on = tuple(prefix + d if d != "n0" else d for d in node.depends_on)
            merged.apply(copy)
    return merged


def _key_questions(ctx: RunContext, sections, written, refs, merged) -> list[KeyQuestionCheck]:
    """Each key question answered by a cited sentence of its own section, or not."""
    checks = []
    for result, text in written:
        for question in result.section.key_questions:
            analysis = analyse(question, ctx.now, prior=ctx.analysis)
            found = audit(text, refs, merged, analysis).answered
            checks.append(KeyQuestionCheck(result.index, question, found.intents, found.answered,
                                           found.missing_intents))
    return checks
