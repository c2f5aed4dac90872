"""The watch wired end to end (issue 34): an alert fired by a replay pack's move (NVDA −4.70% on 2024-10-31)
goes through the job queue to each channel of its watchlist — the owner's inbox, e-mail to a real SMTP
server on loopback, a signed webhook to a receiver on loopback — in process (no Redis) and on a real Redis
with a real `python -m finsearch worker`; the same alert checked twice is delivered once per channel; the
scheduler's source gives a due brief's job once, and the brief reaches the inbox."""

from __future__ import annotations

import dataclasses
import email
import hashlib
import hmac
import json
from datetime import datetime, time, timedelta, timezone
from email import policy

import pytest
from aiosmtpd.controller import Controller

from finsearch.delivery.inbox import open_inbox
from finsearch.errors import DeliveryError
from finsearch.jobs import open_jobs
from finsearch.jobs.kinds import DELIVERY_RETRY_AFTER_S, KINDS
from finsearch.jobs.running import RunningJob
from finsearch.jobs.schedule import schedule_round
from finsearch.settings import MailServer, from_env
from finsearch.watch.email_code import EmailCheck, issue_code
from finsearch.watch.jobs import alerts_job_id, deliver_job_id, deliver_notice
from finsearch.watch.lists import open_watchlists
from finsearch.watch.scheduled import alert_slot, watch_jobs
from finsearch.watch.trial import send_trial
from finsearch.watch.watchlist import AlertRule, Channels, Schedule, Watchlist, WebhookTarget, new_watchlist
from tests.conftest import ROOT
from tests.delivery_kit import Receiver
from tests.jobs_kit import QUICK, finsearch, job_env, kill_all, stop, wait_until
from tests.redis_kit import free_port

PACK = ROOT / "tests" / "fixtures" / "report_pack"      # NVDA: -4.70% on 2024-10-31
ALICE = "anon:" + "a" * 32
SECRET = "hook-s3cret-never-shown"
SLOT = datetime(2024, 10, 31, 21, 0, tzinfo=timezone.utc)
MOVE = "alert-w0nvda0watch-move-NVDA-2024-10-31"


class Mailbox:
    def __init__(self):
        self.messages: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope.content)
        return "250 OK"


@pytest.fixture
def mailbox():
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    box.port = controller.port
    yield box
    controller.stop()


def watched(hook_url: str) -> Watchlist:
    return dataclasses.replace(new_watchlist(ALICE, ["NVDA"], alerts=(AlertRule("daily_move", pct=4.0),),
                                             channels=Channels("jane@example.com",
                                                               (WebhookTarget("generic", hook_url, SECRET),),
                                                               EmailCheck(confirmed=True))),
                               watchlist_id="w0nvda0watch")


def alert_args(slot: datetime) -> dict:
    return {"watchlist_id": "w0nvda0watch", "owner": ALICE, "slot": slot.strftime("%Y-%m-%dT%H:%M:%SZ")}


def finished(jobs, job_id: str):
    lines = jobs.read(job_id)
    return lines if lines and lines[-1].line["type"] in ("JobDone", "JobFailed") else None


def assert_delivered_once_on_each_channel(settings, mailbox: Mailbox, receiver: Receiver) -> None:
    inbox = open_inbox(settings)
    assert [i.notice.notice_id for i in inbox.items(ALICE)] == [MOVE] and inbox.unread(ALICE) == 1
    assert inbox.item(ALICE, MOVE).notice.markdown == "NVIDIA (NVDA) moved -4.70% on 2024-10-31. [1]\n"
    [raw] = mailbox.messages
    message = email.message_from_bytes(raw, policy=policy.default)
    assert message["To"] == "jane@example.com" and "NVDA" in message["Subject"]
    assert "moved -4.70% on 2024-10-31" in message.get_body(("plain",)).get_content()
    [hook] = receiver.requests
    stamp = hook.headers["x-finsearch-timestamp"]
    expected = hmac.new(SECRET.encode(), stamp.encode() + b"." + hook.body, hashlib.sha256).hexdigest()
    assert hook.headers["x-finsearch-signature"] == f"sha256={expected}"
    assert json.loads(hook.body)["event_id"] == MOVE


