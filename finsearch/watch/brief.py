"""The brief: what happened to each instrument of a watchlist since its last brief, as one cited notice.

Written by the answer engine itself (the model when configured, else the rules): for each
instrument two questions go through the pipeline in the watchlist's language — how it did since
the day, and why (the move and its causes); and its latest filings or announcements, analyst
changes and next earnings date. Two questions, not one, because one question asking both reads
its period from the earnings date. Each answer's [k] become the brief's [n] through the report's
numbering (`research.numbering`), so a story two answers cite is one reference.

`write_brief` is what `python -m finsearch brief` prints and `run_due_brief` is the scheduled
job's body (the JOBS part calls it with the args `schedule.due_briefs` gave).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone

from .. import pipeline
from ..answer.dated import Dating, searched_for
from ..answer.markdown import written
from ..answer.markdown_builder import Markdown, say_md
from ..answer.titles import instrument, instrument_names, reference_title
from ..delivery.notice import Notice
from ..errors import InputError
from ..phrases import Language, say
from ..research.numbering import ReportCitations
from ..result import RunResult
from ..settings import Settings
from .lists import Watchlists
from .schedule import briefed_tickers, local_day_of, previous_slot, slot
from .watchlist import Watchlist

log = logging.getLogger(__name__)

DEFAULT_SINCE_DAYS = 7                 # `brief` without --since and a watchlist's first brief
ASKS = ("brief.ask_move", "brief.ask_news")
Ask = Callable[[str, Settings], RunResult | None]


def _ask(question: str, settings: Settings) -> RunResult | None:
    return pipeline.ask(question, settings=settings)


def write_brief(tickers: list[str], settings: Settings, *, since: date | None = None, language: Language = "en",
                owner: str = "local:", watchlist_id: str = "adhoc", local_day: date | None = None,
                ask: Ask = _ask) -> Notice:
    """The brief on `tickers` (as `watchlist.instrument_of` reads them) since `since` (default a
    week before `settings.now` or now), as the notice "brief-<watchlist_id>-<local_day>"."""
    now = settings.now or datetime.now(timezone.utc)
    settings = settings.replace(now=now)
    since = since or (now.date() - timedelta(days=DEFAULT_SINCE_DAYS))
    local_day = local_day or now.date()
    results: list[tuple[str, list[RunResult]]] = []
    for ticker in tickers:
        runs = []
        for key in ASKS:
            try:
                result = ask(say(key, language, ticker=ticker, day=since.isoformat()), settings)
            except InputError as exc:          # a question the reader refused: said in the brief
                log.info("brief of %s: %s", ticker, exc)
                result = None
            if result is not None and result.answer is not None:
                runs.append(result)
        results.append((ticker, runs))
    markdown, references = _combine(results, language)
    names = Markdown(say("list.sep", language)).join(tickers)
    return Notice(f"brief-{watchlist_id}-{local_day.isoformat()}", owner, "brief",
                  say("brief.title", language, names=str(names), day=local_day.isoformat()),
                  markdown, tuple(references), language, now)


def _combine(results: list[tuple[str, list[RunResult]]], language: Language):
    """One markdown of every answer, under a heading per instrument, cited with one numbering."""
    runs = [r for _, rs in results for r in rs]
    names: dict[str, str] = {}
    for r in runs:
        names.update({k: v for k, v in instrument_names(r.analysis, language).items() if k not in names})
    dating = Dating({k: v for r in runs for k, v in searched_for(r.graph).items()},
                    results[0][0] if len(results) == 1 else None)
    citations = ReportCitations(lambda item: reference_title(item, names, language), dating.day)
    sample_line = say("answer.sample_data", language)
    parts: list[str] = []
    said: set[str] = set()
    joiner = say("answer.sentence_sep", language)
    for ticker, rs in results:
        parts.append(str(say_md("brief.heading", language, who=instrument(ticker, names, language))))
        if not rs:
            parts.append(str(say_md("brief.nothing", language, who=instrument(ticker, names, language))))
        for r in rs:
            evidence = {e.id: e for n in r.graph for e in n.evidence}
            text = citations.cite(str(written(r.answer.markdown)), list(r.answer.references), evidence)
            # The sample-data line is said once, at the end, not once per answer.
            for block in (_unsaid(b.strip(), said, joiner) for b in text.split("\n\n") if b.strip() != sample_line):
                if block:
                    parts.append(block)
                elif parts and _LIST_HEADING.fullmatch(parts[-1]):
                    parts.pop()                # a list heading whose every line was listed already

    if any(r.sample for r in runs):
        parts.append(sample_line)
    return "\n\n".join(parts) + "\n", citations.references()


# The end of a cited sentence: "… [2]." / "… [2]。" (a list line or a heading is one block, not split).
_CITED_END = re.compile(r"(?<=\]\.)\s+|(?<=\]。)")
_LIST_HEADING = re.compile(r"\*\*[^*\n]+\*\*")            # "**Headlines**", "**Earlier and later coverage**"


def _unsaid(block: str, said: set[str], joiner: str) -> str:
    """A paragraph without the cited sentences an earlier answer of the brief said already (both
    answers about one instrument give its last trade), and a list without the lines an earlier list
    gave (both answers list the day's filings), so a fact reads once; `said` gains the rest."""
    if not block or block.startswith(("#", "**", "_")):
        return block
    if block.startswith("- "):
        kept = [line for line in block.split("\n") if line.strip() not in said]
        said.update(line.strip() for line in kept)
        return "\n".join(kept) if any(line.startswith("- ") for line in kept) else ""
    kept = [s for s in _CITED_END.split(block) if s.strip() and s.strip() not in said]
    said.update(s.strip() for s in kept)
    return joiner.join(s.strip() for s in kept)


def run_due_brief(watchlists: Watchlists, watchlist_id: str, owner: str, local_day: str, settings: Settings,
                  ask: Ask = _ask) -> Notice | None:
    """The scheduled job: the brief of watchlist `watchlist_id` for `local_day` (ISO), covering the
    days since its last brief, and the watchlist marked as briefed at that day's slot. None when
    the watchlist is gone (deleted since) or its markets were all closed."""
    watchlist = watchlists.get(watchlist_id, owner)
    if watchlist is None:
        return None
    day = date.fromisoformat(local_day)
    at = slot(watchlist.schedule, day)
    tickers = briefed_tickers(watchlist, at)
    if not tickers:
        return None
    since = local_day_of(watchlist.last_brief_at or previous_slot(watchlist.schedule, at), watchlist.schedule)
    notice = write_brief(list(tickers), settings.replace(now=settings.now or at), since=since,
                         language=watchlist.language, owner=watchlist.owner, watchlist_id=watchlist.watchlist_id,
                         local_day=day, ask=ask)
    # The mark is made on the watchlist as it is now, not as it was read before the writing (minutes, on live
    # sources): an instrument the visitor added meanwhile stays, and the mark is not lost to their edit.
    watchlists.update(watchlist.watchlist_id, watchlist.owner, lambda current: _briefed(current, at))
    return notice


def _briefed(watchlist: Watchlist | None, at: datetime) -> Watchlist | None:
    if watchlist is None or (watchlist.last_brief_at and watchlist.last_brief_at >= at):
        return watchlist                       # deleted meanwhile, or marked as late already: left as it is
    return dataclasses.replace(watchlist, last_brief_at=at)
