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
from finsearch.reference.peers import rival_of
from finsearch.research.approval import approve, parse_sections
from finsearch.research.outline import edit_outline, parse_outline, rule_outline
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
    assert "cn_announcements" in planned["catalysts"] and "cn_announcements" in planned["risks"]
    assert "cn_industry_compare" in planned["valuation"]          # against its industry
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
    assert "6. 风险因素" in printed and "7. 催化剂与展望" in printed


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
                        "## Conclusion", "## Risks and limitations", "## References"]
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


# -- report types and key questions that are research plans ----------------------------------

TYPES = [
    ("Analyse Adobe's latest quarter", "company"),
    ("腾讯2024年三季度业绩分析", "company"),
    ("比亚迪2024年经营情况分析", "company"),
    ("NVIDIA's position in the chip industry", "company"),
    ("NVDA vs AMD", "comparison"),
    ("Compare Coca-Cola and PepsiCo", "comparison"),
    ("Compare the dividend yields of KO and PEP", "comparison"),
    ("NVIDIA vs AMD in the chip industry", "comparison"),
    ("Apple, Microsoft and Google", "comparison"),
    ("贵州茅台和五粮液对比", "comparison"),
    ("比较比亚迪、特斯拉和蔚来", "comparison"),
    ("NVDA AMD INTC AVGO", "industry"),
    ("Compare NVIDIA, AMD, Intel and Broadcom", "industry"),
    ("How exposed is the US regional banks sector to commercial real estate?", "industry"),
    ("半导体行业的竞争格局如何？", "industry"),
    ("What is the impact of the TikTok ban on Meta?", "event"),
    ("关税对汽车股的影响", "event"),
    ("What does the Fed rate cut mean for markets?", "macro"),
    ("美联储降息对市场的影响", "macro"),
    ("Screen NVDA, AMD and INTC for the best value", "screening"),
    ("帮我筛选一下低估值的银行股", "screening"),
]


@pytest.mark.parametrize(("question", "kind"), TYPES)
def test_the_report_type_is_chosen_from_the_request(question, kind):
    assert rule_outline(analyse(question, NOW)).question_type == kind


def test_a_comparison_has_its_own_shape_in_both_languages():
    english = rule_outline(analyse("NVDA vs AMD", NOW))
    assert [s.title for s in english.sections] == [
        "The companies side by side", "Results side by side", "Valuation side by side", "Price performance",
        "Analyst views", "Risks", "Outlook and verdict"]
    chinese = rule_outline(analyse("贵州茅台和五粮液对比", NOW))
    assert [s.title for s in chinese.sections] == ["公司概况对比", "业绩对比", "估值对比", "股价表现对比", "分析师观点",
                                                    "风险对比", "展望与结论"]
    assert chinese.sections[2].key_questions[0] == \
        "贵州茅台（600519.SS）和五粮液（000858.SZ）的市盈率和市值对比如何，哪个更便宜？"


def test_a_company_outline_follows_the_analysts_structure():
    outline = rule_outline(analyse("Analyse Adobe's latest quarter", NOW))
    assert [s.key for s in outline.sections] == ["business", "results", "valuation", "analysts", "price", "risks",
                                                 "catalysts"]
    asks = {s.key: s.key_questions for s in outline.sections}
    assert asks["valuation"][0] == ("How does the P/E of Adobe (ADBE) compare with that of Salesforce (CRM) and its "
                                    "industry, and is it expensive?")
    assert asks["valuation"][1] == "How far is ADBE's price from the analysts' mean target?"
    assert asks["risks"][0] == "What risk factors does Adobe (ADBE) disclose in its latest 10-K annual report?"
    quarter = rule_outline(analyse("腾讯2024年三季度业绩分析", NOW))
    assert quarter.sections[1].key_questions[0] == \
        "腾讯（0700.HK）2024年第三季度的营收、净利润、每股收益和利润率是多少？"
    assert rule_outline(analyse("Analyse Tencent in Q3 2024", NOW)).sections[1].key_questions[0] == \
        "What revenue, net income, EPS and margins did Tencent (0700.HK) report in its filings for Q3 2024?"


