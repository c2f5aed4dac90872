"""Confirming a watchlist's e-mail address (issue 34's hole: anyone could have the server mail any address): the
code typed right confirms; wrong, expired or past five wrong tries it does not; the stored record keeps a salted
hash, never the code; a new address starts over; the code is mailed, in the watchlist's language, through the
real SMTP delivery code to a server on loopback."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta, timezone

import pytest

from finsearch.errors import InputError
from finsearch.settings import MailServer
from finsearch.watch.channel_edits import with_email
from finsearch.watch.email_code import EmailCheck, check_code, masked
from finsearch.watch.email_confirm import mail_code, with_new_code, with_typed_code
from finsearch.watch.watchlist import Channels, Watchlist, new_watchlist, parse_watchlist
from tests.delivery_kit import Mailbox

T0 = datetime(2024, 10, 31, 21, 0, tzinfo=timezone.utc)
ALICE = "anon:" + "a" * 32


def waiting(address: str = "jane@example.com") -> tuple[Channels, str]:
    channels, code = with_new_code(Channels(address), T0)
    assert code is not None and len(code) == 6 and code.isdigit()
    return channels, code


def other_than(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def test_the_right_code_confirms_and_a_wrong_one_counts():
    channels, code = waiting()
    assert not channels.email_confirmed
    wrong, outcome = with_typed_code(channels, other_than(code), T0 + timedelta(minutes=1))
    assert outcome == "wrong" and wrong.email_check.wrong == 1 and not wrong.email_confirmed
    right, outcome = with_typed_code(wrong, f" {code[:3]} {code[3:]} ", T0 + timedelta(minutes=2))
    assert outcome == "confirmed" and right.email_confirmed and right.email == "jane@example.com"
    assert right.email_check == EmailCheck(confirmed=True), "nothing of the code is kept once it is typed"
    full_width = "".join(chr(0xFF10 + int(d)) for d in code)          # typed on a Chinese keyboard
    assert with_typed_code(channels, full_width, T0)[1] == "confirmed"


def test_an_expired_code_is_refused_even_when_right():
    channels, code = waiting()
    late, outcome = with_typed_code(channels, code, T0 + timedelta(minutes=30))
    assert outcome == "expired" and not late.email_confirmed
    again, new_code = with_new_code(late, T0 + timedelta(minutes=31))
    assert with_typed_code(again, new_code, T0 + timedelta(minutes=32))[1] == "confirmed"


def test_five_wrong_tries_use_the_code_up_and_a_new_code_is_needed():
    channels, code = waiting()
    outcomes = []
    for n in range(5):
        channels, outcome = with_typed_code(channels, other_than(code) if n % 2 else "abcdef", T0)
        outcomes.append(outcome)
    assert outcomes == ["wrong"] * 4 + ["too_many"]
    assert with_typed_code(channels, code, T0)[1] == "too_many", "the right code, too late"
    assert not channels.email_check.pending(T0)
    fresh, new_code = with_new_code(channels, T0)
    assert fresh.email_check.wrong == 0 and with_typed_code(fresh, new_code, T0)[1] == "confirmed"


def test_the_stored_record_keeps_a_salted_hash_never_the_code():
    channels, code = waiting()
    watchlist = new_watchlist(ALICE, ["NVDA"], channels=channels)
    stored = json.dumps(watchlist.to_json())
    assert code not in stored and code not in repr(watchlist)
    check = json.loads(stored)["channels"]["email_check"]
    assert len(check["code_hash"]) == 64 and len(check["salt"]) == 64 and check["confirmed"] is False
    again, same_code = waiting()
    assert again.email_check.salt != channels.email_check.salt           # salted: one code, two hashes
    read = parse_watchlist(stored)
    assert read == watchlist and with_typed_code(read.channels, code, T0)[1] == "confirmed"
    # Read back checked: a hand-made "confirmed" with a code still pending, or a damaged hash, is refused.
    for bad in ({"confirmed": True, "code_hash": check["code_hash"], "salt": check["salt"],
                 "expires_at": check["expires_at"]},
                check | {"code_hash": code}, check | {"wrong": 99}, "yes"):
        record = json.loads(stored)
        record["channels"]["email_check"] = bad
        assert parse_watchlist(json.dumps(record)) is None


def test_a_record_from_before_confirmation_reads_as_unconfirmed():
    record = new_watchlist(ALICE, ["NVDA"], channels=Channels("jane@example.com")).to_json()
    del record["channels"]["email_check"]
    read = Watchlist.from_json(record)
    assert read.channels.email == "jane@example.com" and not read.channels.email_confirmed
    assert check_code(read.channels.email_check, "123456", T0)[1] == "no_code"


def test_a_new_address_starts_over_and_the_same_one_keeps_its_confirmation(settings):
    with_mail = settings.replace(mail=MailServer("mail.example.com", 587, "starttls", "fs@example.com"))
    confirmed = Channels("jane@example.com", email_check=EmailCheck(confirmed=True))
    assert with_email(confirmed, " jane@example.com ", with_mail, "en").email_confirmed
    moved = with_email(confirmed, "bob@example.com", with_mail, "en")
    assert moved.email == "bob@example.com" and moved.email_check == EmailCheck()
    assert with_new_code(moved, T0)[1] is not None
    assert with_new_code(confirmed, T0) == (confirmed, None), "a confirmed address is mailed no code"
    cleared = with_email(confirmed, "", with_mail, "en")
    assert cleared.email is None and cleared.email_check == EmailCheck()
    with pytest.raises(InputError):
        with_email(confirmed, "bob@example.com", settings, "en")          # no mail server: refused
    assert masked("jane@example.com") == "j***@example.com"


def test_the_code_is_mailed_in_the_watchlists_language_through_the_real_smtp_code(settings):
    channels, code = waiting("li@example.com")
    watchlist = dataclasses.replace(new_watchlist(ALICE, ["600519"], language="zh"), channels=channels)
    with Mailbox() as mailbox:
        mail = settings.replace(mail=MailServer("127.0.0.1", mailbox.port, "none", "finsearch@example.com"))
        assert mail_code(watchlist, code, mail).outcome == "sent"
        [message] = mailbox.messages
    assert message["To"] == "li@example.com" and message["Subject"] == f"FinSearch 验证码：{code}"
    assert f"你的 FinSearch 验证码是 {code}" in message.get_body(("plain",)).get_content().replace("**", "")
    down = settings.replace(mail=MailServer("127.0.0.1", mailbox.port, "none", "finsearch@example.com"))
    assert mail_code(watchlist, code, down).outcome == "retry"            # the server is gone: try again later
    assert mail_code(watchlist, code, settings).outcome == "no_mail"
