"""E-mail to a real SMTP server on loopback (aiosmtpd): both parts arrive, hostile text is escaped,
the login's password is in no log line; a 4xx is retried, a 5xx is not, and STARTTLS asked for but
not offered means no login at all. And the inbox, in files and in a real Redis."""

from __future__ import annotations

import email
import logging
from email import policy

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from finsearch.delivery.attempts import deliver
from finsearch.delivery.claims import FileClaims
from finsearch.delivery.inbox import FileInbox, InboxChannel
from finsearch.delivery.inbox_redis import RedisInbox
from finsearch.delivery.smtp import EmailChannel
from finsearch.settings import MailServer, from_env
from tests.delivery_kit import notice
from tests.redis_kit import free_port

PASSWORD = "pa55-word-never-shown"


class Mailbox:
    def __init__(self, answers: list[str] | None = None):
        self.messages: list[bytes] = []
        self.answers = list(answers or [])
        self.logins: list[str] = []

    async def handle_DATA(self, server, session, envelope):
        if self.answers:
            return self.answers.pop(0)
        self.messages.append(envelope.content)
        return "250 OK"

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        self.logins.append(auth_data.login.decode())
        return AuthResult(success=auth_data.login == b"ops" and auth_data.password == PASSWORD.encode())


@pytest.fixture
def smtp_server():
    def start(mailbox: Mailbox) -> MailServer:
        controller = Controller(mailbox, hostname="127.0.0.1", port=free_port(), authenticator=mailbox.authenticate,
                                auth_require_tls=False)
        controller.start()
        started.append(controller)
        return MailServer("127.0.0.1", controller.port, "none", "finsearch@example.com", "ops", PASSWORD)

    started: list[Controller] = []
    yield start
    for controller in started:
        controller.stop()


def test_a_notice_arrives_with_a_text_part_and_an_escaped_html_part(smtp_server, tmp_path, caplog):
    mailbox = Mailbox()
    server = smtp_server(mailbox)
    caplog.set_level(logging.DEBUG, logger="finsearch")
    caplog.set_level(logging.WARNING, logger="mail.log")        # the server's own log (it logs AUTH lines)
    done = deliver(notice(), EmailChannel(server, "jane@example.com"), FileClaims(tmp_path))
    assert done.outcome == "sent" and mailbox.logins == ["ops"]
    [raw] = mailbox.messages
    message = email.message_from_bytes(raw, policy=policy.default)
    assert message["Subject"] == "NVDA moved −4.1% Bcc: victim@example.com"      # one line: no header added
    assert message["Bcc"] is None and message["To"] == "jane@example.com"
    text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert "NVDA fell **4.1%** today [1]." in text
    assert "References\n[1] NVDA <img src=x onerror=alert(1)> quote — Example Finance · 2024-10-15\n" \
           "    https://finance.example.com/q/NVDA\n[2] A story with a bad link — Somebody" in text
    html = message.get_body(("html",)).get_content()
    assert "<script" not in html and "javascript:" not in html and "<img" not in html
    assert "NVDA &lt;img src=x onerror=alert(1)&gt; quote" in html
    assert '<a href="https://finance.example.com/q/NVDA">' in html
    assert "<strong>4.1%</strong>" in html
    # the password is in no log line, no repr
    ours = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("finsearch"))
    assert PASSWORD not in ours and PASSWORD not in caplog.text
    assert PASSWORD not in repr(server) and PASSWORD not in repr(done)
    again = deliver(notice(), EmailChannel(server, "Jane@Example.com"), FileClaims(tmp_path))
    assert again.outcome == "already_sent" and len(mailbox.messages) == 1


def test_a_4xx_is_retried_and_a_5xx_is_not(smtp_server, tmp_path):
    mailbox = Mailbox(["451 4.3.0 try again later"])
    server = smtp_server(mailbox)
    waits: list[float] = []
    done = deliver(notice(), EmailChannel(server, "jane@example.com"), FileClaims(tmp_path), sleep=waits.append)
    assert (done.outcome, done.attempts, waits, len(mailbox.messages)) == ("sent", 2, [2.0], 1)
    refused = Mailbox(["554 5.7.1 rejected"])
    done = deliver(notice("brief-2"), EmailChannel(smtp_server(refused), "jane@example.com"), FileClaims(tmp_path),
                   sleep=waits.append)
    assert (done.outcome, done.attempts, done.reason) == ("failed", 1, "the mail server answered 554")


def test_starttls_asked_for_but_not_offered_sends_no_password(smtp_server, tmp_path):
    mailbox = Mailbox()
    server = smtp_server(mailbox)
    strict = MailServer(server.host, server.port, "starttls", server.sender, "ops", PASSWORD)
    done = deliver(notice(), EmailChannel(strict, "jane@example.com"), FileClaims(tmp_path), sleep=pytest.fail)
    assert done.outcome == "failed" and "STARTTLS" in done.reason
    assert mailbox.logins == [] and mailbox.messages == []


def test_a_server_that_is_down_is_retried_then_reported(tmp_path):
    down = MailServer("127.0.0.1", free_port(), "none", "finsearch@example.com")
    waits: list[float] = []
    done = deliver(notice(), EmailChannel(down, "jane@example.com", timeout_s=2), FileClaims(tmp_path),
                   sleep=waits.append)
    assert (done.outcome, done.attempts, waits) == ("failed", 4, [2.0, 8.0, 32.0])


def test_the_operator_settings_build_the_mail_server_and_hide_the_password():
    settings = from_env({"FINSEARCH_SMTP_HOST": "smtp.example.com", "FINSEARCH_SMTP_FROM": "alerts@example.com",
                         "FINSEARCH_SMTP_USER": "ops", "FINSEARCH_SMTP_PASSWORD": PASSWORD})
    assert settings.mail == MailServer("smtp.example.com", 587, "starttls", "alerts@example.com", "ops", PASSWORD)
    assert PASSWORD not in repr(settings)
    assert from_env({"FINSEARCH_SMTP_HOST": "h", "FINSEARCH_SMTP_FROM": "a@b.c",
                     "FINSEARCH_SMTP_SECURITY": "ssl"}).mail.port == 465


@pytest.fixture(params=["files", "redis"])
def inbox(request, tmp_path):
    if request.param == "files":
        return FileInbox(tmp_path)
    server = request.getfixturevalue("redis_server")
    return RedisInbox(server.url, client=server.client())


def test_the_inbox_keeps_one_item_per_event_newest_first_with_an_unread_count(inbox, tmp_path):
    channel = InboxChannel(inbox)
    for notice_id in ("brief-a", "alert-b", "brief-a"):
        assert deliver(notice(notice_id), channel, FileClaims(tmp_path)).outcome == "sent"
    assert deliver(notice("brief-c", owner="someone-else"), channel, FileClaims(tmp_path)).outcome == "sent"
    assert [i.notice.notice_id for i in inbox.items("visitor-1")] == ["alert-b", "brief-a"]
    assert inbox.unread("visitor-1") == 2
    assert inbox.mark_read("visitor-1", "brief-a") is True
    assert inbox.mark_read("visitor-1", "brief-c") is False          # another owner's
    assert inbox.unread("visitor-1") == 1
    opened = inbox.item("visitor-1", "brief-a")
    assert opened.read and opened.notice.markdown.startswith("NVDA fell **4.1%** today [1].")
    assert opened.notice.references[0].url == "https://finance.example.com/q/NVDA"
    assert inbox.item("visitor-1", "brief-c") is None
    assert [i.read for i in inbox.items("visitor-1")] == [False, True]
