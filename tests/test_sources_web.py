"""The web_search source: ddgs behind a fake DDGS class; time filters, regions, dated
queries, failures mapped to readable reasons with bounded retries, sanitised items."""

from __future__ import annotations

import threading
from datetime import date, timedelta

import pytest
from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from finsearch.errors import NoData, SourceError, Unreachable
from finsearch.sources import resilience
from finsearch.sources.hub import DataHub
from finsearch.sources.web import WebSearch, plan_search
from tests.conftest import NOW

TODAY = NOW.date()          # 2024-10-15

TEXT = [
    {"title": "Why Nvidia Stock Fell Today - The Motley Fool",
     "href": "https://www.fool.com/investing/2024/10/11/why-nvidia-stock-fell-today/",
     "body": "Shares of Nvidia fell 4.7% on Friday after a report on AI chip export curbs."},
    {"title": "Nvidia shares fall on report of new chip export caps | Reuters",
     "href": "https://www.reuters.com/technology/nvidia-shares-fall-export-caps-2024-10-11/",
     "body": "Nvidia shares fell on Friday after Bloomberg reported U.S. officials discussed capping sales."},
    {"title": "NVIDIA Corporation (NVDA) Stock Price, News, Quote & History",
     "href": "https://finance.yahoo.com/quote/NVDA/", "body": "Find the latest NVIDIA Corporation (NVDA) stock quote."},
]
NEWS = [
    {"date": "2024-10-11T19:52:00+00:00", "title": "Nvidia shares fall on report of new chip export caps",
     "body": "Nvidia shares fell on Friday after a report that U.S. officials discussed capping AI chip sales.",
     "url": "https://www.reuters.com/technology/nvidia-shares-fall-export-caps-2024-10-11/",
     "image": "https://www.reuters.com/resizer/x.jpg", "source": "Reuters"},
    {"date": "2024-10-12T09:30:00+00:00", "title": "Chip stocks retreat as export worries weigh",
     "body": "Semiconductor shares fell broadly.", "url": "https://www.cnbc.com/2024/10/12/chip-stocks.html",
     "image": "", "source": "CNBC"},
]


class FakeDDGS:
    """Stands in for ddgs.DDGS: canned results; records calls.

    `*_errors` are raised in turn, the last one on every later call; None means "answer".
    """

    def __init__(self, text=TEXT, news=NEWS, text_errors=(), news_errors=()):
        self.results = {"text": list(text), "news": list(news)}
        self.errors = {"text": list(text_errors), "news": list(news_errors)}
        self.calls: list[tuple[str, str, dict]] = []
        self.lock = threading.Lock()

    def __call__(self):            # the factory: a fresh "client" per search
        return self

    def _search(self, kind: str, query: str, **kw):
        with self.lock:
            self.calls.append((kind, query, kw))
            queue = self.errors[kind]
            error = (queue.pop(0) if len(queue) > 1 else queue[0]) if queue else None
            if error is not None:
                raise error
        return [dict(r) for r in self.results[kind]][: kw.get("max_results") or None]

    def text(self, query, **kw):
        return self._search("text", query, **kw)

    def news(self, query, **kw):
        return self._search("news", query, **kw)

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.calls]


@pytest.fixture(autouse=True)
def _no_waiting(monkeypatch):
    monkeypatch.setattr(resilience, "sleep", lambda _s: None)


def web(fake: FakeDDGS, **kw) -> WebSearch:
    return WebSearch(ddgs_factory=fake, clock=lambda: NOW, **kw)


RECENT = {"query": "why did NVIDIA stock fall", "ticker": "NVDA", "start": "2024-10-11", "end": "2024-10-14",
          "lang": "en"}
OLD = {"query": "Nvidia stock drop reason", "start": "2023-05-01", "end": "2023-05-31", "lang": "en"}


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


