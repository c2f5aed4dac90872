"""Shared fixtures. Nothing here reaches the internet: data comes from replay packs or
fakes at the source boundary, and the model from a loopback OpenAI-compatible server."""

from __future__ import annotations

import contextlib
import socket
from datetime import datetime, timezone
from pathlib import Path

import pytest

from finsearch.settings import Settings, from_env
from tests.sec_wire import edgar, sec  # noqa: F401 (the SEC tests' fixtures, shared from their home)

ROOT = Path(__file__).resolve().parents[1]
DEMO_PACK = ROOT / "finsearch" / "demo_pack"
NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def _no_internet(request, monkeypatch):
    """Any attempt to open a non-loopback connection fails the test loudly
    (except in opt-in tests marked `live`)."""
    if request.node.get_closest_marker("live"):
        return
    real_connect = socket.socket.connect

    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and host not in ("127.0.0.1", "localhost", "::1") and "/" not in host:
            raise AssertionError(f"test tried to reach the internet: {address!r}")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    # yfinance and akshare's Eastmoney news talk through curl_cffi (libcurl), which does not use
    # Python sockets. Refused where a request leaves for libcurl, under `Session.request`, which
    # sources.akshare_wire wraps once per process (a guard above the wrapper would be captured in it).
    try:
        import curl_cffi.requests
    except ImportError:
        return

    def refuse(self, method, url, *args, **kwargs):
        raise AssertionError(f"test tried to reach the internet through curl_cffi: {url!r}")

    monkeypatch.setattr(curl_cffi.requests.Session, "_request_once", refuse)


@pytest.fixture
def no_waiting(monkeypatch) -> list[float]:
    """Backoff waits are recorded instead of slept (full jitter pinned to its maximum)."""
    from finsearch.sources.upstream import resilience

    waits: list[float] = []
    monkeypatch.setattr(resilience, "sleep", waits.append)
    monkeypatch.setattr(resilience, "jitter", lambda: 1.0)
    return waits


@pytest.fixture
def sample_app_env(monkeypatch, tmp_path) -> Path:
    """The environment of an app (or CLI) answering from the demo pack offline, with its own
    data and cache folders and nothing of the developer's settings; returns the folder."""
    from finsearch.settings import ENV_NAMES

    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FINSEARCH_PACK", str(DEMO_PACK))
    monkeypatch.setenv("FINSEARCH_OFFLINE", "1")
    monkeypatch.setenv("FINSEARCH_NOW", "2024-10-15T20:00:00Z")
    monkeypatch.setenv("FINSEARCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def settings(tmp_path) -> Settings:
    """Settings independent of the developer's environment."""
    return from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic",
                    now=NOW, node_timeout_s=5.0)


@pytest.fixture
def demo_settings(settings) -> Settings:
    return settings.replace(pack=DEMO_PACK, offline=True)


@pytest.fixture
def fake_llm():
    from finsearch.model.loopback import LoopbackModel

    server = LoopbackModel().start()
    yield server
    server.stop()


@pytest.fixture
def llm_settings(settings, fake_llm) -> Settings:
    return settings.replace(llm="openai", base_url=fake_llm.base_url, api_key="test-key",
                            model="fake-model", llm_timeout_s=3.0)


@pytest.fixture
def redis_server(tmp_path):
    """A real redis-server on a free loopback port (tests/redis_kit.py); skipped when not installed."""
    from tests.redis_kit import running_redis

    yield from running_redis(tmp_path / "redis")


@pytest.fixture(params=("files", "redis"))
def backend(request, tmp_path):
    """The same test on both store backends: files, and a real Redis (tests/store_kit.py)."""
    from tests.store_kit import backend_for

    yield from backend_for(request.param, tmp_path)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, one for the whole session (tests/browser_kit.py): each test opens its own
    context (its own cookies: another visitor) and closes it, so nothing of one test is left for the
    next; a launch per module cost ~1 s, 23 times."""
    from tests.browser_kit import chromium

    with chromium() as browser:
        yield browser


@pytest.fixture(autouse=True)
def _contexts_closed(request):
    """The contexts a browser test opened are closed after it, even when it failed before closing
    them: left open in the session's one Chromium, their pages would go on polling a stopped app."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            with contextlib.suppress(Exception):
                context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can react to a failure
    (the browser tests save a screenshot)."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
