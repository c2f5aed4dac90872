"""The dynamic query rewriter: refine a node from its parents' results before it runs.

Heuristic rewriting is template filling:
- below a price history: the date and size of the biggest move found upstream
  ("Why did NVIDIA (NVDA) fall 4.7% on 2024-10-11?"), with the search narrowed to it;
- below a symbol search: the ticker it resolved;
- below earnings, in a "since earnings" question: the window from the latest report to today
  (the rules' plan guessed a quarter; `report_days` tells the interpretation the day found);
- below earnings otherwise: the date of the latest report.
Each fills in a date, a figure or a ticker from a parent's result, so on the graph schedule it
stands as it is, model or not (`run.executor`): a model call would only reword it, on the
critical path. The LLM rewriter (one short call per node) rewrites what no template covers (and,
in the paper's sequential schedule, refines every node's draft); when it fails, the draft (or
the node as planned) stands. Both versions of the sub-query stay on the node.

`follow_ups` proposes up to a few extra nodes when a result reveals a gap.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import date, datetime, timedelta

from ..catalogue import CATALOGUE, payload_of
from ..errors import LLMError
from ..evidence import to_iso
from ..graph import Author, NodeStatus, SearchGraph, SearchNode
from ..model.language_model import LanguageModel
from ..model.prompts import fill, prompt
from ..model.text import parse_json_object
from ..phrases import say
from ..phrases.dates import DaySpan
from ..phrases.numbers import MONTH_NAMES
from ..plan.analysis import Analysis
from ..plan.interpretation import AnchorDay
from ..source_args import check_args
from ..timecontext import CAUSE_DAYS_AFTER, CAUSE_DAYS_BEFORE, TimeContext


@dataclasses.dataclass(frozen=True)
class Rewrite:
    sub_query: str
    args: dict
    time_context: TimeContext
    by: Author
    note: str | None = None      # why an LLM rewrite fell back, when it did


@dataclasses.dataclass(frozen=True)
class SpokenDay:
    """A day as search phrases pick from it: {day.month_name} {day.day}, {day.year} or
    {day.year}年{day.month}月{day.day}日."""
    year: int
    month: int
    day: int
    month_name: str

    @classmethod
    def of(cls, day: date) -> SpokenDay:
        return cls(day.year, day.month, day.day, MONTH_NAMES[day.month - 1])


@dataclasses.dataclass(frozen=True)
class Move:
    ticker: str
    day: date
    change_pct: float


def biggest_move(node: SearchNode) -> Move | None:
    for item in node.evidence:
        history = item.prices
        if history is not None and history.stats.biggest_moves:
            top = max(history.stats.biggest_moves, key=lambda m: abs(m.change_pct))
            return Move(str(history.ticker or node.args.get("ticker")), date.fromisoformat(top.date[:10]),
                        top.change_pct)
    return None


def resolved_ticker(node: SearchNode) -> tuple[str, str] | None:
    """(symbol, name) of the best match a symbol search returned."""
    for item in node.evidence:
        data = item.data or {}
        matches = data.get("matches")
        for match in matches if isinstance(matches, list) else []:
            if isinstance(match, dict) and match.get("symbol"):
                return str(match["symbol"]), str(match.get("name") or match["symbol"])
    return None


def last_report_date(node: SearchNode, today: date) -> date | None:
    for item in node.evidence:
        rows = (item.data or {}).get("history")
        rows = rows if isinstance(rows, list) else []
        days = []
        for row in rows:
            try:
                day = date.fromisoformat(str(row.get("date"))[:10])
            except (ValueError, AttributeError):
                continue
            if day <= today:
                days.append(day)
        if days:
            return max(days)
    return None


def dates_window(parent: SearchNode, node: SearchNode) -> bool:
    """Whether `parent` is there to date `node`'s window: the earnings calendar above a node of a
    "since earnings" question (when it has no report, `node` still runs, over the guessed window)."""
    return parent.source == "earnings" and node.time_context.anchor == "earnings" and not node.time_context.forward


def report_days(nodes: list[SearchNode], today: date) -> tuple[AnchorDay, ...]:
    """Each ticker's last report day, from the earnings nodes that found one."""
    days = {}
    for node in nodes:
        if node.source == "earnings" and node.status is NodeStatus.DONE and node.args.get("ticker") \
                and (reported := last_report_date(node, today)):
            days.setdefault(str(node.args["ticker"]), reported)
    return tuple(AnchorDay(ticker, day) for ticker, day in days.items())


