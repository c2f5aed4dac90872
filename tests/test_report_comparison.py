"""A comparison's and an event's substance (issue 30), written by the rules from the findings of
each company (`research.substance`): a thesis naming who leads on what, a winner per dimension in
a table with cited reasons, each company's stance and a preference, an event's reaction and
impact, a conclusion with what would change it, and the not-investment-advice line; on the
bundled sample (Apple vs Microsoft), the Adobe probe pack (Adobe vs Salesforce) and the tariffs pack.

The reports are run offline as usual; their evidence is then read by `Substance` with a fresh
numbering, as the runner does once every section is written."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from finsearch.answer.titles import instrument_names, reference_title
from finsearch.research.numbering import ReportCitations
from finsearch.research.run import report
from finsearch.research.substance import Substance

ROOT = Path(__file__).resolve().parent.parent
PACKS = {"adbe-crm": (ROOT / "tests/probes/packs/us_guidance", datetime(2025, 3, 18, 21, 0, tzinfo=timezone.utc),
                      "Compare Adobe and Salesforce"),
         "aapl-msft": (ROOT / "finsearch/demo_pack", datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc),
                       "Compare Apple and Microsoft"),
         "tariffs": (ROOT / "tests/probes/packs/auto_tariffs", datetime(2025, 4, 8, 20, 30, tzinfo=timezone.utc),
                     "What is the impact of the US auto tariffs on Toyota and Honda?")}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    from finsearch.settings import from_env

    settings = from_env().replace(data_dir=tmp_path_factory.mktemp("data"), node_timeout_s=5.0)
    out = {}
    for name, (pack, now, question) in PACKS.items():
        done = report(question, settings=settings.replace(pack=pack, offline=True, now=now), now=now)
        language = done.analysis.language
        names = instrument_names(done.analysis, language)
        for s in done.sections:
            names.update({k: v for k, v in instrument_names(s.analysis, language).items() if k not in names})
        citations = ReportCitations(lambda item, names=names, language=language: reference_title(item, names, language),
                                    lambda item: None)
        every = list({e.id: e for s in done.sections for e in s.given}.values())
        substance = Substance(done.outline.question_type, list(done.analysis.tickers), done.question, every,
                              citations.number, names, language)
        out[name] = (done, substance, substance.summary(), substance.conclusion(), substance.tables())
    return out


def _openings(markdown: str) -> list[str]:
    sections = re.split(r"\n## \d+\. ", markdown)[1:]
    return [re.split(r"(?<=\]\.) ", p)[0] for s in sections for p in s.split("\n\n")[2:3] if p and p[0].isalpha()]


@pytest.mark.parametrize("name", ["adbe-crm", "aapl-msft"])
def test_a_comparison_summary_names_the_leaders_in_a_cited_table_with_a_stance_each(written, name):
    done, _, summary, _, _ = written[name]
    assert done.outline.question_type == "comparison"
    assert summary.startswith("**Thesis:** ") and " leads on " in summary
    table = summary.split("**Winner per dimension**\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert table[0] == "| Dimension | Leader | Why |"
    assert len(table) >= 3 and all(re.search(r"\[\d+\] \|$", row) for row in table[2:])
    stances = re.findall(r"^- \*\*(.+?): (constructive|neutral|cautious)\*\*", summary, re.M)
    assert len(stances) == 2
    assert re.search(r"\*\*(Prefer .+ over .+|No clear preference)\*\*", summary)
    assert "_Not investment advice" in summary
    assert not [o for o in _openings(done.markdown) if len(o) > 20 and o in summary]


def test_adobe_leads_salesforce_on_valuation_and_results_and_each_keeps_its_own_stories(written):
    _, substance, summary, _, _ = written["adbe-crm"]
    assert "| Valuation (the lower P/E) | Adobe (ADBE) | forward P/E 20.90 against Salesforce (CRM) forward P/E 26.10" \
        in summary
    assert "| Return over the period | Salesforce (CRM) | -0.88% against Adobe (ADBE) -8.38%" in summary
    assert "| Results against estimates | Adobe (ADBE) |" in summary
    crm = summary.split("**Salesforce (CRM): ", 1)[1].split("\n", 1)[0]
    assert "downgraded" not in crm            # Jefferies downgraded Adobe, not Salesforce
    assert "**Prefer Adobe (ADBE) over Salesforce (CRM)**" in summary
    assert any("Adobe (ADBE)" in line for line in substance.ending("vs_verdict"))


def test_an_ai_upgrade_cycle_is_no_rating_change(written):
    _, _, summary, _, _ = written["aapl-msft"]
    assert "upgraded" not in summary


def test_a_comparison_puts_the_companies_side_by_side_in_its_sections_tables(written):
    tables = written["adbe-crm"][4]
    assert re.search(r"\| Adobe \(ADBE\) \| \$423\.78 \| \$171\.00B \| 31\.50 \| 20\.90 \|", tables["vs_valuation"])
    assert re.search(r"\| Salesforce \(CRM\) \| \$327\.15 \| \$271\.00B \| 42\.80 \| 26\.10 \|", tables["vs_valuation"])
    assert re.search(r"\| Adobe \(ADBE\) \| 5\.08 \| 4\.97 \| beat \| guided below expectations \|",
                     tables["vs_results"])
    assert re.search(r"\| Adobe \(ADBE\) \| \$540\.00 \| .* \| \+27\.42% \(derived\) \|", tables["vs_analysts"])
    assert tables["vs_price"].count("\n| ") == 4          # the head, its rule and a row per company


def test_the_tariffs_event_says_what_happened_the_reaction_who_is_exposed_and_a_cautious_stance(written):
    done, _, summary, _, tables = written["tariffs"]
    assert done.outline.question_type == "event"
    assert summary.startswith("**What happened:** “")
    assert re.search(r"\*\*The market's reaction:\*\* over the period, Toyota Motor \(TM\) -\d+\.\d+%, "
                     r"Honda Motor \(HMC\) -\d+\.\d+% \[\d+\]\[\d+\]", summary)
    assert re.search(r"Toyota Motor \(TM\) looks the most exposed, at -\d+\.\d+% \[\d+\]", summary)
    assert "**Stance: cautious** — the impact looks negative for Toyota Motor (TM), Honda Motor (HMC)" in summary
    reasons = [line for line in summary.splitlines() if line.startswith("- (")]
    assert reasons and all(re.search(r"\[\d+\]$", line) for line in reasons)
    assert "_Not investment advice" in summary
    assert not [o for o in _openings(done.markdown) if len(o) > 20 and o in summary]
    assert "Toyota Motor (TM)" in tables["reaction"] and "Honda Motor (HMC)" in tables["reaction"]


@pytest.mark.parametrize("name", ["adbe-crm", "aapl-msft", "tariffs"])
def test_every_report_ends_with_a_cited_conclusion_saying_what_would_change_it(written, name):
    conclusion = written[name][3]
    assert conclusion.startswith("## Conclusion\n\nOn the findings above")
    assert re.search(r"\[\d+\]", conclusion)
    assert "What would change it: " in conclusion or "points the other way" in conclusion


def test_a_chinese_comparison_is_written_in_chinese(tmp_path):
    from finsearch.settings import from_env

    pack, now, _ = PACKS["aapl-msft"]
    settings = from_env().replace(data_dir=tmp_path, node_timeout_s=5.0, pack=pack, offline=True, now=now)
    done = report("比较苹果和微软", settings=settings, now=now)
    names = instrument_names(done.analysis, "zh")
    citations = ReportCitations(lambda item: item.title, lambda item: None)
    every = list({e.id: e for s in done.sections for e in s.given}.values())
    substance = Substance(done.outline.question_type, list(done.analysis.tickers), done.question, every,
                          citations.number, names, "zh")
    summary = substance.summary()
    assert "**核心观点：**" in summary and "**各维度胜出者**" in summary and "不构成投资建议" in summary
    assert substance.conclusion().startswith("## 结论\n\n综合以上发现")


@pytest.mark.parametrize("name", ["adbe-crm", "aapl-msft", "tariffs"])
def test_the_report_itself_carries_the_summary_the_winner_table_and_a_cited_conclusion(written, name):
    """The runner puts the rules' substance in the report: its summary under Executive summary,
    a conclusion before Risks and limitations, every citation resolving."""
    done, *_ = written[name]
    headings = [line for line in done.markdown.splitlines() if line.startswith("## ")]
    assert headings.index("## Conclusion") == headings.index("## Risks and limitations") - 1
    summary = done.markdown.split("## Executive summary\n\n", 1)[1].split("\n## ", 1)[0]
    assert "_Not investment advice" in summary
    if done.outline.question_type == "comparison":
        assert "**Winner per dimension**" in summary
    conclusion = done.markdown.split("## Conclusion\n\n", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"\[\d+\]", conclusion) and done.audit.audit.integrity
