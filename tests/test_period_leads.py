"""How an instrument did over a period, and why (finsearch.answer.lead_period): the opening answers
the period first — its change with dates and closes — then the biggest moves by size (not by the way
the period went) with their causes, else what the evidence shows happened in the period. A question
about one move keeps its lead: the move and its cause. Expected sentences are written out by hand."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from finsearch import pipeline
from finsearch.answer.lead import opening
from finsearch.answer.view import AnswerView
from finsearch.cli import main
from finsearch.evidence import Evidence
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.phrases import say
from finsearch.plan.analysis import analyse
from tests.conftest import ROOT
from tests.test_answers import cited_by, first_sentence, opening_of
from tests.test_leads import NOW, TC, finance, story

REPORT_PACK = ROOT / "tests" / "fixtures" / "report_pack"   # NVDA up 2.71% since 2024-10-08, worst day -4.70%
REPORT_NOW = datetime(2024, 11, 22, 21, tzinfo=timezone.utc)
NVDA_PERIOD_EN = ("NVIDIA (NVDA) rose 2.71% since 2024-10-08 (2024-10-08 → 2024-11-22), from $107.54 on 2024-10-07 "
                  "to $110.45 on 2024-11-22 [1].")


@pytest.fixture
def report_settings(settings):
    return settings.replace(pack=REPORT_PACK, offline=True, now=REPORT_NOW)


def _opening(question, settings):
    result = pipeline.ask(question, settings=settings)
    return result, opening_of(result.answer.markdown).replace("\\", "")


def test_how_did_it_do_and_why_opens_with_the_period_then_its_biggest_moves_either_way(report_settings):
    result, lead = _opening(say("brief.ask_move", "en", ticker="NVDA", day="2024-10-08"), report_settings)
    assert first_sentence(lead) == NVDA_PERIOD_EN
    assert cited_by(result, first_sentence(lead)) == {"price_history:NVDA"}
    # the biggest move by size is the fall, though the period went up; no story from around either day
    assert "No story from around its biggest daily moves, -4.70% on 2024-10-31 and +2.80% on 2024-11-05 [1], " \
           "says what caused them." in lead
    assert "rose 2.80% on 2024-11-05" not in lead
    # what happened in the period, dated and cited, and said to be no cause of a day's move
    assert "What the evidence shows happened in the period (no story ties it to a day's move): " in lead
    assert "“Nvidia third-quarter revenue jumps 94% to $35.1 billion, beating estimates” " \
           "(Newswire (sample), 2024-11-20)" in lead
    assert "Nvidia third-quarter revenue jumps 94% to $35.1 billion, beating estimates" in cited_by(result, lead)
    # headlines quoted as what happened are no cause: the audit still says the reason was not found
    assert "why" in result.audit.answered.missing_intents


def test_the_chinese_brief_question_opens_with_the_period_and_names_events_in_chinese(report_settings):
    result, lead = _opening(say("brief.ask_move", "zh", ticker="NVDA", day="2024-10-08"), report_settings)
    assert first_sentence(lead) == ("NVIDIA（NVDA）自2024-10-08以来（2024-10-08 → 2024-11-22）上涨 2.71%，"
                                    "从 2024-10-07 的 107.54美元 到 2024-11-22 的 110.45美元 [1]。")
    assert "期间最大的几次单日波动（2024-10-31 -4.70%，2024-11-05 +2.80%）[1]前后的报道都没有说明其原因。" in lead
    assert "业绩超预期（Newswire (sample)，2024-11-20）" in lead
    assert "Nvidia third-quarter revenue" not in lead          # an English headline is said in Chinese


def test_a_question_about_one_move_still_opens_with_that_move(report_settings):
    _, lead = _opening("Why did NVDA fall since 2024-10-08?", report_settings)
    assert first_sentence(lead).startswith("NVIDIA (NVDA) fell 4.70% on 2024-10-31 [1].")


@pytest.mark.parametrize(("question", "first", "then"), [
    ("How did MSFT do this month, and why?",
     "Microsoft (MSFT) rose 8.58% this month (2024-10-01 → 2024-10-15), from $385.62 on 2024-09-30 to $418.70 on "
     "2024-10-15 [1].",
     "Microsoft (MSFT) rose 11.88% over 6 trading days in a row (2024-10-03 → 2024-10-10; +4.47% on 2024-10-10) "
     "after “software stocks rally”"),
    ("How has NVDA performed this month and why?",
     "NVIDIA (NVDA) fell 11.02% this month (2024-10-01 → 2024-10-15), from $141.94 on 2024-09-30 to $126.30 on "
     "2024-10-11 [1].",
     "NVIDIA (NVDA) fell 4.70% on 2024-10-11 after tariffs and trade curbs"),
    ("微软最近一个月表现如何，为什么？",
     "微软（MSFT）最近一个月（2024-09-15 → 2024-10-15）上涨 12.84%，从 2024-09-13 的 371.05美元 到 2024-10-15 的 "
     "418.70美元 [1]。",
     "微软（MSFT）在 2024-10-03 至 2024-10-10 连续 6 个交易日上涨，累计上涨 11.88%"),
    ("英伟达自2024-09-20以来表现如何？原因是什么？",
     "英伟达（NVDA）自2024-09-20以来（2024-09-20 → 2024-10-15）下跌 14.82%，从 2024-09-19 的 148.27美元 到 "
     "2024-10-11 的 126.30美元 [1]。",
     "英伟达（NVDA）于 2024-10-11 下跌 4.70%，主要原因是关税与贸易限制"),
])
def test_period_questions_on_the_demo_pack_open_with_the_period(question, first, then, demo_settings):
    _, lead = _opening(question, demo_settings)
    assert first_sentence(lead) == first
    assert then in lead[len(first):]


def _lead(question, items):
    analysis = analyse(question, NOW)
    node = SearchNode("n1", "all", "news", {"ticker": "ADBE"}, TC, status=NodeStatus.DONE, evidence=tuple(items))
    names = {e.ticker: e.display(analysis.language) for e in analysis.entities if e.ticker}
    view = AnswerView.of(analysis, list(items), SearchGraph.build(question, TC, [node]), names, "this month", NOW)
    return list(opening(view).sentences)


def _adobe():
    """Up 10% over the period; its biggest day a 6% fall that a story explains, its biggest rise none."""
    rows = [[f"2025-06-{d:02d}", c, c, c, c, 1] for d, c in
            [(2, 100), (3, 103), (4, 106), (5, 99.64), (6, 104), (9, 108), (10, 110)]]
    stats = {"focus": {"start": "2025-06-03", "end": "2025-06-10"}, "start_date": "2025-06-02", "start_close": 100,
             "end_date": "2025-06-10", "end_close": 110, "return_pct": 10.0, "high": 110, "low": 99.64,
             "biggest_moves": [{"date": "2025-06-05", "change_pct": -6.0}, {"date": "2025-06-06", "change_pct": 4.38},
                               {"date": "2025-06-09", "change_pct": 3.85}]}
    history = finance("price_history", "ADBE", {"currency": "USD", "rows": rows, "stats": stats}, published=None)
    return [history, story("Adobe falls 6% after it cuts its full-year revenue guidance", "2025-06-05T14:00:00Z"),
            story("Adobe to hold its annual shareholder meeting", "2025-06-09T14:00:00Z")]


def test_the_biggest_move_against_the_periods_way_is_explained_when_a_story_gives_its_cause():
    assert _lead("How did Adobe do this month, and why?", _adobe()) == [
        "Adobe (ADBE) rose 10.00% this month (2025-06-03 → 2025-06-10), from $100.00 on 2025-06-02 to $110.00 on "
        "2025-06-10 [1].",
        "Adobe (ADBE) fell 6.00% on 2025-06-05 after an outlook that fell short of expectations: “Adobe falls 6% "
        "after it cuts its full-year revenue guidance” (Wire, 2025-06-05) [1][2]."]
    assert _lead("Adobe这个月表现如何，为什么？", _adobe())[1] == (
        "Adobe（ADBE）于 2025-06-05 下跌 6.00%，主要原因是业绩指引不及预期（据Wire 2025-06-05 报道） [1][2]。")


def test_the_brief_says_the_period_first_and_the_last_trade_once(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("FINSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["brief", "NVDA", "--since", "2024-10-08", "--offline", "--pack", str(REPORT_PACK),
                 "--now", "2024-11-22T21:00:00Z", "--llm", "heuristic"]) == 0
    markdown = capsys.readouterr().out
    assert markdown.split("## NVIDIA (NVDA)\n\n", 1)[1].startswith(NVDA_PERIOD_EN)
    # the period's last close is the last trade: said once, the detail adds the day's change and market cap
    assert markdown.count("to $110.45 on 2024-11-22") == 1 and "last traded at $110.45" not in markdown
    assert "NVIDIA (NVDA) moved -0.30% on 2024-11-22, market cap $3.60T [5]." in markdown
    # both answers list the day's 8-K: listed once, and a list every line of which was listed goes with its heading
    listed = [line for line in markdown.splitlines() if line.startswith("- ")]
    assert listed and len(listed) == len(set(listed)), listed


def test_the_period_events_lead_with_its_results_and_filing_in_english(report_settings):
    result, lead = _opening(say("brief.ask_move", "en", ticker="NVDA", day="2024-10-08"), report_settings)
    assert "What the evidence shows happened in the period (no story ties it to a day's move): " \
           "results on 2024-11-20: EPS 0.81 against 0.75 expected (Sample market data) [" in lead
    assert "its 10-Q filed 2024-11-20 (SEC EDGAR) [" in lead
    cited = cited_by(result, lead)
    assert "earnings:NVDA" in cited and "NVIDIA CORP 10-Q filed 2024-11-20 (period 2024-10-27)" in cited
    assert "the day after its results" not in lead      # neither big move came near 2024-11-20
    assert "why" in result.audit.answered.missing_intents


def test_the_period_events_lead_with_its_results_and_filing_in_chinese(report_settings):
    _, lead = _opening(say("brief.ask_move", "zh", ticker="NVDA", day="2024-10-08"), report_settings)
    assert "资料显示期间发生的事（没有报道把它与某一天的波动联系起来）：2024-11-20 公布业绩：每股收益 0.81，预期 0.75" \
           "（Sample market data）[" in lead
    assert "2024-11-20 提交 10-Q 文件（SEC EDGAR）[" in lead


def _results_then_fall():
    """Results on 2025-06-04 after the close, a 6% fall the next session that no story explains,
    a cninfo-style announcement and a routine Form 4 in the period."""
    items = _adobe()[:1] + [story("Adobe to hold its annual shareholder meeting", "2025-06-09T14:00:00Z")]
    earnings = finance("earnings", "ADBE", {"history": [{"date": "2025-06-04", "eps_reported": 4.95,
                                                         "eps_estimate": 4.87, "surprise_pct": 1.6},
                                                        {"date": "2025-03-12", "eps_reported": 5.08}]})
    filings = [Evidence.from_untrusted({"title": f"ADOBE INC. {form} filed {day}", "publisher": "SEC EDGAR",
                                        "published": f"{day}T20:30:00Z", "url": f"https://e.test/{form}",
                                        "data": {"ticker": "ADBE", "form": form, "filed": day}},
                                       source="sec_filings", kind="news")
               for form, day in (("4", "2025-06-06"), ("10-Q", "2025-06-10"))]
    return items + [earnings, *filings]


def test_a_move_the_session_after_results_is_said_to_be_so_and_the_results_are_named_first():
    assert _lead("How did Adobe do this month, and why?", _results_then_fall())[1:] == [
        "No story from around its biggest daily moves, -6.00% on 2025-06-05 (the day after its results) and "
        "+4.38% on 2025-06-06 [1], says what caused them.",
        "What the evidence shows happened in the period (no story ties it to a day's move): results on "
        "2025-06-04: EPS 4.95 against 4.87 expected (a report) [3]; “Adobe to hold its annual shareholder "
        "meeting” (Wire, 2025-06-09) [2]; its 10-Q filed 2025-06-10 (SEC EDGAR) [5]."]
    assert "（业绩公布次日）" in _lead("Adobe这个月表现如何，为什么？", _results_then_fall())[1]
