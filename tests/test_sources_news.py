"""The news source: yfinance ticker news and RSS feeds (Yahoo Finance, Google News) served
through httpx.MockTransport, merged, deduplicated, dated and sanitised."""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from finsearch.errors import NoData, SourceError, Unreachable
from finsearch.evidence import Evidence
from finsearch.sources.hub import DataHub
from finsearch.sources.news.adapter import NewsSource, feed_url
from finsearch.sources.upstream import http, resilience
from finsearch.sources.upstream.resilience import Upstream
from tests.conftest import NOW

YAHOO_FEED = "https://feeds.finance.yahoo.com/rss/2.0/headline?s={ticker}&region={region}&lang={lang}"
GOOGLE_FEED = "https://news.google.com/rss/search?q={query}&hl={hl}&gl={gl}&ceid={ceid}"
ARGS = {"ticker": "NVDA", "query": "NVIDIA stock", "start": "2024-10-10", "end": "2024-10-12", "lang": "en"}

# The layout Yahoo Finance serves: items first, channel metadata after, elements in
# alphabetical order, links carrying ?.tsrc=rss.
YAHOO_RSS = """<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
<rss version="2.0">
  <channel>
    <copyright>Copyright (c) 2024 Yahoo! Inc. All rights reserved.</copyright>
    <description>Latest Financial News for NVDA</description>
    <image>
      <height>45</height>
      <link>http://finance.yahoo.com/q/h?s=NVDA</link>
      <title>Yahoo! Finance: NVDA News</title>
      <url>http://l.yimg.com/a/i/brand/purplelogo/uh/us/fin.gif</url>
      <width>144</width>
    </image>
    <item>
      <description>Nvidia shares slid on Friday after a report that U.S. officials discussed capping
        sales of advanced AI chips to some countries.</description>
      <guid isPermaLink="false">6f1c2a4e-1b5e-3d0a-9a7e-2b8f6d3c1a90</guid>
      <link>https://finance.yahoo.com/news/nvidia-shares-fall-report-chip-194500123.html?.tsrc=rss</link>
      <pubDate>Fri, 11 Oct 2024 19:45:00 +0000</pubDate>
      <title>Nvidia shares fall on report of new chip export caps</title>
    </item>
    <item>
      <description>Our analyst weighs in on the pullback.</description>
      <guid isPermaLink="false">b3d9f0e2-7c41-3e55-8d0b-5f2a9c7e4d11</guid>
      <link>https://www.fool.com/investing/2024/10/12/is-nvidia-stock-a-buy-after-pullback/?source=yahoo</link>
      <pubDate>Sat, 12 Oct 2024 09:30:00 +0000</pubDate>
      <title>Is Nvidia Stock a Buy After Its Pullback?</title>
    </item>
    <item>
      <description>An older story outside the window.</description>
      <guid isPermaLink="false">00000000-0000-3000-8000-000000000001</guid>
      <link>https://finance.yahoo.com/news/nvidia-old-story-120000456.html?.tsrc=rss</link>
      <pubDate>Mon, 16 Sep 2024 12:00:00 +0000</pubDate>
      <title>Nvidia rallies as AI trade returns in mid-September</title>
    </item>
    <language>en-US</language>
    <lastBuildDate>Tue, 15 Oct 2024 19:59:44 +0000</lastBuildDate>
    <link>http://finance.yahoo.com/q/h?s=NVDA</link>
    <title>Yahoo! Finance: NVDA News</title>
  </channel>
</rss>
"""

