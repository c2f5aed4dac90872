"""What a reader sees of a "why" answer in the browser: an explanation in prose (the cause with the
move's date and size, then the evidence and what speaks against it), the stories it rests on as
references below, each story used once. Real Chromium against the app on the Adobe probe pack
(tests/probes/packs/us_guidance, invented data)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_kit import (
    SAMPLE,
    ask,
    graph_frame,
    open_page,
    running_app,
    wait_for_answer,
    wait_graph,
    wait_status,
)
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

PACK = ROOT / "tests" / "probes" / "packs" / "us_guidance"
# Each story of the pack, by its headline (written out from tests/probes/packs_dev.py).
HEADLINES = ("Adobe unveils Firefly video model for enterprise customers",
             "What to expect from Adobe's first-quarter report",
             "Adobe tops first-quarter estimates as Firefly subscriptions grow",
             "Adobe's annual forecast underwhelms as AI payoff takes longer",
             "Jefferies downgrades Adobe to hold, cuts target to $450",
             "Adobe posts its worst day in more than two years",
             "Adobe's sell-off leaves it at its cheapest valuation in a decade", "Why Adobe stock is falling today")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("answers"), FINSEARCH_PACK=str(PACK), FINSEARCH_OFFLINE="1",
                     FINSEARCH_NOW="2025-03-18T21:00:00Z") as app:
        yield app.url


def test_a_why_answer_reads_as_an_explanation_with_its_stories_as_references_each_used_once(browser, server,
                                                                                              request):
    page = open_page(browser, request)
    ask(page, server, "Why did Adobe stock fall last week?")
    wait_for_answer(page)
    message = page.locator("[data-testid=stChatMessage]").last
    paragraphs = [p.strip() for p in message.locator("[data-testid=stMarkdownContainer] p").all_inner_texts()
                  if p.strip()]
    # The cause first, with the move's date and size, quoting the sentence that reported it (after the
    # turn's badges, which are paragraphs of their own).
    start = next(i for i, p in enumerate(paragraphs) if p.startswith("Adobe (ADBE) fell"))
    lead, evidence = paragraphs[start], paragraphs[start + 1]
    assert lead.startswith("Adobe (ADBE) fell 9.42% on 2025-03-14 after an outlook that fell short of "
                           "expectations"), lead
    assert "below the consensus estimate of $23.70 billion" in lead and "(Ledger Wire, 2025-03-13)" in lead
    # Then the evidence for it and what speaks against it, in sentences, not a list.
    assert evidence.startswith("Market Daily Probe wrote on 2025-03-14:"), evidence
    assert "Against that, Ledger Wire wrote on 2025-03-13: “Adobe reported revenue of $5.71 billion" in evidence
    # … and last the caveat: a second cause another story gives, said as one that may have added to the move.
    assert evidence.endswith("Other reports point to an analyst downgrade [5], which may have added to the move."), \
        evidence
    assert evidence.index("wrote on 2025-03-14") < evidence.index("Against that") < evidence.index("Other reports")
    assert "Headlines" not in paragraphs and "Earlier and later coverage" not in paragraphs
    # The stories the prose rests on, and the period's others, are references below: each headline is
    # shown once, in the References list, never again as a list of headlines.
    assert any(p.startswith("Other stories of the period: [") for p in paragraphs), paragraphs
    page.get_by_text(re.compile(r"^References \(\d+\)$")).first.wait_for()
    shown = message.inner_text()
    for headline in HEADLINES:
        assert shown.count(headline) <= 1, headline
    references = message.locator("[data-testid=stExpander]").filter(has_text="References").inner_text()
    for cited in ("Adobe's annual forecast underwhelms", "Adobe posts its worst day", "Adobe tops first-quarter"):
        assert shown.count(cited) == 1 and cited in references, cited


def _trust_badge(message):
    """The answer's one trust badge (finsearch.answer.trust), as the page shows it."""
    badge = message.locator("[data-testid=stMarkdown]").filter(has_text=re.compile(r"(Trust|可信度) \d\.\d\d · "))
    badge.first.wait_for(timeout=30_000)
    return badge


def _hover_text(page, badge) -> str:
    """The explanation the badge's help icon shows on hover."""
    target = badge.first.locator("[data-testid=stTooltipHoverTarget]")
    target.scroll_into_view_if_needed()
    target.hover()
    tip = page.get_by_role("tooltip").locator("[data-testid=stTooltipContent]").last
    tip.wait_for(timeout=30_000)
    return tip.inner_text()


