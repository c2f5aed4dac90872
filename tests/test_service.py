"""The service core the HTTP API and the MCP server share: a request read as the CLI's flags are,
and a run's events fed to a stream in order, ending in the `ask --json` object."""

import json

import pytest

from finsearch import pipeline
from finsearch.errors import InputError
from finsearch.hosting.identity import LOCAL, api_key_owner
from finsearch.research import run as research
from finsearch.service.feed import RunFeed
from finsearch.service.records import stored
from finsearch.service.report_feed import ReportFeed
from finsearch.service.request import AskRequest
from finsearch.store import open_store
from finsearch.terminal import json_text

NOW = "2024-10-15T20:00:00Z"


def test_a_request_reads_tickers_as_a_list_or_an_object_and_cleans_the_question():
    listed = AskRequest.from_json({"question": "  why did  SOL fall?\u200b ", "tickers": ["SOL=SOL-USD"]})
    mapped = AskRequest.from_json({"question": "why did SOL fall?", "tickers": {"SOL": "sol-usd"}})
    assert listed.question == "why did SOL fall?" and listed.corrections() == mapped.corrections()
    assert mapped.corrections().tickers[0].ticker == "SOL-USD"


@pytest.mark.parametrize("body, words", [
    ([], "JSON object"),
    ({}, '"question" must be a string'),
    ({"question": "   "}, "Please type a question"),
    ({"question": "x" * 5000}, "characters long"),
    ({"question": "q", "now": "yesterday"}, "not an ISO time"),
    ({"question": "q", "now": 5}, '"now" must be a string'),
    ({"question": "q", "period": "2024-10-01"}, '"period" \'2024-10-01\': write it as START:END'),
    ({"question": "q", "period": "2024-10-09:2024-10-01"}, "is after the end"),
    ({"question": "q", "tickers": "SOL"}, '"tickers" must be a list'),
    ({"question": "q", "tickers": ["SOL"]}, '"tickers" \'SOL\': write it as WORDS=TICKER'),
    ({"question": "q", "answer": "42"}, "unknown field 'answer'"),
])
def test_a_bad_request_is_refused_before_anything_runs_naming_the_field(body, words):
    with pytest.raises(InputError) as refused:
        AskRequest.from_json(body)
    assert words in str(refused.value)


def test_a_feed_streams_every_event_in_order_then_the_same_result_the_cli_prints(demo_settings):
    settings = demo_settings.replace(now=None)
    request = AskRequest.from_json({"question": "Why did NVDA fall last week?", "now": NOW})
    saved = []
    feed = RunFeed(request, settings, on_finish=saved.append).start()
    lines = list(feed.lines())
    types = [line["type"] for line in lines[:-1]]
    assert types[0] == "PlanReady" and types[-1] == "RunFinished" and "NodeFinished" in types
    assert [line["at_ms"] for line in lines[:-1]] == sorted(line["at_ms"] for line in lines[:-1])
    result = lines[-1]
    direct = pipeline.ask(request.question, settings=request.settings(settings)).to_dict(with_answer=True)
    assert result["answer"]["markdown"] == direct["answer"]["markdown"]
    assert [r["evidence_id"] for r in result["answer"]["references"]] == \
        [r["evidence_id"] for r in direct["answer"]["references"]]
    assert saved and saved[0].run_id == result["run_id"]
    json.loads(json_text(result))                  # one JSON object, as `ask --json` prints it


def test_a_stopped_feed_searches_nothing_more_and_ends_marked_cancelled(demo_settings):
    feed = RunFeed(AskRequest("Compare AAPL and MSFT year to date", NOW), demo_settings)
    feed.stop()                                    # before it starts: the run sees the stop at once
    lines = list(feed.start().lines())
    assert feed.run.join(5)
    assert not [line for line in lines[:-1] if line["type"] == "NodeFinished"]
    assert lines[-2]["type"] == "RunFinished" and lines[-1]["cancelled"] is True


@pytest.fixture
def local_jobs(demo_settings):
    """The in-process job queue a report feed's job runs on (as on a machine without Redis)."""
    from finsearch.jobs.local import LocalJobs

    jobs = LocalJobs(demo_settings)
    yield jobs
    jobs.close()


def test_a_report_feed_approves_the_outline_and_tells_each_section_then_the_report(demo_settings, local_jobs):
    store = open_store(demo_settings)
    feed = ReportFeed.asked(AskRequest("Research report on NVDA", NOW), local_jobs, store, "owner-feed").start()
    steps = list(feed.progress())
    outline = steps[0].line
    assert outline["type"] == "OutlineReady" and len(outline["sections"]) >= 3
    done = [s.line["index"] for s in steps if s.line["type"] == "SectionDone"]
    assert sorted(done) == list(range(1, len(outline["sections"]) + 1))
    assert [s.done for s in steps] == sorted(s.done for s in steps) and steps[-1].total == len(outline["sections"])
    report = feed.outcome()
    assert report["report_id"] == feed.report_id and report["cancelled"] is False
    assert [s.run_id for s in store.list(owner="owner-feed")] == [feed.report_id]
    assert report["markdown"].startswith("#") and report["references"]


def test_a_report_feed_stopped_before_its_research_ends_at_once_saying_so(demo_settings, local_jobs):
    feed = ReportFeed.asked(AskRequest("Research report on NVDA", NOW), local_jobs, open_store(demo_settings),
                            "owner-feed")
    feed.stop()
    steps = list(feed.start().progress())
    assert feed.report.join(5) and not [s for s in steps if s.line["type"] == "SectionStarted"]
    assert feed.outcome() == {"type": "Error", "error": "stopped before any research"}


def test_a_report_takes_no_ticker_or_period_corrections(demo_settings, local_jobs):
    with pytest.raises(InputError, match="a report takes"):
        ReportFeed.asked(AskRequest("Research report on NVDA", NOW, period="2024-10-01:2024-10-10"), local_jobs,
                         open_store(demo_settings), "owner-feed")


def test_a_stored_record_opens_for_its_owner_only_by_the_apps_rules(demo_settings):
    store = open_store(demo_settings)
    mine = pipeline.ask("Why did NVDA fall last week?", settings=demo_settings)
    old = pipeline.ask("How is AAPL doing?", settings=demo_settings)
    report = research.report("Research report on NVDA", settings=demo_settings)
    owner, other = api_key_owner("k1"), LOCAL
    store.save(mine, owner=owner)
    store.save(old)                                  # saved before there were identities
    store.save(report, owner=owner)
    assert stored(store, "run", mine.run_id, owner).run_id == mine.run_id
    assert stored(store, "run", mine.run_id, other) is None
    assert stored(store, "run", old.run_id, other).run_id == old.run_id
    assert stored(store, "report", report.report_id, owner).report_id == report.report_id
    assert stored(store, "report", report.report_id, other) is None
    assert stored(store, "run", report.report_id, owner) is None          # a report never opens as a run
    assert stored(store, "run", "../../etc/passwd", owner) is None
