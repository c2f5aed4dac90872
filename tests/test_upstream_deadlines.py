"""Yahoo Finance hangs: the real yfinance and the real finance and news adapters, with only the
HTTP session yfinance holds (`yfinance.data.YfData`) replaced by one whose requests block until
the test releases them (then they time out, as a real hung request ends).

What a user must see: the node fails within its own deadline with a reason that names the
upstream, the run ends within its budget, a later question is not queued behind the hung call,
and however many questions come, a hung upstream holds a bounded number of threads.

Each test names its own upstream (limits are per name and per process).
"""

from __future__ import annotations

import threading
import time

import pytest

from finsearch import pipeline
from finsearch.graph import NodeStatus
from finsearch.sources.hub import DataHub
from finsearch.sources.news.adapter import NewsSource
from finsearch.sources.upstream.resilience import Upstream
from finsearch.sources.yahoo.adapter import YahooFinance
from tests.conftest import NOW

yfinance = pytest.importorskip("yfinance")


class HungWire:
    """The session's get/post: records each URL, then blocks until released."""

    def __init__(self):
        self.release = threading.Event()
        self.urls: list[str] = []
        self.lock = threading.Lock()

    def request(self, url, *args, **kwargs):
        with self.lock:
            self.urls.append(repr((url, args, kwargs)))     # news names its ticker in the body
        self.release.wait(30)
        from curl_cffi.requests.exceptions import Timeout

        raise Timeout("Operation timed out after 30000 milliseconds")

    def asked_for(self, fragment: str) -> bool:
        with self.lock:
            return any(fragment in url for url in self.urls)


@pytest.fixture
def wire(monkeypatch):
    """Yahoo's data requests hang; the cookie and crumb are already known (as after a first
    successful call), so the crumb step makes no request."""
    from yfinance.data import YfData

    data = YfData()
    hung = HungWire()
    monkeypatch.setattr(data._session, "get", hung.request)
    monkeypatch.setattr(data._session, "post", hung.request)
    monkeypatch.setattr(data, "_cookie_strategy", "basic")
    monkeypatch.setattr(data, "_cookie", True)
    monkeypatch.setattr(data, "_crumb", "recorded-crumb")
    yield hung
    hung.release.set()
    for thread in threading.enumerate():
        if thread.name.startswith("finsearch-upstream Yahoo Finance"):
            thread.join(5)


def yahoo_threads(name: str) -> int:
    return sum(t.name == f"finsearch-upstream {name}" for t in threading.enumerate())


def ask(question, settings, upstream, tmp_path, sources=("quote", "price_history", "news")):
    """The question answered with only `sources` live (the others fail at once, unconfigured)."""
    finance = YahooFinance(upstream=upstream, cache_dir=tmp_path / "yfinance")
    news = NewsSource(feeds=(), upstreams={"yahoo.com": upstream})
    adapters = {"quote": finance, "price_history": finance, "news": news}
    hub = DataHub(settings, adapters={source: adapters[source] for source in sources})
    started = time.monotonic()
    result = pipeline.ask(question, now=NOW, settings=settings, hub=hub)
    return result, time.monotonic() - started


def node(result, source):
    return next(n for n in result.graph if n.source == source)


def test_a_hung_request_fails_the_node_in_time_and_says_who(settings, wire, tmp_path):
    upstream = Upstream("Yahoo Finance (hung)", max_concurrent=4)
    result, elapsed = ask("What is NVDA's stock price?", settings.replace(node_timeout_s=1.0, deadline_s=8.0),
                          upstream, tmp_path)
    for source in ("quote", "price_history", "news"):
        failed = node(result, source)
        assert (failed.status, failed.error) == (NodeStatus.FAILED, "Yahoo Finance (hung) did not answer within 1 s")
    assert wire.asked_for("NVDA") and not wire.release.is_set()
    assert elapsed < 8.0, "the run ends within its budget"
    assert result.answer is not None


def test_a_later_question_is_not_queued_behind_a_hung_call(settings, wire, tmp_path):
    # One slot, shared by the finance and news sources, as one host's limit is.
    upstream = Upstream("Yahoo Finance (one slot)", max_concurrent=1, retries=0)
    quick = settings.replace(node_timeout_s=1.0, deadline_s=8.0)
    first, _ = ask("What is NVDA's stock price?", quick, upstream, tmp_path, sources=("quote",))
    assert node(first, "quote").error == "Yahoo Finance (one slot) did not answer within 1 s"
    assert not wire.asked_for("MSFT")
    # NVDA's request still hangs; the next question's news call reaches Yahoo all the same
    # (before, it waited for the one slot, which the abandoned NVDA quote call held).
    later, _ = ask("What's the latest news on MSFT?", quick, upstream, tmp_path, sources=("news",))
    assert wire.asked_for("MSFT")
    assert node(later, "news").error == "Yahoo Finance (one slot) did not answer within 1 s"


def test_however_many_questions_a_hung_yahoo_holds_a_bounded_number_of_threads(settings, wire, tmp_path):
    upstream = Upstream("Yahoo Finance (bounded)", max_concurrent=1, max_abandoned=2, retries=0)
    quick = settings.replace(node_timeout_s=0.5, deadline_s=6.0)
    errors, peak = [], 0
    for ticker in ("NVDA", "AAPL", "MSFT", "TSLA", "AMZN"):
        result, elapsed = ask(f"What is {ticker}'s stock price?", quick, upstream, tmp_path, sources=("quote",))
        errors.append(node(result, "quote").error)
        peak = max(peak, yahoo_threads("Yahoo Finance (bounded)"))
        assert elapsed < 6.0
    assert peak <= 3
    assert errors == ["Yahoo Finance (bounded) did not answer within 0.5 s"] * 3 + \
        ["Yahoo Finance (bounded) is not answering (earlier requests to it are still waiting)"] * 2
    assert not wire.asked_for("TSLA") and not wire.asked_for("AMZN"), "nothing more was sent to a hung host"
