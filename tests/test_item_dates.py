"""One day per item, everywhere it is shown (issue 29 item 10).

The demo pack's "Tesla unveils Cybercab" story was published 2024-10-11T03:30Z: 23:30 on
2024-10-10 in New York, the evening of the event. The answer dated it 2024-10-10 (its market's
day) while every References list printed the UTC date 2024-10-11. Now the answer's sentences,
its headline lines, the chat's References list, the HTML export, the research report and the
audit all use the day of `finsearch.answer.dated`.
"""

from __future__ import annotations

import re
from datetime import date

import pytest
from streamlit.testing.v1 import AppTest

from finsearch import pipeline
from finsearch.answer.audit import audit
from finsearch.answer.citations import Reference
from finsearch.answer.dated import Dating, day_of
from finsearch.evidence import Evidence
from finsearch.export.answer_html import render
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.research.run import report
from finsearch.timecontext import TimeContext
from tests.app_kit import APP, settle
from tests.conftest import NOW

CYBERCAB = "Tesla unveils Cybercab robotaxi concept at product event"
EVENT_DAY, UTC_DAY = "2024-10-10", "2024-10-11"


def _answer(question: str, demo_settings):
    return pipeline.ask(question, settings=demo_settings)


def _cybercab(result) -> Reference:
    return next(r for r in result.answer.references if r.title == CYBERCAB)


@pytest.mark.parametrize(("question", "said"), [
    ("tesla news this month", f"- {EVENT_DAY} · Sample Market Wire: {CYBERCAB}"),     # a headline line
    ("what did tesla say about the robotaxi event", f"Sample Market Wire reported on {EVENT_DAY}"),   # a quote
])
def test_the_answer_and_its_references_date_a_story_by_one_day(demo_settings, question, said):
    result = _answer(question, demo_settings)
    assert said in result.answer.markdown
    assert UTC_DAY not in [line for line in result.answer.markdown.splitlines() if "Cybercab" in line][:1]
    ref = _cybercab(result)
    assert ref.day == EVENT_DAY, "the References list shows the day the answer states"
    page = render(result)
    assert re.search(rf"{CYBERCAB}</a> — Sample Market Wire · {EVENT_DAY}</li>", page), "the HTML export"
    assert result.audit.grounding == 1.0


def test_the_chats_references_list_shows_the_same_day(sample_app_env):
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.chat_input[0].set_value("tesla news this month").run()
    at = settle(at)
    refs = next(m.value for m in at.markdown if m.value.startswith("1. "))
    line = next(line for line in refs.splitlines() if "Cybercab" in line)
    assert f"Sample Market Wire · {EVENT_DAY}" in line and UTC_DAY not in line, line


def test_the_research_reports_text_and_references_show_the_same_day(demo_settings):
    done = report("Analyse Tesla's recent performance and outlook", settings=demo_settings, now=NOW)
    said = {line for line in done.markdown.splitlines() if CYBERCAB in line}
    assert said and all(EVENT_DAY in line and UTC_DAY not in line for line in said), said
    assert [r.day for r in done.references if r.title == CYBERCAB] == [EVENT_DAY]


def test_a_stored_reference_without_a_day_keeps_the_day_it_was_shown_with():
    raw = {"n": 1, "evidence_id": "news:1", "title": "t", "published": "2024-10-11T03:30:00Z"}
    assert Reference.from_json(raw).day == UTC_DAY
    assert Reference.from_json({**raw, "day": EVENT_DAY}).day == EVENT_DAY


def _story(ticker: str, published: str) -> Evidence:
    return Evidence(id=f"news:{ticker}", source="news", kind="news", title=f"{ticker} wins a big contract",
                    publisher="Wire", published=published)


def test_a_story_is_dated_on_its_markets_clock_finance_data_by_its_utc_day():
    assert day_of(_story("TSLA", "2024-10-11T03:30:00Z"), "TSLA").isoformat() == EVENT_DAY
    assert day_of(_story("600519.SS", "2024-10-17T16:30:00Z"), "600519.SS").isoformat() == "2024-10-18"
    assert day_of(_story("X", "2024-10-11T03:30:00Z"), None).isoformat() == UTC_DAY
    quote = Evidence(id="quote:TSLA", source="quote", kind="finance", title="q", published="2024-10-16T01:00:00Z",
                     data={"ticker": "TSLA"})
    assert day_of(quote, "TSLA").isoformat() == "2024-10-16", "as of the day its figures are stated"
    history = Evidence(id="h", source="price_history", kind="finance", title="h",
                       period={"start": "2024-10-01", "end": "2024-10-13"})
    assert day_of(history, "TSLA").isoformat() == "2024-10-13"


def test_the_audit_traces_a_day_read_on_a_clock_no_fixed_offset_gives():
    # 14:30 UTC is 01:30 the next day in Sydney (UTC+11 in October): neither UTC, New York,
    # Beijing nor Tokyo has that day, but the item is dated by it and its reference shows it.
    story = _story("BHP.AX", "2024-10-10T14:30:00Z")
    period = TimeContext(date(2024, 10, 1), date(2024, 10, 15), "the first half of October")
    graph = SearchGraph.build("why did bhp rise", period, [
        SearchNode("n1", "BHP news", "news", {"ticker": "BHP.AX"}, period, status=NodeStatus.DONE, evidence=(story,))])
    day = Dating.of(graph, ["BHP.AX"]).day(story)
    assert day.isoformat() == "2024-10-11"
    ref = Reference(1, story.id, story.title, day=day.isoformat())
    checked = audit("Wire reported on 2024-10-11 that BHP won a big contract [1].", [ref], graph)
    assert [c.verdict for c in checked.checks] == ["supported"]