def since_report(node: SearchNode, reported: date, analysis: Analysis, today: date) -> Rewrite:
    """`node` over the days from the report to today, in place of the guessed window."""
    language, args = analysis.language, dict(node.args)
    if "start" in args:
        args.update(start=reported.isoformat(), end=today.isoformat())
    ticker = str(args.get("ticker") or "")
    if payload_of(node.source) == "price_history" and ticker:
        name = _names(analysis).get(ticker, ticker)
        label = ticker if name == ticker else say("instrument", language, name=name, ticker=ticker)
        span = DaySpan(reported.isoformat(), today.isoformat())
        sub = say("subquery.price_history", language, label=label, span=span)
    else:
        sub = say("subquery.since_report", language, sub_query=node.sub_query, date=reported.isoformat())
    tc = dataclasses.replace(node.time_context, start=reported, end=today, anchor=None)
    return Rewrite(sub, args, tc, "heuristic")


def _names(analysis: Analysis) -> dict[str, str]:
    return {e.ticker: e.display(analysis.language) for e in analysis.entities if e.ticker}


def heuristic_rewrite(node: SearchNode, parents: list[SearchNode], analysis: Analysis,
                      now: datetime) -> Rewrite | None:
    language = analysis.language
    args = dict(node.args)
    for parent in parents:
        if parent.status is not NodeStatus.DONE:
            continue
        if dates_window(parent, node) and (reported := last_report_date(parent, now.date())):
            return since_report(node, reported, analysis, now.date())
        if parent.source == "symbol_search" and (found := resolved_ticker(parent)):
            symbol, name = found
            if node.source in ("news", "web_search"):
                args["ticker"] = symbol
                sub = say("subquery.symbol_news", language,
                          label=say("instrument", language, name=name, ticker=symbol))
                return Rewrite(sub, args, node.time_context, "heuristic")
        if payload_of(parent.source) == "price_history" and CATALOGUE[node.source].kind in ("news", "web") \
                and (move := biggest_move(parent)):
            name = _names(analysis).get(move.ticker, move.ticker)
            day = move.day
            verb = say("move.fall" if move.change_pct < 0 else "move.rise", language)
            # The stories that explain a move may come out up to three days before it (a
            # weekend's policy news, a report after the previous close), or the day after.
            start = day - timedelta(days=CAUSE_DAYS_BEFORE)
            end = min(day + timedelta(days=CAUSE_DAYS_AFTER), now.date())
            args.update(start=start.isoformat(), end=end.isoformat())
            if CATALOGUE[node.source].arg("query") is not None:
                args["query"] = say("search.day_news" if node.source == "news" else "search.why_day", language,
                                    name=name, verb=verb, day=SpokenDay.of(day))
            sub = say("subquery.why_day", language, label=say("instrument", language, name=name, ticker=move.ticker),
                      verb=verb, change=f"{abs(move.change_pct):.1f}%", date=day.isoformat())
            tc = TimeContext(start, end, day.isoformat())
            return Rewrite(sub, args, tc, "heuristic")
        if parent.source == "earnings" and node.source in ("news", "web_search") \
                and (reported := last_report_date(parent, now.date())):
            start, end = reported - timedelta(days=1), min(reported + timedelta(days=2), now.date())
            args.update(start=start.isoformat(), end=end.isoformat())
            name = _names(analysis).get(str(args.get("ticker")), str(args.get("ticker") or ""))
            args["query"] = f"{name} earnings {reported.isoformat()}".strip()
            sub = say("subquery.earnings_day", language, name=name, date=reported.isoformat())
            return Rewrite(sub, args, TimeContext(start, end, reported.isoformat()), "heuristic")
    return None


