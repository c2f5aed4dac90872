"""The heuristic pre-planner: a question's analysis → search nodes.

Each ticker gets the nodes of every rule in `rule_table.TICKER_RULES` its readings meet
(the table and what each intent plans are there), in one loop; a question with no ticker
gets a topic search, a name without a ticker a symbol search. Nodes are ranked so that,
past the node limit, the least useful ones are dropped first.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime, timedelta

from ..catalogue import listing_of
from ..graph import MAX_NODES, SearchNode
from ..phrases import say
from ..phrases.dates import DaySpan
from ..reference.filers import filer_named
from ..timecontext import CAUSE_DAYS_BEFORE, TimeContext
from .analysis import Analysis
from .entities import Entity
from .filings import category_asked, filed_basis, filing_window, form_asked
from .intents import asks_performance
from .rule_table import (
    ASKED_INSTEAD,
    DATED_BY_REPORT,
    EQUITY_ONLY_INTENTS,
    EXTRA_READINGS,
    LOOKING_BACK,
    SPECIFIC_INTENTS,
    TICKER_RULES,
    ArgsShape,
)

# The table is also read from here (it lived in this module before it had its own).
__all__ = ["EXTRA_READINGS", "TICKER_RULES", "PlanBuilder", "heuristic_plan"]

WHY_LOOKBACK_DAYS = 7          # "why did X fall?" with no time words: look at the last week
PRICE_LOOKBACK_DAYS = 30       # "how is X doing?" with no time words: the last month
HIGH_LOW_LOOKBACK_DAYS = 365   # "near its 52-week high?": the year the high is taken over
# "Insider ownership" asks how much insiders hold (the holders source); "insider selling" asks
# what they traded (Form 4s), and then the holders are left out.
_OWNERSHIP = re.compile(r"\bownership\b|\bown(?:s|ed)?\b|\bstakes?\b|持股比例|持股多少|持有多少", re.I)
# "Meituan's announcements": a Hong Kong or A-share company's announcements are its exchange filings
# (an American one's are its news).
_ANNOUNCEMENT = re.compile(r"\bannouncements?\b", re.I)


@dataclasses.dataclass
class _Candidate:
    node: SearchNode
    rank: int                  # lower is more important
    order: int


class PlanBuilder:
    def __init__(self, analysis: Analysis, now: datetime):
        self.a = analysis
        self.now, self.today = now, now.date()
        self._candidates: list[_Candidate] = []
        self._count = 0

    def add(self, source: str, sub_query: str, args: dict, rank: int,
            depends_on: tuple[str, ...] = (), time_context: TimeContext | None = None) -> str:
        self._count += 1
        node_id = f"n{self._count}"
        args = {k: v for k, v in args.items() if v not in (None, "")}
        node = SearchNode(node_id, sub_query, source, args, time_context or self.a.time_context,
                          depends_on=depends_on)
        self._candidates.append(_Candidate(node, rank, self._count))
        return node_id

    def nodes(self, limit: int = MAX_NODES) -> list[SearchNode]:
        """The most important nodes that fit, never a node without its dependencies."""
        taken: dict[str, SearchNode] = {}
        for cand in sorted(self._candidates, key=lambda c: (c.rank, c.order)):
            if len(taken) >= limit:
                break
            if all(d in taken for d in cand.node.depends_on):
                taken[cand.node.id] = cand.node
        ordered = sorted(taken.values(), key=lambda n: int(n.id[1:]))
        return _renumber(ordered)

    # -- date ranges ---------------------------------------------------------------------

    def price_range(self, readings: frozenset[str]) -> tuple[date, date]:
        tc = self.a.time_context
        if tc.explicit:
            return tc.start, tc.end
        back = WHY_LOOKBACK_DAYS if "why" in readings else \
            HIGH_LOW_LOOKBACK_DAYS if "high_low" in readings else PRICE_LOOKBACK_DAYS
        return self.today - timedelta(days=back), self.today

    def news_range(self) -> tuple[str | None, str | None]:
        tc = self.a.time_context
        if not tc.explicit or tc.forward:
            return None, None          # "latest news": no date filter (the future has no news yet)
        return tc.start.isoformat(), tc.end.isoformat()

    # -- wording --------------------------------------------------------------------------

    def say(self, key: str, **values) -> str:
        return say(key, self.a.language, **values)

    def when(self) -> str:
        tc = self.a.time_context
        return tc.label if tc.explicit else self.say("when.recently")


def _renumber(nodes: list[SearchNode]) -> list[SearchNode]:
    """Ids n1..nk in order, dependencies rewritten to match (dropped nodes leave gaps)."""
    mapping = {node.id: f"n{i}" for i, node in enumerate(nodes, start=1)}
    for node in nodes:
        node.id = mapping[node.id]
        node.depends_on = tuple(mapping[d] for d in node.depends_on if d in mapping)
    return nodes


def heuristic_plan(analysis: Analysis, now: datetime) -> list[SearchNode]:
    b = PlanBuilder(analysis, now)
    filer = filer_named(analysis.question) if "portfolio" in analysis.intents else None
    if filer is not None:
        b.add("sec_13f", b.say("subquery.sec_13f", filer=filer.name), {"filer": filer.name}, rank=0)
    if not analysis.entities:
        if filer is None:
            _topic_branch(b)
        return b.nodes()
    for entity in analysis.unresolved:
        if entity.kind in ("rate", "commodity", "unlisted"):
            _no_ticker_branch(b, entity)
        else:
            _lookup_branch(b, entity)
    tickers = [e for e in analysis.entities if e.ticker]
    for index, entity in enumerate(tickers):
        _ticker_branch(b, entity, index, several=len(tickers) > 1)
    return b.nodes()


def _topic_branch(b: PlanBuilder) -> None:
    text = b.a.question
    start, end = b.news_range()
    args = {"query": text, "start": start, "end": end, "lang": b.a.language}
    b.add("news", b.say("subquery.topic_news", question=text), args, rank=0)
    b.add("web_search", b.say("subquery.topic_web", question=text), args, rank=0)


def _no_ticker_branch(b: PlanBuilder, entity: Entity) -> None:
    """A rate, a future or a private company Yahoo has no symbol for (the LPR, rebar, OpenAI):
    searched by name in the news and the question on the web; a ticker search could only
    return some other company's."""
    name = entity.display(b.a.language)
    start, end = b.news_range()
    b.add("news", b.say("subquery.name_news", name=name, when=b.when()),
          {"query": name, "start": start, "end": end, "lang": b.a.language}, rank=0)
    b.add("web_search", b.say("subquery.topic_web", question=b.a.question),
          {"query": b.a.question, "start": start, "end": end, "lang": b.a.language}, rank=0)


