"""The Deep research page through AppTest, on the report pack offline."""

from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT
from tests.test_research import NVIDIA, PACK


def test_the_page_writes_a_report_with_its_trust_summary_and_downloads(sample_app_env, monkeypatch):
    monkeypatch.setenv("FINSEARCH_PACK", str(PACK))
    monkeypatch.setenv("FINSEARCH_NOW", "2024-11-22T21:00:00Z")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/research.py")
    at.run()
    assert not at.exception
    at.text_input(key="research_question").input(NVIDIA)
    at.button(key="research_go").click()
    at.run()
    assert not at.exception, at.exception
    shown = "\n".join(m.value for m in at.markdown)
    assert "Trust summary." in shown and "## Executive summary" in shown
    assert "| Q3 FY2025 |" in shown
    assert at.status[0].label == "Report written"
    report = at.session_state["finsearch_research"]
    assert report.outline.question_type == "company" and len(report.sections) == 7
