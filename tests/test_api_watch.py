"""Watchlists and the inbox over real HTTP, per API key: a key's watchlist made by its first instrument, shown,
rescheduled and emptied; a bad ticker or schedule refused saying why; another key's watchlist and inbox not
found; "brief me now" queued as a job and arriving in the caller's inbox (the demo pack, no Redis: the job runs
on the API's own worker thread)."""

from __future__ import annotations

import pytest

from finsearch.hosting import api_keys
from finsearch.hosting.api_keys import FileApiKeyStore
from tests.api_kit import served_api
from tests.jobs_kit import wait_until


@pytest.fixture
def keyed(demo_settings):
    settings = demo_settings.replace(api_keys_required=True)
    store = FileApiKeyStore(settings.data_dir)
    (_, alice), (_, bob) = api_keys.create(store, "alice's bot"), api_keys.create(store, "bob's bot")
    with served_api(settings) as api, api.client(alice) as mine, api.client(bob) as theirs:
        yield mine, theirs


def test_a_keys_watchlist_is_made_shown_rescheduled_and_emptied_and_is_nobody_elses(keyed):
    alice, bob = keyed
    assert alice.get("/v1/watchlist").status_code == 404
    made = alice.put("/v1/watchlist/instruments/nvda")
    assert made.status_code == 201
    assert made.json()["instruments"] == ["NVDA"]
    assert made.json()["schedule"] == {"cadence": "daily", "at": "08:00", "timezone": "America/New_York",
                                       "weekday": None, "closed_days": False}
    assert alice.put("/v1/watchlist/instruments/茅台").json()["instruments"] == ["NVDA", "600519.SS"]
    assert alice.put("/v1/watchlist/instruments/NVDA").status_code == 200          # already watched: unchanged

    bad = alice.put("/v1/watchlist/instruments/hello world")
    assert bad.status_code == 400
    assert bad.json() == {"error": "“hello world” names no instrument to watch: give a ticker (NVDA, 0700.HK, "
                                   "600519) or a company's name."}
    assert bob.get("/v1/watchlist").status_code == 404
    assert bob.delete("/v1/watchlist/instruments/NVDA").status_code == 404
    assert bob.put("/v1/watchlist/schedule", json={"cadence": "daily", "at": "09:00", "timezone": "UTC"}) \
        .status_code == 404

    weekly = alice.put("/v1/watchlist/schedule", json={"cadence": "weekly", "at": "07:30", "timezone": "Asia/Shanghai",
                                                       "weekday": 0})
    assert weekly.status_code == 200
    assert weekly.json()["schedule"]["weekday"] == 0 and weekly.json()["next_brief_at"] == "2024-10-20T23:30:00Z"
    for body in ({"cadence": "weekly", "at": "07:30", "timezone": "Asia/Shanghai"},        # no weekday
                 {"cadence": "daily", "at": "25:00", "timezone": "UTC"}, {"cadence": "daily", "at": "08:00",
                                                                          "timezone": "Mars/Olympus"}, [1]):
        refused = alice.put("/v1/watchlist/schedule", json=body)
        assert refused.status_code == 400 and refused.json()["error"].startswith("the body is not a schedule")

    assert alice.delete("/v1/watchlist/instruments/600519").json()["instruments"] == ["NVDA"]
    assert alice.delete("/v1/watchlist/instruments/AAPL").json() == {"error": "AAPL is not on your watchlist"}
    assert alice.delete("/v1/watchlist/instruments/NVDA").status_code == 204            # the last: deleted
    assert alice.get("/v1/watchlist").status_code == 404


def test_a_brief_asked_for_now_arrives_in_the_callers_inbox_only(keyed):
    alice, bob = keyed
    assert alice.post("/v1/briefs").status_code == 404                                  # no watchlist yet
    alice.put("/v1/watchlist/instruments/NVDA")
    asked = alice.post("/v1/briefs")
    assert asked.status_code == 202 and asked.json()["job_id"].startswith("brief-w")
    inbox = wait_until(lambda: alice.get("/v1/inbox").json() if alice.get("/v1/inbox").json()["items"] else None,
                       60, "the brief in alice's inbox")
    [item] = inbox["items"]
    assert inbox["unread"] == 1 and item["read"] is False and item["kind"] == "brief"
    assert item["title"].startswith("Brief: NVDA") and "NVDA" in item["markdown"] and item["references"]
    assert bob.get("/v1/inbox").json() == {"unread": 0, "items": []}
    assert bob.post("/v1/briefs").status_code == 404
