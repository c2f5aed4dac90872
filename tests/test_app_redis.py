"""The app on the Redis store (AppTest): a conversation asked in one session restores in
another and History lists it, all through Redis; with Redis down, History, a share link
and `?c=` say the store is unreachable instead of "not found", and nothing crashes; with Redis
paused the chat still answers within seconds, and with Redis full it says Redis is out of memory."""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

from finsearch.hosting.redis_link import COMMAND_TIMEOUT_S
from finsearch.settings import from_env
from finsearch.store import open_store
from tests.app_kit import APP, settle, text_of
from tests.redis_kit import free_port


def test_a_conversation_lives_in_redis_and_restores_in_another_session(sample_app_env, redis_server, monkeypatch):
    monkeypatch.setenv("FINSEARCH_REDIS_URL", redis_server.url)
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.chat_input[0].set_value("What's the latest news on Tesla?").run()
    settle(at)
    conversation = at.session_state["finsearch_chat"].conversation
    assert not (sample_app_env / "data" / "runs").exists(), "runs go to Redis, not to files"
    [summary] = open_store(from_env({"FINSEARCH_REDIS_URL": redis_server.url})).list()
    assert summary.question == "What's the latest news on Tesla?"

    other = AppTest.from_file(APP, default_timeout=30)      # the same browser (its cookie) on another replica
    other.session_state["finsearch_visitor"] = at.session_state["finsearch_visitor"]
    other.query_params["c"] = conversation
    other.run()
    assert not other.exception and "Tesla (TSLA) last traded" in text_of(other)
    other.switch_page("pages/history.py").run()
    assert not other.exception and "What's the latest news on Tesla?" in text_of(other)


def test_with_redis_down_the_pages_say_so_and_do_not_crash(sample_app_env, monkeypatch):
    monkeypatch.setenv("FINSEARCH_REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")    # nothing listens
    history = AppTest.from_file(APP, default_timeout=30)
    history.run()
    history.switch_page("pages/history.py").run()
    assert not history.exception
    shown = history.error[0].value.replace("\u2060", "")     # `plain` keeps "redis://" from becoming a link
    assert "History cannot be shown right now: the shared store at redis://127.0.0.1:" in shown
    assert "is unreachable" in shown
    assert not history.info, "not 'No answers yet'"

    shared = AppTest.from_file(APP, default_timeout=30)
    shared.query_params["run"] = "run-aaaaaaaa"
    shared.run()
    assert not shared.exception and "cannot be loaded right now" in shared.error[0].value

    restored = AppTest.from_file(APP, default_timeout=30)
    restored.query_params["c"] = "conv-aaaaaaaa"
    restored.run()
    assert not restored.exception and "cannot be restored right now" in restored.error[0].value



def _ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    return settle(at, 60)


def _warnings(at: AppTest) -> list[str]:
    return [w.value.replace("\u2060", "") for w in at.warning]     # `plain` keeps "redis://" from becoming a link


def test_with_redis_paused_the_chat_answers_within_seconds_and_says_the_answer_is_not_saved(
        sample_app_env, redis_server, monkeypatch):
    # Issue 31, item 8: every store call (a question's count, its save) used to wait 6.3 s: two
    # questions took over 25 s. Now the first call waits one timeout and the breaker refuses the
    # rest at once (without it, each call would still wait its own timeout: 8 s for these two).
    monkeypatch.setenv("FINSEARCH_REDIS_URL", redis_server.url)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    redis_server.pause()
    started = time.monotonic()
    _ask(at, "What's the latest news on Tesla?")
    _ask(at, "How did NVDA do last week?")
    took = time.monotonic() - started
    assert not at.exception and "Tesla (TSLA) last traded" in text_of(at), "answered from the in-memory run"
    assert "NVIDIA (NVDA)" in text_of(at)
    assert took < 2 * COMMAND_TIMEOUT_S + 3, f"two questions took {took:.1f} s"
    warnings = _warnings(at)
    assert len(warnings) == 2
    for warning in warnings:
        assert warning.startswith("This answer could not be saved on the server (the shared store at "
                                  "redis://127.0.0.1:")
        assert "is unreachable). It stays on this page, but it will be gone after a reload" in warning


def test_with_redis_full_the_chat_answers_and_says_redis_is_out_of_memory(sample_app_env, redis_server, monkeypatch):
    from tests.test_redis_breaker import fill_up

    monkeypatch.setenv("FINSEARCH_REDIS_URL", redis_server.url)
    fill_up(redis_server)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    _ask(at, "What's the latest news on Tesla?")
    assert not at.exception and "Tesla (TSLA) last traded" in text_of(at)
    [warning] = _warnings(at)
    assert warning.startswith("This answer could not be saved on the server (Redis is out of memory at redis://127.")
    assert "unreachable" not in warning
