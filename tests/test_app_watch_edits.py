"""The Watchlist page's channels and alert rules, through AppTest: a webhook added (a generic one's secret shown
once, then never), refused when it points inside the network, tested through the real delivery code and
removed; e-mail offered only with a mail server, an address mailed nothing but its code until the code is typed
back; an alert rule added, refused on a bad number, and removed."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

from streamlit.testing.v1 import AppTest

from finsearch.watch.lists import FileWatchlists
from finsearch.watch.mine import default_id
from finsearch.watch.watchlist import Watchlist
from tests.app_kit import APP, text_of
from tests.delivery_kit import Mailbox, Receiver


def watchlist_page(env, language: str = "en") -> AppTest:
    """The page of a visitor who watches NVDA and 0700.HK (kept in the store as the Watch button keeps it)."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    owner = at.session_state["finsearch_visitor"].owner
    FileWatchlists(env / "data").save(Watchlist(default_id(owner), owner, "", ("NVDA", "0700.HK"), language=language,
                                                created_at=datetime(2024, 10, 15, tzinfo=timezone.utc)))
    at.switch_page("pages/watchlist.py").run()
    assert not at.exception
    return at


def stored(env, at: AppTest) -> dict:
    owner = at.session_state["finsearch_visitor"].owner
    return json.loads((env / "data" / "watchlists" / f"{default_id(owner)}.json").read_text())


def said(element) -> str:
    """An alert's text as read: `plain` keeps links from forming with invisible word joiners, and escapes *."""
    return element.value.replace("\u2060", "").replace("\\*", "*")


def page_text(at: AppTest) -> str:
    return text_of(at).replace("\\*", "*").replace("\u2060", "")


def button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


def add_hook(at: AppTest, kind: str, url: str) -> AppTest:
    at.selectbox(key="hook-kind").set_value(kind)
    at.text_input(key="hook-url").set_value(url)
    return button(at, "Add webhook").click().run()


def test_a_generic_webhooks_secret_is_shown_once_then_never_and_the_hook_is_removed(sample_app_env):
    at = add_hook(watchlist_page(sample_app_env), "generic", "https://hooks.example.com/finsearch")
    assert not at.exception
    assert at.success[0].value == "Added a Generic (signed JSON) webhook (hooks.example.com)."
    [hook] = stored(sample_app_env, at)["channels"]["webhooks"]
    assert hook["kind"] == "generic" and len(hook["secret"]) >= 40
    assert [c.value for c in at.code] == [hook["secret"]]
    assert "Copy it now: it is not shown again." in at.warning[0].value
    assert "X-FinSearch-Signature" in text_of(at) and "HMAC-SHA256" in text_of(at)
    assert "Generic (signed JSON) webhook · hooks.example.com" in text_of(at)
    assert at.text_input(key="hook-url").value == "", "the form forgets the URL"

    at.run()                                            # any next drawing: the secret is gone for good
    assert not at.exception and not at.code and hook["secret"] not in repr(at)
    key = "webhook-" + __import__("hashlib").sha256(b"https://hooks.example.com/finsearch").hexdigest()[:10]
    at.button(key=f"remove-{key}").click().run()
    assert not at.exception
    assert at.success[0].value == "Removed the webhook (hooks.example.com)."
    assert stored(sample_app_env, at)["channels"]["webhooks"] == []


def test_a_hook_inside_the_network_or_no_url_at_all_is_refused_in_the_visitors_language(sample_app_env):
    at = add_hook(watchlist_page(sample_app_env), "slack", "http://192.168.1.20/hook")
    assert not at.exception
    assert at.error[0].value == ("“192.168.1.20” is inside a private network: notices are not sent there. "
                                 "Use the webhook's public address.")
    zh = watchlist_page(sample_app_env, "zh")
    zh.selectbox(key="hook-kind").set_value("dingtalk")
    zh.text_input(key="hook-url").set_value("oapi.dingtalk.com/robot/send")
    zh = button(zh, "添加 Webhook").click().run()
    assert not zh.exception
    assert said(zh.error[0]).startswith("Webhook 的网址须以 https://（或 http://）开头")
    assert stored(sample_app_env, zh)["channels"]["webhooks"] == []