# The layout Google News serves: one line, redirect links, HTML in <description>,
# " - Publisher" at the end of titles and the publisher again in <source url=…>.
GOOGLE_RSS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><rss version="2.0" '
    'xmlns:media="http://search.yahoo.com/mrss/"><channel><generator>NFE/5.0</generator>'
    '<title>"NVIDIA stock after:2024-10-10 before:2024-10-13" - Google News</title>'
    '<link>https://news.google.com/search?q=NVIDIA+stock&amp;hl=en-US&amp;gl=US&amp;ceid=US:en</link>'
    '<language>en-US</language><webMaster>news-webmaster@google.com</webMaster>'
    '<copyright>2024 Google LLC</copyright><lastBuildDate>Tue, 15 Oct 2024 19:58:13 GMT</lastBuildDate>'
    '<description>Google News</description>'
    '<item><title>Nvidia shares fall on report of new chip export caps - Reuters</title>'
    '<link>https://news.google.com/rss/articles/CBMiqwFBVV95cUxQbnZkYV9leHBvcnQ?oc=5</link>'
    '<guid isPermaLink="false">CBMiqwFBVV95cUxQbnZkYV9leHBvcnQ</guid>'
    '<pubDate>Fri, 11 Oct 2024 19:52:00 GMT</pubDate>'
    '<description>&lt;a href="https://news.google.com/rss/articles/CBMiqwFBVV95cUxQbnZkYV9leHBvcnQ?oc=5" '
    'target="_blank"&gt;Nvidia shares fall on report of new chip export caps&lt;/a&gt;&amp;nbsp;&amp;nbsp;'
    '&lt;font color="#6f6f6f"&gt;Reuters&lt;/font&gt;</description>'
    '<source url="https://www.reuters.com">Reuters</source></item>'
    '<item><title>Chip stocks retreat as export worries weigh on sector - CNBC</title>'
    '<link>https://news.google.com/rss/articles/CBMiZGh0dHBzOi8vd3d3LmNuYmMuY29t?oc=5</link>'
    '<guid isPermaLink="false">CBMiZGh0dHBzOi8vd3d3LmNuYmMuY29t</guid>'
    '<pubDate>Fri, 11 Oct 2024 21:05:00 GMT</pubDate>'
    '<description>&lt;ol&gt;&lt;li&gt;&lt;a '
    'href="https://news.google.com/rss/articles/CBMiZGh0dHBzOi8vd3d3LmNuYmMuY29t?oc=5" target="_blank"&gt;'
    'Chip stocks retreat as export worries weigh on sector&lt;/a&gt;&amp;nbsp;&amp;nbsp;'
    '&lt;font color="#6f6f6f"&gt;CNBC&lt;/font&gt;&lt;/li&gt;&lt;li&gt;&lt;a '
    'href="https://news.google.com/rss/articles/x" target="_blank"&gt;'
    'Semiconductor index drops 3%&lt;/a&gt;&amp;nbsp;&amp;nbsp;&lt;font color="#6f6f6f"&gt;'
    'MarketWatch&lt;/font&gt;&lt;/li&gt;&lt;/ol&gt;</description>'
    '<source url="https://www.cnbc.com">CNBC</source></item>'
    '<item><title>Nvidia stock: what analysts expect next week - Barron\'s</title>'
    '<link>https://news.google.com/rss/articles/CBMiYmFycm9ucw?oc=5</link>'
    '<guid isPermaLink="false">CBMiYmFycm9ucw</guid>'
    '<pubDate>Sun, 13 Oct 2024 14:00:00 GMT</pubDate>'
    '<description>&lt;a href="https://news.google.com/rss/articles/CBMiYmFycm9ucw?oc=5"&gt;Nvidia stock: what '
    'analysts expect next week&lt;/a&gt;&amp;nbsp;&amp;nbsp;&lt;font color="#6f6f6f"&gt;Barron\'s&lt;/font&gt;'
    '</description><source url="https://www.barrons.com">Barron\'s</source></item>'
    '</channel></rss>'
)

GOOGLE_RSS_ZH = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><rss version="2.0"><channel>'
    '<title>"贵州茅台" - Google 新闻</title><language>zh-CN</language>'
    '<item><title>贵州茅台股价回落，白酒板块走弱 - 新浪财经</title>'
    '<link>https://news.google.com/rss/articles/CBMiemhfbW91dGFp?oc=5</link>'
    '<pubDate>Mon, 14 Oct 2024 03:00:00 GMT</pubDate>'
    '<description>&lt;a href="https://news.google.com/rss/articles/CBMiemhfbW91dGFp?oc=5"&gt;贵州茅台股价回落，'
    '白酒板块走弱&lt;/a&gt;&amp;nbsp;&amp;nbsp;&lt;font color="#6f6f6f"&gt;新浪财经&lt;/font&gt;</description>'
    '<source url="https://finance.sina.com.cn">新浪财经</source></item>'
    '</channel></rss>'
)