def test_an_alert_reaches_the_inbox_email_and_a_webhook_once_each_in_process(settings, mailbox):
    with Receiver() as receiver:
        settings = settings.replace(pack=PACK, offline=True, now=SLOT, visitor_model_servers="any",
                                    mail=MailServer("127.0.0.1", mailbox.port, "none", "finsearch@example.com"))
        open_watchlists(settings).save(watched(receiver.url))
        keys = ("inbox", "email", watched(receiver.url).channels.webhooks[0].key)
        jobs = open_jobs(settings)
        try:
            assert jobs.enqueue("alerts", alerts_job_id("w0nvda0watch", SLOT), alert_args(SLOT))
            assert jobs.enqueue("alerts", alerts_job_id("w0nvda0watch", SLOT), alert_args(SLOT)) is False
            for key in keys:
                lines = wait_until(lambda k=key: finished(jobs, deliver_job_id(MOVE, k)), 20, f"delivery to {key}")
                assert [line.line["type"] for line in lines][-2:] == ["Delivery", "JobDone"]
                assert lines[-2].line["outcome"] == "sent"
            # The next quarter's check fires the same move: its deliveries are the same jobs, not queued again.
            later = SLOT + timedelta(minutes=15)
            assert jobs.enqueue("alerts", alerts_job_id("w0nvda0watch", later), alert_args(later))
            lines = wait_until(lambda: finished(jobs, alerts_job_id("w0nvda0watch", later)), 20, "the second check")
            queued = [line.line for line in lines if line.line["type"] == "DeliveryQueued"]
            assert [q["queued"] for q in queued] == [False, False, False]
        finally:
            jobs.close()
        # A delivery job run again (its queue record gone) finds the event delivered: nothing is sent twice.
        for key in keys:
            said = []
            deliver_notice(RunningJob(deliver_job_id(MOVE, key), "deliver",
                                      {"notice": open_inbox(settings).item(ALICE, MOVE).notice.to_json(),
                                       "watchlist_id": "w0nvda0watch", "channel": key}, settings, 2, said.append))
            assert said[-1]["outcome"] == ("sent" if key == "inbox" else "already_sent")
        assert_delivered_once_on_each_channel(settings, mailbox, receiver)
        assert SECRET not in json.dumps([line.line for key in keys for line in jobs.read(deliver_job_id(MOVE, key))])


def test_an_unconfirmed_address_is_mailed_nothing_while_the_inbox_gets_the_alert(settings, mailbox):
    """Anyone may type any address: until its code is typed back, no alert, brief or test notice is mailed there."""
    settings = settings.replace(pack=PACK, offline=True, now=SLOT,
                                mail=MailServer("127.0.0.1", mailbox.port, "none", "finsearch@example.com"))
    waiting, _code = issue_code(SLOT)                  # a code mailed, never typed
    lists = open_watchlists(settings)
    lists.save(dataclasses.replace(watched("https://hooks.example.com/x"), channels=Channels("victim@example.com",
                                                                                            email_check=waiting)))
    jobs = open_jobs(settings)
    try:
        assert jobs.enqueue("alerts", alerts_job_id("w0nvda0watch", SLOT), alert_args(SLOT))
        lines = {key: wait_until(lambda k=key: finished(jobs, deliver_job_id(MOVE, k)), 20, f"delivery to {key}")
                 for key in ("inbox", "email")}
    finally:
        jobs.close()
    assert [i.notice.notice_id for i in open_inbox(settings).items(ALICE)] == [MOVE]
    assert [line.line for line in lines["email"]][-2:] == [
        {"type": "NotDelivered", "notice_id": MOVE,
         "reason": "the e-mail address is not confirmed yet: its owner has not typed the code mailed to it"},
        lines["email"][-1].line]
    assert lines["email"][-1].line["type"] == "JobDone", "skipped, not failed: no retries"
    trial = send_trial(lists.get("w0nvda0watch", ALICE), "email", settings)
    assert trial.outcome == "unconfirmed"
    # A record stored before confirmation existed (no "email_check"): its address reads as unconfirmed.
    old = lists.get("w0nvda0watch", ALICE).to_json()
    del old["channels"]["email_check"]
    (settings.data_dir / "watchlists" / "w0nvda0watch.json").write_text(json.dumps(old), "utf-8")
    assert lists.get("w0nvda0watch", ALICE).channels.email == "victim@example.com"
    assert send_trial(lists.get("w0nvda0watch", ALICE), "email", settings).outcome == "unconfirmed"
    assert mailbox.messages == []