def test_a_test_notice_reaches_the_hook_through_the_real_delivery_code(sample_app_env, monkeypatch):
    monkeypatch.setenv("FINSEARCH_VISITOR_MODEL_SERVERS", "any")       # the operator's receiver on loopback
    with Receiver() as receiver:
        at = add_hook(watchlist_page(sample_app_env), "slack", receiver.url)
        assert not at.exception and not at.code, "a Slack hook has no secret to show"
        test = next(b for b in at.button if b.key and b.key.startswith("test-webhook-"))
        at = test.click().run()
        assert not at.exception
        assert at.success[0].value == "Test notice sent: Slack webhook · 127.0.0.1."
        [got] = receiver.requests
    assert json.loads(got.body)["text"] == "FinSearch test notice"


def test_email_is_offered_only_when_the_operator_has_a_mail_server(sample_app_env, monkeypatch):
    at = watchlist_page(sample_app_env)
    assert [i.value for i in at.info] == ["E-mail is not offered here: the operator of this app has not set up a "
                                          "mail server."]
    assert not any(t.key == "channel-email" for t in at.text_input)
    with Mailbox() as mailbox:
        mail_on_loopback(monkeypatch, mailbox)
        at.run()
        at.text_input(key="channel-email").set_value("jane@example.com; bob@example.com")
        at = button(at, "Save e-mail address").click().run()
        assert not at.exception
        assert said(at.error[0]).startswith("“jane@example.com; bob@example.com” is not one e-mail address")
        assert mailbox.messages == []


