"""The question tools — `ask`, `plan` and `research_report` — over the service core: a request
read by `AskRequest`, admitted by the app's limits, run by `RunFeed` / `ReportFeed` in their
worker threads, a report as a job (read here from a thread of anyio's, so the server keeps answering), saved under
the caller's owner so `finsearch://runs/…` and `finsearch://reports/…` open it again.

Progress goes to the client as MCP progress notifications: an answer's searches as they end, a
report's sections as they start and end. A client's cancel stops the run or the report."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import anyio
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult

from .. import pipeline
from ..errors import InputError
from ..events import NodeFailed, NodeFinished, PlanReady
from ..hosting.counters import QuestionCounter, open_counter
from ..hosting.limits import SLOTS, admit_if_countable
from ..jobs.shared import jobs_here
from ..service.callers import Caller
from ..service.feed import RunFeed
from ..service.report_feed import ReportFeed
from ..service.request import AskRequest
from ..settings import Settings
from ..store import open_store
from .callers import Callers
from .tools import ArgumentsTool, as_text, result, tool

_QUESTION = {"type": "string", "description": "the question, in English or Chinese, "
                                              "e.g. \"Why did NVDA fall last week?\" or \"茅台最近怎么样？\""}
_NOW = {"type": "string", "description": "the question's current time, ISO 8601 (e.g. 2024-10-15T20:00:00Z), "
                                         "so \"last week\" means the week before it; default: now"}
_TICKERS = {"type": ["array", "object"], "items": {"type": "string"}, "additionalProperties": {"type": "string"},
            "description": "read an instrument of the question as another ticker: a list of \"WORDS=TICKER\" "
                           "(e.g. [\"SOL=SOL-USD\"]) or an object {\"WORDS\": \"TICKER\"}"}
_PERIOD = {"type": "string", "description": "the period to search instead of the one the question implies, "
                                            "START:END in days, e.g. 2024-09-18:2024-10-15"}
ASK_SCHEMA = {"type": "object", "properties": {"question": _QUESTION, "now": _NOW, "tickers": _TICKERS,
                                               "period": _PERIOD},
              "required": ["question"], "additionalProperties": False}
REPORT_SCHEMA = {"type": "object", "properties": {"question": _QUESTION, "now": _NOW},
                 "required": ["question"], "additionalProperties": False}

_T = TypeVar("_T")
_END = object()


@dataclasses.dataclass
class QuestionTools:
    settings: Settings
    callers: Callers
    counter: QuestionCounter | None = None

    def __post_init__(self) -> None:
        self.counter = self.counter or open_counter(self.settings)
        self.store = open_store(self.settings)

    def tools(self) -> list[ArgumentsTool]:
        return [
            tool("ask", "Answer a financial question with cited evidence: the searches planned and run "
                        "(quotes, prices, news, filings, China-market data), the answer in markdown with [n] "
                        "citations, its references with URLs and time weights, how the question was read, the "
                        "audit of every cited sentence, and the run's id (finsearch://runs/{run_id}).",
                 ASK_SCHEMA, self.ask, title="Ask"),
            tool("plan", "The search graph FinSearch would run for a question — each search's source, "
                         "arguments and dependencies, and how the question was read — without fetching anything.",
                 ASK_SCHEMA, self.plan, title="Plan"),
            tool("research_report", "Write a deep research report: an outline of sections, each researched "
                                    "and written with citations, then audited. Long-running (tens of seconds or "
                                    "more): progress is notified as each section starts and ends, and cancelling "
                                    "the call stops the report. Returns the report's markdown, references and id "
                                    "(finsearch://reports/{report_id}).",
                 REPORT_SCHEMA, self.research_report, read_only=False, title="Research report"),
        ]

    # -- the tools -----------------------------------------------------------------------------

    async def ask(self, arguments: dict, ctx: Context) -> CallToolResult:
        request = AskRequest.from_json(arguments)
        caller = self.callers.of(ctx)
        self._admit(caller, request)
        feed = RunFeed(request, self.settings, on_finish=self._saver(caller)).start()
        SLOTS.hold(caller.owner, feed.run)
        try:
            total, done = 0, 0
            async for event in _read(feed.events()):
                if isinstance(event, PlanReady):
                    total = len(event.graph)
                elif isinstance(event, (NodeFinished, NodeFailed)):
                    done += 1
                    total = max(total, done)              # the model's plan may add searches as it streams
                    node = event.node
                    await ctx.report_progress(done, total, f"{node.id} {node.source}: {node.status.value}")
        except anyio.get_cancelled_exc_class():
            feed.stop()
            raise
        outcome = feed.outcome()
        if outcome.get("type") == "Error":
            return result(outcome["error"], outcome, error=True)
        return result(_answer_text(outcome), outcome)

    async def plan(self, arguments: dict, ctx: Context) -> CallToolResult:
        request = AskRequest.from_json(arguments)
        planned = await anyio.to_thread.run_sync(
            lambda: pipeline.plan_only(request.question, settings=request.settings(self.settings),
                                       corrections=request.corrections()))
        outcome = planned.to_dict(with_answer=False)
        return result(as_text({k: outcome[k] for k in ("interpretation", "graph")}), outcome)

    async def research_report(self, arguments: dict, ctx: Context) -> CallToolResult:
        request = AskRequest.from_json(arguments)
        caller = self.callers.of(ctx)
        feed = ReportFeed.asked(request, jobs_here(self.settings), self.store, caller.owner)  # refuses tickers
        self._admit(caller, request)
        await anyio.to_thread.run_sync(feed.start)
        SLOTS.hold(caller.owner, feed.report)
        stages: dict[int, float] = {}
        try:
            async for step in _read(feed.progress()):
                line = step.line
                if line["type"] == "OutlineReady":
                    message = f"Outline of {step.total} sections: " + "; ".join(line["sections"])
                else:
                    started = line["type"] == "SectionStarted"
                    stages[line["index"]] = 0.5 if started else 1.0      # so progress rises with every line
                    message = f"Section {line['index']} of {step.total} {'started' if started else 'done'}: " \
                              f"{line['title']}"
                await ctx.report_progress(sum(stages.values()), step.total, message)
        except anyio.get_cancelled_exc_class():
            feed.stop()                  # the report is written from the sections as they stand, marked cancelled
            raise
        outcome = await anyio.to_thread.run_sync(feed.outcome)
        if outcome.get("type") == "Error":
            return result(outcome["error"], outcome, error=True)
        return result(outcome["markdown"], outcome)

    # -- shared --------------------------------------------------------------------------------

    def _admit(self, caller: Caller, request: AskRequest) -> None:
        refusal = admit_if_countable(caller.owner, self.settings, self.counter, peer=caller.peer,
                                     question=request.question)
        if refusal is not None:
            raise InputError(refusal.message)

    def _saver(self, caller: Caller):
        return lambda finished: self.store.save(finished, owner=caller.owner)


async def _read(items: Iterator[_T]) -> AsyncIterator[_T]:
    """The items of a blocking iterator, each waited for in a worker thread. Cancelling the reader
    leaves that thread to see the end the caller's stop brings (a poll of a tenth of a second)."""
    while True:
        item = await anyio.to_thread.run_sync(next, items, _END, abandon_on_cancel=True)
        if item is _END:
            return
        yield item


def _answer_text(outcome: dict) -> str:
    """The answer as a model reads it: the markdown, then the references it cites by number."""
    answer = outcome.get("answer") or {}
    lines = [answer.get("markdown") or "No answer was written."]
    references = answer.get("references") or []
    if references:
        lines += ["", "References"]
        lines += [f"[{r['n']}] {r['title']}" + (f" — {r['url']}" if r.get("url") else "") for r in references]
    lines += [f"Note: {note}" for note in outcome.get("notes") or []]
    return "\n".join(lines)
