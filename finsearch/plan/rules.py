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
        self.zh = analysis.language == "zh"
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

    def say(self, en: str, zh: str, **values) -> str:
        return (zh if self.zh else en).format(**values)

    def when(self) -> str:
        tc = self.a.time_context
        return tc.label if tc.explicit else ("最近" if self.zh else "recently")


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
    b.add("news", b.say("News: {q}", "新闻：{q}", q=text), {"query": text, "start": start, "end": end,
                                                           "lang": lang}, rank=0)
    b.add("web_search", b.say("Web: {q}", "网页搜索：{q}", q=text),
          {"query": text, "start": start, "end": end, "lang": lang}, rank=0)


def _lookup_branch(b: PlanBuilder, entity: Entity) -> None:
    lookup = b.add("symbol_search", b.say("Find the ticker for {n}", "查找{n}的股票代码", n=entity.name),
                   {"query": entity.name}, rank=0)
    start, end = b.news_range()
    b.add("news", b.say("News about {n} {w}", "{n}{w}的新闻", n=entity.name, w=b.when()),
          {"query": entity.name, "start": start, "end": end, "lang": b.a.language},
          rank=1, depends_on=(lookup,))


def _ticker_branch(b: PlanBuilder, e: Entity, intents: frozenset[str], index: int, several: bool) -> None:
    t, n, lang = e.ticker, e.display(b.a.language), b.a.language
    label = t if n == t else (f"{n}（{t}）" if b.zh else f"{n} ({t})")
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
                        b.say("{l} price history {s} → {e}", "{l} {s} 至 {e} 的股价走势",
                              l=label, s=start.isoformat(), e=end.isoformat()),
                        {"ticker": t, "start": start.isoformat(), "end": end.isoformat()}, rank=r_(0))
        if "why" in intents:
            why_q = b.say("Why did {l} move {w}? (news)", "{l}{w}为什么涨跌？（新闻）", l=label, w=b.when())
            b.add("news", why_q,
                  {"ticker": t, "query": b.say("{n} stock", "{n} 股票", n=n), "start": start.isoformat(),
                   "end": end.isoformat(), "lang": lang}, rank=r_(1), depends_on=(history,))
            b.add("web_search", b.say("Why did {l} move {w}? (web)", "{l}{w}涨跌原因（网页）",
                                      l=label, w=b.when()),
                  {"query": b.say("why did {n} stock move {s} {e}", "{n} 股价 涨跌 原因 {s} {e}",
                                  n=n, s=start.isoformat(), e=end.isoformat()),
                   "ticker": t, "start": start.isoformat(), "end": end.isoformat(), "lang": lang},
                  rank=r_(3), depends_on=(history,))
        if not specific or "price" in intents:
            b.add("quote", b.say("{l} latest quote", "{l}最新行情", l=label), {"ticker": t}, rank=r_(2))
        if "price" in intents and "why" not in intents and not several:
            # "How is X doing?": the headlines of the period explain the numbers.
            start, end = b.news_range()
            b.add("news", b.say("News on {l} {w}", "{l}{w}的新闻", l=label, w=b.when()),
                  {"ticker": t, "query": b.say("{n} stock", "{n} 股票", n=n), "start": start, "end": end,
                   "lang": lang}, rank=r_(2))
    if "news" in intents or not specific:
        start, end = b.news_range()
        if "why" not in intents:
            b.add("news", b.say("Latest news on {l}", "{l}的最新消息", l=label),
                  {"ticker": t, "query": b.say("{n} stock", "{n} 股票", n=n), "start": start, "end": end,
                   "lang": lang}, rank=r_(1))
        if "price" not in intents and "why" not in intents and specific:
            b.add("quote", b.say("{l} latest quote", "{l}最新行情", l=label), {"ticker": t}, rank=r_(3))
    if "fundamentals" in intents:
        freq = _statement_frequency(b.a)
        b.add("financials", b.say("{l} {f} financial statements", "{l}{f}财务报表", l=label,
                                  f=freq if not b.zh else {"annual": "年度", "quarterly": "季度",
                                                           "ttm": "近十二个月"}[freq]),
              {"ticker": t, "statement": "all", "freq": freq}, rank=r_(0))
        b.add("earnings", b.say("{l} earnings: estimates vs reported", "{l}业绩：预期与实际", l=label),
              {"ticker": t}, rank=r_(1))
    if "analyst" in intents:
        b.add("analyst", b.say("{l} analyst targets and ratings", "{l}分析师目标价与评级", l=label),
              {"ticker": t}, rank=r_(0))
        b.add("quote", b.say("{l} latest quote", "{l}最新行情", l=label), {"ticker": t}, rank=r_(2))
    if "holders" in intents:
        b.add("holders", b.say("{l} major holders", "{l}主要股东", l=label), {"ticker": t}, rank=r_(0))
    if "dividend" in intents:
        b.add("dividends", b.say("{l} dividend history", "{l}分红历史", l=label), {"ticker": t}, rank=r_(0))
        b.add("quote", b.say("{l} latest quote", "{l}最新行情", l=label), {"ticker": t}, rank=r_(1))
    if "valuation" in intents:
        b.add("quote", b.say("{l} market cap and price", "{l}市值与股价", l=label), {"ticker": t}, rank=r_(0))
        b.add("profile", b.say("{l} valuation ratios", "{l}估值指标", l=label), {"ticker": t}, rank=r_(1))
    if "profile" in intents:
        b.add("profile", b.say("{l} company profile", "{l}公司简介", l=label), {"ticker": t}, rank=r_(0))
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