def test_recent_search_asks_text_and_news_with_filter_and_region():
    fake = FakeDDGS()
    web(fake).fetch("web_search", RECENT)
    assert sorted(fake.kinds()) == ["news", "text"]
    for kind, query, kw in fake.calls:
        assert query == "why did NVIDIA stock fall"
        assert kw["region"] == "us-en" and kw["timelimit"] == "w"
        assert kw["max_results"] == (10 if kind == "text" else 5)


def test_old_search_asks_text_only_with_the_month_in_the_query():
    fake = FakeDDGS()
    web(fake).fetch("web_search", {**OLD, "lang": "zh"})
    assert fake.calls == [("text", "Nvidia stock drop reason 2023年5月",
                           {"region": "cn-zh", "timelimit": None, "max_results": 10})]


# -- what comes back --------------------------------------------------------------------------

def test_items_are_plain_and_deduplicated_across_text_and_news():
    items = web(FakeDDGS()).fetch("web_search", RECENT)
    assert [i["url"] for i in items] == [
        "https://www.reuters.com/technology/nvidia-shares-fall-export-caps-2024-10-11/",
        "https://www.cnbc.com/2024/10/12/chip-stocks.html",
        "https://www.fool.com/investing/2024/10/11/why-nvidia-stock-fell-today/",
        "https://finance.yahoo.com/quote/NVDA/",
    ], "the Reuters story found by both searches appears once"
    reuters = items[0]
    assert reuters == {"title": "Nvidia shares fall on report of new chip export caps",
                       "url": "https://www.reuters.com/technology/nvidia-shares-fall-export-caps-2024-10-11/",
                       "publisher": "Reuters", "published": "2024-10-11T19:52:00Z",
                       "snippet": NEWS[0]["body"], "data": None}, "the dated news copy wins"
    fool = items[2]
    assert fool["publisher"] == "fool.com" and fool["published"] is None
    assert items[3]["publisher"] == "finance.yahoo.com"


def test_results_are_capped():
    text = [{"title": f"Result number {n} on some topic", "href": f"https://e{n}.example/", "body": ""}
            for n in range(30)]
    items = web(FakeDDGS(text=text, news=[]), max_results=4).fetch("web_search", OLD)
    assert len(items) == 4


def test_news_dates_in_other_shapes():
    news = [{"date": 1728676320, "title": "Epoch-dated story about chips", "body": "", "url": "https://a.example/1",
             "source": ""},
            {"date": "2 hours ago", "title": "Relative-dated story about chips", "body": "",
             "url": "https://a.example/2", "source": "Wire"}]
    items = web(FakeDDGS(text=[], news=news)).fetch("web_search", RECENT)
    assert [(i["published"], i["publisher"]) for i in items] == [("2024-10-11T19:52:00Z", "a.example"),
                                                                 (None, "Wire")]


def test_hostile_results_are_inert_after_sanitising(settings):
    text = [{"title": "<script>alert(1)</script>Great \u202eoffer", "href": "javascript:alert(1)",
             "body": "<img src=x onerror=alert(1)>" + "B" * 200_000},
            {"title": "Fine result about NVIDIA", "href": "https://ok.example/a",
             "body": "&lt;iframe src=//evil&gt;&lt;/iframe&gt;clean"}]
    fake = FakeDDGS(text=text, news=[{"date": "x", "title": "News <b>bold</b>", "body": "b",
                                      "url": "data:text/html,hi", "source": "<i>Src</i>"}])
    hub = DataHub(settings, adapters={"web_search": web(fake)})
    evidence = hub.call("web_search", RECENT).evidence
    assert len(evidence) == 3
    for item in evidence:
        assert item.kind == "web" and item.source == "web_search"
        text_ = item.title + item.snippet + (item.publisher or "")
        assert "<" not in text_ and "script" not in text_.lower() and "\u202e" not in text_
        assert item.url is None or item.url.startswith("https://")
        assert len(item.snippet) <= 1000
    assert {e.title for e in evidence} == {"Great offer", "Fine result about NVIDIA", "News bold"}
    assert next(e for e in evidence if e.title == "Fine result about NVIDIA").snippet == "clean"