def rss(*items: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>t</title>'
            + "".join(items) + "</channel></rss>")


def rss_item(title: str, link: str, when: str = "Fri, 11 Oct 2024 12:00:00 GMT", description: str = "") -> str:
    return (f"<item><title>{title}</title><link>{link}</link><pubDate>{when}</pubDate>"
            f"<description>{description}</description></item>")


class Server:
    """Routes requests by host to canned (status, body) replies; records every URL asked for."""

    def __init__(self, routes: dict[str, list[tuple[int, str]] | Exception]):
        self.routes = routes
        self.requests: list[httpx.URL] = []
        self.lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        with self.lock:
            self.requests.append(request.url)
            route = self.routes[request.url.host]
            if isinstance(route, Exception):
                raise route
            status, body = route.pop(0) if len(route) > 1 else route[0]
        return httpx.Response(status, text=body, headers={"content-type": "application/rss+xml; charset=utf-8"})

    def hits(self, host: str) -> list[httpx.URL]:
        return [u for u in self.requests if u.host == host]


@pytest.fixture
def serve(monkeypatch):
    """Install a Server as the HTTP transport; retries wait no time."""
    monkeypatch.setattr(resilience, "sleep", lambda _s: None)

    def install(routes) -> Server:
        server = Server(routes)
        monkeypatch.setattr(http, "_client", httpx.Client(transport=httpx.MockTransport(server)))
        return server

    return install


def fake_yf(news=None, error: Exception | None = None):
    """A stand-in for the yfinance module: `yf.Ticker(t).news`."""
    asked: list[str] = []

    class Ticker:
        def __init__(self, symbol):
            asked.append(symbol)

        @property
        def news(self):
            if error is not None:
                raise error
            return news

    return SimpleNamespace(Ticker=Ticker, asked=asked)


def source(**kw) -> NewsSource:
    kw.setdefault("feeds", (YAHOO_FEED, GOOGLE_FEED))
    kw.setdefault("yf", fake_yf([]))
    kw.setdefault("clock", lambda: NOW)
    return NewsSource(**kw)


# -- feeds ----------------------------------------------------------------------------------

def test_yahoo_and_google_feeds_merge_into_clean_dated_items(serve):
    server = serve({"feeds.finance.yahoo.com": [(200, YAHOO_RSS)], "news.google.com": [(200, GOOGLE_RSS)]})
    items = source().fetch("news", ARGS)

    titles = [i["title"] for i in items]
    assert titles == [
        "Nvidia stock: what analysts expect next week",
        "Is Nvidia Stock a Buy After Its Pullback?",
        "Chip stocks retreat as export worries weigh on sector",
        "Nvidia shares fall on report of new chip export caps",
    ], "newest first; the same story from both feeds appears once; September's story is dropped"
    by_title = {i["title"]: i for i in items}
    export = by_title["Nvidia shares fall on report of new chip export caps"]
    assert export["url"] == "https://finance.yahoo.com/news/nvidia-shares-fall-report-chip-194500123.html"
    assert export["publisher"] == "Yahoo Finance" and export["published"] == "2024-10-11T19:45:00Z"
    assert export["snippet"].startswith("Nvidia shares slid on Friday"), "the copy with a real summary wins"
    chips = by_title["Chip stocks retreat as export worries weigh on sector"]
    assert chips["publisher"] == "CNBC" and chips["url"].startswith("https://news.google.com/rss/articles/")
    assert chips["snippet"] == "Semiconductor index drops 3% MarketWatch", "the related headline, not a repeat"
    assert by_title["Nvidia stock: what analysts expect next week"]["snippet"] == "", \
        "a description that only repeats title and publisher is no snippet"
    assert by_title["Is Nvidia Stock a Buy After Its Pullback?"]["publisher"] == "fool.com"
    assert all(set(i) == {"title", "url", "publisher", "published", "snippet", "data"} for i in items)

    yahoo_url, google_url = server.hits("feeds.finance.yahoo.com")[0], server.hits("news.google.com")[0]
    assert dict(yahoo_url.params) == {"s": "NVDA", "region": "US", "lang": "en-US"}
    assert dict(google_url.params) == {"q": "NVIDIA stock after:2024-10-10 before:2024-10-13",
                                       "hl": "en-US", "gl": "US", "ceid": "US:en"}


