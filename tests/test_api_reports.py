"""Reports and limits over the HTTP API: a report started (202 and its id), its progress followed as
Server-Sent Events to the report, opened by id while it runs and once written — by another server on
the same store too — and by nobody else; the app's question limits and runs at once answered 429
with Retry-After."""

from __future__ import annotations

import dataclasses
import time

from finsearch.hosting import api_keys
from finsearch.hosting.api_keys import FileApiKeyStore
from finsearch.hosting.identity import LOCAL
from finsearch.hosting.limits import SLOTS
from finsearch.store import open_store
from tests.api_kit import NOW, QUESTION, served_api, sse_lines

REQUEST = {"question": "Research report on NVDA", "now": NOW}


def test_a_report_is_started_followed_to_its_end_and_opened_by_its_id(demo_settings):
    settings = demo_settings.replace(replay_delay_s=0.3, api_keys_required=True)   # a few seconds: seen running
    keys = FileApiKeyStore(settings.data_dir)
    _, key = api_keys.create(keys)
    _, other_key = api_keys.create(keys)
    with served_api(settings) as api, api.client(key) as client:
        started = client.post("/v1/reports", json=REQUEST)
        assert started.status_code == 202
        report_id = started.json()["report_id"]
        assert started.json() == {"report_id": report_id, "status": "running"}
        assert started.headers["Location"] == f"/v1/reports/{report_id}"
        running = client.get(f"/v1/reports/{report_id}").json()
        assert running["status"] == "running" and running["report"] is None
        with api.client(other_key) as other:
            assert other.get(f"/v1/reports/{report_id}").status_code == 404        # another's, even while it runs
            assert other.get(f"/v1/reports/{report_id}/events").status_code == 404
        with client.stream("GET", f"/v1/reports/{report_id}/events") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = list(sse_lines(stream))
        outline, *steps, report = lines
        assert outline["type"] == "OutlineReady" and len(outline["sections"]) >= 3
        total = len(outline["sections"])
        done = [s["index"] for s in steps if s["type"] == "SectionDone"]
        assert sorted(done) == list(range(1, total + 1)) and {s["total"] for s in steps} == {total}
        assert [s["done"] for s in steps] == sorted(s["done"] for s in steps) and steps[-1]["done"] == total
        assert report["report_id"] == report_id and report["markdown"].startswith("#") and report["references"]
        finished = client.get(f"/v1/reports/{report_id}").json()
        assert finished["status"] == "done" and finished["report"]["markdown"] == report["markdown"]
        with client.stream("GET", f"/v1/reports/{report_id}/events") as again:       # ended: told again, in full
            assert list(sse_lines(again)) == lines
        assert client.get(f"/v1/runs/{report_id}").status_code == 404                 # a report is not a run
    store = open_store(settings)                 # a report whose job is forgotten (a record past its keep)
    kept = dataclasses.replace(store.load(report_id, "report"), report_id="kept" + report_id[:8])
    store.save(kept, owner=store.owner_of(report_id))
    with served_api(settings) as replica, replica.client(key) as client:               # another server, same store
        opened = client.get(f"/v1/reports/{report_id}").json()
        with client.stream("GET", f"/v1/reports/{report_id}/events") as followed:       # its job's lines, in full
            assert list(sse_lines(followed)) == lines
        with client.stream("GET", f"/v1/reports/{kept.report_id}/events") as stored:    # no job: the report alone
            assert [line["report_id"] for line in sse_lines(stored)] == [kept.report_id]
    assert opened["status"] == "done" and opened["report"]["report_id"] == report_id
    assert opened["report"]["markdown"] == report["markdown"]


def test_the_question_limit_answers_429_with_when_to_ask_again(demo_settings):
    settings = demo_settings.replace(question_limit=1, question_window_s=3600)
    with served_api(settings) as api, api.client() as client:
        assert client.post("/v1/ask", json={"question": QUESTION, "now": NOW}).status_code == 200
        refused = client.post("/v1/ask", json={"question": QUESTION, "now": NOW})
        report = client.post("/v1/reports", json=REQUEST)
    for answer in (refused, report):
        assert answer.status_code == 429 and 0 < int(answer.headers["Retry-After"]) <= 3600
        assert answer.json()["error"].startswith("You have asked the most questions this server allows (1 in")


def _first_line_then_close(client) -> dict:
    with client.stream("POST", "/v1/ask", json={"question": QUESTION, "now": NOW},
                       headers={"Accept": "text/event-stream"}) as stream:
        assert stream.status_code == 200
        return next(sse_lines(stream))


def test_runs_at_once_are_capped_and_a_closed_stream_frees_its_slot(demo_settings):
    settings = demo_settings.replace(replay_delay_s=60.0, max_runs_per_visitor=1)
    with served_api(settings) as api, api.client() as client:
        with client.stream("POST", "/v1/ask", json={"question": QUESTION, "now": NOW},
                           headers={"Accept": "text/event-stream"}) as held:
            next(sse_lines(held))                          # the first run is under way
            busy = client.post("/v1/ask", json={"question": QUESTION, "now": NOW})
            assert busy.status_code == 429 and busy.headers["Retry-After"] == "5"
            assert busy.json()["error"].startswith("You already have 1 question being answered")
        deadline = time.monotonic() + 20                  # the stream closed: its run stops and frees the slot
        while SLOTS.counts(LOCAL)[0]:
            assert time.monotonic() < deadline, "the slot was never freed"
            time.sleep(0.05)
        assert _first_line_then_close(client)["type"] == "PlanReady"


def test_a_report_stopped_with_delete_ends_cancelled_and_a_written_one_is_left_alone(demo_settings):
    settings = demo_settings.replace(replay_delay_s=2.0)              # sections take seconds: stopped mid-way
    with served_api(settings) as api, api.client() as client:
        report_id = client.post("/v1/reports", json=REQUEST).json()["report_id"]
        with client.stream("GET", f"/v1/reports/{report_id}/events") as stream:
            lines = sse_lines(stream)
            assert next(lines)["type"] == "OutlineReady"
            assert next(lines)["type"] == "SectionStarted"            # research under way
            stopping = client.delete(f"/v1/reports/{report_id}")
            assert stopping.status_code == 202 and stopping.json()["status"] == "running"
            report = list(lines)[-1]
        assert report["report_id"] == report_id and report["cancelled"] is True
        assert client.get(f"/v1/reports/{report_id}").json()["report"]["cancelled"] is True   # stored so
        again = client.delete(f"/v1/reports/{report_id}")
        assert again.status_code == 409 and "already written" in again.json()["error"]
        assert client.delete("/v1/reports/nosuchreport1").status_code == 404