def _lookup_branch(b: PlanBuilder, entity: Entity) -> None:
    lookup = b.add("symbol_search", b.say("subquery.find_ticker", name=entity.name), {"query": entity.name}, rank=0)
    start, end = b.news_range()
    b.add("news", b.say("subquery.name_news", name=entity.name, when=b.when()),
          {"query": entity.name, "start": start, "end": end, "lang": b.a.language},
          rank=1, depends_on=(lookup,))


def _readings(entity: Entity, intents: frozenset[str], several: bool, ahead: bool = False) -> frozenset[str]:
    """The intents the ticker's rules read, with "general", "several", "ahead" (the period
    lies in the future) and "market" (not a company) added."""
    market = frozenset() if entity.kind == "equity" else frozenset({"market"})
    if ahead:
        intents = (intents - LOOKING_BACK) | {"ahead"}
    if entity.kind not in ("equity", "etf") and intents & EQUITY_ONLY_INTENTS:
        # Indices, rates, FX, crypto and commodities have no statements, holders or dividends:
        # "the 10-year yield" is a price question.
        intents = (intents - EQUITY_ONLY_INTENTS) | {"price"}
    general = frozenset() if intents & SPECIFIC_INTENTS else frozenset({"general"})
    listing = listing_of(entity.ticker) if entity.kind == "equity" else None
    if listing != "a_share":
        intents = intents - {"cn_bars"}        # akshare's bars are the A-shares' only
    # "What revenue did Apple report in its 10-K?": the figures as filed, from the filing itself.
    filed = {"filed_figures"} if {"filings", "fundamentals"} <= intents else set()
    return intents | general | market | (frozenset({"several"}) if several else frozenset()) \
        | (frozenset({listing}) if listing else frozenset()) | filed


