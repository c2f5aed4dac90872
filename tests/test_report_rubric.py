"""The rule-based report rubric (finsearch.research.rubric): each criterion on small hand-built
reports, passing and failing; a real sample-pack report scored by it, in `report --json` and
by the scoring set's runner (tests/probes/report_check)."""

from __future__ import annotations

import json

import pytest

from finsearch import cli
from finsearch.research.rubric import Company, ReportText, score
from tests.probes import report_check

CRITERIA = ["sections", "repeats", "stance", "verdict", "tables", "limitations", "title", "summary"]

GOOD = """# Adobe (ADBE): a forecast below consensus — 2025-03-18

## Executive summary

- **Thesis:** the stance is cautious: the guidance disappointed while the quarter beat [2].
- Upside to the analysts' target is the main support [1].
- This report is not investment advice.

## 1. Valuation

_Key questions: Is Adobe expensive?_

Adobe trades at 20.9 times forward earnings, cheap against its own history [1].

| Metric | Value | Source |
| --- | --- | --- |
| Forward P/E | 20.90 | [1] |

## 2. Price action

Adobe fell 9.42% on 2025-03-14 after its forecast [2].

| Date | Close | Source |
| --- | --- | --- |
| 2025-03-14 | $430.00 | [2] |

**Headlines**

- 2025-03-13 · Ledger Wire: Adobe's annual forecast underwhelms [3]

## Limitations

- No 10-K risk factors were found.

## References

1. Adobe profile
2. Adobe daily prices
3. Adobe's annual forecast underwhelms
"""

PLANNED = ("Valuation", "Price action")
ADOBE = (Company(("Adobe",), "ADBE"),)


def _text(markdown: str = GOOD, **kwargs) -> ReportText:
    return ReportText(markdown, **{"planned": PLANNED, "companies": ADOBE, "tabular": PLANNED, **kwargs})


def test_a_report_an_analyst_would_sign_passes_every_criterion():
    rubric = score(_text())
    assert [c.name for c in rubric.criteria] == CRITERIA
    assert [c.name for c in rubric.criteria if not c.passed] == []
    assert rubric.score == 10.0 and rubric.repeats == 0
    assert rubric.get("stance").reason.startswith("“cautious”")


@pytest.mark.parametrize(("name", "old", "new", "reason"), [
    ("sections", "## 2. Price action", "## 2. Price moves", "missing: Price action"),
    ("sections", "Adobe fell 9.42% on 2025-03-14 after its forecast [2].", "Adobe fell after its forecast [2].",
     "no cited figure: Price action"),
    ("repeats", "- 2025-03-13 · Ledger Wire: Adobe's annual forecast underwhelms [3]",
     "- 2025-03-13 · Ledger Wire: Adobe's annual forecast underwhelms [3]\n"
     "- 2025-03-13 · Ledger Wire: Adobe's annual forecast underwhelms [3]", "1 repeated, first “- 2025-03-13"),
    ("stance", "the stance is cautious", "the picture is mixed", "no stance in the summary"),
    ("stance", "- This report is not investment advice.\n", "", "no not-investment-advice line"),
    ("verdict", "cheap against its own history", "a multiple of its own", "valuation states no verdict"),
    ("tables", "| 2025-03-14 | $430.00 | [2] |", "", "no table in: Price action"),
    ("limitations", "- No 10-K risk factors were found.", "\n".join(f"- Still not found: item {i}." for i in range(6)),
     "6 lines (at most 5)"),
    ("title", " — 2025-03-18", "", "no date"),
    ("title", "Adobe (ADBE)", "Adobe", "no ticker ADBE"),
    ("summary", "- Upside to the analysts' target is the main support [1].",
     "- **Valuation:** Adobe trades at 20.9 times forward earnings, cheap against its own history [1].",
     "1 of 3 summary sentences are a section's opening"),
])
def test_each_criterion_fails_on_what_it_checks(name, old, new, reason):
    markdown = GOOD.replace(old, new)
    if reason == "no cited figure: Price action":       # its table's row says it in words
        markdown = markdown.replace("| 2025-03-14 | $430.00 | [2] |", "| 2025-03-14 | fell | [2] |")
    if name == "tables":       # the whole table goes, its header too
        markdown = markdown.replace("| Date | Close | Source |\n| --- | --- | --- |\n\n", "")
    rubric = score(_text(markdown))
    failed = [c for c in rubric.criteria if not c.passed]
    assert [c.name for c in failed] == [name]
    assert failed[0].reason.startswith(reason)
    assert rubric.score == 8.8


