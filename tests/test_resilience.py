"""Retries with backoff, the per-host limit, deadlines, and failure messages people can read.

The library call is faked (it raises, or blocks on an Event until the test releases it): the
network boundary. Each test that hangs an upstream names its own, since limits are per name."""

import threading
import time

import httpx
import pytest

from finsearch.deadline import Deadline
from finsearch.errors import NoData, SourceError, Unreachable
from finsearch.sources.upstream import http, resilience
from finsearch.sources.upstream.resilience import NETWORK, RATE, SERVER, Upstream


@pytest.fixture(autouse=True)
def _instant_backoff(no_waiting):
    """Retries here never sleep."""


class Flaky:
    def __init__(self, errors, result="ok"):
        self.errors = list(errors)
        self.result = result
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return self.result


def kinds(exc):
    return {"rate": RATE, "server": SERVER, "dns": NETWORK}.get(str(exc))


def test_transient_failures_are_retried_with_growing_waits(no_waiting):
    fn = Flaky([RuntimeError("rate"), RuntimeError("server")])
    assert resilience.call(Upstream("Yahoo Finance"), fn, kinds) == "ok"
    assert fn.calls == 3 and no_waiting == [0.5, 1.0]


def test_retries_are_bounded_and_the_reason_says_so():
    fn = Flaky([RuntimeError("rate")] * 10)
    with pytest.raises(Unreachable, match=r"^Yahoo Finance rate-limited the request; retried 3 times$"):
        resilience.call(Upstream("Yahoo Finance", retries=3), fn, kinds)
    assert fn.calls == 4


def test_network_down_is_not_retried():
    fn = Flaky([RuntimeError("dns")] * 3)
    with pytest.raises(Unreachable, match="cannot reach Google News"):
        resilience.call(Upstream("Google News"), fn, kinds)
    assert fn.calls == 1


def test_unexpected_errors_and_no_data_pass_through_cleanly():
    with pytest.raises(SourceError, match=r"DuckDuckGo failed unexpectedly \(ZeroDivisionError\)"):
        resilience.call(Upstream("DuckDuckGo"), Flaky([ZeroDivisionError()]), kinds)
    with pytest.raises(NoData, match="no data for XYZQ"):
        resilience.call(Upstream("Yahoo Finance"), Flaky([NoData("no data for XYZQ")]), kinds)


def test_backoff_is_capped():
    up = Upstream("x", base_delay_s=1.0, max_delay_s=3.0)
    assert [resilience.backoff(up, a) for a in range(4)] == [1.0, 2.0, 3.0, 3.0]


