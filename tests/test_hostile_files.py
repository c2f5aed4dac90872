"""Files someone else put where FinSearch reads (issue 31 §7): a replay pack, the Evaluate page's
folders. A FIFO, a link to /dev/zero, a link out of the folder and a file far larger than its
limit are each passed over with a reason a person reads, never read: no hang, no gigabytes, no
data from outside the folder. Every load runs on a thread joined with a time limit, so that a
regression fails here instead of hanging the suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

from finsearch.errors import NotInPack
from finsearch.evaluate import summary_files
from finsearch.sources.replay import MAX_FILE_BYTES, ReplayPack, SkippedFile, write_recording
from finsearch.untrusted_files import RefusedFile, read_bounded
from tests.conftest import NOW, ROOT

HUGE = 8 * 2**30                    # a sparse file: 8 GB as its size says, no disk used


def within_seconds(seconds: float, work):
    """`work()` on a daemon thread, failing the test (not hanging it) when it has not ended."""
    done: dict = {}

    def run():
        try:
            done["value"] = work()
        except BaseException as exc:  # handed to the test
            done["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still reading after {seconds} s: a hang"
    if "error" in done:
        raise done["error"]
    return done["value"]


@pytest.fixture
def hostile_pack(tmp_path) -> Path:
    """A pack with one good recording among a FIFO, a link to /dev/zero, a link to a recording
    outside the pack, a sparse 8 GB file, and a manifest that is a FIFO."""
    pack, outside = tmp_path / "pack", tmp_path / "outside"
    write_recording(pack, "quote", {"ticker": "NVDA"}, [{"title": "NVDA quote"}], NOW)
    secret = write_recording(outside, "news", {"ticker": "NVDA"}, [{"title": "read from outside the pack"}], NOW)
    os.mkfifo(pack / "_pack.json")
    os.mkfifo(pack / "fifo.json")
    (pack / "zero.json").symlink_to("/dev/zero")
    (pack / "outside.json").symlink_to(secret)
    with open(pack / "huge.json", "wb") as handle:
        handle.truncate(HUGE)
    return pack


def test_a_pack_reads_only_its_own_regular_files(hostile_pack):
    tracemalloc.start()
    try:
        pack = within_seconds(20, lambda: ReplayPack(hostile_pack))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sorted(pack.skipped, key=str) == [
        SkippedFile("_pack.json", "a named pipe (FIFO), not a regular file"),
        SkippedFile("fifo.json", "a named pipe (FIFO), not a regular file"),
        SkippedFile("huge.json", "larger than 5,000,000 bytes"),
        SkippedFile("outside.json", "a link leading outside its folder"),
        SkippedFile("zero.json", "a link leading outside its folder"),
    ]
    assert str(pack.skipped[0]) == "_pack.json: a named pipe (FIFO), not a regular file"
    assert len(pack) == 1 and pack.lookup("quote", {"ticker": "NVDA"}).evidence == [{"title": "NVDA quote"}]
    with pytest.raises(NotInPack):
        pack.lookup("news", {"ticker": "NVDA"})       # the recording outside was not read
    assert peak < 4 * MAX_FILE_BYTES, f"{peak / 2**20:.0f} MB to load a pack of one small recording"


def test_ask_on_a_hostile_pack_answers_and_ends(hostile_pack, tmp_path):
    """The command a FIFO in the pack used to hang forever, under a time limit of its own."""
    env = {"FINSEARCH_CACHE_DIR": str(tmp_path / "cache"), "FINSEARCH_DATA_DIR": str(tmp_path / "data"),
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "finsearch", "ask", "NVDA stock price", "--now",
                           "2024-10-15T20:00:00Z", "--offline", "--pack", str(hostile_pack), "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    quotes = [n for n in result["graph"]["nodes"] if n["source"] == "quote"]
    assert quotes and quotes[0]["status"] == "done"
    assert "read from outside the pack" not in done.stdout
    assert "skipped fifo.json: a named pipe (FIFO), not a regular file" in done.stderr


def test_a_link_inside_the_pack_is_read_as_the_file_it_names(tmp_path):
    pack = tmp_path / "pack"
    first = write_recording(pack, "quote", {"ticker": "NVDA"}, [{"title": "NVDA quote"}], NOW)
    (pack / "again.json").symlink_to(first.name)
    loaded = within_seconds(10, lambda: ReplayPack(pack))
    assert loaded.skipped == [] and len(loaded) == 2


def test_a_file_that_grows_past_its_limit_is_refused_as_read(tmp_path):
    """The limit counts the bytes read, not the size a look at the file gave."""
    path = tmp_path / "growing.json"
    path.write_bytes(b"x" * 100)
    assert read_bounded(path, 100) == b"x" * 100
    path.write_bytes(b"x" * 101)
    with pytest.raises(RefusedFile, match="larger than 100 bytes"):
        read_bounded(path, 100)


def test_a_summary_larger_than_its_limit_is_refused_without_being_read(tmp_path):
    """The Evaluate page used to read the whole file and then cut it to the limit."""
    folder = tmp_path / "data" / "eval" / "run"
    folder.mkdir(parents=True)
    with open(folder / "summary.json", "wb") as handle:
        handle.truncate(HUGE)
    [found] = summary_files.find_summaries(folder, within=tmp_path / "data")
    with pytest.raises(RefusedFile, match=f"larger than {summary_files.SUMMARY_MAX_BYTES:,} bytes"):
        within_seconds(10, lambda: summary_files.read_summary(found, within=tmp_path / "data"))


@pytest.mark.parametrize("kind", ["fifo", "zero", "outside"])
def test_a_summary_that_is_not_a_file_of_the_data_directory_is_refused(tmp_path, kind):
    data = tmp_path / "data"
    (data / "eval").mkdir(parents=True)
    summary = data / "eval" / "summary.json"
    if kind == "fifo":
        os.mkfifo(summary)
    elif kind == "zero":
        summary.symlink_to("/dev/zero")
    else:
        (tmp_path / "secret.json").write_text('{"variants": {"secret": {}}}')
        summary.symlink_to(tmp_path / "secret.json")
    with pytest.raises(RefusedFile):
        within_seconds(10, lambda: summary_files.read_summary(summary, within=data))
