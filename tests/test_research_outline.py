"""The outline before the research: the sources its sections plan (China-market and SEC
ones where they help), `report --approve` / `--outline-only`, and a report researched from
an outline the reader edited."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from finsearch.cli import main
from finsearch.errors import InputError
from finsearch.plan.analysis import analyse
from finsearch.plan.planner import make_plan
from finsearch.research.approval import approve, parse_sections
from finsearch.research.outline import edit_outline, rule_outline
from finsearch.research.run import report
from finsearch.research.section import section_question

PACK = Path(__file__).resolve().parent / "fixtures" / "report_pack"
NOW = datetime(2024, 11, 22, 21, 0, tzinfo=timezone.utc)


def _planned(question: str) -> dict[str, set[str]]:
    """Each section's key → the sources its search graph plans (the rules; nothing fetched)."""
    analysis = analyse(question, NOW)
    out = {}
    for section in rule_outline(analysis).sections:
        graph = make_plan(analyse(section_question(section), NOW, prior=analysis), NOW, None).graph
        out[section.key] = {node.source for node in graph}
    return out


def test_an_a_share_report_plans_the_china_market_sources():
    planned = _planned("比亚迪2024年经营情况分析")
    assert {"cn_top_holders", "cn_business"} <= planned["business"]
    assert "cn_financial_abstract" in planned["results"]
    assert "cn_profit_forecast" in planned["valuation"] and "cn_profit_forecast" in planned["analysts"]
    assert "cn_announcements" in planned["news"] and "cn_announcements" in planned["risks"]
    analysis = analyse("比亚迪2024年经营情况分析", NOW)
    risks = next(s for s in rule_outline(analysis).sections if s.key == "risks")
    graph = make_plan(analyse(section_question(risks), NOW, prior=analysis), NOW, None).graph
    assert {"ticker": "002594.SZ", "category": "风险提示"} in [n.args for n in graph if n.source == "cn_announcements"]
    assert not any(source.startswith("sec_") for sources in planned.values() for source in sources)


def test_a_us_report_plans_the_sec_sources():
    planned = _planned("Analyse Apple's risks and recent results")
    assert "sec_section" in planned["risks"]
    assert {"sec_facts", "sec_filings"} <= planned["results"]
    assert "holders" in planned["business"]
    assert not any(source.startswith("cn_") for sources in planned.values() for source in sources)


def test_outline_only_prints_a_chinese_outline_for_a_chinese_request(sample_app_env, capsys):
    assert main(["report", "比亚迪2024年经营情况分析", "--outline-only"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "“比亚迪2024年经营情况分析”的大纲（公司分析，由规则撰写）"
    assert printed[2] == "1. 业务与板块"
    assert "   - 比亚迪的主要股东有哪些？" in printed
    assert "7. 风险因素" in printed


def _outline():
    return rule_outline(analyse("Analyse NVIDIA's recent performance and outlook", NOW))


def test_approving_asks_until_yes_and_an_edit_is_shown_back():
    outline = _outline()
    shown, asked = [], []
    replies = iter(["maybe", "e", "y"])
    edited = ("# a comment\n1. Results\n   - What revenue did NVIDIA report?\n"
              "2) Risks\n - What risks does NVIDIA face?\n")
    approved = approve(outline, lambda prompt: asked.append(prompt) or next(replies), lambda text: edited, shown.append)
    assert [s.title for s in approved.sections] == ["Results", "Risks"]
    assert approved.sections[1].key_questions == ("What risks does NVIDIA face?",)
    assert approved.edited and [s.key for s in approved.sections] == ["s1", "s2"]
    assert asked == ["Research this outline? [y]es, [n]o, [e]dit: "] * 3
    assert shown[0].startswith("Outline for “Analyse NVIDIA's recent performance and outlook” (company analysis, "
                               "written by the rules)")
    assert shown[1].splitlines()[2:] == ["1. Results", "   - What revenue did NVIDIA report?", "2. Risks",
                                         "   - What risks does NVIDIA face?"]


def test_a_declined_outline_is_not_researched_and_a_bad_edit_is_explained():
    outline = _outline()
    shown = []
    replies = iter(["e", "e", "n"])
    edits = iter(["1. Results\n", None])
    assert approve(outline, lambda _: next(replies), lambda _: next(edits), shown.append) is None
    assert shown[1] == "The edited outline cannot be used: section “Results” has no key questions (lines starting " \
                       "with \"- \")."
    assert shown[2] == "No editor found: set VISUAL or EDITOR to edit the outline."
    assert shown[3] == "Not researched: the outline was not approved."


def test_edit_problems_are_said_in_the_outlines_language():
    chinese = rule_outline(analyse("比亚迪2024年经营情况分析", NOW))
    with pytest.raises(InputError, match="^编辑后的大纲无法使用：关键问题“营收多少？”出现在任何章节标题之前。$"):
        parse_sections("- 营收多少？\n1. 业绩\n", chinese)
    with pytest.raises(InputError, match="^编辑后的大纲无法使用：编辑后的大纲没有章节。$"):
        edit_outline(chinese, [])
    unchanged = parse_sections("\n".join(f"{i}. {s.title}\n" + "\n".join(f"- {q}" for q in s.key_questions)
                                         for i, s in enumerate(chinese.sections, start=1)), chinese)
    assert unchanged == chinese and not unchanged.edited


def test_a_report_follows_the_outline_it_is_given(settings):
    outline = edit_outline(_outline(), [("Results and guidance", ["Did NVIDIA's latest results beat estimates?"]),
                                        ("Risk factors", ["What risk factors does NVIDIA disclose in its latest "
                                                          "annual report?"])])
    done = report(outline.question, settings=settings.replace(pack=PACK, offline=True), now=NOW, outline=outline)
    assert [s.section.title for s in done.sections] == ["Results and guidance", "Risk factors"]
    headings = [line for line in done.markdown.splitlines() if line.startswith("## ")]
    assert headings == ["## Executive summary", "## 1. Results and guidance", "## 2. Risk factors",
                        "## Risks and limitations", "## References"]
    assert "Outline edited before the research." in done.markdown
    assert "EPS of 0.81 against 0.75" in done.markdown
    assert "Export controls on our products to China" in done.markdown
    assert done.to_dict()["outline"]["edited"] is True


def test_approve_without_a_terminal_researches_the_outline_as_written(sample_app_env, monkeypatch, capsys):
    monkeypatch.delenv("FINSEARCH_NOW")             # the sample pack's own date is used
    code = main(["report", "Analyse NVIDIA's recent performance and outlook", "--approve", "--pack", str(PACK),
                 "--offline", "--json"])
    assert code == 0
    captured = capsys.readouterr()
    assert "No terminal to ask for approval on: researching the outline as written." in captured.err
    assert "time pinned to 2024-11-22 21:00 UTC" in captured.err
    printed = json.loads(captured.out)
    assert printed["now"] == "2024-11-22T21:00:00Z" and len(printed["sections"]) == 7
