"""Watching from an answer, the Watchlist page and the Inbox, through AppTest on the demo pack:
"Watch NVDA" under an answer, the schedule edited, "Brief me now" into the inbox, the sidebar's
unread count, a notice opened as an answer (and marked read), hostile notice text kept literal."""

import json
import re
import time
from datetime import datetime, timezone

from streamlit.testing.v1 import AppTest

from finsearch.answer.citations import Reference
from finsearch.delivery.inbox import FileInbox
from finsearch.delivery.notice import Notice
from finsearch.watch.mine import default_id
from tests.app_kit import APP, settle, text_of
from ui.shell import inbox_title


def asked(question: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.chat_input[0].set_value(question).run()
    return settle(at)


def owner_of(at: AppTest) -> str:
    return at.session_state["finsearch_visitor"].owner


def stored_watchlist(env, at: AppTest) -> dict:
    return json.loads((env / "data" / "watchlists" / f"{default_id(owner_of(at))}.json").read_text())


def watch_nvda(at: AppTest) -> AppTest:
    key = at.session_state["finsearch_chat"].turns[0].key
    button = at.button(key=f"{key}-watch-NVDA")
    assert button.label == "Watch NVDA" and not button.disabled
    return button.click().run()


def test_watch_nvda_under_an_answer_adds_it_and_then_says_watching(sample_app_env):
    at = watch_nvda(asked("Why did NVDA fall last week?"))
    assert not at.exception
    assert [t.value for t in at.toast] == ["Added NVDA to your watchlist: a brief every day at 08:00 "
                                           "(America/New_York). Change it on the Watchlist page."]
    key = at.session_state["finsearch_chat"].turns[0].key
    assert at.button(key=f"{key}-watch-NVDA").label == "Watching NVDA"
    assert at.button(key=f"{key}-watch-NVDA").disabled
    saved = stored_watchlist(sample_app_env, at)
    assert saved["instruments"] == ["NVDA"] and saved["owner"] == owner_of(at)
    assert saved["schedule"] == {"cadence": "daily", "at": "08:00", "timezone": "America/New_York",
                                 "weekday": None, "closed_days": False}


def test_the_watchlist_page_reschedules_briefs_now_into_the_inbox_and_the_notice_opens_as_an_answer(
        sample_app_env):
    at = watch_nvda(asked("Why did NVDA fall last week?"))
    owner = owner_of(at)
    assert inbox_title(owner) == "Inbox"
    at.switch_page("pages/watchlist.py").run()
    assert not at.exception
    assert "**NVDA**" in text_of(at)
    at.radio[0].set_value("weekly")
    at.selectbox[0].set_value(4)                      # Friday
    at.time_input[0].set_value(datetime(2024, 1, 1, 7, 30).time())
    at.selectbox[1].set_value("Asia/Shanghai")
    at = next(b for b in at.button if b.label == "Save schedule").click().run()
    assert not at.exception
    assert stored_watchlist(sample_app_env, at)["schedule"] == {
        "cadence": "weekly", "at": "07:30", "timezone": "Asia/Shanghai", "weekday": 4, "closed_days": False}
    assert "Now: every Friday at 07:30 (Asia/Shanghai)." in text_of(at)

    at.button(key="brief-now").click().run()
    deadline = time.monotonic() + 30                  # AppTest never fires the polling fragment: rerun
    while at.session_state["finsearch_brief_now"].view().status == "writing" and time.monotonic() < deadline:
        time.sleep(0.1)
    at.run()
    assert not at.exception
    assert at.success[0].value == "Your brief is in your Inbox: Brief: NVDA — 2024-10-15"
    assert inbox_title(owner) == "Inbox (1)"

    at.switch_page("pages/inbox.py").run()
    assert not at.exception
    assert "**Brief: NVDA — 2024-10-15**" in text_of(at) and "Unread" in text_of(at)
    opener = next(b for b in at.button if b.key and b.key.startswith("open-"))
    opener.click().run()
    assert not at.exception
    text = text_of(at)
    assert "## NVIDIA (NVDA)" in text and "fell 4.70% on 2024-10-11" in text
    assert "[\\[1\\]](" in text, "citations are links"
    assert any(e.label.startswith("References (") for e in at.expander)
    assert inbox_title(owner) == "Inbox", "opening it marked it read"


def test_removing_the_last_instrument_empties_the_watchlist(sample_app_env):
    at = watch_nvda(asked("Why did NVDA fall last week?"))
    at.switch_page("pages/watchlist.py").run()
    at.button(key="unwatch-NVDA").click().run()
    assert not at.exception
    assert [t.value for t in at.toast] == ["Removed NVDA from your watchlist."]
    assert at.info[0].value.startswith("You watch nothing yet.")
    assert not (sample_app_env / "data" / "watchlists" / f"{default_id(owner_of(at))}.json").exists()


def test_a_notices_hostile_title_and_references_are_shown_as_text(sample_app_env):
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    owner = owner_of(at)
    hostile = "<img src=x onerror=alert(1)> **bold** [click](javascript:alert(1))"
    reference = Reference(n=1, evidence_id="e1", title=hostile, url="javascript:alert(1)", publisher="<b>x</b>")
    FileInbox(sample_app_env / "data").put(Notice("alert-x-1", owner, "alert", hostile, "It moved [1].\n",
                                                  (reference,), "en", datetime(2024, 10, 15, tzinfo=timezone.utc)))
    assert inbox_title(owner) == "Inbox (1)"
    at.switch_page("pages/inbox.py").run()
    next(b for b in at.button if b.key and b.key.startswith("open-")).click().run()
    assert not at.exception
    text = text_of(at)
    assert "\\<img src=x onerror=alert(1)\\> \\*\\*bold\\*\\*" in text, "the title is literal text"
    assert not re.search(r"(?<!\\)<img|(?<!\\)\]\(javascript:", text), "no tag, no javascript link"
    assert "It moved [\\[1\\]](#" in text, "a citation without a web address leads to the references"
