"""The web_search source on the real ddgs 9.16 code, patched only at its HTTP client
(`tests/ddgs_wire.py`): engines answer with recorded-shape pages (`tests/fixtures/web/`)
or with the failures a user meets — 202/403/429/503 blocks, timeouts, connection errors.
Expected values are written out by hand from those pages."""

from __future__ import annotations

from datetime import date, timedelta

import primp
import pytest

from finsearch.errors import NoData, RateLimited, SourceError, Unreachable
from finsearch.sources.hub import DataHub
from finsearch.sources.web.adapter import WebSearch, plan_search
from tests.conftest import NOW
from tests.ddgs_wire import (
    EMPTY,
    Reply,
    Wire,
    encyclopedia_routes,
    news_page_routes,
    nothing_found_routes,
    text_page_routes,
)

TODAY = NOW.date()          # 2024-10-15
RECENT = {"query": "why did NVIDIA stock fall", "ticker": "NVDA", "start": "2024-10-11", "end": "2024-10-14",
          "lang": "en"}
OLD = {"query": "Nvidia stock drop reason", "start": "2023-05-01", "end": "2023-05-31", "lang": "en"}
UNDATED = {"query": "why did NVIDIA stock fall", "lang": "en"}

REUTERS = "https://www.reuters.com/technology/nvidia-shares-fall-export-caps-2024-10-11/"
CNBC = "https://www.cnbc.com/2024/10/12/chip-stocks.html"
FOOL = "https://www.fool.com/investing/2024/10/11/why-nvidia-stock-fell-today/"
YAHOO = "https://finance.yahoo.com/quote/NVDA/"
WIKIPEDIA = "https://en.wikipedia.org/wiki/Nvidia"
DDG_HTML = "html.duckduckgo.com/html"
DDG_NEWS = "duckduckgo.com/news.js"


@pytest.fixture
def wire(monkeypatch, no_waiting) -> Wire:
    return Wire(monkeypatch)


def web(**kw) -> WebSearch:
    return WebSearch(clock=lambda: NOW, **kw)


def urls(items) -> list[str | None]:
    return [i["url"] for i in items]


# -- what is asked ----------------------------------------------------------------------------

@pytest.mark.parametrize("start, end, lang, expected", [
    (None, None, "en", ("q", "us-en", None, True)),
    (TODAY, TODAY, "en", ("q", "us-en", "d", True)),
    (TODAY - timedelta(days=1), TODAY - timedelta(days=1), "en", ("q", "us-en", "w", True)),
    (TODAY - timedelta(days=7), TODAY - timedelta(days=2), "en", ("q", "us-en", "w", True)),
    (TODAY - timedelta(days=8), TODAY - timedelta(days=2), "en", ("q", "us-en", "m", True)),
    (TODAY - timedelta(days=90), TODAY, "zh", ("q", "cn-zh", "y", True)),
    (TODAY - timedelta(days=800), TODAY, "en", ("q", "us-en", None, True)),
    (date(2024, 10, 1), date(2024, 10, 11), "en", ("q October 2024", "us-en", None, True)),
    (date(2024, 8, 1), date(2024, 8, 31), "en", ("q August 2024", "us-en", None, False)),
    (date(2024, 8, 20), date(2024, 9, 10), "en", ("q August September 2024", "us-en", None, False)),
    (date(2023, 1, 1), date(2024, 6, 30), "en", ("q 2023 2024", "us-en", None, False)),
    (date(2024, 8, 1), date(2024, 8, 31), "zh", ("q 2024年8月", "cn-zh", None, False)),
    (None, date(2024, 8, 31), "en", ("q August 2024", "us-en", None, False)),
])
def test_time_filter_region_and_query_dating(start, end, lang, expected):
    plan = plan_search("q", start, end, TODAY, lang)
    assert (plan.query, plan.region, plan.timelimit, plan.with_news) == expected


def test_a_query_that_names_the_year_is_not_dated_again():
    plan = plan_search("why did NVIDIA fall on October 11, 2024", date(2024, 10, 11), date(2024, 10, 11),
                       date(2025, 3, 1))
    assert plan.query == "why did NVIDIA fall on October 11, 2024" and plan.timelimit is None