def test_per_host_concurrency_limit():
    up = Upstream("Test Host Limit", max_concurrent=2)
    inside, peak, lock = [0], [0], threading.Lock()

    def work():
        with lock:
            inside[0] += 1
            peak[0] = max(peak[0], inside[0])
        time.sleep(0.05)
        with lock:
            inside[0] -= 1
        return 1

    threads = [threading.Thread(target=resilience.call, args=(up, work, kinds)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 2


def test_http_client_retries_429_then_succeeds(monkeypatch):
    answers = iter([httpx.Response(429), httpx.Response(503), httpx.Response(200, text="<rss/>")])
    monkeypatch.setattr(http, "_client", httpx.Client(transport=httpx.MockTransport(lambda r: next(answers))))
    assert http.get_text("https://feeds.example.test/rss", Upstream("Feeds")) == "<rss/>"


def test_http_client_reasons(monkeypatch):
    def refuse(request):
        return httpx.Response(403)

    monkeypatch.setattr(http, "_client", httpx.Client(transport=httpx.MockTransport(refuse)))
    with pytest.raises(SourceError, match=r"Feeds refused the request \(HTTP 403\)"):
        http.get_text("https://feeds.example.test/rss", Upstream("Feeds"))

    def down(request):
        raise httpx.ConnectError("Name or service not known")

    monkeypatch.setattr(http, "_client", httpx.Client(transport=httpx.MockTransport(down)))
    with pytest.raises(Unreachable, match=r"cannot reach Feeds \(is the network down\?\)"):
        http.get_text("https://feeds.example.test/rss", Upstream("Feeds"))


class Hung:
    """A library call that blocks until the test releases it (an upstream that does not answer)."""

    def __init__(self):
        self.release = threading.Event()
        self.entered = 0
        self.lock = threading.Lock()

    def __call__(self):
        with self.lock:
            self.entered += 1
        self.release.wait(30)
        return "late"


@pytest.fixture
def hung():
    call = Hung()
    yield call
    call.release.set()
    for thread in threading.enumerate():
        if thread.name.startswith("finsearch-upstream Hung"):
            thread.join(5)


def upstream_threads(name):
    return [t for t in threading.enumerate() if t.name == f"finsearch-upstream {name}"]


def test_a_call_given_up_on_releases_its_slot_at_once(hung):
    up = Upstream("Hung Host One", max_concurrent=1)
    with pytest.raises(Unreachable, match=r"^Hung Host One did not answer within 0\.3 s$"):
        resilience.call(up, hung, kinds, Deadline(0.3))
    assert hung.entered == 1 and not hung.release.is_set()
    assert len(upstream_threads("Hung Host One")) == 1, "the library call runs on, abandoned"
    # The only slot is free again: the next call on this upstream runs (it would wait its whole
    # deadline and fail "too many requests were waiting" if the abandoned call still held it).
    assert resilience.call(up, lambda: "ok", kinds, Deadline(5)) == "ok"


def test_callers_waiting_for_a_slot_give_up_by_their_deadline_with_the_reason(hung):
    up = Upstream("Hung Host Busy", max_concurrent=1)
    answers = []
    first = threading.Thread(target=lambda: answers.append(resilience.call(up, hung, kinds, Deadline(30))))
    first.start()
    while hung.entered == 0:
        hung.release.wait(0.01)
    with pytest.raises(Unreachable, match=r"^Hung Host Busy did not answer within 0\.2 s "
                                          r"\(too many requests were waiting for it\)$"):
        resilience.call(up, lambda: "never", kinds, Deadline(0.2))
    hung.release.set()
    first.join(5)
    assert answers == ["late"], "the call holding the slot still gets its answer"


def test_a_hung_upstream_never_holds_more_than_its_bound_of_threads(hung):
    up = Upstream("Hung Host Bound", max_concurrent=2, max_abandoned=3)
    reasons = []
    for _ in range(8):
        with pytest.raises(Unreachable) as failure:
            resilience.call(up, hung, kinds, Deadline(0.2))
        reasons.append(str(failure.value))
        assert len(upstream_threads("Hung Host Bound")) <= 5
    assert hung.entered == 5
    assert reasons == ["Hung Host Bound did not answer within 0.2 s"] * 5 + \
        ["Hung Host Bound is not answering (earlier requests to it are still waiting)"] * 3
    hung.release.set()
    for thread in upstream_threads("Hung Host Bound"):
        thread.join(5)
    assert resilience.call(up, lambda: "back", kinds, Deadline(5)) == "back"


def test_retries_never_wait_past_the_deadline(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(resilience, "sleep", lambda seconds: clock.__setitem__(0, clock[0] + seconds))
    fn = Flaky([RuntimeError("rate")] * 10)
    with pytest.raises(Unreachable, match=r"^Yahoo Finance rate-limited the request; retried 2 times$"):
        resilience.call(Upstream("Yahoo Finance", retries=5), fn, kinds, Deadline(2.0, clock=lambda: clock[0]))
    # Waits of 0.5 s then 1 s fit in 2 s; the next (2 s) would end past the deadline, so it is not made.
    assert fn.calls == 3 and clock[0] == 1.5


def test_stop_ends_the_wait_for_a_hung_call(hung):
    cancel = threading.Event()
    outcome = []

    def ask():
        try:
            resilience.call(Upstream("Hung Host Stop"), hung, kinds, Deadline(30, cancel))
        except SourceError as exc:
            outcome.append(str(exc))

    asker = threading.Thread(target=ask)
    asker.start()
    while hung.entered == 0:
        hung.release.wait(0.01)
    cancel.set()
    asker.join(2)
    assert outcome == ["stopped by the user"] and not hung.release.is_set()


def test_the_deadline_reaches_calls_made_inside_its_scope(hung):
    up = Upstream("Hung Host Scope")
    with resilience.deadline_scope(Deadline(0.2)):
        with pytest.raises(Unreachable, match=r"^Hung Host Scope did not answer within 0\.2 s$"):
            resilience.call(up, hung, kinds)
    with resilience.deadline_scope(Deadline(5)):
        seen = resilience.call(up, lambda: resilience.time_left(8.0), kinds)
    assert 4 < seen <= 5, "the library call's own timeout is shortened to the node's"
    assert resilience.time_left(8.0) == 8.0


def test_a_hung_feed_fails_the_news_node_by_its_deadline(monkeypatch):
    from finsearch.sources.news.adapter import NewsSource

    release, timeouts = threading.Event(), []

    def hang(request):
        timeouts.append(request.extensions["timeout"]["read"])
        release.wait(30)
        return httpx.Response(200, text="<rss/>")

    monkeypatch.setattr(http, "_client", httpx.Client(transport=httpx.MockTransport(hang)))
    news = NewsSource(feeds=("https://news.google.com/rss/search?q={query}&hl={hl}&gl={gl}&ceid={ceid}",),
                      upstreams={"news.google.com": Upstream("Google News (hung)")})
    started = time.monotonic()
    try:
        # The deadline crosses news's own thread pool to the feed's request.
        with resilience.deadline_scope(Deadline(0.5)):
            with pytest.raises(Unreachable, match=r"^Google News \(hung\) did not answer within 0\.5 s$"):
                news.fetch("news", {"query": "chip tariffs"})
        assert time.monotonic() - started < 2.0
        assert len(timeouts) == 1 and 0 < timeouts[0] <= 0.5, "httpx's own timeout is the node's, not 5 s"
    finally:
        release.set()
