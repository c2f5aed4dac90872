"""Deep research reports end to end on the report pack (tests/make_report_pack.py): the
outline's shape per question type, sections researched at once, one set of references,
a supplementary search for a planted gap, tables, the trust summary, budgets and the PDF."""

from __future__ import annotations

import json
import re
import threading
from datetime import datetime, timezone
from pathlib import Path

import pytest

from finsearch.answer.citations import markers
from finsearch.cli import main
from finsearch.deadline import Deadline
from finsearch.model.llm import LLMClient
from finsearch.model.loopback import Reply
from finsearch.plan.analysis import analyse
from finsearch.research.budget import ReportBudget
from finsearch.research.outline import make_outline, rule_outline
from finsearch.research.run import report

PACK = Path(__file__).resolve().parent / "fixtures" / "report_pack"
NOW = datetime(2024, 11, 22, 21, 0, tzinfo=timezone.utc)
NVIDIA = "Analyse NVIDIA's recent performance and outlook"


@pytest.fixture
def pack_settings(settings):
    # A little replayed latency, so that sections that run at once visibly overlap.
    return settings.replace(pack=PACK, offline=True, now=NOW, replay_delay_s=0.05)


@pytest.fixture
def nvidia(pack_settings):
    return report(NVIDIA, settings=pack_settings, now=NOW)


@pytest.mark.parametrize(("question", "kind", "titles"), [
    (NVIDIA, "company", ["Business and segments", "Recent results", "Valuation", "Analyst views", "Price action",
                         "Risk factors", "Catalysts and outlook"]),
    ("英伟达最近的表现和前景分析", "company",
     ["业务与板块", "近期业绩", "估值", "分析师观点", "股价走势", "风险因素", "催化剂与展望"]),
    ("NVDA vs AMD", "comparison", ["The companies side by side", "Results side by side", "Valuation side by side",
                                   "Price performance", "Analyst views", "Risks", "Outlook and verdict"]),
    ("How exposed is the US regional banks sector to commercial real estate?", "industry",
     ["The landscape", "The leading companies", "Recent developments", "Outlook"]),
    ("半导体行业的竞争格局如何？", "industry", ["行业概况", "龙头公司", "近期动态", "展望"]),
    ("What is the impact of the TikTok ban on Meta?", "event", ["What happened", "Market reaction", "Implications"]),
    ("What does the Fed rate cut mean for markets?", "macro", ["The picture", "Markets", "Outlook"]),
    ("美联储降息对市场的影响", "macro", ["宏观概况", "市场表现", "展望"]),
    ("Screen NVDA, AMD and INTC for the best value", "screening",
     ["Candidates and performance", "Valuation and analyst views", "News on the candidates"]),
])
def test_the_outline_has_its_types_shape_before_anything_is_fetched(question, kind, titles):
    outline = rule_outline(analyse(question, NOW))
    assert outline.question_type == kind
    assert [s.title for s in outline.sections] == titles
    assert all(s.key_questions for s in outline.sections)


def test_company_key_questions_name_the_company_in_the_questions_language():
    english = rule_outline(analyse(NVIDIA, NOW))
    assert english.sections[1].key_questions == (
        "What revenue, net income, EPS and margins did NVIDIA (NVDA) report in its filings for its latest quarter?",
        "Did NVDA's results for its latest quarter beat analysts' estimates, and how fast are its revenue and "
        "earnings growing?")
    chinese = rule_outline(analyse("英伟达最近的表现和前景分析", NOW))
    assert chinese.sections[2].key_questions == (
        "英伟达（NVDA）的市盈率与超威半导体（AMD）及行业相比如何，估值贵不贵？",
        "英伟达的股价距分析师平均目标价还有多少空间？")
    amd = rule_outline(analyse("Analyse AMD's recent results", NOW))
    assert amd.sections[0].key_questions[0] == ("What does Advanced Micro Devices (AMD) do: its sector, segments and "
                                                "where its revenue comes from?")


