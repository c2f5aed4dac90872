"""The watch's jobs: `brief` (a due slot's brief) and `alerts` (one check of a watchlist's rules) hand each
notice to one `deliver` job per channel of the watchlist; `deliver` sends one notice on one channel.

Ids name the work, so the same work is queued once: "brief-<watchlist>-<local day>" (WATCH's),
"alerts-<watchlist>-<UTC quarter hour>", "deliver-<notice id>-<channel key>". And a `deliver` job run twice
(retried after a lost worker, or queued again once its record expired) sends once: DELIVERY's claims are
per notice and destination. A job's arguments hold no secret: the webhook URL, its secret and the e-mail
address are read from the watchlist when the delivery runs (a channel removed since is not sent to).

A delivery tries once per run and, when the failure is worth another try, fails the job so its kind's
retries back off (`kinds.DELIVERY_RETRY_AFTER_S`): no worker sleeps between tries. A refusal is final.
"""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import datetime

from ..delivery.attempts import Backoff, Channel, deliver
from ..delivery.claims import open_claims
from ..delivery.inbox import InboxChannel, open_inbox
from ..delivery.notice import Notice
from ..delivery.smtp import EmailChannel
from ..delivery.webhook_formats import Webhook
from ..delivery.webhooks import WebhookChannel
from ..errors import DeliveryError
from ..evidence import parse_utc
from ..jobs.kinds import JOB_ID
from ..jobs.running import RunningJob
from ..settings import Settings
from .alerts import check_alerts
from .brief import run_due_brief
from .channel_edits import internal_hooks_allowed
from .lists import open_watchlists
from .schedule import DueBrief

# Nothing is mailed to an address its owner has not confirmed (`email_code`): the delivery ends here, not retried.
UNCONFIRMED = "the e-mail address is not confirmed yet: its owner has not typed the code mailed to it"
FORMATS = {"generic": "json", "slack": "slack", "feishu": "feishu", "dingtalk": "dingtalk"}   # DELIVERY's names
ONE_TRY = Backoff(attempts=1)


def brief_args(due: DueBrief) -> dict:
    watchlist_id, owner, local_day = due.args
    return {"watchlist_id": watchlist_id, "owner": owner, "local_day": local_day}


def alerts_job_id(watchlist_id: str, slot: datetime) -> str:
    return f"alerts-{watchlist_id}-{slot:%Y%m%dT%H%M}Z"


def deliver_job_id(notice_id: str, channel_key: str) -> str:
    """ "deliver-<notice id>-<channel key>", the notice id hashed when the whole would not be a job id."""
    job_id = f"deliver-{notice_id}-{channel_key}"
    if JOB_ID.match(job_id):
        return job_id
    return f"deliver-{hashlib.sha256(notice_id.encode()).hexdigest()[:32]}-{channel_key}"


def brief(job: RunningJob) -> None:
    """The brief of one due slot (args: `brief_args`), then its deliveries."""
    args = job.args
    watchlists = open_watchlists(job.settings)
    notice = run_due_brief(watchlists, args["watchlist_id"], args["owner"], args["local_day"], job.settings)
    watchlist = watchlists.get(args["watchlist_id"], args["owner"])
    if notice is None or watchlist is None:
        job.say({"type": "NoBrief", "watchlist_id": args["watchlist_id"]})       # deleted, or nothing traded
        return
    _hand_out(job, [notice], watchlist.watchlist_id, watchlist.channels.keys())


def alerts(job: RunningJob) -> None:
    """One check of a watchlist's alert rules at its slot (args: watchlist_id, owner, slot), then the
    deliveries of what fired. The check's clock is the slot's (or the settings' pinned one)."""
    args = job.args
    watchlist = open_watchlists(job.settings).get(args["watchlist_id"], args["owner"])
    if watchlist is None:
        job.say({"type": "NoWatchlist", "watchlist_id": args["watchlist_id"]})
        return
    notices = check_alerts(watchlist, job.settings, job.settings.now or parse_utc(args["slot"]))
    job.say({"type": "AlertsChecked", "fired": [n.notice_id for n in notices]})
    _hand_out(job, notices, watchlist.watchlist_id, watchlist.channels.keys())


def _hand_out(job: RunningJob, notices: list[Notice], watchlist_id: str, keys: tuple[str, ...]) -> None:
    if job.enqueue is None:
        raise RuntimeError("a watch job runs on a job queue (running.perform gives it one)")
    for notice in notices:
        for key in keys:
            job_id = deliver_job_id(notice.notice_id, key)
            queued = job.enqueue("deliver", job_id, {"notice": notice.to_json(), "watchlist_id": watchlist_id,
                                                     "channel": key})
            job.say({"type": "DeliveryQueued", "job_id": job_id, "queued": queued})


def deliver_notice(job: RunningJob) -> None:
    """One notice (args: notice JSON, watchlist_id, channel key) on one channel, once per event. A failure
    worth another try fails the job (its retries back off); a refusal, or a channel gone, ends it."""
    notice = Notice.from_json(job.args["notice"])
    channel, why_not = channel_for(job.settings, notice, job.args["watchlist_id"], job.args["channel"])
    if channel is None:
        job.say({"type": "NotDelivered", "notice_id": notice.notice_id, "reason": why_not})
        return
    watched = WatchedChannel(channel)
    done = deliver(notice, watched, open_claims(job.settings), backoff=ONE_TRY)
    job.say({"type": "Delivery"} | done.to_json())
    # attempts == 0: the claims' store could not be reached, so nothing was sent: worth another try too.
    if done.outcome == "failed" and (watched.transient or done.attempts == 0):
        raise DeliveryError(done.reason or "not delivered", transient=True)


def channel_for(settings: Settings, notice: Notice, watchlist_id: str, key: str) -> tuple[Channel | None, str]:
    """The channel `key` of the stored watchlist, built to send `notice`; (None, why not) when it is gone."""
    if key == "inbox":          # the owner's, even when the watchlist was deleted since
        return InboxChannel(open_inbox(settings)), ""
    watchlist = open_watchlists(settings).get(watchlist_id, notice.owner)
    if watchlist is None:
        return None, "the watchlist was deleted"
    if key == "email":
        if not watchlist.channels.email:
            return None, "the watchlist no longer has an e-mail address"
        if not watchlist.channels.email_confirmed:
            return None, UNCONFIRMED
        if settings.mail is None:
            return None, "no mail server is configured (FINSEARCH_SMTP_HOST)"
        return EmailChannel(settings.mail, watchlist.channels.email), ""
    for hook in watchlist.channels.webhooks:
        if hook.key == key:
            # Hooks inside the network are called only where visitors may name internal servers at all.
            return WebhookChannel(Webhook(hook.url, FORMATS[hook.kind], hook.secret, name=hook.kind),
                                  allow_internal=internal_hooks_allowed(settings)), ""
    return None, "the watchlist no longer has this webhook"


@dataclasses.dataclass
class WatchedChannel:
    """A channel whose last failure is remembered: was it worth another try?"""
    channel: Channel
    transient: bool = False

    @property
    def key(self) -> str:
        return self.channel.key

    @property
    def label(self) -> str:
        return self.channel.label

    @property
    def idempotent(self) -> bool:
        return self.channel.idempotent

    def send(self, notice: Notice) -> None:
        try:
            self.channel.send(notice)
        except DeliveryError as exc:
            self.transient = exc.transient
            raise
