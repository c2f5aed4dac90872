"""For the job tests: `python -m finsearch worker` and `scheduler` as real processes on the demo pack
(offline, time pinned, data and cache folders of their own), and a schedule source for the scheduler."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from finsearch.jobs.report_job import report_args
from finsearch.jobs.schedule import ScheduledJob
from finsearch.settings import ENV_NAMES
from tests.conftest import DEMO_PACK, ROOT

# Short enough that a lost job is retried within seconds (defaults: about a minute).
QUICK = ["--worker-ttl", "16", "--maintenance-interval", "1", "--job-monitoring-interval", "1",
         "--heartbeat-grace", "2"]
WEEKLY_ID = "report-weekly-nvda-2024w42"


def job_env(folder: Path, redis_url: str | None, replay_delay_ms: int = 0) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    env.update(FINSEARCH_PACK=str(DEMO_PACK), FINSEARCH_OFFLINE="1", FINSEARCH_NOW="2024-10-15T20:00:00Z",
               FINSEARCH_DATA_DIR=str(folder / "data"), FINSEARCH_CACHE_DIR=str(folder / "cache"),
               FINSEARCH_REPLAY_DELAY_MS=str(replay_delay_ms), PYTHONPATH=str(ROOT))
    if redis_url:
        env["FINSEARCH_REDIS_URL"] = redis_url
    return env


def finsearch(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """`python -m finsearch ARGS` in a session of its own (its log in `log`)."""
    with log.open("w") as out:            # the child has its own copy of the file
        return subprocess.Popen([sys.executable, "-m", "finsearch", *args], env=env, cwd=ROOT,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def kill_all(process: subprocess.Popen) -> None:
    """SIGKILL the process and every process under it (an RQ work horse is in a process group of its
    own), as a lost container would be."""
    pids = [process.pid]
    for pid in pids:
        found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        pids += [int(p) for p in found]
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait(10)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        kill_all(process)


def wait_until(predicate, timeout_s: float, what: str):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        found = predicate()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout_s} s: {what}")


def weekly_report(settings, until: datetime) -> list[ScheduledJob]:
    """A schedule source (`scheduler --source tests.jobs_kit.weekly_report`): one report, due a second ago."""
    due = datetime.now(timezone.utc) - timedelta(seconds=1)
    return [ScheduledJob(WEEKLY_ID, "report", report_args("Research report on NVDA", "owner-weekly", WEEKLY_ID,
                                                          "2024-10-15T20:00:00Z"), due)]
