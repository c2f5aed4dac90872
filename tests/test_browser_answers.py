"""What a reader sees of a "why" answer in the browser: an explanation in prose (the cause with the
move's date and size, then the evidence and what speaks against it), the stories it rests on as
references below, each story used once. Real Chromium against the app on the Adobe probe pack
(tests/probes/packs/us_guidance, invented data)."""

from __future__ import annotations

import re

import pytest

from tests.browser_kit import ask, open_page, running_app, wait_for_answer
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