def test_sections_are_researched_at_the_same_time(nvidia):
    sections = nvidia.sections
    assert len(sections) == 7
    # One after another, one section would be in flight at a time; here most of them are at once.
    starts = [s.started_ms for s in sections]
    at_once = max(sum(1 for s in sections if s.started_ms <= t < s.finished_ms) for t in starts)
    assert at_once >= 4
    assert nvidia.stats.most_calls_at_once > 1


def test_references_are_numbered_once_for_the_whole_report_and_every_marker_resolves(nvidia):
    refs = nvidia.references
    assert [r.n for r in refs] == list(range(1, len(refs) + 1))
    assert len({r.evidence_id for r in refs}) == len(refs)
    body = nvidia.markdown.split("\n## References")[0]
    used = set(markers(body))
    assert used == {r.n for r in refs}
    audit = nvidia.audit.audit
    assert audit.integrity and not audit.unknown_markers
    # The analysts' targets are cited by the valuation and the analyst sections under one number.
    targets = next(r.n for r in refs if r.title == "NVIDIA (NVDA) analyst ratings and price targets")
    valuation = _section_text(nvidia.markdown, "3. Valuation")
    analysts = _section_text(nvidia.markdown, "4. Analyst views")
    assert f"[{targets}]" in valuation and f"[{targets}]" in analysts


def test_a_later_section_does_not_repeat_what_an_earlier_one_said(nvidia):
    sections = nvidia.markdown.split("\n## 1. ")[1].split("\n## Risks and limitations")[0]
    # Five sections' writers state the quote; the report states it where it is first said (results), not
    # in the others (valuation answers with the multiples, and its table gives the price). The price of
    # 2024-11-22 was given by a section's lead, so the quote line adds the day's change and market cap.
    assert sections.count("NVIDIA (NVDA) moved -0.30% on 2024-11-22, market cap $3.60T") == 1
    assert "last traded at $110.45" not in sections
    assert sections.count("Nvidia guides fourth-quarter revenue to about $37.5 billion [") == 1   # each story once
    # Each section still opens with the answer to its own question.
    assert _section_text(nvidia.markdown, "4. Analyst views").split("\n\n")[2].startswith(
        "Analysts' mean price target for NVIDIA (NVDA) is $171.00")
    summary = _section_text(nvidia.markdown, "Executive summary")
    assert summary.split("\n\n")[1].startswith("NVIDIA (NVDA): beat ")


def test_dense_data_is_tabled_and_every_row_cites_its_source(nvidia):
    results = _section_text(nvidia.markdown, "2. Recent results")
    assert "| Period | Revenue | Gross profit | Operating income | Net income | EPS | Free cash flow | Source |" \
        in results
    assert re.search(r"\| Q3 FY2025 \| \$35\.08B \| \$26\.16B \| \$21\.87B \| \$19\.31B \| 0\.78 \| \$16\.81B "
                     r"\| \[\d+\] \|", results)
    valuation = _section_text(nvidia.markdown, "3. Valuation")
    assert re.search(r"\| NVIDIA \(NVDA\) \| \$110\.45 \| \$3\.60T \| 52\.30 \|", valuation)


def test_the_report_opens_with_its_trust_summary_then_the_conclusions(nvidia):
    lines = nvidia.markdown.splitlines()
    assert lines[0] == "# NVIDIA (NVDA): company report — 2024-11-22"
    # The report pack holds no cause of NVIDIA's price moves: the price section's question asks for one.
    assert lines[2].startswith(f"> **Trust {nvidia.audit.trust:.2f} · key questions answered: 11 of 12.**")
    assert "every citation resolves: yes" in lines[2]
    assert "at most 8 sections and 60 source calls" in nvidia.markdown
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[0] == "## Executive summary"
    assert headings[-2:] == ["## Risks and limitations", "## References"]
    summary = _section_text(nvidia.markdown, "Executive summary")
    assert "EPS 0.81 against 0.75" in summary
    # A risk story a section already lists is not listed again under the report's risks.
    assert nvidia.markdown.count(": US weighs wider export curbs on AI chips to China, a risk for Nvidia [") == 1
    audit = nvidia.audit
    assert audit.audit.grounding > 0.95
    assert len(audit.key_questions) == 12 and audit.answered == 11
    assert [c.missing for c in audit.key_questions if not c.ok] == [("why",)]


