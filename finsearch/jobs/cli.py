"""`python -m finsearch worker` (run jobs from Redis) and `python -m finsearch scheduler` (enqueue the
scheduled ones) — the edge. Bad input raises InputError (the main CLI prints it and exits 2)."""

from __future__ import annotations

import argparse

from ..errors import InputError
from ..settings import from_env as settings_from_env
from .schedule import SOURCES, run_scheduler, source_functions
from .worker import WorkerTuning, run_worker


def add_parser(sub) -> None:
    """Register the `worker` and `scheduler` subcommands on the main parser's subparsers."""
    tuned = WorkerTuning()
    worker = sub.add_parser("worker", help="run jobs (reports, briefs, deliveries) from Redis",
                            description="Run jobs from the Redis at FINSEARCH_REDIS_URL, with the server's settings. "
                                        "Run as many as you like, on any machine that reaches that Redis.")
    worker.add_argument("--name", help="the worker's name (default: RQ's, unique)")
    worker.add_argument("--burst", action="store_true", help="stop once the queues are empty")
    worker.add_argument("--worker-ttl", type=int, default=tuned.worker_ttl_s, metavar="S",
                        help=f"a worker not heard from for this long is gone (default {tuned.worker_ttl_s})")
    worker.add_argument("--maintenance-interval", type=int, default=tuned.maintenance_interval_s, metavar="S",
                        help=f"how often lost jobs are looked for (default {tuned.maintenance_interval_s})")
    worker.add_argument("--job-monitoring-interval", type=int, default=tuned.job_monitoring_interval_s,
                        metavar="S", help=f"a running job's heartbeat (default {tuned.job_monitoring_interval_s})")
    worker.add_argument("--heartbeat-grace", type=int, default=tuned.heartbeat_grace_s, metavar="S",
                        help="a job whose heartbeat is this late is lost and retried "
                             f"(default {tuned.heartbeat_grace_s})")
    scheduler = sub.add_parser("scheduler", help="enqueue scheduled jobs (briefs) when they are due",
                               description="Enqueue the scheduled jobs as their time comes. Any number may run: "
                                           "each job is enqueued once. Without FINSEARCH_REDIS_URL it also runs "
                                           "them, in its own process.")
    scheduler.add_argument("--every", type=float, default=30.0, metavar="S", help="look this often (default 30)")
    scheduler.add_argument("--ahead", type=float, default=60.0, metavar="S",
                           help="enqueue jobs due within this many seconds, to run at their time (default 60)")
    scheduler.add_argument("--rounds", type=int, help="stop after this many looks (default: never)")
    scheduler.add_argument("--source", action="append", default=[], metavar="MODULE.FUNCTION",
                           help="a function saying what is scheduled (default: the watchlists')")


def run(args: argparse.Namespace) -> int:
    settings = settings_from_env()
    if args.command == "worker":
        for flag in ("worker_ttl", "maintenance_interval", "job_monitoring_interval", "heartbeat_grace"):
            if getattr(args, flag) < 1:
                raise InputError(f"--{flag.replace('_', '-')} must be at least 1 second")
        if args.worker_ttl < 16:
            raise InputError("--worker-ttl must be at least 16 seconds (a worker waits worker-ttl - 15 for a job)")
        return run_worker(settings, WorkerTuning(args.worker_ttl, args.maintenance_interval,
                                                 args.job_monitoring_interval, args.heartbeat_grace),
                          name=args.name, burst=args.burst)
    if args.every <= 0 or args.ahead < 0:
        raise InputError("--every must be above 0 and --ahead at least 0")
    try:
        sources = source_functions(args.source or SOURCES)
    except (ImportError, AttributeError, ValueError):
        raise InputError("--source names a function as package.module.function, and it was not found") from None
    from . import open_jobs

    jobs = open_jobs(settings)
    try:
        return run_scheduler(jobs, settings, sources, args.every, args.ahead, rounds=args.rounds)
    finally:
        jobs.close()
