"""Trust, defined once (finsearch.answer.trust): the three badges issue 29 found contradicting
each other, and the same badge in the chat, the HTML export and the report, for the same run."""

import html
import itertools

import pytest
from streamlit.testing.v1 import AppTest

from finsearch import pipeline
from finsearch.answer.trust import Trust
from finsearch.export import answer_html
from finsearch.settings import from_env
from tests.app_kit import APP, settle
from tests.conftest import DEMO_PACK, NOW

TEN_K = "what did nvidia say about risks in its latest 10-k"


@pytest.fixture(scope="module")
def settings(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trust")
    return from_env({}, cache_dir=folder / "cache", data_dir=folder / "data", llm="heuristic", now=NOW,
                    pack=DEMO_PACK, offline=True)


def test_a_10k_question_whose_10k_was_not_retrieved_is_not_trusted_as_all_traced(settings):
    result = pipeline.ask(TEN_K, settings=settings)
    assert any(n.source == "sec_section" and n.status.value == "failed" for n in result.graph)
    trust = result.audit.trust_in("en")
    # Every figure of its news answer is traced, but the 10-K was asked for and not found.
    assert trust.traced == trust.figures > 0
    assert trust.score == result.audit.trust == 0.5 and trust.colour == "orange"
    assert trust.badge("en") == "Trust 0.50 · did not answer: the company's filings (not in the data)"
    assert result.audit.trust_in("zh").badge("zh") == "可信度 0.50 · 未回答：公司公告与文件（数据中没有）"
    assert result.audit.answered.to_json()["missing"] == [{"intent": "filings", "reason": "unretrieved"}]


def test_full_grounding_and_coverage_with_nothing_answered_is_a_red_zero_that_says_why():
    trust = Trust(grounding=1.0, coverage=1.0, integrity=True, answered=0.0, figures=3, traced=3, key_sentences=2,
                  cited_key_sentences=2, unanswered="did not answer: the reasons for a move")
    assert trust.score == 0.0 and trust.level == "low" and trust.colour == "red"
    assert trust.badge("en") == "Trust 0.00 · did not answer: the reasons for a move"
    explained = trust.explanation("en")
    assert "Figures traced to the sources their sentences cite: 3 of 3 (grounding 100%)." in explained
    assert "Key-fact sentences that cite a source: 2 of 2 (coverage 100%)." in explained
    assert "What was asked that was answered: 0%." in explained
    assert "did not answer: the reasons for a move" in explained


def test_a_report_with_every_figure_traced_and_no_key_question_answered_says_so_in_its_one_badge():
    from finsearch.answer.audit import Audit, FigureCheck
    from finsearch.research.result import report_trust

    checks = tuple(FigureCheck(f"{n}%", "s", "supported", ("e",), ("e",)) for n in range(64))
    audit = Audit(1.0, 1.0, 1.0, checks, 10, 10, (), (), ())
    trust = report_trust(audit, 0, 5, "en")
    assert trust.score == 0.0 and trust.colour == "red"
    assert trust.badge("en") == "Trust 0.00 · key questions answered: 0 of 5"
    assert report_trust(audit, 0, 5, "zh").badge("zh") == "可信度 0.00 · 关键问题已回答 0/5"
    assert report_trust(audit, 5, 5, "en").badge("en") == "Trust 1.00 · figures traced: 64 of 64"
    assert report_trust(audit, 5, 5, "en").colour == "green"


def test_green_only_for_a_high_trust_with_nothing_flagged_or_unanswered():
    for grounding, coverage, integrity, answered, unanswered, stale, nothing in itertools.product(
            (0.0, 0.5, 1.0), (0.0, 1.0), (True, False), (0.0, 0.5, 1.0), (None, "did not answer: x"), (False, True),
            (False, True)):
        traced = 4 if grounding == 1.0 else 2
        trust = Trust(grounding, coverage, integrity, answered, 4, traced, 2, 2, unanswered, stale, nothing)
        if trust.colour == "green":
            assert trust.score >= 0.8 and traced == 4 and unanswered is None and integrity and not stale
        if trust.score == 0.0:
            assert trust.colour == "red"
        assert trust.badge("en").startswith(f"Trust {trust.score:.2f} · ")


def test_the_chat_and_the_export_show_the_same_badge_for_the_same_run(sample_app_env):
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.chat_input[0].set_value(TEN_K).run()
    settle(at)
    result = at.session_state["finsearch_chat"].turns[0].result
    trust = result.audit.trust_in("en")
    badge = trust.badge("en")
    shown = [m for m in at.markdown if "-badge[" in m.value and "Trust " in m.value]
    assert len(shown) == 1, [m.value for m in at.markdown]          # once per answer
    assert shown[0].value.startswith(":orange-badge[") and "Trust 0.50 · did not answer: the company's filings" \
        in shown[0].value
    assert "What was asked that was answered: 50%." in shown[0].proto.help
    exported = answer_html.render(result)
    assert html.escape(badge) in exported and 'class="badge trust trust-medium"' in exported
    assert html.escape("What was asked that was answered: 50%.") in exported


def test_the_report_page_and_its_files_show_the_same_badge(tmp_path):
    from finsearch.export.report import html_document
    from finsearch.research.run import report
    from tests.test_research_audit import NOW as REPORT_NOW
    from tests.test_research_audit import PACK as REPORT_PACK

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic",
                        now=REPORT_NOW, pack=REPORT_PACK, offline=True)
    done = report("Analyse AMD's recent performance and outlook", settings=settings, now=REPORT_NOW)
    badge = done.audit.trust_in("en").badge("en")
    assert badge.startswith(f"Trust {done.audit.trust:.2f} · ")
    assert f"> **{badge}.** " in done.markdown
    assert html.escape(badge) in html_document(done)
