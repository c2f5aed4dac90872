"""The source catalogue: every source declared once, as one `SourceSpec`.

Everything else about a source is derived from its spec: the catalogue the planner shows
the model and the plan schema's source names, plan validation (`source_args.check_args`), the
cache's freshness defaults (`Settings.freshness_s`), which live adapter serves it
(`sources.setup`) and which builder it runs. Adding a source means writing its adapter code
and one spec here.

Adapters are named by reference ("module:name", see `load`), not imported: settings and
the graph import this module, and adapters import them. What a call to a source may carry,
and how equal calls are told equal, is `source_args`.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import typing
from typing import Any, Literal

# A Shanghai (Yahoo's .SS) or Shenzhen listing of an A-share: what the China-market sources take.
A_SHARE_RE = re.compile(r"^(\d{6})\.(SS|SZ)$")
# A Hong Kong listing as Yahoo writes it (0700.HK; 5 digits for a few): the 10jqka HK pages take it.
HK_RE = re.compile(r"^0?(\d{4})\.HK$")
# A US listing as SEC's ticker list spells it (BRK-B is BRK-B there too).
US_TICKER_RE = re.compile(r"^[A-Z]{1,5}(?:-[A-Z]{1,2})?$")
INTERVALS = ("1m", "5m", "15m", "30m", "1h", "1d", "1wk", "1mo")

SourceKind = Literal["finance", "news", "web"]
# What a source holds, as the person asking would name it; finer than `kind` (filings are
# news-kind, figures finance-kind). Plans are scored by it (evaluate/understanding); `lookup`
# is the name resolver, which no question asks for by itself.
SourceFamily = Literal["price", "quote", "fundamentals", "filings", "news", "web", "lookup"]
FAMILIES: tuple[SourceFamily, ...] = typing.get_args(SourceFamily)
Listing = Literal["a_share", "hk", "us"]
ArgType = Literal["ticker", "date", "text", "choice"]


@dataclasses.dataclass(frozen=True)
class Arg:
    name: str
    type: ArgType
    description: str
    required: bool = False
    choices: tuple[str, ...] = ()
    listing: Listing | None = None     # a ticker only this family of sources covers


@dataclasses.dataclass(frozen=True)
class SourceSpec:
    id: str
    kind: SourceKind
    description: str
    args: tuple[Arg, ...]
    # How long a cached result counts as fresh. Expired entries stay on disk: offline
    # mode still serves them.
    freshness_s: int
    # The live adapter's class, built once per run with `from_settings(settings)` and
    # shared by every source that names it.
    adapter: str
    # The function the adapter runs for this source, for an adapter that serves several
    # (Yahoo Finance: a `yahoo.Request` in, evidence dicts out).
    builder: str | None = None
    one_of: tuple[str, ...] = ()   # at least one of these args must be given
    # The source asked instead when this one is blocked (rate-limited or unreachable),
    # with the arguments it declares carried over (the hub does it), when they suit it.
    fallback: str | None = None
    # Whose payload contract its evidence follows, when another source's: cn_daily_bars's is
    # price_history's, so what reads price histories (charts, rewriter, writer) reads it too.
    payload: str | None = None
    # Keyword-only and without a default, so a new spec cannot leave it out.
    family: SourceFamily = dataclasses.field(kw_only=True)

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)


_TICKER = Arg("ticker", "ticker", "Yahoo Finance symbol, e.g. NVDA, 0700.HK, ^GSPC", required=True)
_START = Arg("start", "date", "first day of the period, YYYY-MM-DD")
_END = Arg("end", "date", "last day of the period, YYYY-MM-DD")
_LANG = Arg("lang", "choice", "language of results", choices=("en", "zh"))
ADAPTERS_PACKAGE = "finsearch.sources"      # where the references below are resolved
_YAHOO = ".yahoo.adapter:YahooFinance"
_ASHARES = ".china.adapter:AShares"
_SEC = ".sec.adapter:SecEdgar"
_A_TICKER = Arg("ticker", "ticker", "Shanghai/Shenzhen A-share ticker as Yahoo writes it: 600519.SS, 000001.SZ",
                required=True, listing="a_share")
SEC_FORMS = ("10-K", "10-Q", "8-K", "20-F", "6-K", "DEF 14A", "S-1", "F-1", "4", "13F-HR")
SEC_ITEMS = ("1", "1A", "7", "7A")        # business, risk factors, MD&A, market risk
_HK_TICKER = Arg("ticker", "ticker", "Hong Kong ticker as Yahoo writes it: 0700.HK, 9988.HK", required=True,
                 listing="hk")
_US_TICKER = Arg("ticker", "ticker", "US-listed company ticker, e.g. AAPL", required=True, listing="us")
_MINUTE, _HOUR, _DAY = 60, 3600, 86400

CATALOGUE: dict[str, SourceSpec] = {spec.id: spec for spec in (
    SourceSpec("quote", "finance",
               "latest price snapshot: last, change %, day and 52-week range, market cap",
               (_TICKER,),
               family="quote",
               freshness_s=_MINUTE, adapter=_YAHOO, builder=".yahoo.prices:quote"),
    SourceSpec("price_history", "finance",
               "daily or intraday OHLCV bars for a period, with period return, biggest "
               "daily moves and their dates, volatility and drawdown",
               (_TICKER, _START, _END,
                Arg("interval", "choice", "bar size", choices=INTERVALS)),
               family="price",
               freshness_s=_HOUR, adapter=_YAHOO, builder=".yahoo.prices:price_history", fallback="cn_daily_bars"),
    SourceSpec("financials", "finance",
               "income statement, balance sheet and cash flow: revenue, profit, EPS, debt…",
               (_TICKER,
                Arg("statement", "choice", "which statement",
                    choices=("income", "balance", "cashflow", "all")),
                Arg("freq", "choice", "reporting period", choices=("annual", "quarterly", "ttm"))),
               family="fundamentals",
               freshness_s=_DAY, adapter=_YAHOO, builder=".yahoo.financials:financials"),
    SourceSpec("earnings", "finance",
               "earnings dates, EPS estimate vs reported, surprise, next report date",
               (_TICKER,),
               family="fundamentals",
               freshness_s=6 * _HOUR, adapter=_YAHOO, builder=".yahoo.fundamentals:earnings"),
    SourceSpec("analyst", "finance",
               "analyst price targets (low/mean/high), ratings, recent up/downgrades",
               (_TICKER,),
               family="fundamentals",
               freshness_s=6 * _HOUR, adapter=_YAHOO, builder=".yahoo.fundamentals:analyst"),
    SourceSpec("profile", "finance",
               "sector, industry, business summary, employees, officers, key ratios (P/E…)",
               (_TICKER,),
               family="fundamentals",
               freshness_s=_DAY, adapter=_YAHOO, builder=".yahoo.fundamentals:profile"),
    SourceSpec("holders", "finance", "major and institutional holders", (_TICKER,),
               family="fundamentals",
               freshness_s=_DAY, adapter=_YAHOO, builder=".yahoo.fundamentals:holders"),
    SourceSpec("dividends", "finance", "dividend and split history, trailing yield",
               (_TICKER, _START, _END),
               family="fundamentals",
               freshness_s=_DAY, adapter=_YAHOO, builder=".yahoo.fundamentals:dividends"),
    SourceSpec("symbol_search", "finance", "resolve a company name to ticker symbols",
               (Arg("query", "text", "company or instrument name", required=True),),
               family="lookup",
               freshness_s=_DAY, adapter=_YAHOO, builder=".yahoo.adapter:symbol_search"),
    SourceSpec("news", "news",
               "recent news articles about a ticker or a topic (Yahoo Finance, RSS feeds)",
               (Arg("ticker", "ticker", "symbol the news is about"),
                Arg("query", "text", "search words"), _START, _END, _LANG),
               family="news",
               freshness_s=5 * _MINUTE, adapter=".news.adapter:NewsSource", one_of=("ticker", "query")),
    SourceSpec("web_search", "web", "general web search results",
               (Arg("query", "text", "search words", required=True),
                Arg("ticker", "ticker", "symbol the search is about"), _START, _END, _LANG),
               family="web",
               freshness_s=_HOUR, adapter=".web.adapter:WebSearch", fallback="news"),
    # China A-shares from their own sites (akshare; cninfo, Sina, 10jqka — never Eastmoney).
    SourceSpec("cn_top_holders", "finance",
               "A-share top-10 shareholders (十大股东) and holder count, latest reporting date (Sina)",
               (_A_TICKER,),
               family="fundamentals",
               freshness_s=_DAY, adapter=_ASHARES, builder=".china.builders:top_holders", fallback="holders"),
    SourceSpec("cn_announcements", "news",
               "A-share announcements and disclosures (公告) from cninfo: titles, dates, links",
               (_A_TICKER, _START, _END,
                Arg("category", "choice", "announcement category",
                    choices=("年报", "半年报", "一季报", "三季报", "业绩预告", "权益分派", "股东大会",
                             "股权变动", "风险提示"))),
               family="filings",
               freshness_s=_HOUR, adapter=_ASHARES, builder=".china.builders:announcements", fallback="news"),
    SourceSpec("cn_business", "finance",
               "A-share main business (主营业务), product types and business scope (10jqka)",
               (_A_TICKER,),
               family="fundamentals",
               freshness_s=_DAY, adapter=_ASHARES, builder=".china.builders:business", fallback="profile"),
    SourceSpec("cn_dividends", "finance",
               "A-share dividend plans (分红): per-10-share payout, record and ex-dividend dates, progress (10jqka)",
               (_A_TICKER,),
               family="fundamentals",
               freshness_s=_DAY, adapter=_ASHARES, builder=".china.builders:dividends", fallback="dividends"),
    SourceSpec("cn_financial_abstract", "finance",
               "A-share financial abstract (财务摘要): revenue, net profit and their growth, EPS, margins, ROE "
               "for the latest periods (10jqka)",
               (_A_TICKER, Arg("basis", "choice", "cumulative to each report date, per year, or per quarter",
                               choices=("report", "annual", "quarterly"))),
               family="fundamentals",
               freshness_s=_DAY, adapter=_ASHARES, builder=".china.builders:financial_abstract",
               fallback="financials"),
    SourceSpec("cn_profit_forecast", "finance",
               "A-share analysts' forecasts (盈利预测): EPS and net profit per coming year, low/mean/high and "
               "how many institutions forecast (10jqka)",
               (_A_TICKER,),
               family="fundamentals",
               freshness_s=6 * _HOUR, adapter=_ASHARES, builder=".china.builders:profit_forecast",
               fallback="analyst"),
    # Hong Kong: the one company source akshare has outside Eastmoney (profile and news are _em only).
    SourceSpec("hk_dividends", "finance",
               "Hong Kong stock dividend plans (分红派息): per-share payout, ex and payment dates, type, progress "
               "(10jqka)",
               (_HK_TICKER,),
               family="fundamentals",
               freshness_s=_DAY, adapter=_ASHARES, builder=".china.builders:hk_dividends", fallback="dividends"),
    SourceSpec("cn_profile", "finance",
               "A-share company profile (公司概况): full and English name, industry, market, listing and founding "
               "dates, legal representative, registered address, main business (cninfo)",
               (_A_TICKER,),
               family="fundamentals",
               freshness_s=_DAY, adapter=_ASHARES, builder=".china.industry:profile", fallback="profile"),
    SourceSpec("cn_industry_compare", "finance",
               "A-share valuation against its industry (行业对比): its static and TTM P/E and P/B next to its "
               "CSRC industry's weighted and median P/E and company count (cninfo, Baidu)",
               (_A_TICKER,),
               family="fundamentals",
               freshness_s=6 * _HOUR, adapter=_ASHARES, builder=".china.industry:industry_compare",
               fallback="profile"),
    SourceSpec("cn_daily_bars", "finance",
               "A-share daily OHLCV bars from Tencent (腾讯日线, through akshare), with the same period return, "
               "biggest moves, volatility and drawdown as price_history; for when akshare's bars are asked for",
               (_A_TICKER, _START, _END, Arg("interval", "choice", "bar size", choices=("1d",))),
               family="price",
               freshness_s=_HOUR, adapter=_ASHARES, builder=".china.prices:daily_bars", payload="price_history"),
    # The one Eastmoney source (only it has per-stock news; sources/china/news.py says why):
    # planned next to Yahoo's news, and cached longer than news is, to ask a site that bans rarely.
    SourceSpec("cn_stock_news", "news",
               "A-share news stories (个股新闻) about one stock from Chinese outlets: titles, times, links, "
               "outlets (Eastmoney's news search)",
               (_A_TICKER, _START, _END),
               family="news",
               freshness_s=30 * _MINUTE, adapter=_ASHARES, builder=".china.news:stock_news", fallback="news"),
    # Hong Kong filings from HKEXnews (披露易), the exchange's public title search (no key).
    SourceSpec("hk_announcements", "news",
               "Hong Kong stock announcements and filings (港股公告) from HKEXnews, the exchange's disclosure "
               "site: titles, release times, document types (inside information, results, buybacks, circulars…), "
               "links to the documents",
               (_HK_TICKER, _START, _END, _LANG),
               family="filings",
               freshness_s=_HOUR, adapter=".hkex.adapter:HkexNews", builder=".hkex.builders:announcements",
               fallback="news"),
    # US filings from SEC EDGAR (its JSON API and the filed documents; FINSEARCH_SEC_IDENTITY).
    SourceSpec("sec_filings", "news",
               "a US company's latest SEC filings (10-K, 10-Q, 8-K …) with filing dates and links",
               (_US_TICKER, Arg("form", "choice", "only this form", choices=SEC_FORMS), _START, _END),
               family="filings",
               freshness_s=6 * _HOUR, adapter=_SEC, builder=".sec.builders:filings"),
    SourceSpec("sec_section", "finance",
               "a section of a US company's latest 10-K/10-Q (item 1A risk factors, 7 MD&A, 1 business), "
               "the passages most relevant to the query",
               (_US_TICKER, Arg("form", "choice", "which report", choices=("10-K", "10-Q")),
                Arg("item", "choice", "which item", choices=SEC_ITEMS, required=True),
                Arg("query", "text", "what the passages should be about")),
               family="filings",
               freshness_s=_DAY, adapter=_SEC, builder=".sec.builders:section"),
    SourceSpec("sec_facts", "finance",
               "a US company's reported revenue, net income and diluted EPS per period from its XBRL filings "
               "(primary source: the 10-K/10-Q each figure was filed in)",
               (_US_TICKER, Arg("freq", "choice", "fiscal years or quarters", choices=("annual", "quarterly"))),
               family="fundamentals",
               freshness_s=_DAY, adapter=_SEC, builder=".sec.builders:facts", fallback="financials"),
    # Form 4s are due two business days after the trade: a few hours' cache misses none for long.
    SourceSpec("sec_insiders", "finance",
               "a US company's recent insider transactions from its latest Form 4 filings (at most 10): who "
               "(name, role), date, purchase / sale / award / option exercise, shares, price, shares owned after",
               (_US_TICKER, _START, _END),
               family="fundamentals",
               freshness_s=3 * _HOUR, adapter=_SEC, builder=".sec.insiders:insiders"),
    # 13F-HR is filed once a quarter, 45 days after it ends.
    SourceSpec("sec_13f", "finance",
               "an institution's US stock holdings from its latest 13F-HR (Berkshire Hathaway, Bridgewater, "
               "Renaissance, Citadel, ARK …): largest positions by value and share of the portfolio, and the "
               "positions new, added, reduced or sold since the quarter before",
               (Arg("filer", "text", "the institution's name or its SEC CIK", required=True),),
               family="fundamentals",
               freshness_s=_DAY, adapter=_SEC, builder=".sec.holdings:holdings"),
)}

SOURCE_IDS = tuple(CATALOGUE)


def listing_of(ticker: str | None) -> Listing | None:
    """Which family of company sources a stock's ticker can use: the China-market ones
    (600519.SS), the few for Hong Kong (0700.HK) or SEC EDGAR's (AAPL); None for the rest
    (indices, other markets …)."""
    symbol = (ticker or "").strip().upper()
    if A_SHARE_RE.match(symbol):
        return "a_share"
    if HK_RE.match(symbol):
        return "hk"
    if US_TICKER_RE.match(symbol):
        return "us"
    return None


def payload_of(source: str) -> str:
    """The payload contract a source's evidence follows: its own id, or the one its spec names."""
    spec = CATALOGUE.get(source)
    return (spec.payload or spec.id) if spec else source


def default_freshness() -> dict[str, float]:
    """Seconds a cached result of each source stays fresh, from the specs."""
    return {spec.id: spec.freshness_s for spec in CATALOGUE.values()}


def load(ref: str) -> Any:
    """What a "module:name" reference names, importing its module on first use; module
    names starting with a dot are relative to the sources package (".yahoo.prices:quote")."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module, ADAPTERS_PACKAGE), name)