def test_recent_search_puts_the_filter_and_region_on_the_wire(wire):
    news_page_routes(text_page_routes(wire))
    web().fetch("web_search", RECENT)
    [page] = wire.asked(DDG_HTML)
    assert (page.method, page.data) == ("POST", {"q": "why did NVIDIA stock fall", "b": "", "l": "us-en", "df": "w"})
    [news] = wire.asked(DDG_NEWS)
    assert {k: news.params[k] for k in ("q", "l", "df")} == {"q": "why did NVIDIA stock fall", "l": "us-en",
                                                               "df": "w"}


def test_old_search_asks_text_only_with_the_month_in_the_query(wire):
    text_page_routes(wire)
    web().fetch("web_search", {**OLD, "lang": "zh"})
    [page] = wire.asked(DDG_HTML)
    assert page.data == {"q": "Nvidia stock drop reason 2023年5月", "b": "", "l": "cn-zh"}
    assert wire.asked("news") == []


# -- what comes back --------------------------------------------------------------------------

def test_recorded_pages_become_plain_items_without_repeats(wire):
    news_page_routes(text_page_routes(wire))
    items = web().fetch("web_search", UNDATED)
    # ddgs ranks Wikipedia first; Grokipedia's "Nvidia" article is a repeat of its title.
    assert urls(items) == [REUTERS, CNBC, WIKIPEDIA, FOOL, YAHOO]
    assert items[0] == {"title": "Nvidia shares fall on report of new chip export caps", "url": REUTERS,
                        "publisher": "Reuters", "published": "2024-10-11T19:52:00Z",
                        "snippet": "Nvidia shares fell on Friday after a report that U.S. officials discussed "
                                   "capping AI chip sales to some countries.",
                        "data": None}, "the dated news copy of the Reuters story wins"
    assert items[3] == {"title": "Why Nvidia Stock Fell Today - The Motley Fool", "url": FOOL,
                        "publisher": "fool.com", "published": None,
                        "snippet": "Shares of Nvidia fell 4.7% on Friday after a report on AI chip export curbs "
                                   "& a cautious note from analysts.", "data": None}
    assert items[1]["published"] == "2024-10-12T09:30:00Z" and items[1]["publisher"] == "CNBC"


def test_a_dated_search_lists_dated_results_first_and_encyclopedias_last(wire):
    news_page_routes(text_page_routes(wire))
    assert urls(web().fetch("web_search", RECENT)) == [REUTERS, CNBC, FOOL, YAHOO, WIKIPEDIA]


def test_an_old_dated_search_puts_the_encyclopedia_after_the_web_pages(wire):
    text_page_routes(wire)
    assert urls(web().fetch("web_search", OLD)) == [REUTERS, FOOL, YAHOO, WIKIPEDIA]


def test_the_cap_drops_the_encyclopedia_article_first(wire):
    news_page_routes(text_page_routes(wire))
    assert urls(web(max_results=4).fetch("web_search", RECENT)) == [REUTERS, CNBC, FOOL, YAHOO]


def test_hostile_results_are_inert_after_sanitising(wire, settings):
    page = ('<html><body><div class="result results_links web-result"><div class="links_main result__body">'
            '<h2 class="result__title"><a class="result__a" href="javascript:alert(1)">&lt;script&gt;alert(1)'
            '&lt;/script&gt;Great \u202eoffer</a></h2><a class="result__snippet" href="javascript:alert(1)">'
            '&lt;img src=x onerror=alert(1)&gt;' + "B" * 5000 + '</a></div></div>'
            '<div class="result results_links web-result"><div class="links_main result__body">'
            '<h2 class="result__title"><a class="result__a" href="https://ok.example/a">Fine result about '
            'NVIDIA</a></h2><a class="result__snippet" href="https://ok.example/a">&amp;lt;iframe '
            'src=//evil&amp;gt;&amp;lt;/iframe&amp;gt;clean</a></div></div></body></html>')
    wire.serve(DDG_HTML, Reply(200, page))
    evidence = DataHub(settings, adapters={"web_search": web()}).call("web_search", OLD).evidence
    # ddgs ranks the result whose title holds a query word first; the escaped script's
    # text stays, as text.
    assert [e.title for e in evidence] == ["Fine result about NVIDIA", "alert(1)Great offer"]
    for item in evidence:
        assert item.kind == "web" and item.source == "web_search"
        text = item.title + item.snippet + (item.publisher or "")
        assert "<" not in text and "script" not in text.lower() and "\u202e" not in text
        assert item.url is None or item.url.startswith("https://")
        assert len(item.snippet) <= 1000
    assert evidence[1].url is None and evidence[0].snippet == "clean"


