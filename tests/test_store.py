"""The run store, the same tests on both backends (files, a real Redis): save, load, list,
delete, conversations, owners, damaged records and ids from URLs."""

from __future__ import annotations

import time

import pytest

from finsearch.store import open_store
from tests.store_kit import sample_run


def test_a_saved_run_loads_back_and_is_listed(backend):
    store = open_store(backend.settings)
    run = sample_run("run-aaaaaaaa")
    store.save(run)
    loaded = store.load("run-aaaaaaaa")
    assert loaded is not None
    assert loaded.question == "How did NVDA do last week?"
    assert loaded.answer.markdown == run.answer.markdown
    [summary] = store.list()
    assert (summary.run_id, summary.question, summary.backend, summary.sample) == \
        ("run-aaaaaaaa", "How did NVDA do last week?", "heuristic", True)    # the demo pack is sample data
    assert summary.asked_at.startswith("2024-10-15T20:00") and summary.owner is None
    assert abs(summary.saved - time.time()) < 60


def test_history_is_newest_first_and_limited(backend):
    store = open_store(backend.settings)
    for name in ("run-first111", "run-second22", "run-third333"):
        store.save(sample_run(name))
        time.sleep(0.02)                       # file times and Redis scores both need to differ
    assert [s.run_id for s in store.list()] == ["run-third333", "run-second22", "run-first111"]
    assert [s.run_id for s in store.list(limit=2)] == ["run-third333", "run-second22"]


def test_saving_again_replaces_and_does_not_duplicate(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-again111"), "conv-xxxxxxxx")
    store.save(sample_run("run-again111"), "conv-xxxxxxxx")
    assert [s.run_id for s in store.list()] == ["run-again111"]
    assert store.conversation("conv-xxxxxxxx") == ["run-again111"]


def test_a_deleted_run_is_gone_from_load_list_and_its_conversation(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-keep1111"), "conv-deletion")
    store.save(sample_run("run-gone2222"), "conv-deletion")
    assert store.delete("run-gone2222") is True
    assert store.delete("run-gone2222") is False, "deleting twice deletes nothing"
    assert store.load("run-gone2222") is None
    assert [s.run_id for s in store.list()] == ["run-keep1111"]
    assert [r.run_id for r in store.load_conversation("conv-deletion")] == ["run-keep1111"]


def test_a_conversation_keeps_the_order_asked(backend):
    store = open_store(backend.settings)
    for name in ("run-one11111", "run-two22222", "run-three333"):
        store.save(sample_run(name), "conv-ordered1")
    assert store.conversation("conv-ordered1") == ["run-one11111", "run-two22222", "run-three333"]
    assert [r.run_id for r in store.load_conversation("conv-ordered1")] == \
        ["run-one11111", "run-two22222", "run-three333"]
    assert store.conversation("conv-unknown1") == [] and store.load_conversation("conv-unknown1") == []


def test_runs_carry_their_owner_and_list_filters_by_it(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-alice111"), owner="alice-identity")
    store.save(sample_run("run-bob22222"), owner="bob-identity")
    store.save(sample_run("run-nobody33"))
    assert {s.run_id for s in store.list()} == {"run-alice111", "run-bob22222", "run-nobody33"}
    assert [s.run_id for s in store.list(owner="alice-identity")] == ["run-alice111"]
    assert [s.owner for s in store.list(owner="bob-identity")] == ["bob-identity"]
    assert store.list(owner="carol-identity") == []
    store.save(sample_run("run-alice222"), "conv-alice111", owner="alice-identity")
    store.save(sample_run("run-bob33333"), "conv-alice111", owner="bob-identity")
    assert store.conversation_owner("conv-alice111") == "alice-identity", "the first owner given keeps it"
    store.save(sample_run("run-anon4444"), "conv-later111")
    store.save(sample_run("run-carol555"), "conv-later111", owner="carol-identity")
    assert store.conversation_owner("conv-later111") == "carol-identity"
    assert store.conversation_owner("conv-unknown1") is None and store.conversation_owner("../x") is None
    store.delete("run-alice222")
    store.delete("run-alice111")
    assert store.list(owner="alice-identity") == []


@pytest.mark.parametrize("bad", ["", "short", "../../etc/passwd", "a" * 65, "run id with spaces", None])
def test_ids_from_urls_are_checked_before_they_reach_a_file_or_a_key(backend, bad):
    store = open_store(backend.settings)
    store.save(sample_run("run-real1111"), bad)
    assert store.load(bad) is None and store.delete(bad) is False
    assert store.conversation(bad) == [] and store.load_conversation(bad) == []
    assert [s.run_id for s in store.list()] == ["run-real1111"]


def test_a_damaged_record_is_absent_not_a_crash(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-damaged1"))
    store.save(sample_run("run-healthy1"))
    if backend.name == "files":
        (backend.settings.data_dir / "runs" / "run-damaged1.json").write_text('{"run_id": "run-damaged1", "gra')
    else:
        backend.server.client().set("finsearch:run:run-damaged1", '{"run_id": "run-damaged1", "gra')
    assert store.load("run-damaged1") is None
    assert store.load("run-healthy1") is not None
