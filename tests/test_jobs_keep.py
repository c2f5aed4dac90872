"""How long the queue keeps a finished job's record, per kind, in a real Redis with a real worker: an alert
check's (one per watchlist every quarter hour) an hour, a brief's and a report's for days — long enough
that a second scheduler offering the same slot is refused, never a week of alert checks."""

from __future__ import annotations

from finsearch.jobs.kinds import KINDS
from finsearch.jobs.rq_queue import RqJobs
from tests.jobs_kit import QUICK, finsearch, job_env, stop

HOUR, DAY = 3600, 24 * 3600


def test_an_alert_checks_record_goes_within_the_hour_a_briefs_and_a_reports_stay_for_days(tmp_path, redis_server):
    jobs = RqJobs(redis_server.url)
    check = "alerts-wgone-20241015T2000Z"
    brief = "brief-wgone-2024-10-15"
    report = "report-broken-args"
    assert jobs.enqueue("alerts", check, {"watchlist_id": "wgone", "owner": "key:k", "slot": "2024-10-15T20:00:00Z"})
    assert jobs.enqueue("brief", brief, {"watchlist_id": "wgone", "owner": "key:k", "local_day": "2024-10-15"})
    assert jobs.enqueue("report", report, {})                  # fails (no question), and is tried once more
    worker = finsearch(["worker", "--burst", *QUICK], job_env(tmp_path, redis_server.url), tmp_path / "worker.log")
    try:
        assert worker.wait(90) == 0, (tmp_path / "worker.log").read_text()
    finally:
        stop(worker)
    redis = redis_server.client()
    kept = {job_id: redis.ttl(f"rq:job:{job_id}") for job_id in (check, brief, report)}
    assert HOUR - 120 < kept[check] <= HOUR                    # the watchlist was gone: done, kept an hour
    assert 8 * DAY - 120 < kept[brief] <= 8 * DAY              # a weekly slot is offered for a week
    assert 7 * DAY - 120 < kept[report] <= 7 * DAY             # failed: kept as long as a done one
    assert not jobs.enqueue("alerts", check, {"watchlist_id": "wgone", "owner": "key:k", "slot": "x"})  # while kept
    assert {kind.name: kind.keep_s for kind in KINDS.values()}["alerts"] == HOUR
    jobs.close()
    redis.close()
