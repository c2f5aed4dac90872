"""The China-market sources on the real akshare 1.19.5 code and requests, with cninfo, Sina and
10jqka answering at urllib3's pool (tests/china_sites.py): each source's evidence with values
read off the fixture pages by hand; a ban (403), a rate limit (429), a server error, a timeout,
a reset connection, a changed page and an empty body each ending as the right error with a
reason a person can read — never "no data" — and every request bounded by the node's time."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from finsearch.catalogue import CATALOGUE
from finsearch.errors import (
    FailureKind,
    NoData,
    RateLimited,
    Refused,
    SourceError,
    TimedOut,
    UnknownSymbol,
    Unreachable,
)
from finsearch.source_args import check_args
from finsearch.sources.china.adapter import AShares
from tests import china_sites

NOW = datetime(2024, 11, 15, 8, 0, tzinfo=timezone.utc)
MOUTAI = {"ticker": "600519.SS"}


@pytest.fixture(autouse=True)
def _instant_backoff(no_waiting):
    """Retries here never sleep."""


@pytest.fixture
def sites(monkeypatch) -> china_sites.ChinaSites:
    return china_sites.install(monkeypatch)


@pytest.fixture
def ashares() -> AShares:
    return AShares(clock=lambda: NOW, timeout_s=5.0)


def only(items):
    assert len(items) == 1
    return items[0]


def test_top_holders_are_the_latest_reporting_dates(sites, ashares):
    item = only(ashares.fetch("cn_top_holders", MOUTAI))
    d = item["data"]
    # The page's first block: 截至日期 2024-09-30, 公告日期 2024-10-26, 股东总数 158967.
    assert (d["as_of"], d["announced"], d["holder_count"]) == ("2024-09-30", "2024-10-26", 158967)
    assert len(d["holders"]) == 10
    assert d["holders"][0] == {"rank": 1, "name": "中国贵州茅台酒厂(集团)有限责任公司", "shares": 678291955.0,
                               "pct": 54.0, "share_type": "流通A股"}
    assert d["holders"][1]["pct"] == 6.43                       # "6.43↓" on the page
    assert item["published"] == "2024-10-25T16:00:00Z"          # 2024-10-26 in Beijing
    assert item["url"] == "https://vip.stock.finance.sina.com.cn/corp/go.php/vCI_StockHolder/stockid/600519.phtml"


def test_announcements_have_titles_dates_and_links(sites, ashares):
    items = ashares.fetch("cn_announcements", MOUTAI)
    assert [i["title"] for i in items] == [
        "贵州茅台2024年第三季度报告", "贵州茅台第四届董事会2024年度第三次会议决议公告",
        "贵州茅台关于回购股份方案的公告"]
    assert items[0]["published"] == "2024-10-25T16:00:00Z"      # 1729872000000 ms
    assert items[0]["url"] == ("http://www.cninfo.com.cn/new/disclosure/detail?stockCode=600519&"
                               "announcementId=1221525866&orgId=gssh0600519&announcementTime=2024-10-26")
    # The last month, as cninfo's seDate wants it, for Moutai's orgId.
    query = [s for s in sites.sent if s.url.endswith("/hisAnnouncement/query")][0]
    assert "seDate=2024-10-16~2024-11-15" in query.body and "stock=600519%2Cgssh0600519" in query.body


def test_akshare_draws_no_progress_bar(sites, ashares, capfd):
    ashares.fetch("cn_announcements", MOUTAI)            # akshare pages through cninfo under a tqdm bar
    assert capfd.readouterr().err == ""


def test_announcements_of_a_category_and_period(sites, ashares):
    ashares.fetch("cn_announcements", {**MOUTAI, "category": "三季报", "start": "2024-10-01", "end": "2024-10-31"})
    query = [s for s in sites.sent if s.url.endswith("/hisAnnouncement/query")][0]
    assert "category=category_sjdbg_szsh" in query.body and "seDate=2024-10-01~2024-10-31" in query.body


def test_a_category_looks_back_a_year_and_no_period_is_longer(sites, ashares):
    ashares.fetch("cn_announcements", {**MOUTAI, "category": "业绩预告"})
    ashares.fetch("cn_announcements", {**MOUTAI, "start": "2015-01-01", "end": "2024-11-15"})
    queries = [s.body for s in sites.sent if s.url.endswith("/hisAnnouncement/query")]
    assert "seDate=2023-11-16~2024-11-15" in queries[0]
    assert "seDate=2023-11-15~2024-11-15" in queries[-1]


def test_no_announcements_in_the_period_is_no_data(sites, ashares):
    sites.announcements = {"totalAnnouncement": 0, "announcements": None, "hasMore": False}
    with pytest.raises(NoData, match="no announcements for 600519.SS between"):
        ashares.fetch("cn_announcements", MOUTAI)


def test_a_code_cninfo_does_not_list_is_an_unknown_symbol(sites, ashares):
    with pytest.raises(UnknownSymbol, match="lists no company with the code 688999"):
        ashares.fetch("cn_announcements", {"ticker": "688999.SS"})


def test_main_business(sites, ashares):
    d = only(ashares.fetch("cn_business", MOUTAI))["data"]
    assert d["main_business"] == "茅台酒及系列酒的生产与销售。"
    assert d["products"] == "飞天茅台、茅台王子酒、茅台迎宾酒、汉酱酒、赖茅"


def test_dividend_plans_newest_first(sites, ashares):
    plans = only(ashares.fetch("cn_dividends", MOUTAI))["data"]["plans"]
    # The page lists 2023年报, 2023中报, 2024中报, 2022年报; the 2024 interim plan has no dates yet ("--").
    assert [p["period"] for p in plans] == ["2024中报", "2023年报", "2023中报", "2022年报"]
    assert plans[0] == {"period": "2024中报", "board_date": "2024-11-04", "plan": "10派238.82元(含税)",
                        "record_date": None, "ex_date": None, "progress": "董事会预案", "payout_ratio": None}
    assert (plans[1]["ex_date"], plans[1]["payout_ratio"]) == ("2024-06-19", "51.90%")


@pytest.mark.parametrize(("freq", "period", "revenue", "net_profit_yoy"), [
    ("report", "2024-09-30", "1231.23亿", "15.04%"),        # cumulative to the report date (按报告期)
    ("annual", "2023", "1505.60亿", "19.16%"),              # 按年度
    ("quarterly", "2024-09-30", "396.72亿", "13.26%"),      # the third quarter alone (按单季度)
])
def test_financial_abstract_as_10jqka_prints_it(sites, ashares, freq, period, revenue, net_profit_yoy):
    latest = only(ashares.fetch("cn_financial_abstract", {**MOUTAI, "basis": freq}))["data"]["periods"][0]
    assert (latest["period"], latest["revenue"], latest["net_profit_yoy"]) == (period, revenue, net_profit_yoy)


def test_analysts_profit_forecasts(sites, ashares):
    first = only(ashares.fetch("cn_profit_forecast", MOUTAI))["data"]["forecasts"][0]
    # 2024: 38 institutions, EPS 66.02 / 68.43 / 70.86; net profit 829.32 / 859.63 / 890.23 亿元.
    assert first == {"year": "2024", "eps": {"analysts": 38.0, "low": 66.02, "mean": 68.43, "high": 70.86},
                     "net_profit": {"analysts": 38.0, "low": 82932000000.0, "mean": 85963000000.0,
                                    "high": 89023000000.0}}


def test_no_forecast_this_year_is_no_data(sites, ashares):
    sites.worth = "<html><body><p>本年度暂无机构做出业绩预测</p></body></html>".encode("gbk")
    with pytest.raises(NoData, match="no analyst has published a forecast"):
        ashares.fetch("cn_profit_forecast", MOUTAI)


def test_a_hong_kong_stocks_dividend_plans(sites, ashares):
    item = only(ashares.fetch("hk_dividends", {"ticker": "0700.HK"}))
    plans = item["data"]["plans"]
    # The page's four rows, the 2022 distribution in kind (no ex or pay date) dropped by akshare.
    assert [(p["board_date"], p["plan"]) for p in plans] == [
        ("2024-03-20", "每股派3.4港元"), ("2023-03-22", "每股派2.4港元"), ("2022-03-23", "每股派1.6港元")]
    assert plans[0] == {"period": "末期", "board_date": "2024-03-20", "plan": "每股派3.4港元",
                        "record_date": "2024-05-21", "ex_date": "2024-05-17", "pay_date": "2024-05-31",
                        "progress": "已实施", "payout_ratio": None}
    assert item["url"] == "https://basic.10jqka.com.cn/176/HK0700/bonus.html"


def test_a_ban_of_the_hong_kong_page_is_refused(sites, ashares):
    sites.fail("403", "10jqka")
    with pytest.raises(Refused, match=r"10jqka .*refused the request \(HTTP 403\)"):
        ashares.fetch("hk_dividends", {"ticker": "0700.HK"})


def test_the_hong_kong_source_takes_only_hong_kong_tickers(sites, ashares):
    assert check_args("hk_dividends", MOUTAI) == ["hk_dividends: bad value for 'ticker': '600519.SS'"]
    with pytest.raises(SourceError, match="not a Hong Kong ticker"):
        ashares.fetch("hk_dividends", MOUTAI)
    assert sites.sent == []


def test_stock_news_newest_first_with_outlets_and_links(sites, ashares):
    items = ashares.fetch("cn_stock_news", MOUTAI)
    # The page's three stories; akshare strips the <em> highlights and "(<em>600519</em>)".
    assert [(i["title"], i["publisher"]) for i in items] == [
        ("贵州茅台：拟以30亿元至60亿元回购股份", "证券时报网"),
        ("白酒板块震荡 600519贵州茅台获北向资金增持", "上海证券报"),
        ("贵州茅台前三季度净利润同比增长15.04%", "东方财富研究中心")]
    assert items[0]["published"] == "2024-11-14T11:02:11Z"          # 19:02:11 in Beijing
    assert items[0]["url"] == "http://finance.eastmoney.com/a/202411143240011234.html"
    assert items[1]["snippet"] == "11日北向资金净买入贵州茅台逾5亿元。 白酒板块整体震荡。"
    assert "keyword%22%3A+%22600519" in sites.sent[0].url or '"keyword": "600519"' in sites.sent[0].url


def test_stock_news_of_a_period(sites, ashares):
    items = ashares.fetch("cn_stock_news", {**MOUTAI, "start": "2024-11-01", "end": "2024-11-13"})
    assert [i["published"] for i in items] == ["2024-11-12T00:30:05Z"]
    with pytest.raises(NoData, match="no news stories for 600519.SS between 2024-01-01 and 2024-01-31"):
        ashares.fetch("cn_stock_news", {**MOUTAI, "start": "2024-01-01", "end": "2024-01-31"})


def test_a_news_search_that_finds_nothing_is_no_data(sites, ashares):
    sites.news = 'jQuery35101792940631092459_1764599530165({"code": 0, "result": {"cmsArticleWebOld": []}})'
    with pytest.raises(NoData, match="Eastmoney .* has no news stories for 600519.SS"):
        ashares.fetch("cn_stock_news", MOUTAI)


def test_company_profile(sites, ashares):
    d = only(ashares.fetch("cn_profile", MOUTAI))["data"]
    assert (d["name"], d["industry"], d["market"]) == ("贵州茅台酒股份有限公司", "酒、饮料和精制茶制造业", "上交所主板")
    assert (d["listed"], d["founded"], d["region"]) == ("2001-08-27", "1999-11-20", "贵州省仁怀市茅台镇")


def test_a_code_without_a_cninfo_profile_is_no_data(sites, ashares):
    with pytest.raises(NoData, match="no company profile for 600000.SS"):       # cninfo's count 0
        ashares.fetch("cn_profile", {"ticker": "600000.SS"})


def test_industry_compare_puts_its_pe_next_to_its_industrys(sites, ashares):
    d = only(ashares.fetch("cn_industry_compare", MOUTAI))["data"]
    # cninfo's C15 row of 2024-11-14 (48 companies, 43 counted, weighted 24.82, median 31.55);
    # Baidu's last points of the year: static P/E 25.96, TTM 22.87, P/B 8.12.
    assert (d["industry"], d["industry_code"], d["as_of"]) == ("酒、饮料和精制茶制造业", "C15", "2024-11-14")
    assert (d["companies"], d["companies_counted"]) == (48, 43)
    assert (d["industry_pe_weighted"], d["industry_pe_median"]) == (24.82, 31.55)
    assert (d["pe_static"], d["pe_ttm"], d["pb"], d["valued_on"]) == (25.96, 22.87, 8.12, "2024-11-14")
    # Friday's table is not out at 16:00 in Beijing: Thursday's is taken.
    days = [s.url.split("tdate=")[1][:10] for s in sites.sent if "p_sysapi1087" in s.url]
    assert days == ["2024-11-15", "2024-11-14"]


def test_no_industry_table_for_days_is_unreachable_not_no_data(sites, ashares):
    later = AShares(clock=lambda: datetime(2024, 11, 25, 8, 0, tzinfo=timezone.utc), timeout_s=5.0)
    with pytest.raises(Unreachable, match=r"no industry P/E table for 2024-11-20…2024-11-25"):
        later.fetch("cn_industry_compare", MOUTAI)


def test_a_baidu_ban_names_baidu(sites, ashares):
    sites.fail("403", "baidu")
    with pytest.raises(Refused, match=r"Baidu Gushitong .*refused the request \(HTTP 403\)"):
        ashares.fetch("cn_industry_compare", MOUTAI)


def test_daily_bars_are_a_price_history(sites, ashares):
    item = only(ashares.fetch("cn_daily_bars", MOUTAI))
    d = item["data"]
    assert (d["ticker"], d["interval"], d["currency"], d["timezone"]) == ("600519.SS", "1d", "CNY", "Asia/Shanghai")
    assert d["columns"] == ["date", "open", "high", "low", "close", "volume"]
    # From 45 days before the month asked (2024-10-16…2024-11-15), for the chart and the base close.
    # The page's first row is [date, open, close, high, low, 手, …]: 1250.00, 1247.50, 1256.00, 1241.50, 30274.
    assert d["rows"][0] == ["2024-09-02", 1250.0, 1256.0, 1241.5, 1247.5, 3027400]        # 30274 手 × 100
    assert d["rows"][-1][0] == "2024-11-15" and d["rows"][-1][4] == 1389.57
    stats = d["stats"]
    # 1360.80 on 2024-10-15 → 1389.57 on 2024-11-15; the biggest move 1407.91 → 1348.78 on 2024-11-06.
    assert (stats["start_close"], stats["end_close"], stats["return_pct"]) == (1360.8, 1389.57, 2.11)
    assert stats["biggest_moves"][0] == {"date": "2024-11-06", "change_pct": -4.2}
    assert item["period"] == {"start": "2024-10-16", "end": "2024-11-15"}
    kline = [s.url for s in sites.sent if "newfqkline" in s.url]
    assert len(kline) == 1 and "param=sh600519%2Cday%2C2024-01-01%2C2025-12-31%2C640%2C" in kline[0]


def test_daily_bars_on_a_closed_market_ask_nothing(sites, ashares):
    with pytest.raises(NoData, match="the Shanghai Stock Exchange was closed"):
        ashares.fetch("cn_daily_bars", {**MOUTAI, "start": "2024-10-01", "end": "2024-10-07"})      # National Day
    assert sites.sent == []


@pytest.mark.parametrize("source", ["cn_business", "cn_stock_news"])      # requests; curl_cffi
def test_every_request_is_bounded_by_the_call_time(sites, ashares, source):
    ashares.fetch(source, MOUTAI)
    assert sites.sent and all(s.timeout is not None and s.timeout <= 5.0 for s in sites.sent)


# -- failures -------------------------------------------------------------------------------

SOURCES = {"cn_top_holders": "sina", "cn_announcements": "cninfo", "cn_business": "10jqka", "cn_dividends": "10jqka",
           "cn_financial_abstract": "10jqka", "cn_profit_forecast": "10jqka", "cn_stock_news": "eastmoney",
           "cn_profile": "cninfo", "cn_industry_compare": "cninfo", "cn_daily_bars": "gtimg"}


@pytest.mark.parametrize("source", SOURCES)
def test_a_ban_is_refused_never_no_data(sites, ashares, source):
    sites.fail("403", SOURCES[source])
    with pytest.raises(Refused, match=r"refused the request \(HTTP 403\)") as err:
        ashares.fetch(source, MOUTAI)
    assert err.value.kind is FailureKind.REFUSED


@pytest.mark.parametrize("source", SOURCES)
def test_a_changed_page_is_unreachable_with_the_reason(sites, ashares, source):
    sites.fail("changed", SOURCES[source])
    with pytest.raises(Unreachable, match="changed|could not read") as err:
        ashares.fetch(source, MOUTAI)
    assert not isinstance(err.value, NoData)


@pytest.mark.parametrize("source", SOURCES)
def test_an_empty_body_is_unreachable(sites, ashares, source):
    sites.fail("empty", SOURCES[source])
    with pytest.raises(Unreachable):
        ashares.fetch(source, MOUTAI)


def test_a_rate_limit_is_retried_then_reported(sites, ashares):
    sites.fail("429", "10jqka")
    with pytest.raises(RateLimited, match="10jqka.*rate-limited the request; retried 2 times"):
        ashares.fetch("cn_business", MOUTAI)
    assert sites.count("10jqka") == 3


def test_a_passing_server_error_is_retried_away(sites, ashares):
    sites.fail("500", "10jqka", times=1)
    assert only(ashares.fetch("cn_business", MOUTAI))["data"]["main_business"]


def test_an_eastmoney_timeout_or_reset_is_told_apart(sites, ashares):
    sites.fail("timeout", "eastmoney")
    with pytest.raises(TimedOut, match="Eastmoney .*did not answer in time"):
        ashares.fetch("cn_stock_news", MOUTAI)
    sites.fail("reset", "eastmoney")
    with pytest.raises(Unreachable, match="cannot reach Eastmoney"):
        ashares.fetch("cn_stock_news", MOUTAI)


def test_a_timeout_is_timed_out(sites, ashares):
    sites.fail("timeout", "sina")
    with pytest.raises(TimedOut, match="Sina Finance.*did not answer in time"):
        ashares.fetch("cn_top_holders", MOUTAI)


def test_a_reset_connection_is_unreachable_at_once(sites, ashares):
    sites.fail("reset", "sina")
    with pytest.raises(Unreachable, match="cannot reach Sina Finance"):
        ashares.fetch("cn_top_holders", MOUTAI)
    assert sites.count("sina") == 1


def test_a_ticker_that_is_not_an_a_share_fails_before_any_request(sites, ashares):
    with pytest.raises(SourceError, match="not a Shanghai or Shenzhen A-share ticker"):
        ashares.fetch("cn_top_holders", {"ticker": "AAPL"})
    assert sites.sent == []


def test_the_catalogue_declares_them():
    assert CATALOGUE["cn_announcements"].kind == "news"
    assert check_args("cn_announcements", {"ticker": "600519.SS", "category": "年报"}) == []
    assert check_args("cn_top_holders", {}) == ["cn_top_holders: missing argument 'ticker'"]


# -- in the hub: a banned site falls back to Yahoo, and says so ----------------------------------

class _YahooHolders:
    def fetch(self, source, args):
        assert (source, args) == ("holders", {"ticker": "600519.SS"})
        return [{"title": "600519.SS holders (Yahoo)", "url": "https://finance.yahoo.com/quote/600519.SS/holders",
                 "data": {"ticker": "600519.SS", "major": {"institutions_pct": 9.1}}}]


def test_a_banned_site_falls_back_to_yahoo_and_the_run_is_told(sites, ashares, tmp_path):
    from finsearch.settings import Settings
    from finsearch.sources.hub import DataHub

    sites.fail("403", "sina")
    hub = DataHub(Settings(cache_dir=tmp_path), adapters={"cn_top_holders": ashares, "holders": _YahooHolders()})
    result = hub.call("cn_top_holders", MOUTAI)
    assert [e.source for e in result.evidence] == ["holders"]
    assert "Sina Finance (新浪财经) refused the request (HTTP 403)" in result.problems[0]
    assert result.problems[0].endswith("used holders instead")


def test_a_plan_cannot_ask_the_china_sites_about_another_market():
    assert check_args("cn_top_holders", {"ticker": "0700.HK"}) == ["cn_top_holders: bad value for 'ticker': '0700.HK'"]
    assert check_args("hk_dividends", {"ticker": "0700.HK"}) == []
    assert check_args("sec_filings", {"ticker": "600519.SS"}) == ["sec_filings: bad value for 'ticker': '600519.SS'"]


class _BlockedYahoo:
    def __init__(self):
        self.asked = []

    def fetch(self, source, args):
        self.asked.append((source, args))
        raise Unreachable("Yahoo Finance refused the request (HTTP 429 after 3 retries)")


def test_a_blocked_yahoo_history_of_an_a_share_is_tencents_bars(sites, ashares, tmp_path):
    from finsearch.settings import Settings
    from finsearch.sources.hub import DataHub

    hub = DataHub(Settings(cache_dir=tmp_path), adapters={"price_history": _BlockedYahoo(), "cn_daily_bars": ashares})
    result = hub.call("price_history", {**MOUTAI, "start": "2024-10-16", "end": "2024-11-15"})
    (item,) = result.evidence
    assert item.source == "cn_daily_bars" and item.prices.stats.end_close == 1389.57
    assert result.problems[0].endswith("used cn_daily_bars instead")


@pytest.mark.parametrize("args", [{"ticker": "AAPL"}, {**MOUTAI, "interval": "1h"}])
def test_tencents_bars_stand_in_only_for_an_a_shares_daily_bars(sites, ashares, tmp_path, args):
    from finsearch.settings import Settings
    from finsearch.sources.hub import DataHub

    hub = DataHub(Settings(cache_dir=tmp_path), adapters={"price_history": _BlockedYahoo(), "cn_daily_bars": ashares})
    with pytest.raises(Unreachable, match=r"^Yahoo Finance refused the request \(HTTP 429 after 3 retries\)$"):
        hub.call("price_history", args)
    assert sites.sent == []


def test_why_news_narrows_to_the_biggest_move_tencents_bars_find(sites, ashares):
    from finsearch.evidence import sanitise
    from finsearch.graph import NodeStatus
    from finsearch.plan.analysis import analyse
    from finsearch.plan.rules import heuristic_plan
    from finsearch.run.rewriter import heuristic_rewrite

    analysis = analyse("茅台上周为什么跌，用akshare数据", NOW)
    bars, news = heuristic_plan(analysis, NOW)[:2]
    assert (bars.source, news.source, news.depends_on) == ("cn_daily_bars", "news", (bars.id,))
    evidence, _ = sanitise(ashares.fetch("cn_daily_bars", bars.args), "cn_daily_bars", "finance")
    bars.evidence, bars.status = list(evidence), NodeStatus.DONE
    rewrite = heuristic_rewrite(news, [bars], analysis, NOW)
    # Last week (2024-11-04…10): the fixture's −4.2 % of 2024-11-06, and the news of the three days
    # before it to the day after.
    assert (rewrite.args["start"], rewrite.args["end"]) == ("2024-11-03", "2024-11-07")
    assert "4.2%" in rewrite.sub_query
