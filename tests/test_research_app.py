"""The Deep research page through AppTest, on the report pack offline: the outline first
(approved, edited, approved on its own, or stopped), the report in the background, and the
report as shown (trust summary and audit, contents, sections, references, downloads).

AppTest never fires `run_every`, so these tests rerun the page until the state they wait for."""

import time

import pytest
from streamlit.testing.v1 import AppTest

from tests.app_kit import APP
from tests.test_research import NVIDIA, PACK
from ui.research.entry import request_of

WAIT_S = 120


@pytest.fixture
def env(sample_app_env, monkeypatch):
    monkeypatch.setenv("FINSEARCH_PACK", str(PACK))
    monkeypatch.setenv("FINSEARCH_NOW", "2024-11-22T21:00:00Z")
    monkeypatch.setenv("FINSEARCH_RESEARCH_APPROVE_S", "0")      # the outline waits for the test
    return sample_app_env


def research_page(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/research.py")
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, at.exception
    return at


def mine(at: AppTest):
    return at.session_state["finsearch_research"]


def rerun_until(at: AppTest, check, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        at.run()
        assert not at.exception, at.exception
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"never happened: {what}")


def outline_waits(at: AppTest) -> bool:
    run = mine(at).run
    return run is not None and run.view().status == "outline"


def outline_shown(at: AppTest) -> bool:
    """The outline waits and the page as last drawn shows it, with Approve. The run's state alone
    is not enough: the worker may finish the outline after the page drew "Writing the outline…"
    and before the state is read (3 runs in 20 of the first test failed so beside three CPU hogs)."""
    return outline_waits(at) and button(at, "-approve") is not None


def button(at: AppTest, suffix: str):
    return next((b for b in at.button if (b.key or "").endswith(suffix)), None)


def shown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def ask(at: AppTest, request: str = NVIDIA) -> None:
    at.text_input(key="research_question").input(request)
    at.button(key="research_go").click()
    at.run()
    rerun_until(at, lambda: outline_shown(at), "the outline was shown")


def test_the_outline_comes_first_and_the_approved_report_is_shown_whole(env):
    at = research_page()
    ask(at)
    page = shown(at)
    assert "1. **Business and segments**" in page and "6. **Risk factors**" in page
    assert "Did NVDA's results for its latest quarter beat analysts' estimates" in page
    assert "Approve the outline to start the research" in "\n".join(c.value for c in at.caption)
    button(at, "-approve").click()
    rerun_until(at, lambda: mine(at).report is not None, "the report was written")
    report, page = mine(at).report, shown(at)
    assert not report.cancelled and report.outline.by == "heuristic" and len(report.sections) == 7
    # One trust badge (its parts on hover) and the audit panel at the top, then the contents linking to every part.
    trust = [m for m in at.markdown if "-badge[" in m.value and "Trust " in m.value]
    assert len(trust) == 1 and f"Trust {report.audit.trust:.2f} · " in trust[0].value
    assert "Key-fact sentences that cite a source:" in trust[0].proto.help
    contents = next(m.value for m in at.markdown if m.value.startswith("**Contents**"))
    assert "- [Executive summary](#" in contents and "- [3. Valuation](#" in contents
    assert "- [References](#" in contents
    assert "## 2. Recent results" in page and "| Q3 FY2025 |" in page
    assert "References (" in "\n".join(e.label for e in at.expander)
    # Each section's searches on request: its graph and the evidence panel beside it.
    toggles = [t for t in at.toggle if t.label.startswith("Show this section's searches")]
    assert len(toggles) == 7
    toggles[1].set_value(True).run()
    assert "Click a node in the graph to see its sub-query" in "\n".join(c.value for c in at.caption)
    assert at.get("download_button")



def test_a_chinese_request_gets_its_report_and_contents_in_chinese(env):
    at = research_page()
    ask(at, "英伟达最近的表现和前景分析")
    assert "2. **近期业绩**" in shown(at)
    button(at, "-approve").click()
    rerun_until(at, lambda: mine(at).report is not None, "the report was written")
    contents = next(m.value for m in at.markdown if m.value.startswith("**Contents**"))
    assert "- [执行摘要](#" in contents and "- [2. 近期业绩](#" in contents and "- [参考资料](#" in contents

def test_an_edited_outline_is_the_one_researched(env):
    at = research_page()
    ask(at)
    button(at, "-edit").click().run()
    area = at.text_area[0]
    assert area.value.startswith("## Business and segments\n- ")
    area.input("## Recent results\n- What were NVIDIA's latest revenue and EPS?\n\n## Price action").run()
    button(at, "-go").click().run()
    rerun_until(at, lambda: mine(at).report is not None, "the report was written")
    report = mine(at).report
    assert report.outline.edited
    assert [(s.title, s.key_questions) for s in report.outline.sections] == [
        ("Recent results", ("What were NVIDIA's latest revenue and EPS?",)), ("Price action", ("Price action",))]
    assert "## 1. Recent results" in shown(at) and "## 2. Price action" in shown(at)


def test_an_outline_without_headings_is_refused_with_what_to_fix(env):
    at = research_page()
    ask(at)
    button(at, "-edit").click().run()
    at.text_area[0].input("just some words").run()
    button(at, "-go").click().run()
    assert "must start with a section heading" in at.error[0].value
    assert mine(at).run.view().status == "outline", "the run still waits for an outline"
    mine(at).run.stop()


def test_an_empty_request_says_what_to_type(env):
    at = research_page()
    at.text_input(key="research_question").input("   ")
    at.button(key="research_go").click().run()
    assert not at.exception and mine(at).run is None
    assert [w.value for w in at.warning] == [
        "Type what the report should research first, for example: Analyse NVIDIA's recent performance and outlook."]


def test_the_outline_is_researched_on_its_own_after_the_setting(env, monkeypatch):
    monkeypatch.setenv("FINSEARCH_RESEARCH_APPROVE_S", "1")
    at = research_page()
    at.text_input(key="research_question").input(NVIDIA)
    at.button(key="research_go").click().run()
    rerun_until(at, lambda: mine(at).report is not None, "the outline was approved on its own")
    assert mine(at).report.outline.by == "heuristic"


def test_stop_while_the_outline_waits_ends_with_nothing_to_report(env):
    at = research_page()
    ask(at)
    button(at, "-stop").click()
    rerun_until(at, lambda: mine(at).run is None, "the run ended")
    assert "Stopped before the research began" in at.info[0].value
    assert mine(at).report is None


LINKED = "This request came in a link: press **Write report** to start it."


def test_a_q_link_fills_the_box_and_waits_for_a_click_and_a_bad_request_gets_a_message(env):
    """Any site can send a visitor to `/research?q=…` (issue 31): the request waits in the box,
    said to have come in a link, until the visitor presses Write report."""
    at = research_page(q=NVIDIA)
    assert "q" not in at.query_params and at.text_input(key="research_question").value == NVIDIA
    assert mine(at).run is None and [i.value for i in at.info] == [LINKED]
    at.run()
    assert mine(at).run is None, "a rerun does not start it either"
    at.button(key="research_go").click().run()
    rerun_until(at, lambda: outline_waits(at), "the outline of the linked request, once asked for")
    assert LINKED not in [i.value for i in at.info]
    mine(at).run.stop()
    chinese = research_page(q="比亚迪2024年经营情况分析")
    assert [i.value for i in chinese.info] == ["这个请求来自一个链接：点击“Write report”开始。"]
    assert mine(chinese).run is None
    fresh = research_page()
    fresh.text_input(key="research_question").input("NVIDIA " * 400).run()
    fresh.button(key="research_go").click().run()
    assert "please keep it under" in fresh.warning[0].value and mine(fresh).run is None


@pytest.mark.parametrize("prompt, request_", [
    ("/report Analyse NVIDIA", "Analyse NVIDIA"), ("  /REPORT   比亚迪2024年经营情况分析 ", "比亚迪2024年经营情况分析"),
    ("/report", ""), ("/reports are due", None), ("Why did NVDA fall? /report", None)])
def test_the_chat_hands_report_prompts_to_the_research_page(prompt, request_):
    assert request_of(prompt) == request_


def test_report_typed_in_the_chat_starts_it_on_the_research_page(env):
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.chat_input[0].set_value("/report " + NVIDIA).run()
    assert not at.exception, at.exception
    rerun_until(at, lambda: outline_waits(at), "the outline of the request typed in the chat")
    assert at.text_input(key="research_question").value == NVIDIA
    assert not at.session_state["finsearch_chat"].turns, "the chat did not answer it as a question"
    assert not any("in a link" in i.value for i in at.info)
    mine(at).run.stop()
    rerun_until(at, lambda: mine(at).run is None, "the first report ended")
    # Back in the chat, a second `/report` of the same session starts as well.
    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("/report 比亚迪2024年经营情况分析").run()
    rerun_until(at, lambda: outline_waits(at), "the outline of the second request typed in the chat")
    assert mine(at).run.view().question == "比亚迪2024年经营情况分析"
    mine(at).run.stop()
