"""Retries with backoff, the per-host limit, and failure messages people can read."""

import threading
import time

import httpx
import pytest

from finsearch.errors import NoData, SourceError, Unreachable
from finsearch.sources import http, resilience
from finsearch.sources.resilience import NETWORK, RATE, SERVER, Upstream


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