def test_no_results_is_no_data():
    fake = FakeDDGS(text_errors=[DDGSException("No results found.")], news=[])
    with pytest.raises(NoData, match='no web results for "NVDA: why did NVIDIA stock fall"'):
        web(fake).fetch("web_search", RECENT)
    assert sorted(fake.kinds()) == ["news", "text"], "an empty search is not retried"


# -- failures ---------------------------------------------------------------------------------

@pytest.mark.parametrize("error, reason", [
    (RatelimitException("https://html.duckduckgo.com/html 202 Ratelimit"),
     "DuckDuckGo rate-limited the request; retried 2 times"),
    (TimeoutException("https://lite.duckduckgo.com/lite/ timed out"),
     "DuckDuckGo did not answer in time; retried 2 times"),
    (DDGSException("timed out"), "DuckDuckGo did not answer in time; retried 2 times"),
])
def test_retryable_failures_are_retried_a_bounded_number_of_times(error, reason):
    fake = FakeDDGS(text_errors=[error])
    with pytest.raises(Unreachable) as caught:
        web(fake).fetch("web_search", OLD)
    assert str(caught.value) == reason
    assert fake.kinds() == ["text"] * 3


@pytest.mark.parametrize("error, reason", [
    (DDGSException(DDGSException("DNSError: error sending request for url (https://html.duckduckgo.com/html/) "
                                 "> error resolving DNS")), "cannot reach DuckDuckGo (is the network down?)"),
    (DDGSException("ValueError: unexpected page layout"),
     "DuckDuckGo search failed (ValueError: unexpected page layout)"),
])
def test_other_failures_are_not_retried(error, reason):
    fake = FakeDDGS(text_errors=[error])
    with pytest.raises(Unreachable) as caught:
        web(fake).fetch("web_search", OLD)
    assert str(caught.value) == reason and fake.kinds() == ["text"]


def test_rate_limit_then_results():
    fake = FakeDDGS(text_errors=[RatelimitException("202 Ratelimit"), None], news=[])
    items = web(fake).fetch("web_search", OLD)
    assert len(items) == 3 and fake.kinds() == ["text", "text"]


def test_news_failing_does_not_lose_text_results():
    fake = FakeDDGS(news_errors=[DDGSException("ValueError: bad json")])
    items = web(fake).fetch("web_search", RECENT)
    assert [i["publisher"] for i in items] == ["fool.com", "reuters.com", "finance.yahoo.com"]


def test_text_failing_still_returns_news():
    fake = FakeDDGS(text_errors=[DDGSException("ValueError: bad page")])
    items = web(fake).fetch("web_search", RECENT)
    assert [i["publisher"] for i in items] == ["Reuters", "CNBC"]


def test_both_failing_reports_the_text_search_reason():
    fake = FakeDDGS(text_errors=[RatelimitException("202")], news_errors=[DDGSException("ValueError: x")])
    with pytest.raises(Unreachable, match="DuckDuckGo rate-limited the request; retried 2 times"):
        web(fake).fetch("web_search", RECENT)


def test_bad_calls():
    with pytest.raises(SourceError, match="needs a query"):
        web(FakeDDGS()).fetch("web_search", {"query": "   "})
    with pytest.raises(SourceError, match="cannot answer 'news'"):
        web(FakeDDGS()).fetch("news", {"query": "x"})


def test_default_factory_uses_the_real_ddgs_class(monkeypatch):
    import ddgs

    made = []

    class Recording(FakeDDGS):
        def __init__(self, timeout=None):
            super().__init__(news=[])
            made.append(timeout)

    monkeypatch.setattr(ddgs, "DDGS", Recording)
    items = WebSearch(clock=lambda: NOW).fetch("web_search", OLD)
    assert made == [5] and len(items) == 3