def alert_env(folder, redis_url: str, mailbox: Mailbox, replay_delay_ms: int = 0) -> dict[str, str]:
    """A worker's environment for the alert on the report pack: its day, the loopback mail server, loopback hooks."""
    env = job_env(folder, redis_url, replay_delay_ms)
    env.update(FINSEARCH_PACK=str(PACK), FINSEARCH_NOW="2024-10-31T21:00:00Z", FINSEARCH_LLM="heuristic",
               FINSEARCH_SMTP_HOST="127.0.0.1", FINSEARCH_SMTP_PORT=str(mailbox.port),
               FINSEARCH_SMTP_SECURITY="none", FINSEARCH_SMTP_FROM="finsearch@example.com",
               FINSEARCH_VISITOR_MODEL_SERVERS="any")
    return env


def test_an_alert_reaches_each_channel_through_redis_and_a_worker_process(tmp_path, redis_server, mailbox):
    with Receiver() as receiver:
        env = alert_env(tmp_path, redis_server.url, mailbox)
        settings = from_env(env)
        open_watchlists(settings).save(watched(receiver.url))
        jobs = open_jobs(settings)
        try:
            later = SLOT + timedelta(minutes=15)
            assert jobs.enqueue("alerts", alerts_job_id("w0nvda0watch", SLOT), alert_args(SLOT))
            assert jobs.enqueue("alerts", alerts_job_id("w0nvda0watch", later), alert_args(later))     # fires it again
            worker = finsearch(["worker", "--burst", *QUICK], env, tmp_path / "worker.log")
            try:
                assert worker.wait(60) == 0, (tmp_path / "worker.log").read_text()
            finally:
                stop(worker)
            for key in ("inbox", "email", watched(receiver.url).channels.webhooks[0].key):
                lines = jobs.read(deliver_job_id(MOVE, key))
                assert [line.line["type"] for line in lines] == ["JobStarted", "Delivery", "JobDone"]
        finally:
            jobs.close()
        assert_delivered_once_on_each_channel(settings, mailbox, receiver)
        assert SECRET not in (tmp_path / "worker.log").read_text()