def test_a_planted_gap_triggers_a_supplementary_search(pack_settings):
    amd = report("Analyse AMD's recent results and valuation", settings=pack_settings, now=NOW)
    results = amd.sections[1]
    assert results.section.title == "Recent results"
    gaps = {n.id: n.source for n in results.graph if n.status.value == "failed"}
    assert "financials" in gaps.values()          # the pack has no statements for AMD
    supplement = next(s for s in results.supplements if gaps.get(s.for_node) == "financials")
    assert supplement.round == 1 and supplement.source == "news" and supplement.found
    text = _section_text(amd.markdown, "2. Recent results")
    assert "Supplementary searches for what was missing: news “Advanced Micro Devices (AMD) quarterly" in text
    assert "AMD third-quarter revenue rises 18% to $6.8 billion" in text


def test_the_source_call_budget_is_kept_and_said(pack_settings):
    small = report(NVIDIA, settings=pack_settings, now=NOW, budget=ReportBudget(sections=3, source_calls=5))
    assert len(small.sections) == 3
    assert small.stats.source_calls == 5 and small.stats.refused_calls > 0
    assert "The report's budget of 5 source calls was spent" in small.markdown
    assert "at most 3 sections and 5 source calls" in small.markdown


def test_the_model_writes_the_outline_in_one_validated_call(llm_settings, fake_llm):
    outline_json = {"type": "company", "sections": [
        {"title": "Data-center demand", "key_questions": ["What were NVIDIA's latest revenue and net income?"]},
        {"title": "Valuation", "key_questions": ["What is NVIDIA's P/E ratio?"]}]}
    fake_llm.on("outline", Reply(content=json.dumps(outline_json)))
    with LLMClient(llm_settings, Deadline(10, threading.Event())) as client:
        outline = make_outline(analyse(NVIDIA, NOW), client)
    assert fake_llm.kinds() == ["outline"]
    assert outline.by == "llm"
    assert [s.title for s in outline.sections] == ["Data-center demand", "Valuation"]


def test_an_outline_that_does_not_fit_falls_back_to_the_rules(llm_settings, fake_llm):
    fake_llm.on("outline", Reply(content=json.dumps({"type": "horoscope", "sections": []})))
    with LLMClient(llm_settings, Deadline(10, threading.Event())) as client:
        outline = make_outline(analyse(NVIDIA, NOW), client)
    assert outline.by == "heuristic" and outline.question_type == "company"
    assert "The model's outline was not usable (unknown question type 'horoscope')" in outline.notes[0]