def test_an_answer_shows_one_trust_badge_with_its_parts_on_hover(browser, server, request):
    page = open_page(browser, request)
    ask(page, server, "Why did Adobe stock fall last week?")
    wait_for_answer(page)
    message = page.locator("[data-testid=stChatMessage]").last
    badge = _trust_badge(message)
    assert badge.count() == 1
    shown = badge.first.inner_text()
    assert re.search(r"Trust \d\.\d\d · ", shown), shown
    assert "coverage" not in shown and "grounding" not in shown      # one number, its parts on hover
    explained = _hover_text(page, badge)
    assert "Figures traced to the sources their sentences cite:" in explained
    assert "Key-fact sentences that cite a source:" in explained and "Trust = (0.6 × figures traced" in explained


# The demo pack with each replayed call held a moment: a run's status is there to be read while it runs.
@pytest.fixture(scope="module")
def sample_server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("answers-sample"), **SAMPLE, FINSEARCH_REPLAY_DELAY_MS="1500") as app:
        yield app.url


NODE_LABELS = "() => [...document.querySelectorAll('g.node')].filter(g => g.dataset.id !== 'n0')" \
              ".map(g => g.textContent)"


def _chrome_while_running(page) -> tuple[str, str]:
    """The run bar's text and the graph's legend while the run goes."""
    wait_status(page, "running")
    # The bar's state reaches the page before its Stop button on a busy machine ("正在检索… 0.3 s" alone).
    runbar = page.locator('[class*="st-key-runbar-"]').last
    runbar.get_by_role("button").first.wait_for(timeout=30_000)
    bar = runbar.inner_text()
    # The bar is drawn before the graph and its legend: wait for the legend too, as a reader does.
    legend = page.locator("[data-testid=stChatMessage]").last.locator("[data-testid=stCaptionContainer]")
    legend.filter(has_text=re.compile(r"\S")).first.wait_for(timeout=30_000)
    return bar, "\n".join(legend.all_inner_texts())


def _node_labels(page) -> list[str]:
    wait_graph(page, lambda nodes: len(nodes) > 1)
    return graph_frame(page).evaluate(NODE_LABELS)


def test_a_chinese_answer_is_framed_in_chinese_and_an_english_one_in_english(browser, sample_server, request):
    page = open_page(browser, request)
    ask(page, sample_server, "贵州茅台最近一个月表现如何？")
    bar, legend = _chrome_while_running(page)
    assert "正在检索…" in bar and "停止" in bar and "Searching" not in bar, bar
    assert "完成" in legend and "根据上游结果改写" in legend and "pending" not in legend, legend
    labels = _node_labels(page)
    assert labels and all(re.search(r"[\u4e00-\u9fff]", label) for label in labels), labels
    assert any("历史行情" in label or "日线行情" in label for label in labels), labels
    wait_status(page, "done")
    message = page.locator("[data-testid=stChatMessage]").last
    page.get_by_text(re.compile(r"^参考资料（\d+）$")).first.wait_for(timeout=30_000)
    message.get_by_text("导出 HTML").wait_for(timeout=30_000)       # the turn's last row is drawn
    shown = message.inner_text()
    for words in ("规则引擎（未用大模型）", "示例数据，并非真实行情", "导出 HTML", "分享", "根据上游结果改写"):
        assert words in shown, words
    assert re.search(r"可信度 \d\.\d\d · ", _trust_badge(message).first.inner_text())
    for english in ("References", "heuristic backend", "not real quotes", "Export HTML", "pending", "price history"):
        assert english not in shown, english
    chat_box = page.get_by_test_id("stChatInputTextArea")
    expect(chat_box).to_have_attribute("placeholder", "输入一个金融问题…")     # the conversation's language

    page = open_page(browser, request)
    ask(page, sample_server, "How did NVDA do last month?")
    bar, legend = _chrome_while_running(page)
    assert "Searching…" in bar and "Stop" in bar and "rewritten from its parents' results" in legend
    assert any("price history" in label for label in _node_labels(page))
    wait_for_answer(page)
    page.get_by_text(re.compile(r"^References \(\d+\)$")).first.wait_for(timeout=30_000)
    page.locator("[data-testid=stChatMessage]").last.get_by_text("Export HTML").wait_for(timeout=30_000)
    shown = page.locator("[data-testid=stChatMessage]").last.inner_text()
    assert "heuristic backend (no LLM)" in shown and "Export HTML" in shown and "参考资料" not in shown