def test_a_worker_killed_mid_alert_check_leaves_it_to_another_and_each_channel_gets_it_once(
        tmp_path, redis_server, mailbox):
    with Receiver() as receiver:
        env = alert_env(tmp_path, redis_server.url, mailbox, replay_delay_ms=3000)   # the check's price call: seconds
        settings = from_env(env)
        open_watchlists(settings).save(watched(receiver.url))
        jobs = open_jobs(settings)
        check = alerts_job_id("w0nvda0watch", SLOT)
        keys = ("inbox", "email", watched(receiver.url).channels.webhooks[0].key)
        first = finsearch(["worker", "--name", "first", *QUICK], env, tmp_path / "first.log")
        second = None
        try:
            assert jobs.enqueue("alerts", check, alert_args(SLOT))
            wait_until(lambda: any(line.line["type"] == "JobStarted" for line in jobs.read(check)), 40, "the check")
            kill_all(first)                                    # lost in the middle of its price call
            assert not any(line.line["type"] == "JobDone" for line in jobs.read(check))
            second = finsearch(["worker", "--name", "second", *QUICK], env, tmp_path / "second.log")
            for key in keys:
                wait_until(lambda key=key: finished(jobs, deliver_job_id(MOVE, key)), 90, f"the {key} delivery")
            checked = wait_until(lambda: finished(jobs, check), 30, "the retried check")
        finally:
            stop(first)
            if second is not None:
                stop(second)
            jobs.close()
        assert [line.line["attempt"] for line in checked if line.line["type"] == "JobStarted"] == [1, 2]
        for key in keys:
            assert [line.line["type"] for line in jobs.read(deliver_job_id(MOVE, key))] == \
                ["JobStarted", "Delivery", "JobDone"]
        assert_delivered_once_on_each_channel(settings, mailbox, receiver)


def test_a_delivery_worth_another_try_fails_its_job_to_back_off_and_a_refusal_ends_it(settings):
    settings = settings.replace(visitor_model_servers="any")
    assert KINDS["deliver"].retry_after_s == DELIVERY_RETRY_AFTER_S
    assert KINDS["deliver"].retries == len(DELIVERY_RETRY_AFTER_S)
    notice = {"notice_id": MOVE, "owner": ALICE, "kind": "alert", "title": "NVDA moved", "markdown": "x",
              "references": [], "language": "en", "created_at": "2024-10-31T21:00:00Z"}
    with Receiver([(503, b"busy", {}), (400, b"no", {})]) as receiver:
        open_watchlists(settings).save(watched(receiver.url))
        hook_key = watched(receiver.url).channels.webhooks[0].key
        args = {"notice": notice, "watchlist_id": "w0nvda0watch", "channel": hook_key}
        said = []
        with pytest.raises(DeliveryError) as failed:
            deliver_notice(RunningJob("d1", "deliver", args, settings, 1, said.append))
        assert failed.value.transient and said[-1]["outcome"] == "failed" and len(receiver.requests) == 1
        deliver_notice(RunningJob("d1", "deliver", args, settings, 2, said.append))    # the retry: refused, final
        assert said[-1]["outcome"] == "failed" and "HTTP 400" in said[-1]["reason"] and len(receiver.requests) == 2
    # No mail server configured: said, not retried.
    said = []
    deliver_notice(RunningJob("d2", "deliver", args | {"channel": "email"}, settings, 1, said.append))
    assert said == [{"type": "NotDelivered", "notice_id": MOVE, "reason": "no mail server is configured "
                                                                        "(FINSEARCH_SMTP_HOST)"}]


def test_the_scheduler_source_gives_a_due_brief_once_and_the_brief_reaches_the_inbox(settings):
    settings = settings.replace(pack=PACK, offline=True, now=datetime(2024, 11, 22, 21, 0, tzinfo=timezone.utc))
    lists = open_watchlists(settings)
    daily = new_watchlist(ALICE, ["NVDA"], schedule=Schedule("daily", time(0, 0), "UTC", closed_days=True),
                          now=datetime(2024, 1, 1, tzinfo=timezone.utc))
    lists.save(daily)
    alerting = watched("https://hooks.example.com/x")
    lists.save(dataclasses.replace(alerting, schedule=Schedule("weekly", time(0, 0), "UTC", weekday=0),
                                   created_at=datetime.now(timezone.utc)))      # no brief due yet
    until = datetime.now(timezone.utc)
    today = until.date().isoformat()
    assert [(j.kind, j.job_id) for j in watch_jobs(settings, until)] == [
        ("brief", f"brief-{daily.watchlist_id}-{today}"),
        ("alerts", alerts_job_id("w0nvda0watch", alert_slot(until)))]
    jobs = open_jobs(settings)
    try:
        rounds = [schedule_round(jobs, settings, [watch_jobs], ahead_s=60) for _ in range(2)]
        assert sum(r.enqueued for r in rounds) == 2          # the brief and this quarter's alert check, once
        brief_id = f"brief-{daily.watchlist_id}-{today}"
        wait_until(lambda: finished(jobs, deliver_job_id(brief_id, "inbox")), 25, "the brief in the inbox")
        assert [line.line["type"] for line in jobs.read(brief_id)].count("JobStarted") == 1
    finally:
        jobs.close()
    inbox = open_inbox(settings)
    assert [i.notice.notice_id for i in inbox.items(ALICE)] == [brief_id] and inbox.unread(ALICE) == 1
    assert inbox.item(ALICE, brief_id).notice.markdown.startswith("## NVIDIA (NVDA)\n")
    assert lists.get(daily.watchlist_id, ALICE).last_brief_at is not None
    assert watch_jobs(settings, until)[0].kind == "alerts"           # briefed: not due again today


