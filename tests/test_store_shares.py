"""Share links, owners and question counters in the run store, the same tests on both backends
(files, a real Redis): tokens are unguessable and map to what was shared, only their owner
revokes them, only a run's owner deletes it, and the question counter counts per identity."""

from __future__ import annotations

import threading
import time

import pytest

from finsearch.hosting.counters import open_counter
from finsearch.store import open_store
from tests.store_kit import sample_run

ALICE, BOB = "anon:AAAAAAAAAAAAAAAAAAAAAA", "anon:BBBBBBBBBBBBBBBBBBBBBB"


def test_a_share_token_maps_to_the_run_and_is_unguessable(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-shared11"), "conv-alice111", owner=ALICE)
    link = store.share("run", ["run-shared11"], ALICE, "How did NVDA do last week?")
    assert len(link.token) == 32 and link.token != "run-shared11", "192 bits, not the run id"
    assert link.token.replace("-", "").replace("_", "").isalnum()
    again = store.shared(link.token)
    assert again is not None
    assert (again.kind, again.run_ids, again.owner, again.question) == \
        ("run", ("run-shared11",), ALICE, "How did NVDA do last week?")
    assert store.shared("run-shared11") is None, "a run id is not a share token"
    assert store.shared("A" * 32) is None and store.shared("../../etc/passwd") is None
    other = store.share("run", ["run-shared11"], ALICE, "How did NVDA do last week?")
    assert other.token != link.token, "each Share makes a new link"


def test_a_conversation_is_shared_as_a_snapshot(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-conv1111"), "conv-snap1111", owner=ALICE)
    store.save(sample_run("run-conv2222"), "conv-snap1111", owner=ALICE)
    link = store.share("conversation", store.conversation("conv-snap1111"), ALICE, "first question")
    store.save(sample_run("run-conv3333"), "conv-snap1111", owner=ALICE)       # asked after sharing
    assert store.shared(link.token).run_ids == ("run-conv1111", "run-conv2222")
    assert store.shared(link.token).kind == "conversation"


def test_only_the_owner_lists_and_revokes_their_links(backend):
    store = open_store(backend.settings)
    first = store.share("run", ["run-aaaaaaaa"], ALICE, "first")
    second = store.share("run", ["run-bbbbbbbb"], ALICE, "second")
    bobs = store.share("run", ["run-cccccccc"], BOB, "bob's")
    assert [s.token for s in store.shares(ALICE)] == [second.token, first.token], "newest first"
    assert [s.token for s in store.shares(BOB)] == [bobs.token]
    assert store.revoke(first.token, BOB) is False, "Bob cannot revoke Alice's link"
    assert store.shared(first.token) is not None
    assert store.revoke(first.token, ALICE) is True
    assert store.shared(first.token) is None, "a revoked link opens nothing"
    assert store.revoke(first.token, ALICE) is False, "revoking twice revokes nothing"
    assert [s.token for s in store.shares(ALICE)] == [second.token]


def test_only_the_owner_deletes_a_run(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-alices11"), owner=ALICE)
    assert store.owner_of("run-alices11") == ALICE and store.owner_of("run-missing1") is None
    assert store.delete("run-alices11", owner=BOB) is False
    assert store.load("run-alices11") is not None and [s.run_id for s in store.list(owner=ALICE)] == ["run-alices11"]
    assert store.delete("run-alices11", owner=ALICE) is True
    assert store.load("run-alices11") is None and store.list(owner=ALICE) == []


def test_a_damaged_share_is_a_missing_link(backend):
    store = open_store(backend.settings)
    link = store.share("run", ["run-aaaaaaaa"], ALICE, "q")
    if backend.name == "files":
        (backend.settings.data_dir / "shares" / f"{link.token}.json").write_text('{"token": "x", "ki')
    else:
        backend.server.client().set(f"finsearch:share:{link.token}", '{"token": "x", "ki')
    assert store.shared(link.token) is None and store.shares(ALICE) == []


def test_the_question_counter_counts_per_identity_and_window(backend):
    counter = open_counter(backend.settings)
    assert [counter.hit(ALICE, 3600) for _ in range(3)] == [1, 2, 3]
    assert counter.hit(BOB, 3600) == 1, "each identity has its own count"
    hour = (time.time() // 3600 + 1) * 3600
    assert counter.hit(ALICE, 3600, now=hour + 1) == 1, "the next window starts again"
    assert counter.hit(ALICE, 3600, now=hour + 2) == 2
    if backend.server is not None:
        keys = list(backend.server.client().scan_iter("finsearch:limit:*"))
        assert len(keys) == 3 and not any("AAAA" in k or "BBBB" in k for k in keys), "identities appear as digests"
        assert all(0 < backend.server.client().ttl(k) <= 3601 for k in keys), "counters expire with their window"
    else:
        names = [p.name for p in (backend.settings.data_dir / "limits").iterdir()]
        assert len(names) == 2 and not any("AAAA" in n or "BBBB" in n for n in names)


@pytest.mark.parametrize("threads", [8])
def test_concurrent_questions_are_all_counted(backend, threads):
    counter = open_counter(backend.settings)
    seen: list[int] = []
    lock = threading.Lock()

    def ask():
        value = counter.hit(ALICE, 3600)
        with lock:
            seen.append(value)

    workers = [threading.Thread(target=ask) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sorted(seen) == list(range(1, threads + 1)), "no two questions got the same count"
