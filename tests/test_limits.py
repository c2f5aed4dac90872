"""The limits on asking (`finsearch.hosting.limits`) and the identities they count (`finsearch.hosting.identity`)."""

from __future__ import annotations

import threading

import pytest

from finsearch.errors import StoreUnavailable
from finsearch.hosting.counters import open_counter
from finsearch.hosting.identity import anonymous_owner, new_token, signed_in_owner
from finsearch.hosting.limits import RunSlots, admit, admit_if_countable


class Run:
    """A run that goes on until it is told to end (what `RunSlots` reads of a BackgroundRun)."""

    def __init__(self):
        self.ended = threading.Event()

    def join(self, timeout=None) -> bool:
        return self.ended.wait(timeout)


def test_a_visitor_token_is_128_random_bits_and_only_its_shape_is_accepted():
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200 and all(len(t) == 22 for t in tokens)
    token = tokens.pop()
    owner = anonymous_owner(token)
    assert owner.startswith("anon:") and len(owner) == 5 + 32 and token not in owner, "stored as a digest only"
    assert owner == anonymous_owner(token), "the same browser is the same owner"
    for forged in ("user:0123456789abcdef0123456789abcdef", "alice", "", None, token + "x", "a" * 21 + "!"):
        assert anonymous_owner(forged) is None, forged


def test_a_signed_in_owner_is_a_digest_of_issuer_and_subject():
    ada = signed_in_owner({"iss": "https://accounts.example", "sub": "1234", "email": "ada@example.com"})
    assert ada is not None and ada.startswith("user:") and "ada" not in ada and "1234" not in ada
    assert ada == signed_in_owner({"iss": "https://accounts.example", "sub": "1234", "email": "new@example.com"})
    assert ada != signed_in_owner({"iss": "https://other.example", "sub": "1234"}), "subjects are per issuer"
    assert signed_in_owner({"email": "ada@example.com"}).startswith("user:")
    assert signed_in_owner({"name": "Ada"}) is None


def test_the_question_limit_refuses_with_when_to_ask_again(settings):
    limited = settings.replace(question_limit=2, question_window_s=3600)
    counter, slots = open_counter(limited), RunSlots()
    assert admit("anon:a", limited, counter, slots) is None
    assert admit("anon:a", limited, counter, slots) is None
    refusal = admit("anon:a", limited, counter, slots)
    assert refusal is not None and refusal.reason == "questions"
    assert refusal.message.startswith("You have asked the most questions this server allows (2 in 1 hour). "
                                      "You can ask again in ")
    assert admit("anon:b", limited, counter, slots) is None, "another visitor still may"
    assert admit("anon:a", limited.replace(question_limit=0), counter, slots) is None, "0: no limit"


def test_runs_at_once_are_capped_per_visitor_and_per_server(settings):
    capped = settings.replace(question_limit=0, max_runs_per_visitor=1, max_runs=2)
    counter, slots = open_counter(capped), RunSlots()
    first, second = Run(), Run()
    assert admit("anon:a", capped, counter, slots) is None
    slots.hold("anon:a", first)
    refusal = admit("anon:a", capped, counter, slots)
    assert refusal is not None and refusal.reason == "visitor_runs"
    assert "wait until one finishes" in refusal.message
    assert admit("anon:b", capped, counter, slots) is None
    slots.hold("anon:b", second)
    refusal = admit("anon:c", capped, counter, slots)
    assert refusal is not None and refusal.reason == "server_runs" and "ask again in a minute" in refusal.message
    first.ended.set()                                   # a finished run frees its slot
    assert admit("anon:a", capped, counter, slots) is None and admit("anon:c", capped, counter, slots) is None
    assert slots.counts("anon:a") == (0, 1)


def test_a_run_held_before_its_thread_starts_counts_as_under_way(settings):
    from finsearch.background.question import BackgroundRun

    slots = RunSlots()
    run = BackgroundRun("How is AAPL doing?", settings)           # not started: its join would raise
    slots.hold("anon:x", run)
    assert slots.counts("anon:x") == (1, 1)
    run.start()
    assert run.join(30)
    assert slots.counts("anon:x") == (0, 0)


def test_a_counter_that_cannot_be_reached_admits_but_runs_at_once_stay_capped(settings):
    down = settings.replace(redis_url="redis://127.0.0.1:9/0", question_limit=2, max_runs_per_visitor=1)
    counter, slots = open_counter(down), RunSlots()
    with pytest.raises(StoreUnavailable):
        admit("anon:a", down, counter, slots)
    assert admit_if_countable("anon:a", down, counter, slots) is None
    slots.hold("anon:a", Run())
    refusal = admit_if_countable("anon:a", down, counter, slots)
    assert refusal is not None and refusal.reason == "visitor_runs"
