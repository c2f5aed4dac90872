"""The rule-based planner's table: which nodes a ticker gets for each reading of the question.


    price / performance / chart      → price_history (+ quote); "用akshare的日线" for an A-share:
                                       cn_daily_bars (Tencent) in its place
    why / moved / what happened      → price_history, then news and web_search that
                                       depend on it (the rewriter fills in the date of
                                       the biggest move found upstream); an A-share's
                                       Chinese stories and announcements too
    how did the company respond       → the stock's own news; an A-share's announcements and
                                       Chinese stories
    should I be worried               → prices, the latest news, analysts and the next report
    news                             → news (+ quote); for an A-share also cn_stock_news (Chinese outlets)
    earnings / revenue / 营收 …        → financials + earnings; also "how much did X make", "上半年亏了多少",
                                       "how did JPM do in Q3", ROE, 净利率 (plan/results_words)
    guidance / outlook / 指引          → news on the guidance + earnings (no statement has it)
    beat or miss / 超预期              → earnings + news on the results
    when does X report / 财报什么时候    → earnings (its dates) + the latest news (a report date
                                       is announced there too), no statements
    what did X say / deliveries / 交付  → the news of the question's dates
    target / rating / analyst        → analyst (+ quote)
    holders / who owns / 十大股东       → holders; for an A-share cn_top_holders (Sina)
    公告 / filings / 10-K / 年报 / 20-F  → cn_announcements (A-share; a report named by its cninfo category),
                                       hk_announcements (Hong Kong: HKEXnews) or sec_filings (US; the form
                                       named or meant: 年报 → 10-K, 季报 → 10-Q, proxy → DEF 14A); a report
                                       about a past period in the months after it; its figures when asked
    insider selling / 高管减持          → sec_insiders (US: the latest Form 4s) + quote; holders elsewhere
    Berkshire's holdings / 伯克希尔持仓  → sec_13f (a 13F filer of finsearch.reference.filers), not BRK-B's own data
    risk factors / MD&A               → sec_section (the 10-K's item 1A / 7, chunks kept by relevance)
    主营业务 / 公司简介 (A-share)        → cn_profile (cninfo) + cn_business, next to profile
    行业对比 / vs its peers            → cn_industry_compare (its P/E against its industry's) for an
                                       A-share; profile (Yahoo's ratios and industry) elsewhere
    dividend / yield / payout        → dividends + quote + profile (its payout ratio) + the dividend news;
                                       an A-share's or a Hong Kong stock's plans from 10jqka
    market cap / P/E / "the PE on X"  → quote + profile; an A-share's P/E against its industry
    is it expensive / 贵不贵            → quote + profile + analyst; an A-share's P/E against its industry
    several tickers compared         → each one's news too
    should I buy / 值得买吗            → analyst + quote + latest news (facts, never advice)
    52-week high / 新高                → quote + a year of price history
    business / sector                → profile
    several tickers                  → one branch per ticker
    no entity                        → news + web_search on the question's text
    a name the alias table lacks     → symbol_search, with dependents rewritten from it

One table, TICKER_RULES (reading → source, sub-query phrase, rank tier, dependencies);
`rules` applies it in one loop.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

# The arguments a rule's node gets, built per ticker in `_ticker_branch`: the ticker alone,
# the price range, news or web search over the price range, news over the question's
# dates (on the stock, its guidance or its results), or all statements at the question's
# frequency.
ArgsShape = Literal["ticker", "price", "why_news", "why_web", "why_disclosures", "news", "dividend_news",
                    "guidance_news", "results_news",
                    "calendar_news", "statements", "disclosures", "results_notice", "risk_notice", "risk_section",
                    "mdna_section", "sec_filings", "abstract", "filed_figures", "exchange_filings",
                    "filed_reports"]
# Which stocks a rule is for: any, or only those one family of company sources covers
# (catalogue.listing_of: A-shares → cninfo, Sina, 10jqka; Hong Kong → 10jqka, HKEXnews; US listings → SEC EDGAR).
Listing = Literal["any", "a_share", "hk", "us"]


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
    # "Since earnings": the earnings calendar dates the report first; the nodes over the question's
    # window wait for it (DATED_BY_REPORT) and the rewriter starts them on the report's day.
    _rule("earnings", "subquery.earnings", 0, "since_report", none_of="market"),
    _rule("price_history", "subquery.price_history", 0, "price why general high_low", args="price"),
    # "Why did X move?": the rewriter narrows these to the biggest move the history finds.
    _rule("news", "subquery.why_news", 1, "why", args="why_news", depends_on=("price_history",)),
    _rule("web_search", "subquery.why_web", 3, "why", args="why_web", depends_on=("price_history",)),
    # An A-share's move is explained in Chinese outlets and its own announcements first.
    _rule("cn_stock_news", "subquery.cn_stock_news", 1, "why", args="why_disclosures", depends_on=("price_history",),
          listing="a_share"),
    _rule("cn_announcements", "subquery.cn_announcements", 2, "why", args="why_disclosures",
          depends_on=("price_history",), listing="a_share"),
    # "How did it do over the period, and why?": the period's results and filings are its main events
    # (price and why read together; an A-share's announcements come with "why" already).
    # Not for several tickers: their plans keep each one's prices, stories and quote first.
    _rule("earnings", "subquery.earnings", 3, "period_why", none_of="market several"),
    _rule("sec_filings", "subquery.sec_filings", 4, "period_why", none_of="several", args="why_disclosures",
          listing="us"),
    _rule("hk_announcements", "subquery.hk_announcements", 3, "period_why", none_of="several",
          args="why_disclosures", listing="hk"),
    # "How did the company respond?": what it said itself, and the stories that quote it.
    _rule("cn_announcements", "subquery.cn_announcements", 0, "response", args="disclosures", listing="a_share"),
    _rule("cn_stock_news", "subquery.cn_stock_news", 0, "response", args="disclosures", listing="a_share"),
    _rule("news", "subquery.latest_news", 0, "response", args="news"),
    _rule("sec_filings", "subquery.sec_filings", 1, "response", args="sec_filings", listing="us"),
    _rule("hk_announcements", "subquery.hk_announcements", 0, "response", args="exchange_filings", listing="hk"),
    # "Should I be worried?": how it has traded, the latest news, analysts, and what is coming.
    _rule("price_history", "subquery.price_history", 0, "worried", args="price"),
    _rule("news", "subquery.latest_news", 0, "worried", args="news"),
    _rule("analyst", "subquery.analyst", 1, "worried", none_of="market"),
    _rule("quote", "subquery.quote", 1, "worried"),
    _rule("earnings", "subquery.earnings", 2, "worried", none_of="market"),
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
    # A report named ("宁德时代半年报") is asked of cninfo by its category, in the months it was filed in.
    _rule("cn_announcements", "subquery.cn_announcements", 0, "filings", args="filed_reports", listing="a_share"),
    # A Hong Kong stock's announcements, circulars and returns, from the exchange's own site.
    _rule("hk_announcements", "subquery.hk_announcements", 0, "filings", args="exchange_filings", listing="hk"),
    _rule("cn_announcements", "subquery.cn_results_notice", 1, "guidance", args="results_notice",
          listing="a_share"),
    # An A-share's stories from Chinese outlets, next to Yahoo's news (their site bans clients at times).
    # Not for "最新公告": a question about announcements wants cninfo's (filings).
    _rule("cn_stock_news", "subquery.cn_stock_news", 1, "news", none_of="why filings", args="disclosures",
          listing="a_share"),
    _rule("cn_announcements", "subquery.cn_announcements", 2, "news", args="disclosures", listing="a_share"),
    _rule("cn_profile", "subquery.cn_profile", 0, "profile", listing="a_share"),
    _rule("cn_business", "subquery.cn_business", 0, "profile", listing="a_share"),
    # Against its industry: cninfo's industry P/E for an A-share; Yahoo's ratios are the rest's.
    _rule("cn_industry_compare", "subquery.cn_industry_compare", 0, "peers", listing="a_share"),
    _rule("profile", "subquery.valuation", 0, "peers", none_of="a_share"),
    _rule("quote", "subquery.market_cap", 1, "peers"),
    # US listings: the filings themselves, and the 10-K sections a question asks about.
    _rule("sec_filings", "subquery.sec_filings", 0, "filings", none_of="risks mdna", args="sec_filings",
          listing="us"),
    _rule("sec_section", "subquery.sec_risks", 0, "risks", args="risk_section", listing="us"),
    # An A-share's risks: the 风险提示 announcements it filed on cninfo (no 10-K to read).
    _rule("cn_announcements", "subquery.cn_risk_notice", 0, "risks", args="risk_notice", listing="a_share"),
    _rule("sec_facts", "subquery.sec_facts", 0, "filed_figures", none_of="calendar", args="filed_figures",
          listing="us"),
    _rule("sec_section", "subquery.sec_mdna", 0, "mdna", args="mdna_section", listing="us"),
    # An A-share's plans (per 10 shares, dates) from 10jqka; Yahoo's history still gives the yield.
    _rule("cn_dividends", "subquery.cn_dividends", 0, "dividend", listing="a_share"),
    _rule("hk_dividends", "subquery.hk_dividends", 0, "dividend", listing="hk"),
    _rule("dividends", "subquery.dividends", 0, "dividend"),
    _rule("quote", "subquery.quote", 1, "dividend"),
    # The payout ratio is a profile figure; what a company says about its dividend is news.
    _rule("profile", "subquery.payout", 1, "dividend", none_of="market"),
    _rule("news", "subquery.dividend_news", 2, "dividend", none_of="market", args="dividend_news"),
    _rule("quote", "subquery.market_cap", 0, "valuation expensive"),
    _rule("profile", "subquery.valuation", 1, "valuation expensive"),
    # An A-share's multiple means something against its industry's (cninfo's CSRC industry P/E).
    _rule("cn_industry_compare", "subquery.cn_industry_compare", 1, "valuation expensive", listing="a_share"),
    # Compared instruments: each one's news says why they differ.
    _rule("news", "subquery.period_news", 4, "several", none_of="why news", args="news"),
    _rule("profile", "subquery.profile", 0, "profile"),
)
# A reading that asks for the same data from another upstream: (source, reading) → the source asked.
# Dependents still find it under the rule's source (a why-news node waits for these bars).
ASKED_INSTEAD: dict[tuple[str, str], str] = {("price_history", "cn_bars"): "cn_daily_bars"}
# The arguments over the question's window: in a "since earnings" question, the nodes given them (and
# no other parent) wait for the earnings node, whose report day the rewriter starts them on.
DATED_BY_REPORT: frozenset[ArgsShape] = frozenset({"price", "news", "disclosures", "results_news", "guidance_news",
                                                   "dividend_news"})
LOOKING_BACK = frozenset({"why", "price", "high_low"})     # readings whose data only exists for the past
# Readings added to the intents: no specific intent, several tickers, a period ahead, not a
# company, a period that starts at the last earnings report.
EXTRA_READINGS = frozenset({"general", "several", "ahead", "market", "since_report", "a_share", "hk", "us",
                            "filed_figures", "insider_trades", "period_why"})
SPECIFIC_INTENTS = frozenset({"ahead", "why", "price", "news", "fundamentals", "guidance", "surprise", "calendar",
                              "analyst", "holders", "dividend", "valuation", "expensive", "advice", "high_low",
                              "profile", "remarks", "filings", "risks", "mdna", "peers", "insiders",
                              "portfolio", "response", "worried"})
EQUITY_ONLY_INTENTS = frozenset({"fundamentals", "guidance", "surprise", "calendar", "analyst", "holders", "dividend",
                                 "response",
                                 "valuation", "expensive", "advice", "profile", "filings", "risks", "mdna", "peers",
                                 "insiders"})