def _ticker_branch(b: PlanBuilder, entity: Entity, index: int, several: bool) -> None:
    """The nodes of every rule in TICKER_RULES that the question's readings meet, in order.
    Rank = tier * 10 + ticker index: with many tickers, every ticker keeps its most useful
    node before any ticker gets its second one."""
    readings = _readings(entity, b.a.intents, several, ahead=b.a.time_context.forward)
    if b.a.time_context.anchor == "earnings" and not b.a.time_context.forward:
        readings |= {"since_report"}
    # "How did it do since …, and why?" (not "why did it fall?"): the lead names the period's events.
    if {"price", "why"} <= readings and asks_performance(b.a.question):
        readings |= {"period_why"}
    if "insiders" in readings and not _OWNERSHIP.search(b.a.question):
        readings |= {"insider_trades"}
    if readings & {"a_share", "hk"} and _ANNOUNCEMENT.search(b.a.question):
        readings |= {"filings"}
    ticker, name, language = entity.ticker, entity.display(b.a.language), b.a.language
    price_start, price_end = (d.isoformat() for d in b.price_range(readings))
    news_start, news_end = b.news_range()
    # A report about the question's period is filed after it ("比亚迪2023年年报" was filed in 2024).
    filed_start, filed_end = filing_window(b.a.question, b.a.time_context, b.now)
    freq = _statement_frequency(b.a)
    stock = b.say("search.stock", name=name)
    args: dict[ArgsShape, dict] = {
        "ticker": {"ticker": ticker},
        "price": {"ticker": ticker, "start": price_start, "end": price_end},
        "why_news": {"ticker": ticker, "query": stock, "start": price_start, "end": price_end, "lang": language},
        "why_web": {"query": b.say("search.why_move", name=name, span=DaySpan(price_start, price_end)),
                    "ticker": ticker, "start": price_start, "end": price_end, "lang": language},
        "news": {"ticker": ticker, "query": stock, "start": news_start, "end": news_end, "lang": language},
        "dividend_news": {"ticker": ticker, "query": b.say("search.dividend", name=name), "start": news_start,
                          "end": news_end, "lang": language},
        # The stories of the days before a move explain it too (a weekend's policy news).
        "why_disclosures": {"ticker": ticker, "start": (date.fromisoformat(price_start)
                                                        - timedelta(days=CAUSE_DAYS_BEFORE)).isoformat(),
                            "end": price_end},
        "guidance_news": {"ticker": ticker, "query": b.say("search.guidance", name=name), "start": news_start,
                          "end": news_end, "lang": language},
        "results_news": {"ticker": ticker, "query": b.say("search.results", name=name), "start": news_start,
                         "end": news_end, "lang": language},
        # A report date lies ahead of the question's period: the latest news, undated.
        "calendar_news": {"ticker": ticker, "query": b.say("search.calendar", name=name), "lang": language},
        "statements": {"ticker": ticker, "statement": "all", "freq": freq},
        "disclosures": {"ticker": ticker, "start": news_start, "end": news_end},
        "exchange_filings": {"ticker": ticker, "start": filed_start, "end": filed_end, "lang": language},
        "filed_reports": {"ticker": ticker, "category": category_asked(b.a.question), "start": filed_start,
                          "end": filed_end},
        # 10jqka has no trailing twelve months: the figures to the latest report date instead.
        "abstract": {"ticker": ticker, "basis": "report" if freq == "ttm" else freq},
        "results_notice": {"ticker": ticker, "category": "业绩预告"},
        "risk_notice": {"ticker": ticker, "category": "风险提示"},
        "sec_filings": {"ticker": ticker, "form": form_asked(b.a.question), "start": filed_start, "end": filed_end},
        "filed_figures": {"ticker": ticker, "freq": filed_basis(b.a.question, freq)},
        "risk_section": {"ticker": ticker, "form": "10-K", "item": "1A", "query": b.a.question},
        "mdna_section": {"ticker": ticker, "form": "10-K", "item": "7", "query": b.a.question},
    }
    wording = {"label": ticker if name == ticker else b.say("instrument", name=name, ticker=ticker),
               "when": b.when(), "span": DaySpan(price_start, price_end), "freq": b.say(f"freq.{freq}")}
    added: dict[str, str] = {}
    for rule in TICKER_RULES:
        if not (rule.any_of & readings) or rule.none_of & readings \
                or (rule.listing != "any" and rule.listing not in readings):
            continue
        asked = next((instead for (given, reading), instead in ASKED_INSTEAD.items()
                      if given == rule.source and reading in readings), rule.source)
        depends_on = tuple(added[source] for source in rule.depends_on)
        if not depends_on and "since_report" in readings and rule.args in DATED_BY_REPORT and "earnings" in added:
            depends_on = (added["earnings"],)
        node_id = b.add(asked, b.say(rule.phrase, **wording), args[rule.args], rank=rule.tier * 10 + index,
                        depends_on=depends_on)
        added.setdefault(rule.source, node_id)
    _dedupe(b)


def _dedupe(b: PlanBuilder) -> None:
    """One node per (source, args): keep the first, point dependents at it."""
    seen: dict[tuple, str] = {}
    kept, alias = [], {}
    for cand in b._candidates:
        key = (cand.node.source, tuple(sorted(cand.node.args.items())))
        if key in seen:
            alias[cand.node.id] = seen[key]
            continue
        seen[key] = cand.node.id
        kept.append(cand)
    for cand in kept:
        cand.node.depends_on = tuple(alias.get(d, d) for d in cand.node.depends_on)
    b._candidates = kept


def _statement_frequency(a: Analysis) -> str:
    text = a.question.lower()
    if "ttm" in text or "trailing" in text or "近十二个月" in text:
        return "ttm"
    if any(w in text for w in ("annual", "fiscal", "full year", "full-year", "年度", "财年", "全年")) \
            or (a.time_context.explicit and a.time_context.days > 200):
        return "annual"
    return "quarterly"
