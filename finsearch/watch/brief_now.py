"""A brief asked for now (the API's `POST /v1/briefs`) as a job: the same `brief.write_brief` the scheduled brief
runs, on the watchlist's instruments as they are when it runs, handed to one `deliver` job for its owner's inbox.

Its notice is named by the asking ("brief-<watchlist>-now<epoch s>-<day>"), so it is an inbox item of its own,
never the scheduled brief of the day, which keeps its id, still arrives and still covers the days since the last
scheduled one: a brief asked for now does not mark the watchlist briefed."""

from __future__ import annotations

from datetime import datetime

from ..jobs.running import RunningJob
from .brief import write_brief
from .jobs import deliver_job_id
from .lists import open_watchlists
from .watchlist import Watchlist


def asked_id(watchlist: Watchlist, asked_at: datetime) -> str:
    """ "brief-<watchlist>-now<epoch s>": the job's id, one per watchlist and second asked."""
    return f"brief-{watchlist.watchlist_id}-now{int(asked_at.timestamp())}"


def brief_now_args(watchlist: Watchlist) -> dict:
    return {"watchlist_id": watchlist.watchlist_id, "owner": watchlist.owner}


def brief_now(job: RunningJob) -> None:
    """Write the brief of the owner's watchlist (args: `brief_now_args`) and queue its delivery to their inbox."""
    watchlist = open_watchlists(job.settings).get(job.args["watchlist_id"], job.args["owner"])
    if watchlist is None:                              # deleted since it was asked for
        job.say({"type": "NoWatchlist", "watchlist_id": job.args["watchlist_id"]})
        return
    notice = write_brief(list(watchlist.instruments), job.settings, language=watchlist.language,
                         owner=watchlist.owner, watchlist_id=job.job_id.removeprefix("brief-"))
    if job.enqueue is None:
        raise RuntimeError("a watch job runs on a job queue (running.perform gives it one)")
    queued = job.enqueue("deliver", deliver_job_id(notice.notice_id, "inbox"),
                         {"notice": notice.to_json(), "watchlist_id": watchlist.watchlist_id, "channel": "inbox"})
    job.say({"type": "DeliveryQueued", "notice_id": notice.notice_id, "queued": queued})
