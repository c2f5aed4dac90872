"""The cause model (finsearch.answer.causes) on planted stories around a move: which cause wins,
from which days and languages, what speaks against it, and what it says when nothing explains
the move. Expected sentences are written out by hand."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

import pytest

from finsearch.answer.cause_sentences import cause_sentence, explanation_sentences
from finsearch.answer.causes import explain
from finsearch.answer.moves import significant_move
from finsearch.answer.view import AnswerView
from finsearch.evidence import Evidence
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.plan.analysis import analyse
from finsearch.timecontext import TimeContext

NOW = datetime(2025, 4, 11, 8, 0, tzinfo=UTC)
TC = TimeContext(date(2025, 4, 3), date(2025, 4, 11), "this week")
# Closes: flat, then three falls in a row (Mon 04-07 … Wed 04-09), then a small rise.
CLOSES = [("2025-04-01", 100.0), ("2025-04-02", 99.5), ("2025-04-03", 100.0), ("2025-04-07", 95.0),
          ("2025-04-08", 92.0), ("2025-04-09", 90.0), ("2025-04-10", 90.5)]


def prices(closes=CLOSES, ticker="000858.SZ"):
    rows = [[d, c, c, c, c, 1000] for d, c in closes]
    moves = sorted(({"date": d, "change_pct": round((c / p - 1) * 100, 2)}
                    for (_, p), (d, c) in zip(closes, closes[1:], strict=False)), key=lambda m: -abs(m["change_pct"]))
    return Evidence.from_untrusted({"title": "prices", "period": {"start": "2025-04-03", "end": "2025-04-11"},
                                    "data": {"ticker": ticker, "currency": "CNY", "rows": rows,
                                             "stats": {"focus": {"start": "2025-04-03", "end": "2025-04-11"},
                                                       "biggest_moves": moves, "return_pct": -9.5}}},
                                   source="price_history", kind="finance")


def story(title, published, snippet="", publisher="Wire", source="news"):
    return Evidence.from_untrusted({"title": title, "url": f"https://e.test/{abs(hash(title))}", "publisher": publisher,
                                    "published": published, "snippet": snippet}, source=source, kind="news")


def view_of(question, items, ticker="000858.SZ"):
    analysis = analyse(question, NOW)
    node = SearchNode("n1", "all", "news", {"ticker": ticker}, TC, status=NodeStatus.DONE, evidence=tuple(items))
    graph = SearchGraph.build(question, TC, [node])
    names = {e.ticker: e.display(analysis.language) for e in analysis.entities if e.ticker}
    return AnswerView.of(analysis, list(items), graph, names, "this week", NOW)


DRAFT = story("财政部发布消费税征收环节后移征求意见稿", "2025-04-05T10:00:00Z",
              "征求意见稿提出，拟将高档白酒消费税征收环节后移至批发环节。", "证券时报网")
SLUMP = story("白酒板块集体重挫 五粮液跌近5%", "2025-04-07T07:30:00Z",
              "市场担忧消费税改革将压缩酒企利润。", "上海证券报")
CALM = story("机构：税改影响有限 无需过度恐慌", "2025-04-08T09:00:00Z", "短期情绪冲击大于基本面影响。", "中国证券报")
OLD = story("五粮液因渠道库存问题股价承压", "2025-03-20T09:00:00Z", "", "旧闻")


def test_a_run_of_falls_is_told_as_a_run_with_its_worst_day():
    move = significant_move("五粮液为什么连续下跌？", prices())
    assert (move.start, move.end, move.days, move.change_pct) == (date(2025, 4, 7), date(2025, 4, 9), 3, -10.0)
    assert move.biggest.date == "2025-04-07"


def test_a_single_day_is_told_alone_when_its_neighbours_add_little():
    closes = [("2025-04-03", 100.0), ("2025-04-07", 90.0), ("2025-04-08", 89.8), ("2025-04-09", 90.3)]
    move = significant_move("Why did it fall?", prices(closes))
    assert (move.start, move.end, move.days) == (date(2025, 4, 7), date(2025, 4, 7), 1)


def test_a_weekend_policy_draft_two_days_before_the_fall_is_the_cause_in_both_languages():
    view = view_of("五粮液为什么连续下跌？", [prices(), DRAFT, SLUMP, CALM, OLD])
    explanation = explain(view, "000858.SZ")
    assert explanation.cause.kind.id == "tax"
    assert cause_sentence(explanation, view) == (
        "五粮液（000858.SZ）在 2025-04-07 至 2025-04-09 连续 3 个交易日下跌，"
        "累计下跌 10.00%（2025-04-07 单日 -5.00%），主要原因是税收政策变化："
        "证券时报网于 2025-04-05（周六） 报道“征求意见稿提出，拟将高档白酒消费税征收环节后移至批发环节” [1][2][3]。")
    assert explanation_sentences(explanation, view) == [
        "上海证券报于 2025-04-07 写道：“市场担忧消费税改革将压缩酒企利润” [3]。",
        "不过，中国证券报于 2025-04-08 写道：“短期情绪冲击大于基本面影响” [4]。"]
    english = view_of("Why did Wuliangye fall this week?", [prices(), DRAFT, SLUMP, CALM, OLD])
    lead = cause_sentence(explain(english, "000858.SZ"), english)
    # The Chinese stories explain the English answer in its own words (the outlet by its English name):
    # no headline pasted untranslated, no Chinese at all.
    assert lead.startswith("Wuliangye (000858.SZ) fell 10.00% over 3 trading days in a row "
                           "(2025-04-07 → 2025-04-09; -5.00% on 2025-04-07) after a tax-policy change, "
                           "as Securities Times reported on Saturday 2025-04-05")
    assert not re.search(r"[\u4e00-\u9fff]", lead)


def test_a_story_outside_the_window_is_never_the_cause_and_the_gap_says_what_was_read():
    meeting = story("Liquor makers hold annual meeting", "2025-04-07T03:00:00Z")
    view = view_of("Why did Wuliangye fall this week?", [prices(), OLD, meeting])
    explanation = explain(view, "000858.SZ")
    assert explanation.cause is None
    assert cause_sentence(explanation, view).endswith(
        "No story read from the three days before the move to the day after (1 in all) gives a reason for it.")


def test_a_cause_in_a_snippet_wins_over_a_headline_that_only_names_the_move():
    headline_only = story("Stock posts its worst day in two years", "2025-04-07T21:00:00Z",
                          "The stock fell 5% on Monday after the company cut its full-year forecast below estimates.")
    view = view_of("Why did Wuliangye fall this week?", [prices(), headline_only])
    explanation = explain(view, "000858.SZ")
    assert explanation.cause.kind.id == "guidance_cut"
    assert "“The stock fell 5% on Monday after the company cut its full-year forecast below estimates”" in \
        cause_sentence(explanation, view)


def test_competing_causes_get_a_caveat():
    downgrade = story("Broker downgrades Wuliangye to sell", "2025-04-07T02:00:00Z",
                      "Analysts lowered their rating after the stock fell.", "Broker Wire")
    tariff = story("Liquor exports hit by new tariffs as shares fall", "2025-04-07T05:00:00Z", "", "Trade Daily")
    view = view_of("Why did Wuliangye fall this week?", [prices(), downgrade, tariff])
    sentences = explanation_sentences(explain(view, "000858.SZ"), view)
    assert any(s.startswith("Other reports point to") and s.endswith("which may have added to the move.")
               for s in sentences), sentences


@pytest.mark.parametrize("question, falling", [("Why did it jump?", False), ("为什么跌", True)])
def test_the_way_the_question_says_it_went_picks_the_move(question, falling):
    closes = [("2025-04-03", 100.0), ("2025-04-07", 104.0), ("2025-04-08", 98.0), ("2025-04-09", 98.5)]
    move = significant_move(question, prices(closes))
    assert move.falling is falling


def test_a_headline_reason_and_the_kind_its_snippet_names_are_one_cause_in_either_language():
    # The headline gives a reason clause, the snippet names the kind with its figures: one story, one cause.
    # It was two: the lead quoted the headline's clause (untranslated in a Chinese answer) and "other
    # reports point to its sales figures" cited the same story again.
    slide = story("Carrier shares slide 11% after slower subscriber growth", "2025-04-07T05:00:00Z",
                  "The carrier added 495,000 postpaid phone customers, fewer than analysts expected.", "Ledger Wire")
    english = view_of("Why did Wuliangye fall this week?", [prices(), slide])
    explanation = explain(english, "000858.SZ")
    assert [f.kind.id if f.kind else f.clause for f in explanation.findings] == ["sales"]
    assert "after its sales figures: “The carrier added 495,000 postpaid phone customers, fewer than analysts " \
           "expected” (Ledger Wire, 2025-04-07)" in cause_sentence(explanation, english)
    assert not any("Other reports" in s for s in explanation_sentences(explanation, english))
    chinese = view_of("五粮液为什么连续下跌？", [prices(), slide])
    lead = cause_sentence(explain(chinese, "000858.SZ"), chinese)
    assert "主要原因是销量数据（据Ledger Wire 2025-04-07 报道）" in lead
    assert "slide" not in lead and "customers" not in lead
