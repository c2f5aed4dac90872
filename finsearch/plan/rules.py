"""The heuristic pre-planner: intent rules that map a question to source calls.

    price / performance / chart      → price_history (+ quote)
    why / moved / what happened      → price_history, then news and web_search that
                                       depend on it (the rewriter fills in the date of
                                       the biggest move found upstream)
    news                             → news (+ quote)
    earnings / revenue / 营收 …        → financials + earnings
    target / rating / analyst        → analyst (+ quote)
    holders                          → holders
    dividend / yield                 → dividends + quote
    market cap / P/E                 → quote + profile
    business / sector                → profile
    several tickers                  → one branch per ticker
    no entity                        → news + web_search on the question's text
    a name the alias table lacks     → symbol_search, with dependents rewritten from it

Nodes are ranked so that, past the node limit, the least useful ones are dropped first.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, timedelta

from ..graph import MAX_NODES, SearchNode
from ..phrases import say
from .analysis import Analysis
from .entities import Entity
from .timectx import TimeContext

WHY_LOOKBACK_DAYS = 7          # "why did X fall?" with no time words: look at the last week
PRICE_LOOKBACK_DAYS = 30       # "how is X doing?" with no time words: the last month


@dataclasses.dataclass
class _Candidate:
    node: SearchNode
    rank: int                  # lower is more important
    order: int


class PlanBuilder:
    def __init__(self, analysis: Analysis, now: datetime):
        self.a = analysis
        self.today = now.date()
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

    def price_range(self, why: bool) -> tuple[date, date]:
        tc = self.a.time_context
        if tc.explicit:
            return tc.start, tc.end
        back = WHY_LOOKBACK_DAYS if why else PRICE_LOOKBACK_DAYS
        return self.today - timedelta(days=back), self.today

    def news_range(self) -> tuple[str | None, str | None]:
        tc = self.a.time_context
        if not tc.explicit:
            return None, None          # "latest news": no date filter
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
    intents = analysis.intents
    if not analysis.entities:
        _topic_branch(b)
        return b.nodes()
    for entity in analysis.unresolved:
        _lookup_branch(b, entity)
    tickers = [e for e in analysis.entities if e.ticker]
    for index, entity in enumerate(tickers):
        _ticker_branch(b, entity, intents, index, several=len(tickers) > 1)
    return b.nodes()


def _topic_branch(b: PlanBuilder) -> None:
    text = b.a.question
    start, end = b.news_range()
    lang = b.a.language
    b.add("news", b.say("subquery.topic_news", question=text), {"query": text, "start": start, "end": end,
                                                           "lang": lang}, rank=0)
    b.add("web_search", b.say("subquery.topic_web", question=text),
          {"query": text, "start": start, "end": end, "lang": lang}, rank=0)


def _lookup_branch(b: PlanBuilder, entity: Entity) -> None:
    lookup = b.add("symbol_search", b.say("subquery.find_ticker", name=entity.name),
                   {"query": entity.name}, rank=0)
    start, end = b.news_range()
    b.add("news", b.say("subquery.name_news", name=entity.name, when=b.when()),
          {"query": entity.name, "start": start, "end": end, "lang": b.a.language},
          rank=1, depends_on=(lookup,))


def _ticker_branch(b: PlanBuilder, e: Entity, intents: frozenset[str], index: int, several: bool) -> None:
    t, n, lang = e.ticker, e.display(b.a.language), b.a.language
    label = t if n == t else b.say("instrument", name=n, ticker=t)
    # Rank = tier * 10 + ticker index: with many tickers, every ticker keeps its most useful
    # node before any ticker gets its second one.
    def r_(tier: int) -> int:
        return tier * 10 + index

    if e.kind not in ("equity", "etf"):
        # Indices, rates, FX, crypto and commodities have no statements, holders or dividends:
        # "the 10-year yield" is a price question.
        equity_only = {"fundamentals", "analyst", "holders", "dividend", "valuation", "profile"}
        if intents & equity_only:
            intents = (intents - equity_only) | {"price"}
    specific = intents & {"why", "price", "news", "fundamentals", "analyst", "holders", "dividend",
                          "valuation", "profile"}
    wants_price = "price" in intents or "why" in intents or not specific
    if wants_price:
        start, end = b.price_range(why="why" in intents)
        history = b.add("price_history",
                        b.say("subquery.price_history", label=label, start=start.isoformat(),
                              end=end.isoformat()),
                        {"ticker": t, "start": start.isoformat(), "end": end.isoformat()}, rank=r_(0))
        if "why" in intents:
            why_q = b.say("subquery.why_news", label=label, when=b.when())
            b.add("news", why_q,
                  {"ticker": t, "query": b.say("search.stock", name=n), "start": start.isoformat(),
                   "end": end.isoformat(), "lang": lang}, rank=r_(1), depends_on=(history,))
            b.add("web_search", b.say("subquery.why_web", label=label, when=b.when()),
                  {"query": b.say("search.why_move", name=n, start=start.isoformat(), end=end.isoformat()),
                   "ticker": t, "start": start.isoformat(), "end": end.isoformat(), "lang": lang},
                  rank=r_(3), depends_on=(history,))
        if not specific or "price" in intents:
            b.add("quote", b.say("subquery.quote", label=label), {"ticker": t}, rank=r_(2))
        if "price" in intents and "why" not in intents and not several:
            # "How is X doing?": the headlines of the period explain the numbers.
            start, end = b.news_range()
            b.add("news", b.say("subquery.period_news", label=label, when=b.when()),
                  {"ticker": t, "query": b.say("search.stock", name=n), "start": start, "end": end,
                   "lang": lang}, rank=r_(2))
    if "news" in intents or not specific:
        start, end = b.news_range()
        if "why" not in intents:
            b.add("news", b.say("subquery.latest_news", label=label),
                  {"ticker": t, "query": b.say("search.stock", name=n), "start": start, "end": end,
                   "lang": lang}, rank=r_(1))
        if "price" not in intents and "why" not in intents and specific:
            b.add("quote", b.say("subquery.quote", label=label), {"ticker": t}, rank=r_(3))
    if "fundamentals" in intents:
        freq = _statement_frequency(b.a)
        b.add("financials", b.say("subquery.financials", label=label, freq=b.say(f"freq.{freq}")),
              {"ticker": t, "statement": "all", "freq": freq}, rank=r_(0))
        b.add("earnings", b.say("subquery.earnings", label=label),
              {"ticker": t}, rank=r_(1))
    if "analyst" in intents:
        b.add("analyst", b.say("subquery.analyst", label=label),
              {"ticker": t}, rank=r_(0))
        b.add("quote", b.say("subquery.quote", label=label), {"ticker": t}, rank=r_(2))
    if "holders" in intents:
        b.add("holders", b.say("subquery.holders", label=label), {"ticker": t}, rank=r_(0))
    if "dividend" in intents:
        b.add("dividends", b.say("subquery.dividends", label=label), {"ticker": t}, rank=r_(0))
        b.add("quote", b.say("subquery.quote", label=label), {"ticker": t}, rank=r_(1))
    if "valuation" in intents:
        b.add("quote", b.say("subquery.market_cap", label=label), {"ticker": t}, rank=r_(0))
        b.add("profile", b.say("subquery.valuation", label=label), {"ticker": t}, rank=r_(1))
    if "profile" in intents:
        b.add("profile", b.say("subquery.profile", label=label), {"ticker": t}, rank=r_(0))
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