def test_chinese_edition_parameters_and_publisher_suffix(serve):
    server = serve({"feeds.finance.yahoo.com": [(200, rss())], "news.google.com": [(200, GOOGLE_RSS_ZH)]})
    items = source().fetch("news", {"ticker": "600519.SS", "query": "贵州茅台", "lang": "zh"})
    assert items == [{"title": "贵州茅台股价回落，白酒板块走弱", "url": items[0]["url"], "publisher": "新浪财经",
                      "published": "2024-10-14T03:00:00Z", "snippet": "", "data": None}]
    assert dict(server.hits("news.google.com")[0].params) == {
        "q": "贵州茅台", "hl": "zh-CN", "gl": "CN", "ceid": "CN:zh-Hans"}
    assert dict(server.hits("feeds.finance.yahoo.com")[0].params) == {
        "s": "600519.SS", "region": "HK", "lang": "zh-Hant-HK"}


def test_feed_urls_skip_missing_placeholders_and_encode_values():
    assert feed_url(YAHOO_FEED, None, "oil prices", None, None) is None, "no ticker: the ticker feed is skipped"
    google = feed_url(GOOGLE_FEED, "BRK-B", None, None, None)
    assert parse_qs(urlsplit(google).query)["q"] == ["BRK-B"], "no words: the ticker is the query"
    url = feed_url(GOOGLE_FEED, None, "S&P 500 #rally", None, None)
    assert parse_qs(urlsplit(url).query)["q"] == ["S&P 500 #rally"], "special characters stay inside q"
    assert "%5EGSPC" in feed_url(YAHOO_FEED, "^GSPC", None, None, None)
    with pytest.raises(SourceError, match=r"unknown placeholder \{country\}"):
        feed_url("https://example.com/rss?c={country}", "NVDA", None, None, None)


def test_query_only_request_reads_only_the_query_feeds(serve):
    server = serve({"news.google.com": [(200, GOOGLE_RSS)]})
    yf = fake_yf([])
    items = source(yf=yf).fetch("news", {"query": "NVIDIA stock", "lang": "en"})
    assert len(items) == 3 and not yf.asked
    assert not server.hits("feeds.finance.yahoo.com")


def test_date_window_keeps_three_days_either_side_and_undated_items(serve):
    feed = rss(
        rss_item("Inside the range story about chips today", "https://a.example/1", "Thu, 10 Oct 2024 08:00:00 GMT"),
        rss_item("Two days before the range story here", "https://a.example/2", "Tue, 08 Oct 2024 08:00:00 GMT"),
        rss_item("Five days before the range story here", "https://a.example/3", "Sat, 05 Oct 2024 08:00:00 GMT"),
        rss_item("Three days after the end story here", "https://a.example/4", "Tue, 15 Oct 2024 08:00:00 GMT"),
        rss_item("Far after the end of the range story", "https://a.example/5", "Sat, 19 Oct 2024 08:00:00 GMT"),
        '<item><title>An undated story without any date at all</title><link>https://a.example/6</link></item>',
    )
    serve({"news.google.com": [(200, feed)]})
    items = source(feeds=(GOOGLE_FEED,)).fetch("news", {"query": "chips", "start": "2024-10-10", "end": "2024-10-12"})
    assert [i["url"] for i in items] == ["https://a.example/4", "https://a.example/1", "https://a.example/2",
                                         "https://a.example/6"], "newest first, undated last"


def test_start_without_end_runs_to_today_by_the_clock(serve):
    server = serve({"news.google.com": [(200, rss(rss_item("Story", "https://a.example/1")))]})
    source(feeds=(GOOGLE_FEED,)).fetch("news", {"query": "chips", "start": "2024-10-01"})
    assert server.hits("news.google.com")[0].params["q"] == "chips after:2024-10-01 before:2024-10-16"