def test_report_command_json_and_pdf(sample_app_env, monkeypatch, capsys):
    monkeypatch.setenv("FINSEARCH_PACK", str(PACK))
    monkeypatch.setenv("FINSEARCH_NOW", "2024-11-22T21:00:00Z")
    out = sample_app_env / "r.pdf"
    assert main(["report", NVIDIA, "--offline", "--json", "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["outline"]["type"] == "company"
    assert set(printed) >= {"outline", "sections", "markdown", "references", "audit", "stats", "budget"}
    assert printed["sections"][1]["graph"]["nodes"][0]["id"] == "n0"
    assert printed["audit"]["citations"]["resolved"] is True
    assert printed["budget"]["source_calls"] == 60
    pypdf = pytest.importorskip("pypdf")
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(out).pages)
    assert out.stat().st_size > 20_000
    assert f"Trust {printed['audit']['trust']:.2f} · " in text and "References" in text and "Q3 FY2025" in text


def _section_text(markdown: str, heading: str) -> str:
    start = markdown.index(f"## {heading}\n")
    end = markdown.find("\n## ", start + 3)
    return markdown[start:end if end != -1 else None]


def test_a_chinese_request_gets_a_chinese_report(pack_settings):
    zh = report("英伟达最近的表现和前景分析", settings=pack_settings, now=NOW)
    lines = zh.markdown.splitlines()
    assert lines[0] == "# 英伟达（NVDA）公司研究报告 — 2024-11-22"
    assert lines[2].startswith(f"> **可信度 {zh.audit.trust:.2f} · ")
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[:3] == ["## 执行摘要", "## 1. 业务与板块", "## 2. 近期业绩"]
    assert headings[-2:] == ["## 风险与局限", "## 参考资料"]
    assert "| 期间 |" in zh.markdown
    assert zh.audit.audit.integrity
    assert (len(zh.audit.key_questions), zh.audit.answered) == (12, 12)


def test_outline_only_fetches_nothing(sample_app_env, capsys):
    assert main(["report", NVIDIA, "--outline-only", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["type"] == "company" and printed["by"] == "heuristic"
    assert [s["key"] for s in printed["sections"]] == ["business", "results", "valuation", "analysts", "price", "risks",
                                                        "catalysts"]
    assert not (sample_app_env / "cache").exists() or not any((sample_app_env / "cache").iterdir())


def test_the_model_path_outline_sections_and_summary_on_the_loopback(llm_settings, fake_llm):
    outline_json = {"type": "company", "sections": [
        {"title": "Results", "key_questions": ["What were NVIDIA's latest revenue, net income and EPS?"]},
        {"title": "Valuation", "key_questions": ["What are NVIDIA's market cap and P/E ratio?"]}]}
    fake_llm.on("outline", Reply(content=json.dumps(outline_json)))
    fake_llm.on("section", Reply(content="NVIDIA's figures are in the cited source [1]."))
    fake_llm.on("summary", Reply(content="- The results and the valuation are both covered [1][2].\n"
                                         "- A number that points at nothing [99]."))
    settings = llm_settings.replace(pack=PACK, offline=True, now=NOW)
    done = report(NVIDIA, settings=settings, now=NOW)
    kinds = fake_llm.kinds()
    assert kinds[0] == "outline" and kinds.count("section") == 2 and kinds[-1] == "summary"
    assert done.outline.by == "llm" and done.writer == "llm"
    assert [s.section.title for s in done.sections] == ["Results", "Valuation"]
    summary = _section_text(done.markdown, "Executive summary")
    assert "- The results and the valuation are both covered [1][2]." in summary
    assert "[99]" not in done.markdown
    assert "Dropped 1 citation(s) in the model's summary that pointed at no reference." in done.notes
    assert done.audit.audit.integrity


def test_each_sections_text_streams_as_the_model_writes_it(llm_settings, fake_llm):
    from finsearch.research.result import SectionDone, SectionWriting
    from finsearch.research.run import run_report

    outline_json = {"type": "company", "sections": [
        {"title": "Results", "key_questions": ["What were NVIDIA's latest revenue, net income and EPS?"]},
        {"title": "Valuation", "key_questions": ["What are NVIDIA's market cap and P/E ratio?"]}]}
    fake_llm.on("outline", Reply(content=json.dumps(outline_json)))
    fake_llm.on("section", Reply(content="NVIDIA's figures are in the cited source [1]. The rest follows [1]."))
    fake_llm.on("summary", Reply(content="- Both sections are covered [1]."))
    events = list(run_report(NVIDIA, settings=llm_settings.replace(pack=PACK, offline=True, now=NOW), now=NOW))
    written = {i: "".join(e.text for e in events if isinstance(e, SectionWriting) and e.index == i) for i in (1, 2)}
    assert written == {1: "NVIDIA's figures are in the cited source [1]. The rest follows [1].",
                       2: "NVIDIA's figures are in the cited source [1]. The rest follows [1]."}
    # Each section's text arrives before that section is done.
    for index in (1, 2):
        last_piece = max(i for i, e in enumerate(events) if isinstance(e, SectionWriting) and e.index == index)
        done = next(i for i, e in enumerate(events) if isinstance(e, SectionDone) and e.index == index)
        assert last_piece < done
