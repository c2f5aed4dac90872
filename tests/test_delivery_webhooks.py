"""Webhooks against a real HTTP receiver on loopback: the generic payload's signature, the shapes
Slack, Feishu and DingTalk accept (with their signing), retries with backoff (no real sleeping),
no retry of a refusal, no redirect followed, and once per event however often it is delivered."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
from urllib.parse import parse_qs, urlsplit

import pytest

from finsearch.delivery.attempts import Backoff, deliver
from finsearch.delivery.claims import FileClaims, RedisClaims
from finsearch.delivery.webhook_formats import Webhook
from finsearch.delivery.webhooks import WebhookChannel
from tests.delivery_kit import Receiver, notice

NOW_S = 1_700_000_000.0


def channel(url: str, format: str = "json", secret: str | None = "s3cret") -> WebhookChannel:
    return WebhookChannel(Webhook(url, format, secret, name="desk"), allow_internal=True, clock=lambda: NOW_S)


def test_the_generic_payload_is_signed_over_the_timestamp_and_body(tmp_path):
    with Receiver() as receiver:
        done = deliver(notice(), channel(receiver.url), FileClaims(tmp_path), sleep=pytest.fail)
    assert done.outcome == "sent"
    [got] = receiver.requests
    assert got.headers["x-finsearch-event"] == "alert-NVDA-2024-10-15-move"
    assert got.headers["x-finsearch-timestamp"] == "1700000000"
    expected = hmac.new(b"s3cret", b"1700000000." + got.body, hashlib.sha256).hexdigest()
    assert got.headers["x-finsearch-signature"] == f"sha256={expected}"
    payload = json.loads(got.body)
    assert payload["type"] == "finsearch.notice" and payload["event_id"] == "alert-NVDA-2024-10-15-move"
    assert payload["notice"]["references"][0]["url"] == "https://finance.example.com/q/NVDA"


def test_slack_gets_text_and_blocks_with_nothing_retrieved_turned_into_a_link_or_a_mention(tmp_path):
    with Receiver() as receiver:
        assert deliver(notice(), channel(receiver.url, "slack", None), FileClaims(tmp_path)).outcome == "sent"
    message = json.loads(receiver.requests[0].body)
    assert message["text"] == "NVDA moved −4.1% Bcc: victim@example.com"
    assert message["blocks"][0] == {"type": "header", "text": {"type": "plain_text",
                                                               "text": "NVDA moved −4.1% Bcc: victim@example.com"}}
    body = message["blocks"][1]["text"]
    assert body["type"] == "mrkdwn"
    assert "*4.1%*" in body["text"] and "&lt;!channel&gt;" in body["text"] and "<!channel>" not in body["text"]
    assert "&lt;script&gt;" in body["text"] and "&amp; more" in body["text"]
    refs = message["blocks"][2]["text"]["text"]
    assert "[1] <https://finance.example.com/q/NVDA|NVDA &lt;img src=x onerror=alert(1)&gt; quote>" in refs
    assert "[2] A story with a bad link" in refs and "javascript" not in refs


def test_feishu_gets_a_signed_post(tmp_path):
    with Receiver([(200, b'{"code":0,"msg":"success"}', {})]) as receiver:
        done = deliver(notice(language="zh"), channel(receiver.url, "feishu", "fs-secret"), FileClaims(tmp_path))
    assert done.outcome == "sent"
    message = json.loads(receiver.requests[0].body)
    expected = base64.b64encode(hmac.new(b"1700000000\nfs-secret", b"", hashlib.sha256).digest()).decode()
    assert message["timestamp"] == "1700000000" and message["sign"] == expected
    assert message["msg_type"] == "post"
    post = message["content"]["post"]["zh_cn"]
    assert post["title"] == "NVDA moved −4.1% Bcc: victim@example.com"
    assert ["参考资料"] == [e["text"] for e in post["content"][-3]]
    assert post["content"][-2] == [{"tag": "a", "text": "[1] NVDA <img src=x onerror=alert(1)> quote",
                                    "href": "https://finance.example.com/q/NVDA"}]
    assert post["content"][-1] == [{"tag": "text", "text": "[2] A story with a bad link"}]


def test_feishu_saying_no_in_a_200_is_a_failure_not_retried(tmp_path):
    waits: list[float] = []
    with Receiver([(200, b'{"code":19021,"msg":"sign match fail or timestamp is not within one hour"}', {})]) as r:
        done = deliver(notice(), channel(r.url, "feishu", "wrong"), FileClaims(tmp_path), sleep=waits.append)
    assert (done.outcome, done.attempts, waits, len(r.requests)) == ("failed", 1, [], 1)
    assert "19021" in done.reason


def test_dingtalk_gets_signed_markdown(tmp_path):
    with Receiver([(200, b'{"errcode":0,"errmsg":"ok"}', {})]) as receiver:
        url = receiver.url + "?access_token=tok"
        assert deliver(notice(), channel(url, "dingtalk", "SECabc"), FileClaims(tmp_path)).outcome == "sent"
    got = receiver.requests[0]
    query = parse_qs(urlsplit(got.path).query)
    digest = hmac.new(b"SECabc", b"1700000000000\nSECabc", hashlib.sha256).digest()
    assert query == {"access_token": ["tok"], "timestamp": ["1700000000000"],
                     "sign": [base64.b64encode(digest).decode()]}
    message = json.loads(got.body)
    assert message["msgtype"] == "markdown"
    assert message["markdown"]["title"] == "NVDA moved −4.1% Bcc: victim@example.com"
    text = message["markdown"]["text"]
    assert "<script>" not in text and "javascript:" not in text
    assert "1. [NVDA \\<img src=x onerror=alert(1)\\> quote](https://finance.example.com/q/NVDA)" in text
    assert text.endswith("2. A story with a bad link")


def test_a_503_then_200_is_retried_after_the_backoff(tmp_path):
    waits: list[float] = []
    with Receiver([(503, b"busy", {}), (503, b"busy", {"Retry-After": "7"}), (200, b"ok", {})]) as receiver:
        done = deliver(notice(), channel(receiver.url), FileClaims(tmp_path), sleep=waits.append)
    assert (done.outcome, done.attempts) == ("sent", 3)
    assert waits == [2.0, 8.0]                   # 2 s, then max(8 s, Retry-After 7 s)
    assert len(receiver.requests) == 3
    # every attempt is the same event, freshly stamped
    assert {r.headers["x-finsearch-event"] for r in receiver.requests} == {"alert-NVDA-2024-10-15-move"}


def test_a_400_is_not_retried_and_the_claim_is_released_for_a_later_try(tmp_path):
    waits: list[float] = []
    claims = FileClaims(tmp_path)
    with Receiver([(400, b"invalid_payload", {}), (200, b"ok", {})]) as receiver:
        first = deliver(notice(), channel(receiver.url), claims, sleep=waits.append)
        assert (first.outcome, first.attempts, waits) == ("failed", 1, [])
        assert "HTTP 400" in first.reason
        again = deliver(notice(), channel(receiver.url), claims, sleep=waits.append)
    assert again.outcome == "sent" and len(receiver.requests) == 2


def test_retries_stop_after_the_last_attempt(tmp_path):
    waits: list[float] = []
    with Receiver([(500, b"", {})]) as receiver:
        done = deliver(notice(), channel(receiver.url), FileClaims(tmp_path), backoff=Backoff(attempts=3),
                       sleep=waits.append)
    assert (done.outcome, done.attempts, waits, len(receiver.requests)) == ("failed", 3, [2.0, 8.0], 3)


def test_a_refused_connection_is_retried(tmp_path):
    with Receiver() as receiver:
        url = receiver.url
    waits: list[float] = []                       # the receiver is gone: the port refuses
    done = deliver(notice(), channel(url), FileClaims(tmp_path), backoff=Backoff(attempts=2), sleep=waits.append)
    assert (done.outcome, done.attempts, waits) == ("failed", 2, [2.0])
    assert "could not be reached" in done.reason


def test_a_redirect_to_another_host_is_not_followed(tmp_path):
    with Receiver() as elsewhere, Receiver([(302, b"", {"Location": "http://localhost:1/steal"})]) as receiver:
        receiver.script = [(302, b"", {"Location": elsewhere.url})]
        done = deliver(notice(), channel(receiver.url), FileClaims(tmp_path), sleep=pytest.fail)
    assert done.outcome == "failed" and "redirect" in done.reason
    assert len(receiver.requests) == 1 and elsewhere.requests == []


def test_a_hook_inside_the_network_is_not_called_unless_allowed(tmp_path):
    with Receiver() as receiver:
        guarded = WebhookChannel(Webhook(receiver.url, "json", "s"))
        done = deliver(notice(), guarded, FileClaims(tmp_path), sleep=pytest.fail)
    assert done.outcome == "failed" and receiver.requests == []


def test_a_generic_hook_without_a_secret_is_refused_and_secrets_stay_out_of_reprs():
    from finsearch.errors import ConfigError

    with pytest.raises(ConfigError, match="needs a secret"):
        Webhook("https://example.com/hook", "json")
    shown = repr(WebhookChannel(Webhook("https://hooks.slack.com/services/T0/B0/XYZ", "slack", "shh")))
    assert "XYZ" not in shown and "shh" not in shown


@pytest.fixture(params=["files", "redis"])
def claims(request, tmp_path):
    if request.param == "files":
        return FileClaims(tmp_path)
    server = request.getfixturevalue("redis_server")
    return RedisClaims(server.url, client=server.client())


def test_the_same_notice_delivered_twice_is_sent_once(claims):
    with Receiver() as receiver:
        first = deliver(notice(), channel(receiver.url), claims)
        second = deliver(notice(), channel(receiver.url), claims)
        other_hook = deliver(notice(), channel(receiver.url + "?other"), claims)
    assert (first.outcome, second.outcome, other_hook.outcome) == ("sent", "already_sent", "sent")
    assert len(receiver.requests) == 2


def test_two_deliverers_at_once_send_once(claims):
    outcomes: list[str] = []
    with Receiver() as receiver:
        receiver.hold.clear()                      # the first send is held until the second has decided
        hook = channel(receiver.url)
        first = threading.Thread(target=lambda: outcomes.append(deliver(notice(), hook, claims).outcome))
        first.start()
        assert receiver.arrived.wait(10)
        outcomes.append(deliver(notice(), channel(receiver.url), claims).outcome)
        receiver.hold.set()
        first.join(10)
    assert sorted(outcomes) == ["in_flight", "sent"]
    assert len(receiver.requests) == 1


def test_a_claim_left_by_a_crash_is_not_taken_over_until_an_operator_releases_it(claims):
    taken = claims.take("alert-x", "webhook:http://127.0.0.1:9/hook")   # the deliverer dies here
    assert taken.state == "taken"
    assert claims.take("alert-x", "webhook:http://127.0.0.1:9/hook").state == "sending"
    assert claims.release("alert-x", "webhook:http://127.0.0.1:9/hook", "not-its-token") is False
    assert claims.release("alert-x", "webhook:http://127.0.0.1:9/hook") is True       # the operator
    assert claims.take("alert-x", "webhook:http://127.0.0.1:9/hook").state == "taken"