def test_a_repeated_table_and_the_same_cited_sentence_in_two_sections_are_repeats():
    table = "| Metric | Value | Source |\n| --- | --- | --- |\n| Forward P/E | 20.90 | [1] |\n| Beta | 1.28 | [1] |\n"
    markdown = GOOD.replace("| Forward P/E | 20.90 | [1] |\n", "| Forward P/E | 20.90 | [1] |\n| Beta | 1.28 | [1] |\n")
    markdown = markdown.replace("**Headlines**", table + "\nAdobe trades at 20.9 times forward earnings, cheap "
                                                          "against its own history [1].\n\n**Headlines**")
    rubric = score(_text(markdown))
    assert rubric.repeats == 2 and not rubric.get("repeats").passed


def test_what_does_not_apply_is_left_out_of_the_score():
    # An event report: no valuation section, no tabular evidence, no companies to name.
    markdown = GOOD.replace("## 1. Valuation", "## 1. What happened")
    rubric = score(ReportText(markdown, planned=("What happened", "Price action")))
    assert not rubric.get("verdict").applies and not rubric.get("tables").applies
    assert rubric.get("title").passed and rubric.score == 10.0


def test_a_chinese_report_is_read_in_its_own_words():
    markdown = """# 五粮液（000858.SZ）研究报告 · 2025年4月10日

## 执行摘要

- 我们的观点为中性：消费税草案压制股价，但估值已低于行业 [1]。
- 本报告不构成投资建议。

## 1. 估值

五粮液静态市盈率 17.60 倍，低于行业加权平均 22.40 倍，相对行业估值偏低 [1]。

| 指标 | 数值 | 来源 |
| --- | --- | --- |
| 市盈率 | 17.60 | [1] |

## 风险与局限

新闻中提到的风险：

- 2025-04-07 · 上海证券报: 白酒板块集体重挫 五粮液跌近5% [2]

本报告的局限：

- 没有找到机构盈利预测。
"""
    rubric = score(ReportText(markdown, ("估值",), (Company(("五粮液", "Wuliangye"), "000858.SZ"),), ("估值",)))
    assert [c.name for c in rubric.criteria if not c.passed] == []
    assert rubric.get("limitations").reason.startswith("1 line ")
    opening = "五粮液静态市盈率 17.60 倍，低于行业加权平均 22.40 倍，相对行业估值偏低 [1]。"
    stance = "- 我们的观点为中性：消费税草案压制股价，但估值已低于行业 [1]。"
    pasted = markdown.replace(stance, f"- **估值：** {opening}")
    assert [c.name for c in score(ReportText(pasted, ("估值",))).criteria if not c.passed] == \
        ["stance", "summary"]


def test_a_sample_pack_report_is_scored_on_every_criterion(tmp_path):
    request = next(r for r in report_check.load_requests() if r.id == "nvda-en")
    done, rubric = report_check.score_request(request, report_check.ROOT, tmp_path)
    assert [c.name for c in rubric.criteria] == CRITERIA
    assert all(c.reason for c in rubric.criteria) and 0 <= rubric.score <= 10
    assert rubric.get("verdict").applies and rubric.get("title").applies     # a company report with a valuation
    printed = report_check.table([{"id": request.id, "kind": request.kind, "type": done.outline.question_type,
                                   "pack": "demo_pack", **rubric.to_json()}])
    assert printed.startswith("| request | pack | type | sections | repeats | stance |")
    assert "mean score: " in printed


def test_the_scoring_set_covers_the_kinds_of_report_over_four_packs():
    requests = report_check.load_requests()
    assert len(requests) >= 10 and len({r.pack for r in requests}) >= 4
    assert {"company", "comparison", "event"} <= {r.kind for r in requests}
    assert any("cn_policy" in r.pack or "cn_dividend" in r.pack for r in requests)
    assert all((report_check.ROOT / r.pack / "_pack.json").exists() for r in requests)
    assert any(r.kind == "company" and not r.request.isascii() for r in requests)
    assert any(r.kind == "company" and r.request.isascii() for r in requests)


def test_report_json_carries_the_rubric(sample_app_env, capsys):
    assert cli.main(["report", "Analyse NVIDIA's recent performance and outlook", "--json", "--offline",
                     "--llm", "heuristic"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in printed["rubric"]["criteria"]] == CRITERIA
    assert 0 <= printed["rubric"]["score"] <= 10 and isinstance(printed["rubric"]["repeats"], int)