def test_a_search_the_engines_answered_with_nothing_is_no_data(wire):
    nothing_found_routes(wire)
    with pytest.raises(NoData, match='^no web results for "NVDA: why did NVIDIA stock fall"$'):
        web().fetch("web_search", RECENT)
    assert len(wire.asked(DDG_HTML)) == 1 and len(wire.asked(DDG_NEWS)) == 1, "an empty search is not retried"


# -- blocks and failures ----------------------------------------------------------------------

@pytest.mark.parametrize("status, reason", [
    (202, "web search is rate-limited; retried 1 time"),
    (403, "web search is rate-limited; retried 1 time"),
    (429, "web search is rate-limited; retried 1 time"),
    (503, "web search engines answered with server errors; retried 1 time"),
])
def test_a_block_is_never_no_results_and_is_retried_once(wire, no_waiting, status, reason):
    encyclopedia_routes(wire).everywhere(Reply(status, "blocked"))      # Wikipedia still answers
    with pytest.raises(Unreachable) as caught:
        web().fetch("web_search", RECENT)
    assert str(caught.value) == reason
    assert not isinstance(caught.value, NoData)
    assert len(wire.asked(DDG_HTML)) == 2
    assert len(wire.asked("duckduckgo.com")) == 4, "page and news token, each tried twice"
    assert len(no_waiting) == 2, "text and news each waited once before the retry"


def test_duckduckgo_alone_blocking_while_the_others_find_nothing_is_a_block(wire):
    nothing_found_routes(wire).serve(DDG_HTML, Reply.page("duckduckgo_anomaly_202.html", status=202))
    with pytest.raises(RateLimited, match="^web search is rate-limited; retried 1 time$"):
        web().fetch("web_search", OLD)


def test_a_block_then_results(wire):
    text_page_routes(wire)
    wire.routes.insert(0, (DDG_HTML, [Reply.page("duckduckgo_anomaly_202.html", status=202),
                                      Reply.page("duckduckgo_html_nvda.html")]))
    assert urls(web().fetch("web_search", OLD)) == [REUTERS, FOOL, YAHOO, WIKIPEDIA]
    assert len(wire.asked(DDG_HTML)) == 2


def test_timeouts_are_retried_once(wire):
    wire.everywhere(primp.TimeoutError("operation timed out"))
    with pytest.raises(Unreachable, match="^web search did not answer in time; retried 1 time$"):
        web().fetch("web_search", OLD)
    assert len(wire.asked(DDG_HTML)) == 2


@pytest.mark.parametrize("error", [
    primp.ConnectError("error sending request for url (https://html.duckduckgo.com/html/): client error (Connect)"),
    primp.DNSError("error sending request for url (https://html.duckduckgo.com/html/): dns error"),
])
def test_the_network_down_is_unreachable_at_once(wire, error):
    wire.everywhere(error)
    with pytest.raises(Unreachable, match=r"^web search is unreachable \(is the network down\?\)$"):
        web().fetch("web_search", OLD)
    assert len(wire.asked(DDG_HTML)) == 1


def test_text_blocked_still_returns_the_news(wire):
    news_page_routes(wire).everywhere(Reply(429))
    assert urls(web().fetch("web_search", RECENT)) == [REUTERS, CNBC]


def test_news_blocked_still_returns_the_text(wire):
    text_page_routes(wire).serve("://duckduckgo.com", Reply(403)).serve("bing.com", Reply(403))
    assert urls(web().fetch("web_search", RECENT)) == [REUTERS, FOOL, YAHOO, WIKIPEDIA]


def test_text_blocked_and_news_empty_is_a_block_not_nothing(wire):
    nothing_found_routes(wire).serve("bing.com", EMPTY).serve("news.search.yahoo.com", EMPTY)
    wire.everywhere(Reply(429))
    with pytest.raises(RateLimited, match="^web search is rate-limited; retried 1 time$"):
        web().fetch("web_search", RECENT)


def test_bad_calls(wire):
    with pytest.raises(SourceError, match="needs a query"):
        web().fetch("web_search", {"query": "   "})
    with pytest.raises(SourceError, match="cannot answer 'news'"):
        web().fetch("news", {"query": "x"})
    assert wire.requests == []