def mail_on_loopback(monkeypatch, mailbox: Mailbox) -> None:
    monkeypatch.setenv("FINSEARCH_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("FINSEARCH_SMTP_PORT", str(mailbox.port))
    monkeypatch.setenv("FINSEARCH_SMTP_SECURITY", "none")
    monkeypatch.setenv("FINSEARCH_SMTP_FROM", "finsearch@example.com")


def save_email(at: AppTest, address: str, label: str = "Save e-mail address") -> AppTest:
    at.text_input(key="channel-email").set_value(address)
    return button(at, label).click().run()


def type_code(at: AppTest, code: str) -> AppTest:
    at.text_input(key="channel-code").set_value(code)
    return button(at, "Confirm").click().run()


def code_in(message) -> str:
    return re.search(r"\d{6}", message["Subject"]).group(0)


def test_an_address_is_mailed_nothing_but_its_code_until_the_code_is_typed_back(sample_app_env, monkeypatch):
    with Mailbox() as mailbox:
        mail_on_loopback(monkeypatch, mailbox)
        at = save_email(watchlist_page(sample_app_env), "jane@example.com")
        assert not at.exception
        assert said(at.success[0]) == "Code sent to j***@example.com: type it below. Nothing else is mailed there " \
                                      "until you do."
        [message] = mailbox.messages
        code = code_in(message)
        assert message["To"] == "jane@example.com" and message["Subject"] == f"FinSearch confirmation code: {code}"
        check = stored(sample_app_env, at)["channels"]["email_check"]
        assert check["confirmed"] is False and code not in json.dumps(stored(sample_app_env, at))
        page = page_text(at)
        assert "waiting for confirmation: nothing is mailed there until its code is typed" in page
        assert "Code sent to j***@example.com — type it here." in page
        assert not any(b.key == "test-email" for b in at.button), "no test notice to an unconfirmed address"

        at = type_code(at, f"{(int(code) + 1) % 1_000_000:06d}")
        assert not at.exception and said(at.error[0]) == "That is not the code: 4 tries left."
        at = type_code(at, code)
        assert not at.exception
        assert said(at.success[0]) == "Confirmed: your notices are also e-mailed to jane@example.com."
        assert stored(sample_app_env, at)["channels"]["email_check"]["confirmed"] is True
        assert "E-mail: jane\u2060@example.com" in text_of(at) and "waiting for confirmation" not in text_of(at)
        at = at.button(key="test-email").click().run()
        assert not at.exception and said(at.success[0]) == "Test notice sent: E-mail: jane@example.com."
        assert [m["Subject"] for m in mailbox.messages[1:]] == ["FinSearch test notice"]

        at = save_email(at, "bob@example.com")                       # another address: confirmed again
        assert stored(sample_app_env, at)["channels"]["email_check"]["confirmed"] is False
        assert [m["To"] for m in mailbox.messages] == ["jane@example.com", "jane@example.com", "bob@example.com"]


def test_sending_codes_counts_against_the_visitors_question_limit(sample_app_env, monkeypatch):
    """Each code is mail to an address nobody confirmed: a script saving address after address meets the limits."""
    monkeypatch.setenv("FINSEARCH_QUESTION_LIMIT", "1")
    with Mailbox() as mailbox:
        mail_on_loopback(monkeypatch, mailbox)
        at = save_email(watchlist_page(sample_app_env, "zh"), "li@example.com", "保存电子邮件地址")
        assert not at.exception and said(at.success[0]).startswith("验证码已发送到 l***@example.com")
        assert "验证码已发送到 l***@example.com — 请在此输入。" in page_text(at)
        at = button(at, "发送新验证码").click().run()
        at = save_email(at, "stranger@example.com", "保存电子邮件地址")
        assert not at.exception
        assert [m["To"] for m in mailbox.messages] == ["li@example.com"]
        assert mailbox.messages[0]["Subject"].startswith("FinSearch 验证码：")
    assert stored(sample_app_env, at)["channels"]["email"] == "li@example.com", "the refused address is not saved"
    assert len(at.error) == 1, "the limit is said"


def test_an_alert_rule_is_added_for_one_instrument_refused_on_a_bad_number_and_removed(sample_app_env):
    at = watchlist_page(sample_app_env)
    assert "No alerts yet: add one below." in text_of(at)
    at.selectbox(key="rule-kind").set_value("from_price").run()
    at.selectbox(key="rule-instrument").set_value("NVDA")
    at.text_input(key="rule-pct").set_value("five")
    at.text_input(key="rule-price").set_value("120")
    at = at.button(key="rule-add").click().run()
    assert not at.exception
    assert at.error[0].value == "“five” is not a percentage: give a number above 0 and at most 1,000, such as 4 or 2.5."
    assert stored(sample_app_env, at)["alerts"] == []
    at.text_input(key="rule-pct").set_value("5")
    at = at.button(key="rule-add").click().run()
    assert not at.exception
    assert at.success[0].value == "Added the alert: NVDA: a move of 5% or more from 120."
    assert stored(sample_app_env, at)["alerts"] == [{"kind": "from_price", "pct": 5.0, "price": 120.0, "kinds": [],
                                                      "days": None, "instrument": "NVDA"}]
    assert "NVDA: a move of 5% or more from 120" in text_of(at)
    at = at.button(key="remove-rule-0").click().run()
    assert not at.exception
    assert at.success[0].value == "Removed the alert: NVDA: a move of 5% or more from 120."
    assert stored(sample_app_env, at)["alerts"] == []


def test_test_notices_count_against_the_visitors_question_limit(sample_app_env, monkeypatch):
    """A test sends at once to an address nobody confirmed: a script clicking it must meet the limits."""
    monkeypatch.setenv("FINSEARCH_VISITOR_MODEL_SERVERS", "any")
    monkeypatch.setenv("FINSEARCH_QUESTION_LIMIT", "1")
    with Receiver() as receiver:
        at = add_hook(watchlist_page(sample_app_env), "slack", receiver.url)
        for _ in range(2):
            test = next(b for b in at.button if b.key and b.key.startswith("test-webhook-"))
            at = test.click().run()
        assert not at.exception
        assert len(receiver.requests) == 1
    assert any("You have asked the most questions this server allows (1 in" in e.value for e in at.error)