def test_cap_at_max_items_and_dedupe_within_a_feed(serve):
    stories = [rss_item(f"Story number {n} about the market", f"https://a.example/{n}",
                        f"Fri, 11 Oct 2024 {n:02d}:00:00 GMT") for n in range(12)]
    stories.append(rss_item("Story number 3 about the market", "https://a.example/3?utm_source=rss"))
    serve({"news.google.com": [(200, rss(*stories))]})
    items = source(feeds=(GOOGLE_FEED,), max_items=5).fetch("news", {"query": "market"})
    assert [i["url"] for i in items] == [f"https://a.example/{n}" for n in (11, 10, 9, 8, 7)]


# -- yfinance -------------------------------------------------------------------------------

NESTED = {"id": "3c8e5c0f", "content": {
    "id": "3c8e5c0f", "contentType": "STORY", "title": "Nvidia's Blackwell demand is 'insane', CEO says",
    "description": "", "summary": "Jensen Huang said demand for <b>Blackwell</b> chips is insane.",
    "pubDate": "2024-10-11T13:05:00Z", "displayTime": "2024-10-11T13:20:00Z", "isHosted": True,
    "thumbnail": {"originalUrl": "https://s.yimg.com/x.jpg", "resolutions": []},
    "provider": {"displayName": "Reuters", "url": "http://www.reuters.com/"},
    "canonicalUrl": {"url": "https://finance.yahoo.com/news/nvidia-blackwell-demand-130500.html",
                     "site": "finance", "region": "US", "lang": "en-US"},
    "clickThroughUrl": {"url": "https://finance.yahoo.com/news/nvidia-blackwell-demand-130500.html",
                        "site": "finance", "region": "US", "lang": "en-US"},
    "metadata": {"editorsPick": False}, "finance": {"stockTickers": [{"symbol": "NVDA"}]}}}
NESTED_CLICK_ONLY = {"id": "77", "content": {
    "title": "Video: chip stocks slide", "summary": "", "pubDate": "2024-10-11T20:00:00Z",
    "provider": {"displayName": "Yahoo Finance Video"}, "canonicalUrl": None,
    "clickThroughUrl": {"url": "https://finance.yahoo.com/video/chip-stocks-slide-200000.html"}}}
FLAT = {"uuid": "a1", "title": "Nvidia gains after upgrade at Morgan Stanley", "publisher": "Barrons.com",
        "link": "https://finance.yahoo.com/m/a1/nvidia-gains-after-upgrade.html", "providerPublishTime": 1728565200,
        "type": "STORY", "relatedTickers": ["NVDA"]}


def test_yfinance_news_in_both_shapes():
    yf = fake_yf([NESTED, NESTED_CLICK_ONLY, FLAT, {"ad": ["x"]}, "junk", {"content": {"title": ""}}])
    items = NewsSource(feeds=(), yf=yf, clock=lambda: NOW).fetch("news", {"ticker": "nvda"})
    assert yf.asked == ["NVDA"]
    assert items == [
        {"title": "Video: chip stocks slide", "url": "https://finance.yahoo.com/video/chip-stocks-slide-200000.html",
         "publisher": "Yahoo Finance Video", "published": "2024-10-11T20:00:00Z", "snippet": "", "data": None},
        {"title": "Nvidia's Blackwell demand is 'insane', CEO says",
         "url": "https://finance.yahoo.com/news/nvidia-blackwell-demand-130500.html", "publisher": "Reuters",
         "published": "2024-10-11T13:05:00Z", "snippet": "Jensen Huang said demand for Blackwell chips is insane.",
         "data": None},
        {"title": "Nvidia gains after upgrade at Morgan Stanley",
         "url": "https://finance.yahoo.com/m/a1/nvidia-gains-after-upgrade.html", "publisher": "Barrons.com",
         "published": "2024-10-10T13:00:00Z", "snippet": "", "data": None},
    ]


