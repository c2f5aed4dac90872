"""A finished deep-research report outlives its session, through AppTest on the report pack:
saved when it finishes (`?report=` set), shown again by a reload of that address, listed in
History with a "report" badge and deleted there after confirmation, shared read-only by a
link, and "not found" for any other visitor who has only its id. A store that cannot save
says so on the page, and the report stays shown."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from finsearch.settings import from_env
from finsearch.store import open_store
from tests.test_research import PACK
from tests.test_research_app import APP, ask, button, mine, rerun_until, shown

VISITOR_KEY = "finsearch_visitor"
REQUEST = "Analyse NVIDIA's recent performance and outlook"


@pytest.fixture
def env(sample_app_env, monkeypatch):
    monkeypatch.setenv("FINSEARCH_PACK", str(PACK))
    monkeypatch.setenv("FINSEARCH_NOW", "2024-11-22T21:00:00Z")
    monkeypatch.setenv("FINSEARCH_RESEARCH_APPROVE_S", "0")      # the outline waits for the test
    return sample_app_env


def page(visitor=None, path: str = "pages/research.py", **query) -> AppTest:
    """A new session (of `visitor`'s browser when given) on `path`, opened with `query`."""
    at = AppTest.from_file(APP, default_timeout=60)
    if visitor is not None:
        at.session_state[VISITOR_KEY] = visitor
    at.run()
    at.switch_page(path)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, at.exception
    return at


def written(at: AppTest) -> AppTest:
    ask(at)
    button(at, "-approve").click()
    rerun_until(at, lambda: mine(at).report is not None, "the report was written")
    return at


def store():
    return open_store(from_env())


def errors(at: AppTest) -> str:
    return "\n".join(e.value for e in at.error)


def test_a_saved_report_comes_back_on_reload_and_only_for_its_owner(env):
    alice = written(page())
    report = mine(alice).report
    assert alice.query_params["report"] == report.report_id, "the address now names the saved report"
    assert not alice.warning, [w.value for w in alice.warning]
    assert store().owner_of(report.report_id) == alice.session_state[VISITOR_KEY].owner

    reloaded = page(alice.session_state[VISITOR_KEY], report=report.report_id)
    text = shown(reloaded)
    assert re.search(r"Trust \d\.\d\d · ", text) and "## 2. Recent results" in text and "| Q3 FY2025 |" in text
    assert len([t for t in reloaded.toggle if t.label.startswith("Show this section's searches")]) == 7
    assert [b.label for b in reloaded.get("download_button")][:2] == ["Download Markdown", "Download HTML"]
    assert mine(reloaded).report.markdown == report.markdown

    stranger = page(report=report.report_id)
    assert "does not exist" in errors(stranger) and "Recent results" not in shown(stranger)

    button(reloaded, "-share").click().run()
    [code] = [c.value for c in reloaded.code if "?s=" in c.value]
    assert "research?s=" in code, "a report's link opens the research page"
    linked = page(s=code.rsplit("?s=", 1)[1])
    assert "Shared FinSearch report (read-only)" in "\n".join(c.value for c in linked.caption)
    assert "## 2. Recent results" in shown(linked)
    assert not [b for b in linked.button if (b.key or "").endswith("-share")], "nothing to re-share"
    # The same token with the chat's address (a link typed or edited by hand) opens the report too.
    on_chat = page(path="pages/chat.py", s=code.rsplit("?s=", 1)[1])
    assert "## 2. Recent results" in shown(on_chat) and "not found" not in shown(on_chat).lower()


def test_history_lists_the_report_and_deletes_it_after_confirmation(env):
    alice = written(page())
    report_id = mine(alice).report.report_id
    history = page(alice.session_state[VISITOR_KEY], path="pages/history.py")
    line = next(m.value for m in history.markdown if REQUEST in m.value)
    assert line.startswith(":violet-badge[:material/article: report]")
    assert not [b for b in page(path="pages/history.py").button if report_id in (b.key or "")], \
        "another visitor's History has no such line"
    history.button(key=f"delete-{report_id}").click().run()
    assert "Delete this report for good?" in history.warning[0].value
    assert store().load(report_id, "report") is not None, "the first click only asks"
    history.button(key=f"really-delete-{report_id}").click().run()
    assert not history.exception and store().load(report_id, "report") is None
    assert not [m for m in history.markdown if REQUEST in m.value]
    gone = page(alice.session_state[VISITOR_KEY], report=report_id)
    assert "does not exist" in errors(gone)


def test_a_report_that_cannot_be_saved_says_so_and_stays_shown(env, monkeypatch):
    blocked = env / "not-a-folder"
    blocked.write_text("a file where the data folder should be")
    monkeypatch.setenv("FINSEARCH_DATA_DIR", str(blocked))
    at = written(page())
    warning = "\n".join(w.value for w in at.warning)
    assert "This report could not be saved on the server" in warning and "gone after a reload" in warning
    assert "## 2. Recent results" in shown(at) and "report" not in at.query_params
    assert not [b for b in at.button if (b.key or "").endswith("-share")], "no share link for an unsaved report"

