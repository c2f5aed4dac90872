"""Jobs (issue 34): a report enqueued by a process that then exits is written by a worker and is in its
owner's History under its id; a worker killed mid-report has the report written once by another; two
schedulers at once enqueue a scheduled report once; with no Redis the same job runs in process and its
progress is read as it goes. Workers and schedulers are real `python -m finsearch` processes on a real Redis."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

import pytest

from finsearch.jobs import START, open_jobs
from finsearch.jobs.kinds import kind_of
from finsearch.jobs.report_job import report_args
from finsearch.settings import from_env
from finsearch.store import open_store
from tests.conftest import ROOT
from tests.jobs_kit import QUICK, WEEKLY_ID, finsearch, job_env, kill_all, stop, wait_until

QUESTION = "Research report on NVDA"
NOW = "2024-10-15T20:00:00Z"


def _types(lines) -> list[str]:
    return [line.line["type"] if "type" in line.line else "Report" for line in lines]


def _without_state(kinds: list[str]) -> list[str]:
    return [kind for kind in kinds if kind != "State"]


def test_a_report_enqueued_by_a_process_that_exits_is_written_by_a_worker_into_its_owners_history(
        tmp_path, redis_server):
    env = job_env(tmp_path, redis_server.url)
    enqueue = ("from finsearch.jobs import open_jobs; from finsearch.jobs.report_job import report_args; "
               "from finsearch.settings import from_env; "
               f"print(open_jobs(from_env()).enqueue('report', 'rep-web-1', report_args({QUESTION!r}, 'owner-a', "
               f"'rep-web-1', {NOW!r})))")
    web = subprocess.run([sys.executable, "-c", enqueue], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert web.stdout.strip() == "True", web.stderr                 # the "web replica" enqueued and is gone
    settings = from_env(env)
    jobs = open_jobs(settings)
    assert jobs.enqueue("report", "rep-web-1", report_args(QUESTION, "owner-a", "rep-web-1", NOW)) is False
    worker = finsearch(["worker", *QUICK], env, tmp_path / "worker.log")
    try:
        store = open_store(settings)
        report = wait_until(lambda: store.load("rep-web-1", "report"), 40, "the report in the store")
        # The job says JobDone after the report is stored: the worker is stopped only once it has.
        lines = wait_until(lambda: (found := jobs.read("rep-web-1")) and found[-1].line["type"] == "JobDone"
                           and found, 20, "the job's last line")
    finally:
        stop(worker)
    assert report.report_id == "rep-web-1" and report.markdown.startswith("#")
    assert [(s.run_id, s.kind) for s in store.list(owner="owner-a")] == [("rep-web-1", "report")]
    assert store.list(owner="owner-b") == []
    kinds = _types(lines)
    # A State line may come before the outline: the job's first look found it still being drafted.
    assert _without_state(kinds)[:2] == ["JobStarted", "OutlineReady"] and kinds[-2:] == ["Report", "JobDone"]
    assert lines[-2].line["report_id"] == "rep-web-1"
    # A reader that comes back with the last id it saw gets only what came after it.
    assert jobs.read("rep-web-1", after=lines[1].line_id) == lines[2:]
    assert jobs.read("rep-web-1", after=lines[-1].line_id) == []


def test_a_worker_killed_mid_report_leaves_it_to_another_which_writes_it_once(tmp_path, redis_server):
    env = job_env(tmp_path, redis_server.url, replay_delay_ms=700)       # long enough to be killed in the middle
    settings = from_env(env)
    jobs = open_jobs(settings)
    assert jobs.enqueue("report", "rep-killed", report_args(QUESTION, "owner-k", "rep-killed", NOW))
    first = finsearch(["worker", "--name", "first", *QUICK], env, tmp_path / "first.log")
    second = None
    try:
        wait_until(lambda: "SectionStarted" in _types(jobs.read("rep-killed")), 40, "a section started")
        kill_all(first)
        assert "JobDone" not in _types(jobs.read("rep-killed"))
        second = finsearch(["worker", "--name", "second", *QUICK], env, tmp_path / "second.log")
        store = open_store(settings)
        wait_until(lambda: store.load("rep-killed", "report"), 40, "the report written by the second worker")
        lines = wait_until(lambda: (found := jobs.read("rep-killed")) and found[-1].line["type"] == "JobDone"
                           and found, 20, "the job's last line")
    finally:
        stop(first)
        if second is not None:
            stop(second)
    started = [line.line["attempt"] for line in lines if line.line.get("type") == "JobStarted"]
    assert started == [1, 2] and _types(lines).count("JobDone") == 1
    assert [s.run_id for s in store.list(owner="owner-k")] == ["rep-killed"]


def test_two_schedulers_at_once_enqueue_a_scheduled_report_once(tmp_path, redis_server):
    env = job_env(tmp_path, redis_server.url)
    look = ["scheduler", "--source", "tests.jobs_kit.weekly_report", "--every", "0.1", "--rounds", "15"]
    schedulers = [finsearch(look, env, tmp_path / f"scheduler-{i}.log") for i in (1, 2)]
    for scheduler in schedulers:
        assert scheduler.wait(60) == 0
    rounds = [line for i in (1, 2) for line in (tmp_path / f"scheduler-{i}.log").read_text().splitlines()
              if line.startswith("scheduler: ")]
    assert len(rounds) == 30
    assert sum(int(line.split("enqueued ")[1].split(",")[0]) for line in rounds) == 1
    worker = finsearch(["worker", "--burst", *QUICK], env, tmp_path / "worker.log")
    assert worker.wait(60) == 0
    jobs = open_jobs(from_env(env))
    assert _types(jobs.read(WEEKLY_ID)).count("JobStarted") == 1 and _types(jobs.read(WEEKLY_ID))[-1] == "JobDone"
    assert [s.run_id for s in open_store(from_env(env)).list(owner="owner-weekly")] == [WEEKLY_ID]


def test_without_redis_the_same_report_job_runs_in_process_and_its_progress_is_read_as_it_goes(demo_settings):
    settings = demo_settings.replace(replay_delay_s=0.05)
    jobs = open_jobs(settings)
    try:
        assert jobs.enqueue("report", "rep-local-1", report_args(QUESTION, "owner-l", "rep-local-1", NOW))
        assert jobs.enqueue("report", "rep-local-1", report_args(QUESTION, "owner-l", "rep-local-1", NOW)) is False
        seen, after = [], START
        while not seen or seen[-1].line["type"] not in ("JobDone", "JobFailed"):
            fresh = jobs.read("rep-local-1", after=after, wait_s=30)
            assert fresh, "no progress for 30 s"
            seen += fresh
            after = fresh[-1].line_id
    finally:
        jobs.close()
    kinds = _types(seen)
    # A State line may come before the outline: the job's first look found it still being drafted.
    assert _without_state(kinds)[:2] == ["JobStarted", "OutlineReady"] and kinds[-2:] == ["Report", "JobDone"]
    assert "SectionDone" in kinds
    stored = open_store(settings).load("rep-local-1", "report")
    assert stored is not None and stored.report_id == "rep-local-1"
    assert [s.run_id for s in open_store(settings).list(owner="owner-l")] == ["rep-local-1"]


def test_the_worker_without_redis_says_how_to_set_it(tmp_path):
    done = subprocess.run([sys.executable, "-m", "finsearch", "worker"], env=job_env(tmp_path, None), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "set FINSEARCH_REDIS_URL" in done.stderr


@pytest.mark.parametrize("job_id", ["", "a b", "../x", "x" * 101])
def test_a_bad_job_id_is_refused_when_enqueued(demo_settings, job_id):
    from finsearch.errors import InputError

    jobs = open_jobs(demo_settings)
    try:
        with pytest.raises(InputError, match="letters, digits"):
            jobs.enqueue("report", job_id, {})
    finally:
        jobs.close()


def test_in_process_jobs_let_go_of_old_lines_and_ids_as_redis_would(demo_settings, monkeypatch):
    """A long-running app without Redis keeps no job's lines or id for ever: lines go KEEP_S after the last,
    an id is offered again once its kind's keep has passed (an alert check's slot, an hour on)."""
    from finsearch.jobs import local, progress

    board = progress.MemoryProgress()
    board.say("old-job", {"type": "JobDone"})
    monkeypatch.setattr(progress, "KEEP_S", -1.0)
    board.say("new-job", {"type": "JobStarted"})
    assert board.read("old-job") == [] and len(board.read("new-job")) == 1

    jobs = local.LocalJobs(demo_settings)
    later = datetime.now(timezone.utc) + timedelta(days=30)            # due far ahead: it does not run here
    assert jobs.enqueue("alerts", "alerts-w1-slot", {"x": 1}, at=later)
    assert not jobs.enqueue("alerts", "alerts-w1-slot", {"x": 1}, at=later)
    assert jobs.args_of("alerts-w1-slot") == {"x": 1}
    jobs.close()                                        # its worker stops: nothing runs when the clock moves
    clock = time.time() + 31 * 24 * 3600 + kind_of("alerts").keep_s + kind_of("alerts").timeout_s
    monkeypatch.setattr(local.time, "time", lambda: clock)
    assert jobs.enqueue("alerts", "alerts-w2-slot", {"x": 2}, at=later)         # any enqueue lets old ids go
    assert jobs.args_of("alerts-w1-slot") is None and jobs.args_of("alerts-w2-slot") == {"x": 2}


def test_a_report_whose_worker_is_lost_on_its_last_try_ends_failed_for_whoever_follows_it(tmp_path, redis_server):
    """Killed twice (the first try and its one retry): RQ gives the job up and says nothing more on its
    progress; the page following it asks the queue once it has been silent, and ends with a message."""
    from finsearch.background.queued_report import LOST, QueuedReport

    env = job_env(tmp_path, redis_server.url, replay_delay_ms=700)
    settings = from_env(env)
    jobs, store = open_jobs(settings), open_store(settings)
    assert jobs.given_up("no-such-job") and not jobs.args_of("no-such-job")
    report = QueuedReport(QUESTION, jobs, store, "owner-l", "rep-lost-twice", editable=False, now=NOW,
                          silent_s=1.0).start()
    assert not jobs.given_up("rep-lost-twice") and report.view().status == "queued"
    workers = []
    try:
        for attempt in (1, 2):
            workers.append(finsearch(["worker", "--name", f"w{attempt}", *QUICK], env, tmp_path / f"w{attempt}.log"))
            wait_until(lambda attempt=attempt: [line.line.get("attempt") for line in jobs.read("rep-lost-twice")
                                                if line.line.get("type") == "JobStarted"][-1:] == [attempt],
                       60, f"try {attempt} started")
            kill_all(workers[-1])
        workers.append(finsearch(["worker", "--name", "w3", *QUICK], env, tmp_path / "w3.log"))   # its upkeep
        assert report.join(90), "the follower never ended"
    finally:
        for worker in workers:
            stop(worker)
        jobs.close()
    view = report.view()
    assert view.status == "failed" and view.error == LOST and report.outcome() == {"type": "Error", "error": LOST}
    assert store.load("rep-lost-twice", "report") is None


def test_in_process_jobs_run_side_by_side_so_a_report_holds_up_no_other_work(demo_settings):
    """Two visitors' reports on one machine without Redis: the second starts while the first is still being
    written (each job has a thread of its own, as each report had before reports were jobs)."""
    jobs = open_jobs(demo_settings.replace(replay_delay_s=0.3))       # a report takes seconds
    try:
        for job_id in ("rep-side-a", "rep-side-b"):
            assert jobs.enqueue("report", job_id, report_args(QUESTION, "owner-" + job_id, job_id, NOW))
        wait_until(lambda: "JobStarted" in _types(jobs.read("rep-side-b")), 60, "the second report started")
        assert "JobDone" not in _types(jobs.read("rep-side-a")), "the second waited for the first to end"
        wait_until(lambda: all("JobDone" in _types(jobs.read(j)) for j in ("rep-side-a", "rep-side-b")), 120,
                   "both reports written")
    finally:
        jobs.close()