# Requests in both languages and of every type with companies, with the period each names.
READ_BACK = [
    ("Analyse Adobe's latest quarter", "over the past three months"),
    ("How is Tesla doing this year?", "in 2024"),
    ("Analyse Tencent in Q3 2024", "Q3 2024"),
    ("Analyse Kweichow Moutai", "over the past three months"),
    ("腾讯2024年三季度业绩分析", "2024年第三季度"),
    ("比亚迪2024年经营情况分析", "2024年"),
    ("英伟达最近的表现和前景分析", "2024年11月15日 至 2024年11月22日"),      # 最近: the past week
    ("NVDA vs AMD", "over the past three months"),
    ("Compare Coca-Cola and PepsiCo in 2024", "in 2024"),
    ("Apple, Microsoft and Google", "over the past three months"),
    ("贵州茅台和五粮液对比", "近三个月"),
    ("比较比亚迪、特斯拉和蔚来", "近三个月"),
    ("Screen NVDA, AMD and INTC for the best value", "over the past three months"),
    ("What is the impact of the TikTok ban on Meta?", "over the past three months"),
]


def _requests():
    for question, period in READ_BACK:
        analysis = analyse(question, NOW)
        yield analysis, rule_outline(analysis), period


def test_no_key_question_is_the_request_plus_a_suffix():
    for question, _ in [*TYPES, *READ_BACK]:
        outline = rule_outline(analyse(question, NOW))
        stem = question.rstrip("?？。. ").lower()
        asks = [q for s in outline.sections for q in s.key_questions]
        assert asks and not any(q.lower().startswith(stem) or q.lower().endswith(stem) for q in asks), question
        assert len(set(asks)) == len(asks), question


def test_key_questions_name_the_company_and_the_period():
    for analysis, outline, period in _requests():
        tickers = [e.ticker for e in analysis.entities if e.ticker]
        asks = [q for s in outline.sections for q in s.key_questions]
        # Every question names a company (all of them in a comparison or a screen), by name or ticker.
        names = {t: (t, analysis.entities[i].display(analysis.language)) for i, t in enumerate(tickers)}
        every = outline.question_type in ("comparison", "screening")
        for q in asks:
            if outline.question_type == "event" and not any(n in q for t in tickers for n in names[t]):
                continue        # an event's news questions are about the event
            found = [t for t in tickers if any(n in q for n in names[t])]
            assert found == tickers if every else found, (q, tickers)
        # The period is named where the question is about one: the price, the news, the results.
        assert any(period in q for q in asks), (analysis.question, period)
        if outline.question_type in ("company", "comparison"):
            price = next(s for s in outline.sections if s.key in ("price", "vs_price"))
            assert period in price.key_questions[0] or period.startswith("20") and period[:4] in \
                price.key_questions[0], price.key_questions


def test_every_key_question_is_read_back_as_its_companies():
    """A section's search reads its key questions with the report's question as the prior (as
    `research.section` does): each must come back as the companies it names, and a rival named
    for the valuation as that rival too."""
    for analysis, outline, _ in _requests():
        tickers = [e.ticker for e in analysis.entities if e.ticker]
        for section in outline.sections:
            for q in section.key_questions:
                read = [e.ticker for e in analyse(q, NOW, prior=analysis).entities if e.ticker]
                if outline.question_type == "event" and not set(read) & set(tickers):
                    continue
                rival = rival_of(tickers[0])
                wanted = set(tickers) | ({rival} if rival and f"{rival})" in q or f"{rival}）" in q else set())
                if outline.question_type == "company" and section.key != "valuation":
                    assert read == tickers, (q, read)
                else:
                    assert set(read) == wanted, (q, read, wanted)
        # Each section's whole search (its questions read together) keeps them too.
        for section in outline.sections:
            read = {e.ticker for e in analyse(section_question(section), NOW, prior=analysis).entities if e.ticker}
            assert set(tickers) <= read or outline.question_type == "event", (section.key, read)


def test_the_models_outline_may_be_a_comparison_and_stays_editable():
    analysis = analyse("NVDA vs AMD", NOW)
    outline = parse_outline(json.dumps({"type": "comparison", "sections": [
        {"title": "Growth", "key_questions": ["How fast are NVIDIA (NVDA) and AMD (AMD) growing revenue?"]},
        {"title": "Valuation", "key_questions": ["How do the P/E ratios of NVDA and AMD compare?"]}]}), analysis)
    assert outline.question_type == "comparison" and outline.by == "llm"
    edited = edit_outline(rule_outline(analysis), [("Valuation", ["How do the P/E ratios of NVDA and AMD compare?"])])
    assert edited.question_type == "comparison" and edited.edited and edited.sections[0].key == "s1"
