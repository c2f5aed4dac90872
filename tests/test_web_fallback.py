"""A blocked web search falls back to the news source (`SourceSpec.fallback`), through the
hub: the real ddgs code on its patched HTTP client (`tests/ddgs_wire.py`) for web search,
the real news adapter on a Google News feed served by an httpx mock transport."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from finsearch.catalogue import CATALOGUE
from finsearch.deadline import Deadline
from finsearch.errors import NoData, NotCached, NotInPack, Unreachable
from finsearch.source_args import check_args
from finsearch.sources.cache.disk import SourceCache
from finsearch.sources.hub import DataHub
from finsearch.sources.news.adapter import NewsSource
from finsearch.sources.replay import open_pack
from finsearch.sources.upstream import http
from finsearch.sources.web.adapter import WebSearch
from tests.conftest import NOW
from tests.ddgs_wire import Hang, Reply, Wire, news_page_routes, nothing_found_routes, text_page_routes
from tests.test_sources_news import GOOGLE_FEED, GOOGLE_RSS

ARGS = {"query": "why did NVIDIA stock fall", "start": "2024-10-11", "end": "2024-10-14", "lang": "en"}
BLOCKED = "web search is rate-limited; retried 1 time"


@pytest.fixture
def wire(monkeypatch, no_waiting) -> Wire:
    return Wire(monkeypatch)


@pytest.fixture
def feed(monkeypatch):
    """Google News, as a list of (status, body) replies served in turn; the requests asked."""
    replies: list[tuple[int, str]] = [(200, GOOGLE_RSS)]
    asked: list[httpx.URL] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url)
        status, body = replies.pop(0) if len(replies) > 1 else replies[0]
        return httpx.Response(status, text=body, headers={"content-type": "application/rss+xml"})

    monkeypatch.setattr(http, "_client", httpx.Client(transport=httpx.MockTransport(answer)))
    return replies, asked


def new_cache(settings, folder) -> SourceCache:
    return SourceCache(folder, settings.freshness_s, 10 ** 8)


def hub(settings, cache=None) -> DataHub:
    adapters = {"web_search": WebSearch(clock=lambda: NOW),
                "news": NewsSource(feeds=(GOOGLE_FEED,), yf=None, clock=lambda: NOW)}
    return DataHub(settings, adapters=adapters, cache=cache, clock=lambda: NOW)


def test_every_fallback_is_a_source_that_takes_the_carried_arguments():
    spec = CATALOGUE["web_search"]
    assert spec.fallback == "news"
    target = CATALOGUE[spec.fallback]
    carried = {name: value for name, value in {**ARGS, "ticker": "NVDA"}.items() if target.arg(name)}
    assert carried == {**ARGS, "ticker": "NVDA"} and check_args("news", carried) == []


def test_a_blocked_web_search_answers_from_the_news_with_a_note(wire, feed, settings):
    wire.everywhere(Reply(429))
    result = hub(settings).call("web_search", ARGS)
    assert {(e.source, e.kind) for e in result.evidence} == {("news", "news")}
    assert [e.title for e in result.evidence] == ["Nvidia stock: what analysts expect next week",
                                                  "Chip stocks retreat as export worries weigh on sector",
                                                  "Nvidia shares fall on report of new chip export caps"]
    assert result.problems[0] == "web search is rate-limited; retried 1 time; used news instead"
    [asked] = feed[1]
    assert "why+did+NVIDIA+stock+fall" in str(asked), "the web query goes to the news search"


def test_the_fallback_is_cached_as_news_never_as_web_results(wire, feed, settings, tmp_path):
    cache = new_cache(settings, tmp_path / "cache")
    wire.everywhere(Reply(429))
    hub(settings, cache).call("web_search", ARGS)
    assert cache.get("web_search", ARGS, any_age=True, now=NOW) is None
    assert cache.get("news", ARGS, any_age=False, now=NOW) is not None

    news_page_routes(text_page_routes(wire)).everywhere(Reply.page("empty_page.html"))    # the block lifts
    later = hub(settings, cache).call("web_search", ARGS)
    assert later.origin == "live" and {e.source for e in later.evidence} == {"web_search"}


def test_a_recording_holds_the_news_call_not_a_web_search(wire, feed, settings, tmp_path):
    wire.everywhere(Reply(429))
    hub(settings.replace(record_to=tmp_path / "pack")).call("web_search", ARGS)
    pack = open_pack(tmp_path / "pack")
    assert pack.replay("news", ARGS).evidence
    with pytest.raises(NotInPack):
        pack.replay("web_search", ARGS)


def test_the_fallback_failing_too_keeps_both_reasons(wire, feed, settings):
    wire.everywhere(Reply(429))
    feed[0][:] = [(503, "unavailable")]
    with pytest.raises(Unreachable) as caught:
        hub(settings).call("web_search", ARGS)
    assert str(caught.value).startswith(f"{BLOCKED}; news instead: Google News returned a server error")
    assert not isinstance(caught.value, NoData), "a block is not 'found no data': dependents still run"


def test_a_genuinely_empty_web_search_does_not_fall_back(wire, feed, settings):
    nothing_found_routes(wire)
    with pytest.raises(NoData, match="no web results"):
        hub(settings).call("web_search", ARGS)
    assert feed[1] == []


def test_offline_without_a_stored_web_search_does_not_fall_back(wire, feed, settings, tmp_path):
    with pytest.raises(NotCached):
        hub(settings.replace(offline=True), new_cache(settings, tmp_path / "cache")).call("web_search", ARGS)
    assert wire.requests == [] and feed[1] == []


def test_a_switched_off_news_source_is_not_used_as_fallback(wire, feed, settings):
    wire.everywhere(Reply(429))
    with pytest.raises(Unreachable, match=f"^{BLOCKED}$"):
        hub(settings.replace(disabled_sources=frozenset({"news"}))).call("web_search", ARGS)
    assert feed[1] == []


def test_a_hung_web_search_leaves_the_news_time_to_answer(wire, feed, settings):
    release = threading.Event()
    wire.everywhere(Hang(release))
    started = time.monotonic()
    try:
        result = hub(settings).call("web_search", ARGS, deadline=Deadline(2.0))
    finally:
        release.set()                                  # let the abandoned engine threads end
    took = time.monotonic() - started
    assert {e.source for e in result.evidence} == {"news"}
    assert result.problems[0] == "web search did not answer within 1.2 s; used news instead"
    assert took < 3.0, "within the node's 2 s deadline (and room for a busy machine)"