def test_yfinance_and_feeds_dedupe_keeping_the_richer_copy(serve):
    serve({"feeds.finance.yahoo.com": [(200, rss(rss_item(
        "Nvidia&#8217;s Blackwell demand is &#8216;insane&#8217;, CEO says",
        "https://finance.yahoo.com/news/nvidia-blackwell-demand-130500.html?.tsrc=rss",
        "Fri, 11 Oct 2024 13:05:00 +0000")))],
        "news.google.com": [(200, rss())]})
    items = source(yf=fake_yf([NESTED])).fetch("news", ARGS)
    assert len(items) == 1
    assert items[0]["publisher"] == "Reuters" and items[0]["snippet"].startswith("Jensen Huang")


def test_yfinance_failure_is_skipped_when_feeds_answer(serve):
    serve({"feeds.finance.yahoo.com": [(200, YAHOO_RSS)], "news.google.com": [(200, rss())]})
    items = source(yf=fake_yf(error=OSError("DNSError: could not resolve host"))).fetch("news", ARGS)
    assert len(items) == 2


# -- failures -------------------------------------------------------------------------------

def test_malformed_feed_yields_what_it_can(serve):
    broken = ('<?xml version="1.0"?><rss version="2.0"><channel><item><title>Readable story before the '
              'break</title><link>https://a.example/ok</link></item><item><title>Broken & unescaped'
              '</title><link>https://a.example/broken</link></channel>')
    serve({"news.google.com": [(200, broken)]})
    items = source(feeds=(GOOGLE_FEED,)).fetch("news", {"query": "chips"})
    assert items[0]["title"] == "Readable story before the break"


def test_unreadable_feed_next_to_a_good_one(serve):
    serve({"feeds.finance.yahoo.com": [(200, "<html><body>Please accept cookies</body></html>")],
           "news.google.com": [(200, GOOGLE_RSS)]})
    assert len(source().fetch("news", ARGS)) == 3


def test_nothing_found_is_no_data_with_a_reason(serve):
    serve({"feeds.finance.yahoo.com": [(200, "\x00\x01 not xml at all")], "news.google.com": [(200, rss())]})
    with pytest.raises(NoData, match="no news found for NVDA between 2024-10-10 and 2024-10-12"):
        source().fetch("news", ARGS)


def test_rate_limit_then_success_is_retried(serve):
    server = serve({"news.google.com": [(429, "Too Many Requests"), (200, GOOGLE_RSS)]})
    items = source(feeds=(GOOGLE_FEED,)).fetch("news", {"query": "NVIDIA stock"})
    assert len(items) == 3 and len(server.hits("news.google.com")) == 2


def test_server_error_on_one_feed_while_another_answers(serve):
    server = serve({"feeds.finance.yahoo.com": [(500, "oops")], "news.google.com": [(200, GOOGLE_RSS)]})
    items = source().fetch("news", ARGS)
    assert len(items) == 3
    assert len(server.hits("feeds.finance.yahoo.com")) == 3, "retried a bounded number of times"


def test_all_sources_down_names_each_reason(serve):
    server = serve({"feeds.finance.yahoo.com": httpx.ConnectError("[Errno -3] name resolution failed"),
                    "news.google.com": httpx.ConnectError("[Errno -3] name resolution failed")})
    yf = fake_yf(error=OSError("DNSError"))
    with pytest.raises(Unreachable) as caught:
        source(yf=yf).fetch("news", ARGS)
    message = str(caught.value)
    assert "cannot reach Google News (is the network down?)" in message
    assert "cannot reach Yahoo Finance (is the network down?)" in message
    assert message.count("Yahoo Finance") == 1, "the same reason is not repeated"
    assert len(server.requests) == 2, "a network failure is not retried"


def test_all_sources_failing_differently_prefers_the_network_reason(serve):
    serve({"feeds.finance.yahoo.com": [(403, "Forbidden")], "news.google.com": [(429, "slow down")]})
    with pytest.raises(Unreachable) as caught:
        source(yf=fake_yf(error=KeyError("content"))).fetch("news", ARGS)
    assert str(caught.value).split(" | ") == [
        "Google News rate-limited the request; retried 2 times",
        "Yahoo Finance failed unexpectedly (KeyError)",
        "Yahoo Finance refused the request (HTTP 403)",
    ]


