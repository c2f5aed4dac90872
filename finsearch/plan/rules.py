"""The heuristic pre-planner: intent rules that map a question to source calls.

    price / performance / chart      → price_history (+ quote)
    why / moved / what happened      → price_history, then news and web_search that
                                       depend on it (the rewriter fills in the date of
                                       the biggest move found upstream)
    news                             → news (+ quote)
    earnings / revenue / 营收 …        → financials + earnings
    guidance / outlook / 指引          → news on the guidance + earnings (no statement has it)
    beat or miss / 超预期              → earnings + news on the results
    when does X report / 财报什么时候    → earnings (its dates) + the latest news (a report date
                                       is announced there too), no statements
    what did X say / deliveries / 交付  → the news of the question's dates
    target / rating / analyst        → analyst (+ quote)
    holders / who owns / 十大股东       → holders; for an A-share cn_top_holders (Sina)
    公告 / filings / 10-K              → cn_announcements (A-share) or sec_filings (US)
    insider selling / 高管减持          → sec_insiders (US: the latest Form 4s) + quote; holders elsewhere
    Berkshire's holdings / 伯克希尔持仓  → sec_13f (a 13F filer of finsearch.filers), not BRK-B's own data
    risk factors / MD&A               → sec_section (the 10-K's item 1A / 7, chunks kept by relevance)
    主营业务 (A-share)                  → cn_business, next to profile
    dividend / yield                 → dividends + quote
    market cap / P/E                 → quote + profile
    is it expensive / 贵不贵            → quote + profile + analyst
    should I buy / 值得买吗            → analyst + quote + latest news (facts, never advice)
    52-week high / 新高                → quote + a year of price history
    business / sector                → profile
    several tickers                  → one branch per ticker
    no entity                        → news + web_search on the question's text
    a name the alias table lacks     → symbol_search, with dependents rewritten from it

A ticker's nodes come from one table, TICKER_RULES (reading → source, sub-query phrase,
rank tier, dependencies), applied in one loop. Nodes are ranked so that, past the node
limit, the least useful ones are dropped first.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime, timedelta
from typing import Literal

from ..catalogue import listing_of
from ..filers import filer_named
from ..graph import MAX_NODES, SearchNode
from ..phrases import say
from ..timecontext import TimeContext
from .analysis import Analysis
from .entities import Entity
from .filings import filed_basis, form_asked

WHY_LOOKBACK_DAYS = 7          # "why did X fall?" with no time words: look at the last week
PRICE_LOOKBACK_DAYS = 30       # "how is X doing?" with no time words: the last month
HIGH_LOW_LOOKBACK_DAYS = 365   # "near its 52-week high?": the year the high is taken over


@dataclasses.dataclass
class _Candidate:
    node: SearchNode
    rank: int                  # lower is more important
    order: int


# The arguments a rule's node gets, built per ticker in `_ticker_branch`: the ticker alone,
# the price range, news or web search over the price range, news over the question's
# dates (on the stock, its guidance or its results), or all statements at the question's
# frequency.
ArgsShape = Literal["ticker", "price", "why_news", "why_web", "news", "guidance_news", "results_news",
                    "calendar_news", "statements", "disclosures", "results_notice", "risk_section",
                    "mdna_section", "sec_filings", "abstract", "filed_figures"]
# Which stocks a rule is for: any, or only those one family of company sources covers
# (catalogue.listing_of: A-shares → cninfo, Sina, 10jqka; US listings → SEC EDGAR).
Listing = Literal["any", "a_share", "us"]


@dataclasses.dataclass(frozen=True)
class TickerRule:
    """One node a ticker gets when the question reads a certain way.

    The readings are the question's intents, plus "general" (none of the specific ones)
    and "several" (more than one ticker). A rule applies when at least one of `any_of`
    holds and none of `none_of`."""
    source: str
    phrase: str                          # phrasebook key of the sub-query
    tier: int                            # rank tier: every ticker's tier 0 before any tier 1
    any_of: frozenset[str]
    none_of: frozenset[str] = frozenset()
    args: ArgsShape = "ticker"
    depends_on: tuple[str, ...] = ()     # sources of this ticker's earlier nodes
    listing: Listing = "any"


def _rule(source: str, phrase: str, tier: int, any_of: str, none_of: str = "", args: ArgsShape = "ticker",
          depends_on: tuple[str, ...] = (), listing: Listing = "any") -> TickerRule:
    return TickerRule(source, phrase, tier, frozenset(any_of.split()), frozenset(none_of.split()), args, depends_on,
                      listing)


# In the order nodes are added (the first of two equal calls is the one kept).
TICKER_RULES: tuple[TickerRule, ...] = (
    _rule("price_history", "subquery.price_history", 0, "price why general high_low", args="price"),
    # "Why did X move?": the rewriter narrows these to the biggest move the history finds.
    _rule("news", "subquery.why_news", 1, "why", args="why_news", depends_on=("price_history",)),
    _rule("web_search", "subquery.why_web", 3, "why", args="why_web", depends_on=("price_history",)),
    _rule("quote", "subquery.quote", 2, "price general high_low ahead"),
    # "How is X doing?": the headlines of the period explain the numbers.
    _rule("news", "subquery.period_news", 2, "price", none_of="why several", args="news"),
    _rule("news", "subquery.latest_news", 1, "news general advice ahead", none_of="why", args="news"),
    _rule("quote", "subquery.quote", 3, "news", none_of="price why general"),
    # "When does X report?" wants the dates the earnings source has, not the statements.
    _rule("financials", "subquery.financials", 0, "fundamentals", none_of="calendar", args="statements"),
    _rule("cn_financial_abstract", "subquery.cn_financial_abstract", 0, "fundamentals", none_of="calendar",
          args="abstract", listing="a_share"),
    _rule("earnings", "subquery.earnings", 1, "fundamentals guidance surprise calendar"),
    # Independent of the earnings node: news still answers when earnings has no data.
    _rule("news", "subquery.guidance_news", 0, "guidance", args="guidance_news"),
    _rule("news", "subquery.results_news", 1, "surprise", args="results_news"),
    # The date is announced in the news ("X to report results on October 23"): the answer
    # when the earnings source has none.
    _rule("news", "subquery.calendar_news", 1, "calendar", args="calendar_news"),
    _rule("news", "subquery.period_news", 1, "remarks", args="news"),
    _rule("analyst", "subquery.analyst", 0, "analyst expensive advice"),
    # A question about what lies ahead ("next week", "下一季度"): no prices exist yet; what
    # analysts expect, the coming report and the latest news do.
    _rule("analyst", "subquery.analyst", 0, "ahead", none_of="market"),
    _rule("earnings", "subquery.earnings", 1, "ahead", none_of="market"),
    # "Since earnings": the earnings source dates the report the period starts from.
    _rule("earnings", "subquery.earnings", 1, "since_report", none_of="market"),
    # What an A-share's analysts forecast, from 10jqka (Yahoo's targets for A-shares are sparse).
    _rule("cn_profit_forecast", "subquery.cn_profit_forecast", 0, "analyst expensive advice ahead", none_of="market",
          listing="a_share"),
    _rule("quote", "subquery.quote", 2, "analyst advice"),
    # A-shares: the shareholders, announcements and business from the sites that publish them.
    _rule("cn_top_holders", "subquery.cn_top_holders", 0, "holders", listing="a_share"),
    _rule("holders", "subquery.holders", 0, "holders", none_of="a_share insider_trades"),
    # Insider trades: a US listing's Form 4s (with the price for context); elsewhere the holders.
    _rule("sec_insiders", "subquery.sec_insiders", 0, "insiders", listing="us"),
    _rule("quote", "subquery.quote", 1, "insiders"),
    _rule("holders", "subquery.holders", 0, "insiders", none_of="a_share us"),
    _rule("cn_announcements", "subquery.cn_announcements", 0, "filings", args="disclosures", listing="a_share"),
    _rule("cn_announcements", "subquery.cn_results_notice", 1, "guidance", args="results_notice",
          listing="a_share"),
    _rule("cn_announcements", "subquery.cn_announcements", 2, "news", args="disclosures", listing="a_share"),
    _rule("cn_business", "subquery.cn_business", 0, "profile", listing="a_share"),
    # US listings: the filings themselves, and the 10-K sections a question asks about.
    _rule("sec_filings", "subquery.sec_filings", 0, "filings", none_of="risks mdna", args="sec_filings",
          listing="us"),
    _rule("sec_section", "subquery.sec_risks", 0, "risks", args="risk_section", listing="us"),
    _rule("sec_facts", "subquery.sec_facts", 0, "filed_figures", args="filed_figures", listing="us"),
    _rule("sec_section", "subquery.sec_mdna", 0, "mdna", args="mdna_section", listing="us"),
    # An A-share's plans (per 10 shares, dates) from 10jqka; Yahoo's history still gives the yield.
    _rule("cn_dividends", "subquery.cn_dividends", 0, "dividend", listing="a_share"),
    _rule("dividends", "subquery.dividends", 0, "dividend"),
    _rule("quote", "subquery.quote", 1, "dividend"),
    _rule("quote", "subquery.market_cap", 0, "valuation expensive"),
    _rule("profile", "subquery.valuation", 1, "valuation expensive"),
    _rule("profile", "subquery.profile", 0, "profile"),
)
LOOKING_BACK = frozenset({"why", "price", "high_low"})     # readings whose data only exists for the past
# Readings added to the intents: no specific intent, several tickers, a period ahead, not a
# company, a period that starts at the last earnings report.
EXTRA_READINGS = frozenset({"general", "several", "ahead", "market", "since_report", "a_share", "us",
                            "filed_figures", "insider_trades"})
# "Insider ownership" asks how much insiders hold (the holders source); "insider selling" asks
# what they traded (Form 4s), and then the holders are left out.
_OWNERSHIP = re.compile(r"\bownership\b|\bown(?:s|ed)?\b|\bstakes?\b|持股比例|持股多少|持有多少", re.I)
SPECIFIC_INTENTS = frozenset({"ahead", "why", "price", "news", "fundamentals", "guidance", "surprise", "calendar",
                              "analyst", "holders", "dividend", "valuation", "expensive", "advice", "high_low",
                              "profile", "remarks", "filings", "risks", "mdna", "insiders", "portfolio"})
EQUITY_ONLY_INTENTS = frozenset({"fundamentals", "guidance", "surprise", "calendar", "analyst", "holders", "dividend",
                                 "valuation", "expensive", "advice", "profile", "filings", "risks", "mdna",
                                 "insiders"})


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
    if "insiders" in readings and not _OWNERSHIP.search(b.a.question):
        readings |= {"insider_trades"}
    ticker, name, language = entity.ticker, entity.display(b.a.language), b.a.language
    price_start, price_end = (d.isoformat() for d in b.price_range(readings))
    news_start, news_end = b.news_range()
    freq = _statement_frequency(b.a)
    stock = b.say("search.stock", name=name)
    args: dict[ArgsShape, dict] = {
        "ticker": {"ticker": ticker},
        "price": {"ticker": ticker, "start": price_start, "end": price_end},
        "why_news": {"ticker": ticker, "query": stock, "start": price_start, "end": price_end, "lang": language},
        "why_web": {"query": b.say("search.why_move", name=name, start=price_start, end=price_end),
                    "ticker": ticker, "start": price_start, "end": price_end, "lang": language},
        "news": {"ticker": ticker, "query": stock, "start": news_start, "end": news_end, "lang": language},
        "guidance_news": {"ticker": ticker, "query": b.say("search.guidance", name=name), "start": news_start,
                          "end": news_end, "lang": language},
        "results_news": {"ticker": ticker, "query": b.say("search.results", name=name), "start": news_start,
                         "end": news_end, "lang": language},
        # A report date lies ahead of the question's period: the latest news, undated.
        "calendar_news": {"ticker": ticker, "query": b.say("search.calendar", name=name), "lang": language},
        "statements": {"ticker": ticker, "statement": "all", "freq": freq},
        "disclosures": {"ticker": ticker, "start": news_start, "end": news_end},
        # 10jqka has no trailing twelve months: the figures to the latest report date instead.
        "abstract": {"ticker": ticker, "basis": "report" if freq == "ttm" else freq},
        "results_notice": {"ticker": ticker, "category": "业绩预告"},
        "sec_filings": {"ticker": ticker, "form": form_asked(b.a.question), "start": news_start, "end": news_end},
        "filed_figures": {"ticker": ticker, "freq": filed_basis(b.a.question, freq)},
        "risk_section": {"ticker": ticker, "form": "10-K", "item": "1A", "query": b.a.question},
        "mdna_section": {"ticker": ticker, "form": "10-K", "item": "7", "query": b.a.question},
    }
    wording = {"label": ticker if name == ticker else b.say("instrument", name=name, ticker=ticker),
               "when": b.when(), "start": price_start, "end": price_end, "freq": b.say(f"freq.{freq}")}
    added: dict[str, str] = {}
    for rule in TICKER_RULES:
        if not (rule.any_of & readings) or rule.none_of & readings \
                or (rule.listing != "any" and rule.listing not in readings):
            continue
        node_id = b.add(rule.source, b.say(rule.phrase, **wording), args[rule.args], rank=rule.tier * 10 + index,
                        depends_on=tuple(added[source] for source in rule.depends_on))
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
