"""The background report the research page polls, on the report pack offline: the outline
waits for approval, an edited outline is the one researched, and Stop once a section is done
ends the report stopped early with that section kept whole."""

import time

import pytest

from finsearch.background.report import BackgroundReport
from finsearch.errors import InputError
from finsearch.export.report import html_document
from finsearch.research.outline_text import outline_text, parse_outline_text
from finsearch.store.run_files import FileRunStore
from finsearch.store.run_redis import RedisRunStore
from tests.redis_kit import free_port
from tests.test_research import NOW, NVIDIA, PACK

WAIT_S = 120


@pytest.fixture
def pack_settings(settings):
    return settings.replace(pack=PACK, offline=True, now=NOW, research_approve_s=0)


def wait(run: BackgroundReport, check, what: str):
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        view = run.view()
        if check(view):
            return view
        time.sleep(0.02)
    raise AssertionError(f"never happened: {what}; last seen {run.view()}")


def test_the_outline_waits_and_the_edited_one_is_researched(pack_settings):
    run = BackgroundReport(NVIDIA, pack_settings).start()
    drafted = wait(run, lambda v: v.status == "outline", "the outline").outline
    time.sleep(0.5)
    assert run.view().status == "outline" and run.view().approve_in_s is None, "0: it waits for the user"
    text = outline_text(drafted)
    assert text.startswith("## Business and segments\n- ") and text.count("## ") == 7
    edited = parse_outline_text("## Valuation\n- What is NVIDIA's P/E?\n## Analyst views\n* What do analysts expect?",
                                drafted)
    run.approve(edited)
    done = wait(run, lambda v: v.finished, "the report").report
    assert [s.section.title for s in done.sections] == ["Valuation", "Analyst views"]
    assert done.outline.edited and not done.cancelled
    assert "Stopped early" not in done.markdown


def test_stop_after_a_section_keeps_it_and_says_which_were_cut_short(pack_settings):
    # Every replayed call takes 3 s: the first section is done seconds before the others.
    run = BackgroundReport(NVIDIA, pack_settings.replace(replay_delay_s=3.0)).start()
    wait(run, lambda v: v.status == "outline", "the outline")
    run.approve()
    first = wait(run, lambda v: v.sections_done >= 1, "a section done")
    assert first.sections_done < 7 and first.status == "researching"
    run.stop()
    stopped_at = time.monotonic()
    view = wait(run, lambda v: v.finished, "the stopped report")
    assert time.monotonic() - stopped_at < 5
    report = view.report
    assert view.status == "stopped" and report.cancelled
    kept = [s for s in first.sections if s.status == "done"]
    verb = "was" if len(kept) == 1 else "were"
    assert f"Stopped early by the user: {len(kept)} of 7 sections {verb} researched in full." in report.markdown
    cut = report.markdown.split("These hold only what was found before the stop: ")[1].split("\n")[0]
    assert all(s.title not in cut for s in kept)
    assert len(report.sections) == 7 and "## References" in report.markdown
    assert f"<strong>Stopped early by the user: {len(kept)} of 7 sections" in html_document(report)


def test_stop_before_approval_ends_with_no_report(pack_settings):
    run = BackgroundReport(NVIDIA, pack_settings).start()
    wait(run, lambda v: v.status == "outline", "the outline")
    run.stop()
    view = wait(run, lambda v: v.finished, "the end")
    assert view.status == "stopped" and view.report is None


def test_an_outline_left_waiting_lets_its_slot_go(pack_settings):
    run = BackgroundReport(NVIDIA, pack_settings, outline_wait_s=1.0).start()
    wait(run, lambda v: v.status == "outline", "the outline")
    run.hold()                                   # an editor opened, and the page left
    view = wait(run, lambda v: v.finished, "the run let go")
    assert view.status == "stopped" and view.report is None and run.join(5)


@pytest.mark.parametrize("text, message", [
    ("", "has no sections"), ("What is NVIDIA's P/E?\n## Valuation", "must start with a section heading"),
    ("\n".join(f"## Part {i}" for i in range(9)), "an outline has at most 8 sections")])
def test_an_unusable_outline_text_says_what_to_fix(pack_settings, text, message):
    from finsearch.plan.analysis import analyse
    from finsearch.research.outline import rule_outline

    drafted = rule_outline(analyse(NVIDIA, NOW))
    with pytest.raises(InputError, match=message):
        parse_outline_text(text, drafted)
    assert parse_outline_text(outline_text(drafted), drafted) is drafted, "an unchanged text is the draft itself"


def test_the_models_outline_is_drafted_once_and_researched_as_approved(llm_settings, fake_llm):
    import json

    from finsearch.model.loopback import Reply

    fake_llm.on("outline", Reply(content=json.dumps({"type": "company", "sections": [
        {"title": "Data-center demand", "key_questions": ["What were NVIDIA's latest revenue and net income?"]},
        {"title": "Valuation", "key_questions": ["What is NVIDIA's P/E ratio?"]}]})))
    settings = llm_settings.replace(pack=PACK, offline=True, now=NOW, research_approve_s=0)
    run = BackgroundReport(NVIDIA, settings).start()
    drafted = wait(run, lambda v: v.status == "outline", "the model's outline").outline
    assert drafted.by == "llm" and [s.title for s in drafted.sections] == ["Data-center demand", "Valuation"]
    run.approve()
    report = wait(run, lambda v: v.finished, "the report").report
    assert report.outline == drafted
    assert fake_llm.kinds().count("outline") == 1, "the approved outline is researched, not written again"


def one_section(run: BackgroundReport):
    drafted = wait(run, lambda v: v.status == "outline", "the outline").outline
    run.approve(parse_outline_text("## Valuation\n- What is NVIDIA's P/E?", drafted))
    return wait(run, lambda v: v.finished, "the report")


def test_a_finished_report_is_stored_before_it_is_done(pack_settings):
    store = FileRunStore(pack_settings.data_dir)
    seen = []
    run = BackgroundReport(NVIDIA, pack_settings,
                           on_finish=lambda report: (store.save(report, owner="anon:alice"), seen.append(run.view())))
    view = one_section(run.start())
    assert view.status == "done" and view.save_error is None
    assert seen[0].status == "writing", "not done until it is saved"
    stored = store.load(view.report.report_id, "report")
    assert stored is not None and stored.markdown == view.report.markdown
    assert store.owner_of(view.report.report_id) == "anon:alice"


def test_a_report_the_store_cannot_keep_is_still_shown_and_says_why(pack_settings):
    store = RedisRunStore(f"redis://127.0.0.1:{free_port()}/0")     # nobody listens there
    run = BackgroundReport(NVIDIA, pack_settings, on_finish=lambda report: store.save(report, owner="anon:alice"))
    view = one_section(run.start())
    assert view.status == "done" and view.report is not None
    assert view.save_error.startswith("This report could not be saved on the server (the shared store at "
                                      "redis://127.0.0.1:")
    assert "is unreachable). It stays on this page, but it will be gone after a reload" in view.save_error