def test_sources_are_fetched_concurrently():
    both_waiting = threading.Barrier(2, timeout=5)

    def get_text(url: str, upstream: Upstream, timeout_s: float) -> str:
        both_waiting.wait()          # would time out if the feeds were fetched one after another
        return rss(rss_item(f"Story from {upstream.name} with enough words", f"https://a.example/{upstream.name}"))

    items = source(get_text=get_text).fetch("news", {"ticker": "NVDA"})
    assert {i["title"] for i in items} == {"Story from Yahoo Finance with enough words",
                                           "Story from Google News with enough words"}


def test_wrong_source_and_missing_subject():
    with pytest.raises(SourceError, match="cannot answer 'quote'"):
        source().fetch("quote", {"ticker": "NVDA"})
    with pytest.raises(SourceError, match="needs a ticker or a query"):
        source().fetch("news", {"lang": "en"})


# -- hostile content ------------------------------------------------------------------------

def test_hostile_feed_content_is_inert_after_sanitising(serve, settings):
    huge = "A" * 200_000
    hostile = rss(
        rss_item("Click \u202eevil\u202c headline <script>alert(1)</script> about chips",
                 "javascript:alert(document.cookie)",
                 description="&lt;script&gt;steal()&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;Real text"),
        rss_item("A very long story about the chip market", "https://a.example/long", description=huge),
        rss_item("Entity-hidden &amp;lt;b onmouseover=x&amp;gt;tag story", "https://a.example/ent"),
    )
    serve({"news.google.com": [(200, hostile)]})
    hub = DataHub(settings, adapters={"news": source(feeds=(GOOGLE_FEED,))})
    evidence = hub.call("news", {"query": "chips"}).evidence
    assert len(evidence) == 3
    for item in evidence:
        assert isinstance(item, Evidence) and item.kind == "news" and item.source == "news"
        text = item.title + item.snippet + (item.publisher or "")
        assert "<" not in text and ">" not in text and "script" not in text.lower() and "\u202e" not in text
        assert item.url is None or item.url.startswith("https://")
        assert len(item.snippet) <= 1000 and len(item.title) <= 300
    evil = next(e for e in evidence if "evil" in e.title)
    assert evil.url is None and evil.snippet == "Real text"
    assert next(e for e in evidence if e.url == "https://a.example/long").snippet.endswith("…")


def test_hub_sanitises_yfinance_items(settings):
    hostile = {"content": {"title": "<img src=x onerror=alert(1)>Nvidia \u202ereport",
                           "summary": "<iframe src=//evil></iframe>fine", "pubDate": "not a date",
                           "provider": {"displayName": "<b>Reuters</b>"},
                           "canonicalUrl": {"url": "data:text/html,<script>alert(1)</script>"},
                           "clickThroughUrl": {"url": "https://finance.yahoo.com/news/ok.html"}}}
    hub = DataHub(settings, adapters={"news": NewsSource(feeds=(), yf=fake_yf([hostile]), clock=lambda: NOW)})
    [item] = hub.call("news", {"ticker": "NVDA"}).evidence
    assert (item.title, item.snippet, item.publisher) == ("Nvidia report", "fine", "Reuters")
    assert item.url == "https://finance.yahoo.com/news/ok.html" and item.published is None


def test_clock_default_is_aware_utc():
    now = NewsSource(feeds=()).clock()
    assert now.tzinfo is not None and abs((now - datetime.now(timezone.utc)).total_seconds()) < 5


def test_a_body_that_looks_like_a_path_or_url_is_not_opened(serve, tmp_path):
    """feedparser.parse(str) opens paths and fetches URLs it is given; a feed body must never be."""
    secret = tmp_path / "local.xml"
    secret.write_text(rss(rss_item("Local file contents leaked", "https://a.example/leak")))
    serve({"news.google.com": [(200, str(secret))]})
    with pytest.raises(NoData):
        source(feeds=(GOOGLE_FEED,)).fetch("news", {"query": "chips"})
