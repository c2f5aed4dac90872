"""Reports as jobs, followed from another place (issue 34): an editable report waits at its outline and is
researched as edited; a held outline is not researched on its own; Stop while queued, before research and
mid-research; a report the store cannot keep is still shown; a report job followed by its id only by its
owner; what the follower shows is what the report showed; a visitor's settings carried to the job, never a
secret. In process on the demo pack (`LocalJobs`), and on a real Redis with a real `python -m finsearch worker`."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from finsearch.background.queued_report import QueuedReport
from finsearch.background.report import BackgroundReport, ReportView, SectionState
from finsearch.background.report_lines import STOPPED_EARLY, ReportPicture, ReportTeller
from finsearch.jobs.local import LocalJobs
from finsearch.jobs.report_job import report_args
from finsearch.jobs.rq_queue import RqJobs
from finsearch.jobs.settings_args import settings_args, with_settings_args
from finsearch.research.outline import Outline, Section
from finsearch.research.outline_text import parse_outline_text
from finsearch.service.report_feed import ReportFeed
from finsearch.service.request import AskRequest
from finsearch.settings import Settings, from_env
from finsearch.store import open_store
from tests.conftest import DEMO_PACK
from tests.jobs_kit import QUICK, finsearch, job_env, stop, wait_until

QUESTION = "Research report on NVDA"
NOW = "2024-10-15T20:00:00Z"
DRAFTED = ["Business and segments", "Recent results", "Valuation", "Analyst views", "Price action", "Risk factors",
           "Catalysts and outlook"]
EDITED = "## Valuation\n- What is NVIDIA's P/E?\n## Analyst views\n* What do analysts expect?"


def wait_for(report, check, what: str, timeout_s: float = 30.0) -> ReportView:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        view = report.view()
        if check(view):
            return view
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout_s} s: {what}; last seen {report.view()}")


def kinds(jobs, job_id: str) -> list[str]:
    return [line.line.get("type", "Report") for line in jobs.read(job_id)]


@pytest.fixture
def local_jobs(demo_settings):
    """In-process queues on the demo pack, each with settings of its own; all closed after the test."""
    opened: list[LocalJobs] = []

    def open_with(**changes) -> LocalJobs:
        opened.append(LocalJobs(demo_settings.replace(**changes)))
        return opened[-1]

    yield open_with
    for jobs in opened:
        jobs.close()


# -- in process ---------------------------------------------------------------------------------------------


def test_a_held_outline_is_not_researched_on_its_own_and_stopping_it_stores_nothing(local_jobs):
    jobs = local_jobs(research_approve_s=1.0)
    store = open_store(jobs.settings)
    report = QueuedReport(QUESTION, jobs, store, "owner-h", "rep-held-1", now=NOW).start()
    report.hold()                      # the editor opened: held before (or as) the outline is drafted
    view = wait_for(report, lambda v: v.status == "outline", "the outline")
    assert [s.title for s in view.outline.sections] == DRAFTED
    time.sleep(1.5)                    # past research_approve_s, counted from when the outline was drafted
    view = report.view()
    assert (view.status, view.held, view.approved, view.approve_in_s) == ("outline", True, False, None)
    assert "SectionStarted" not in kinds(jobs, "rep-held-1")
    report.stop()
    assert report.join(10)
    view = report.view()
    assert view.status == "stopped" and view.report is None
    assert report.outcome() == {"type": "Error", "error": STOPPED_EARLY}
    assert store.load("rep-held-1", "report") is None and store.list(owner="owner-h") == []


def test_stop_mid_research_stores_the_cancelled_report_in_its_owners_history(local_jobs):
    jobs = local_jobs(replay_delay_s=1.0)           # the first searches take a second: stopped among them
    store = open_store(jobs.settings)
    report = QueuedReport(QUESTION, jobs, store, "owner-s", "rep-stop-mid", editable=False, now=NOW).start()
    wait_for(report, lambda v: any(s.status == "researching" for s in v.sections), "a section started")
    report.stop()
    stopped_at = time.monotonic()
    assert report.view().stopping
    assert report.join(20)
    view = report.view()
    assert view.status == "stopped" and view.report is not None and view.report.cancelled
    assert view.report.report_id == "rep-stop-mid" and view.save_error is None
    assert time.monotonic() - stopped_at < 5, "a stop is obeyed within the job's look, not after its searches"
    assert re.search(r"Stopped early by the user: [0-6] of 7 sections (was|were) researched in full",
                     view.report.markdown)
    stored = store.load("rep-stop-mid", "report")
    assert stored is not None and stored.cancelled and stored.markdown == view.report.markdown
    assert [(s.run_id, s.kind) for s in store.list(owner="owner-s")] == [("rep-stop-mid", "report")]
    assert report.outcome()["report_id"] == "rep-stop-mid"


def test_a_report_the_store_cannot_keep_is_shown_with_why_not_a_hang(local_jobs, tmp_path):
    jobs = local_jobs()
    (jobs.settings.data_dir).mkdir(parents=True, exist_ok=True)
    (jobs.settings.data_dir / "runs").write_text("a file where the runs folder should be")
    report = QueuedReport(QUESTION, jobs, open_store(jobs.settings), "owner-u", "rep-unsaved", editable=False,
                          now=NOW).start()
    assert report.join(30), "the follower ends with the first try's report"
    view = report.view()
    assert view.status == "done" and view.report is not None and view.report.report_id == "rep-unsaved"
    assert view.save_error.startswith("This report could not be saved on the server (")
    assert "it will be gone after a reload" in view.save_error
    assert [s.section.title for s in view.report.sections] == DRAFTED
    assert report.outcome()["save_error"] == view.save_error
    said = kinds(jobs, "rep-unsaved")
    assert said.index("Unsaved") < said.index("Report") < said.index("JobFailed"), "not saved: worth another try"
    # The second try cannot save it either, and is the last.
    wait_until(lambda: kinds(jobs, "rep-unsaved").count("JobFailed") == 2, 30, "the second try's end")
    assert kinds(jobs, "rep-unsaved").count("JobStarted") == 2
    # A follower that comes later (a page reloaded) is shown the first try's report, not a hang.
    again = QueuedReport.of_job("rep-unsaved", jobs, open_store(jobs.settings), "owner-u")
    assert again.join(5) and again.view().report.report_id == "rep-unsaved" and again.view().save_error


def test_of_job_follows_only_its_owners_report_and_args_of_answers_what_was_enqueued(local_jobs):
    jobs = local_jobs()
    store = open_store(jobs.settings)
    asked = QueuedReport(QUESTION, jobs, store, "owner-o", "rep-owned-1", editable=False, now=NOW,
                         settings_args={"time_weighting": False}).start()
    assert jobs.args_of("rep-owned-1") == {"question": QUESTION, "owner": "owner-o", "report_id": "rep-owned-1",
                                           "now": NOW, "editable": False, "settings": {"time_weighting": False}}
    assert jobs.args_of("rep-nobody-1") is None
    assert QueuedReport.of_job("rep-owned-1", jobs, store, "owner-other") is None
    assert QueuedReport.of_job("rep-nobody-1", jobs, store, "owner-o") is None
    assert ReportFeed.following("rep-owned-1", jobs, store, "owner-other") is None
    followed = QueuedReport.of_job("rep-owned-1", jobs, store, "owner-o")
    assert followed is not None and followed.question == QUESTION
    assert asked.join(30) and followed.join(5)
    assert followed.view().report.report_id == "rep-owned-1" == asked.view().report.report_id
    assert followed.view().sections == asked.view().sections


def test_the_followers_picture_is_what_the_report_showed(demo_settings, local_jobs):
    settings = demo_settings.replace(research_approve_s=0)
    # Looked at every 10 ms while its searches take 20 ms each: the teller sees sections and searches mid-way.
    here = BackgroundReport(QUESTION, settings.replace(replay_delay_s=0.02)).start()
    teller, picture, told = ReportTeller(), ReportPicture(QUESTION), []
    while True:
        ended = here.join(0.01)
        view = here.view()
        if view.status == "outline" and not view.approved:
            here.approve()
        for line in json.loads(json.dumps(teller.lines(view, here.section_graph))):   # as a follower gets them
            told.append(line)
            picture.fold(line)
        if ended:
            break
    shown = here.view()
    assert shown.status == "done" and [s.title for s in shown.sections] == DRAFTED
    pictured = picture.view(picture.state["status"], shown.elapsed_s, shown.report)
    assert pictured.sections == shown.sections and pictured.outline == shown.outline
    assert (pictured.status, pictured.approved, pictured.stopping) == ("done", True, False)
    for section in shown.sections:
        graph, drawn = here.section_graph(section.index), picture.graphs[section.index]
        assert [(n.id, n.status, n.sub_query) for n in drawn] == [(n.id, n.status, n.sub_query) for n in graph]
    assert any(line["type"] == "Node" and line["node"]["status"] != "done" for line in told), "seen mid-way"
    # The same report as a job: its follower shows the same sections and searches.
    jobs = local_jobs(research_approve_s=0)
    queued = QueuedReport(QUESTION, jobs, open_store(jobs.settings), "owner-p", "rep-picture", editable=False,
                          now=NOW).start()
    assert queued.join(30)
    followed = queued.view()
    assert followed.status == "done" and followed.sections == shown.sections
    for section in shown.sections:
        ours, theirs = queued.section_graph(section.index), here.section_graph(section.index)
        assert [(n.id, n.status) for n in ours] == [(n.id, n.status) for n in theirs]


def test_a_programs_feed_counts_sections_up_and_ends_with_the_report(local_jobs):
    jobs = local_jobs(replay_delay_s=0.01)
    store = open_store(jobs.settings)
    feed = ReportFeed.asked(AskRequest(QUESTION, NOW), jobs, store, "owner-f", "rep-feed-1").start()
    steps = list(feed.progress())
    assert steps[0].line["type"] == "OutlineReady" and steps[0].line["sections"] == DRAFTED
    assert {s.total for s in steps} == {7} and [s.done for s in steps] == sorted(s.done for s in steps)
    said = [(s.line["type"], s.line["index"]) for s in steps[1:]]
    assert sorted(said) == [(kind, i) for kind in ("SectionDone", "SectionStarted") for i in range(1, 8)]
    assert all(said.index(("SectionStarted", i)) < said.index(("SectionDone", i)) for i in range(1, 8))
    assert [s.done for s in steps if s.line["type"] == "SectionDone"] == [1, 2, 3, 4, 5, 6, 7]
    assert feed.ended() and feed.where() == (7, 7)
    assert feed.outcome()["report_id"] == "rep-feed-1" and store.load("rep-feed-1", "report") is not None


# -- the teller, look by look --------------------------------------------------------------------------------


def _view(outline: Outline, statuses: str, status: str = "researching") -> ReportView:
    steps = {"w": "waiting", "r": "researching", "d": "done"}
    sections = tuple(SectionState(i, s.title, steps[mark]) for i, (s, mark) in enumerate(
        zip(outline.sections, statuses, strict=True), start=1))
    return ReportView(QUESTION, status, outline, sections, None, None, False, False, True, None, 1.0)


def test_the_teller_says_a_section_started_before_done_and_done_never_goes_down():
    outline = Outline(QUESTION, "company", "en", tuple(Section(f"s{i}", f"Part {i}", (f"Q{i}?",)) for i in (1, 2, 3)),
                      "heuristic")
    teller, picture = ReportTeller(), ReportPicture(QUESTION)
    looks = [teller.lines(_view(outline, marks), lambda index: None) for marks in ("www", "drw", "ddd")]
    sections = [[(line["type"], line.get("index"), line.get("done")) for line in told if "total" in line]
                for told in looks]
    assert sections == [
        [("OutlineReady", None, 0)],
        [("SectionStarted", 1, 0), ("SectionDone", 1, 1), ("SectionStarted", 2, 1)],
        [("SectionDone", 2, 2), ("SectionStarted", 3, 2), ("SectionDone", 3, 3)]]
    assert teller.lines(_view(outline, "ddd"), lambda index: None) == [], "nothing changed: nothing said"
    for told in looks:
        for line in told:
            picture.fold(line)
    assert [s.status for s in picture.view("researching", 1.0, None).sections] == ["done", "done", "done"]


# -- a visitor's settings, carried -----------------------------------------------------------------------------


def test_every_carried_setting_goes_with_the_job_as_json_and_comes_back_the_same(tmp_path):
    server = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic")
    mine = server.replace(llm="openai", model="my-model", base_url="http://127.0.0.1:9/v1", deadline_s=90.0,
                          answer_due_s=33.5, window_hours=24.0, time_weighting=False, rewriter=False, judge=True,
                          research_approve_s=0.0, disabled_sources=frozenset({"yfinance", "sec"}), offline=True,
                          pack=DEMO_PACK, candle_colours="red_up", visitor_endpoint=True, visitor_key=True,
                          model_guard=True)
    carried = json.loads(json.dumps(settings_args(server, mine)))
    assert carried == {"llm": "openai", "model": "my-model", "base_url": "http://127.0.0.1:9/v1", "deadline_s": 90.0,
                       "answer_due_s": 33.5, "window_hours": 24.0, "time_weighting": False, "rewriter": False,
                       "judge": True, "research_approve_s": 0.0, "disabled_sources": ["sec", "yfinance"],
                       "offline": True, "pack": str(DEMO_PACK), "candle_colours": "red_up",
                       "visitor_endpoint": True, "visitor_key": True, "model_guard": True}
    back = with_settings_args(server, carried)
    assert back == mine
    assert isinstance(back.pack, Path) and back.disabled_sources == frozenset({"yfinance", "sec"})
    assert settings_args(server, server) == {}
    # A server with a pack, a visitor without: None goes and comes back as None.
    packed = server.replace(pack=DEMO_PACK)
    assert with_settings_args(packed, json.loads(json.dumps(settings_args(packed, server)))) == server
    assert with_settings_args(server, {"api_key": "sk-sneaked", "redis_url": "redis://evil"}) == server


@pytest.mark.parametrize("change", [{"api_key": "sk-visitor-own"}, {"sec_identity": "Ann Visitor ann@example.com"},
                                    {"node_timeout_s": 3.0}, {"max_workers": 2}])
def test_a_secret_or_a_change_no_job_carries_keeps_the_work_off_the_queue(tmp_path, change):
    server = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic")
    assert settings_args(server, server.replace(time_weighting=False, **change)) is None


def test_the_carried_fields_are_settings():
    from finsearch.jobs.settings_args import CARRIED

    names = {field for field in Settings.__dataclass_fields__}
    assert set(CARRIED) <= names and not {"api_key", "sec_identity", "redis_url", "mail"} & set(CARRIED)


# -- a real Redis and a real worker ----------------------------------------------------------------------------


def test_on_redis_a_report_stopped_while_queued_is_ended_by_the_worker_and_an_edited_one_researched(
        tmp_path, redis_server):
    env = job_env(tmp_path, redis_server.url)
    settings = from_env(env)
    jobs, store = RqJobs(redis_server.url), open_store(settings)
    try:
        waiting = QueuedReport(QUESTION, jobs, store, "owner-r", "rep-queued-stop", now=NOW).start()
        assert waiting.view().status == "queued"
        waiting.stop()
        view = waiting.view()                        # at once: no worker has it yet
        assert (view.status, view.stopping, view.report) == ("stopped", True, None)
        assert waiting.join(0) and waiting.outcome() == {"type": "Error", "error": STOPPED_EARLY}
        # An editable report that waits for its editor (its asker's settings say 0: no approval on its own).
        edited = QueuedReport(QUESTION, jobs, store, "owner-r", "rep-edited-1", now=NOW,
                              settings_args={"research_approve_s": 0.0}).start()
        assert jobs.args_of("rep-edited-1")["settings"] == {"research_approve_s": 0.0}
        assert jobs.args_of("rep-edited-1")["owner"] == "owner-r"
        assert jobs.args_of("rep-nobody-1") is None and jobs.args_of("../bad id") is None
        assert QueuedReport.of_job("rep-edited-1", jobs, store, "owner-other") is None
        worker = finsearch(["worker", *QUICK], env, tmp_path / "worker.log")
        try:
            drafted = wait_for(edited, lambda v: v.status == "outline", "the outline from the worker").outline
            assert [s.title for s in drafted.sections] == DRAFTED
            wait_until(lambda: kinds(jobs, "rep-queued-stop")[-1:] == ["JobDone"], 30, "the stopped job ended")
            time.sleep(0.6)                          # the editor reads: nothing is researched meanwhile
            assert edited.view().status == "outline" and edited.view().approve_in_s is None
            edited.approve(parse_outline_text(EDITED, drafted))
            assert edited.join(30)
        finally:
            stop(worker)
        said = kinds(jobs, "rep-queued-stop")
        assert "OutlineReady" not in said and said.count("JobStarted") == 1     # not even an outline drafted
        assert jobs.read("rep-queued-stop")[-2].line == {"type": "Error", "error": STOPPED_EARLY}
        assert store.load("rep-queued-stop", "report") is None
        later = QueuedReport.of_job("rep-queued-stop", jobs, store, "owner-r")
        assert later.join(5) and later.view().status == "stopped" and later.view().report is None
        view = edited.view()
        assert view.status == "done" and [s.title for s in view.sections] == ["Valuation", "Analyst views"]
        report = store.load("rep-edited-1", "report")
        assert [s.section.title for s in report.sections] == ["Valuation", "Analyst views"] and report.outline.edited
        assert [s.run_id for s in store.list(owner="owner-r")] == ["rep-edited-1"]
        assert report_args(QUESTION, "owner-r", "rep-edited-1", NOW)["editable"] is False, "a program's: as drafted"
    finally:
        jobs.close()


def test_an_outline_edited_through_the_job_keeps_what_drafting_it_cost(llm_settings, fake_llm):
    from finsearch.model.loopback import Reply

    fake_llm.on("outline", Reply(content=json.dumps({"type": "company", "sections": [
        {"title": "Data-center demand", "key_questions": ["What were NVIDIA's latest revenue and net income?"]},
        {"title": "Valuation", "key_questions": ["What is NVIDIA's P/E ratio?"]}]})))
    jobs = LocalJobs(llm_settings.replace(pack=DEMO_PACK, offline=True, research_approve_s=0))
    try:
        report = QueuedReport(QUESTION, jobs, open_store(jobs.settings), "owner-c", "rep-costed", now=NOW).start()
        drafted = wait_for(report, lambda v: v.status == "outline", "the model's outline").outline
        report.approve(parse_outline_text("## Valuation\n- What is NVIDIA's P/E ratio?", drafted))
        assert report.join(30)
    finally:
        jobs.close()
    written = report.view().report
    assert [s.section.title for s in written.sections] == ["Valuation"] and written.outline.edited
    assert fake_llm.kinds().count("outline") == 1
    assert [(s.stage, s.calls) for s in written.usage.by_stage if s.stage == "outline"] == [("outline", 1)]


def test_a_follower_that_stops_a_running_report_before_looking_is_shown_the_cancelled_report(local_jobs):
    # A page reloaded (or an API DELETE) follows the job afresh and may stop it before its first look:
    # the job is past its queue, so the stop is not one "before any research".
    jobs = local_jobs(replay_delay_s=1.0)
    store = open_store(jobs.settings)
    asked = QueuedReport(QUESTION, jobs, store, "owner-l", "rep-late-stop", editable=False, now=NOW).start()
    wait_for(asked, lambda v: any(s.status == "researching" for s in v.sections), "a section started")
    later = QueuedReport.of_job("rep-late-stop", jobs, store, "owner-l")
    later.stop()
    assert later.join(20)
    view = later.view()
    assert view.status == "stopped" and view.report is not None and view.report.cancelled
    assert later.outcome()["report_id"] == "rep-late-stop"