def llm_rewrite(node: SearchNode, parents: list[SearchNode], draft: Rewrite | None,
                analysis: Analysis, now: datetime, llm: LanguageModel) -> Rewrite | None:
    """Refine the draft with one short model call; the draft stands if the call fails."""
    current_query = draft.sub_query if draft else node.sub_query
    current_args = draft.args if draft else node.args
    messages = [
        {"role": "system", "content": prompt("rewrite_system")},
        {"role": "user", "content": fill(
            prompt("rewrite_user"), now=to_iso(now), question=analysis.question,
            source=node.source, sub_query=current_query,
            args=json.dumps(current_args, ensure_ascii=False),
            parents="\n".join(summarise(p) for p in parents) or "(none)")},
    ]
    try:
        reply = parse_json_object(llm.complete(messages, call="rewrite", schema=REWRITE_SCHEMA, max_tokens=300).text)
    except LLMError as exc:
        return dataclasses.replace(draft, note=f"LLM rewrite failed ({exc}); kept the rule-based one") \
            if draft else None
    sub_query = reply.get("sub_query") if isinstance(reply.get("sub_query"), str) else current_query
    args = {**current_args, **(reply.get("args") if isinstance(reply.get("args"), dict) else {})}
    args = {k: v for k, v in args.items() if v not in (None, "")}
    if check_args(node.source, args) or not sub_query.strip():
        return draft
    tc = draft.time_context if draft else node.time_context
    return Rewrite(sub_query.strip()[:300], args, tc, "llm")


REWRITE_SCHEMA = {
    "type": "object",
    "properties": {"sub_query": {"type": "string"}, "args": {"type": "object"}},
    "required": ["sub_query", "args"],
}


def summarise(node: SearchNode, limit: int = 900) -> str:
    """A compact, text-only digest of a finished node's results, for prompts."""
    head = f"[{node.id} {node.source} {json.dumps(node.args, ensure_ascii=False)}] {node.status.value}"
    if node.error:
        return f"{head}: {node.error}"
    parts = []
    for item in node.evidence[:5]:
        data = item.data or {}
        if "stats" in data:
            parts.append("stats " + json.dumps(data["stats"], ensure_ascii=False))
        elif isinstance(data.get("matches"), list):
            parts.append("matches " + json.dumps(data["matches"][:3], ensure_ascii=False))
        else:
            parts.append(f"{item.published or ''} {item.title}")
    return (head + ": " + " | ".join(parts))[:limit]


def follow_ups(node: SearchNode, graph: SearchGraph, analysis: Analysis) -> list[SearchNode]:
    """Nodes to add after `node` finished, when its result reveals a gap."""
    language = analysis.language
    out: list[SearchNode] = []
    existing = {(n.source, n.args.get("ticker")) for n in graph}
    if node.source == "symbol_search" and (found := resolved_ticker(node)):
        symbol, name = found
        label = say("instrument", language, name=name, ticker=symbol)
        if ("price_history", symbol) not in existing:
            start = analysis.time_context.start if analysis.time_context.explicit \
                else analysis.time_context.end - timedelta(days=30)
            end = analysis.time_context.end
            out.append(SearchNode(
                "", say("subquery.price_follow_up", language, label=label),
                "price_history", {"ticker": symbol, "start": start.isoformat(), "end": end.isoformat()},
                analysis.time_context, depends_on=(node.id,)))
        if ("quote", symbol) not in existing:
            out.append(SearchNode("", say("subquery.quote", language, label=label),
                                  "quote", {"ticker": symbol}, analysis.time_context, depends_on=(node.id,)))
    if node.source == "news" and node.status is NodeStatus.FAILED and node.args.get("query") \
            and ("web_search", node.args.get("ticker")) not in existing:
        args = {k: v for k, v in node.args.items() if k in ("query", "ticker", "start", "end", "lang")}
        out.append(SearchNode("", say("subquery.web_fallback", language, sub_query=node.sub_query),
                              "web_search", args, node.time_context, depends_on=node.depends_on))
    return out