def test_channels_keep_their_secrets_and_old_watchlists_still_load(settings):
    hook = WebhookTarget("feishu", "https://open.feishu.cn/open-apis/bot/v2/hook/tok123", SECRET)
    watchlist = new_watchlist(ALICE, ["NVDA"], channels=Channels("jane@example.com", (hook,)))
    assert SECRET not in repr(watchlist) and "tok123" not in repr(watchlist) and "jane" not in repr(watchlist)
    assert watchlist.channels.shown()["webhooks"] == [{"kind": "feishu", "host": "open.feishu.cn",
                                                       "secret_set": True}]
    assert SECRET not in json.dumps(watchlist.channels.shown())
    lists = open_watchlists(settings)
    lists.save(watchlist)
    assert lists.get(watchlist.watchlist_id, ALICE).channels == watchlist.channels
    old = watchlist.to_json()
    del old["channels"]
    (settings.data_dir / "watchlists" / "wold0record.json").write_text(
        json.dumps(old | {"watchlist_id": "wold0record"}), "utf-8")
    assert lists.get("wold0record", ALICE).channels.keys() == ("inbox",)
    for bad in (lambda: WebhookTarget("generic", "https://x.example.com/h"),          # a generic hook signs
                lambda: WebhookTarget("teams", "https://x.example.com/h"),
                lambda: WebhookTarget("slack", "ftp://x.example.com/h"),
                lambda: Channels("not an address")):
        with pytest.raises(ValueError) as refused:
            bad()
        assert "x.example.com" not in str(refused.value)


def test_brief_me_now_says_it_waits_for_a_worker_until_one_takes_it_then_lands_in_the_inbox(tmp_path, redis_server):
    from finsearch.background.brief import QueuedBrief

    env = job_env(tmp_path, redis_server.url)
    env.update(FINSEARCH_PACK=str(PACK), FINSEARCH_NOW="2024-11-22T21:00:00Z", FINSEARCH_LLM="heuristic")
    settings = from_env(env)
    watchlist = new_watchlist(ALICE, ["NVDA"])
    open_watchlists(settings).save(watchlist)
    jobs = open_jobs(settings)
    try:
        brief = QueuedBrief(watchlist, jobs, open_inbox(settings)).start()
        assert brief.view() == dataclasses.replace(brief.view(), status="writing", queued=True)   # no worker yet
        worker = finsearch(["worker", "--burst", *QUICK], env, tmp_path / "worker.log")
        try:
            assert brief.join(60), (tmp_path / "worker.log").read_text()
        finally:
            stop(worker)
    finally:
        jobs.close()
    view = brief.view()
    assert view.status == "done" and not view.queued and view.notice.notice_id.startswith("brief-")
    assert [item.notice.notice_id for item in open_inbox(settings).items(ALICE)] == [view.notice.notice_id]
