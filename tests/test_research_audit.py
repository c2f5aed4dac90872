"""The report audit on planted figures: a report over the report pack's evidence whose
figures are planted supported, misattributed, unsupported and derived, with the counts and
the trust summary worked out by hand."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from finsearch.answer.audit import audit
from finsearch.research.compose import trust_summary
from finsearch.research.run import report

PACK = Path(__file__).resolve().parent / "fixtures" / "report_pack"
NOW = datetime(2024, 11, 22, 21, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def nvidia(tmp_path_factory):
    from finsearch.settings import from_env

    folder = tmp_path_factory.mktemp("audit")
    settings = from_env({}, cache_dir=folder / "cache", data_dir=folder / "data", llm="heuristic", now=NOW,
                        pack=PACK, offline=True)
    return report("Analyse NVIDIA's recent performance and outlook", settings=settings, now=NOW)


def _number(done, title: str) -> int:
    return next(r.n for r in done.references if r.title == title)


def test_planted_figures_are_counted_exactly(nvidia):
    quote = _number(nvidia, "NVIDIA (NVDA) quote")
    targets = _number(nvidia, "NVIDIA (NVDA) analyst ratings and price targets")
    earnings = _number(nvidia, "NVIDIA (NVDA) earnings")
    planted = "\n\n".join([
        "## Executive summary",
        f"NVIDIA (NVDA) last traded at $110.45 [{quote}].",                               # supported
        f"Analysts' mean price target is $171.00 [{quote}].",                            # misattributed: the targets
        f"That target sits 54.82% above the last price of $110.45 [{quote}][{targets}].",  # derived; supported
        f"The targets range from $90.00 to $220.00, a spread of $130.00 [{targets}].",    # supported ×2; derived
        f"NVIDIA (NVDA) reported revenue of $41.20B [{earnings}].",                      # unsupported: nowhere
        f"It guided revenue to about $37.5 billion [{earnings}].",                       # misattributed: the news
    ])
    used = {quote, targets, earnings}
    refs = [r for r in nvidia.references if r.n in used]
    result = audit(planted, refs, nvidia.graph, nvidia.analysis)
    verdicts = [(c.text, c.verdict, c.derived) for c in result.checks]
    assert verdicts == [
        ("$110.45", "supported", False),
        ("$171.00", "misattributed", False),
        ("54.82%", "supported", True),
        ("$110.45", "supported", False),
        ("$90.00", "supported", False),
        ("$220.00", "supported", False),
        ("$130.00", "supported", True),
        ("$41.20B", "unsupported", False),
        ("$37.5 billion", "misattributed", False),
    ]
    assert (len(result.checks), result.count("supported"), result.count("misattributed"),
            result.count("unsupported")) == (9, 6, 2, 1)
    # grounding = 1 − (1 + 0.5 × 2) / 9
    assert result.grounding == pytest.approx(0.7778)
    assert result.integrity
    line = trust_summary(result, 3, 4, "en")
    assert line.startswith("> **Trust 0.65 · key questions answered: 3 of 4.** "
                           "6 of 9 figures are traced to the sources their sentences cite, "
                           "2 of them computed from two cited values (2 are found only in another retrieved "
                           "source, 1 nowhere); 6 of 6 key-fact sentences carry a citation; every citation "
                           "resolves: yes; key questions answered: 3 of 4.")
    assert "Figures to check: “$171.00” (misattributed), “$41.20B” (unsupported), “$37.5 billion” (misattributed)" \
        in line


def test_a_marker_to_evidence_the_report_never_retrieved_breaks_integrity(nvidia):
    quote = _number(nvidia, "NVIDIA (NVDA) quote")
    refs = [r for r in nvidia.references if r.n == quote]
    result = audit(f"NVIDIA (NVDA) last traded at $110.45 [{quote}] and fell 3% [{quote + 100}].", refs,
                   nvidia.graph, nvidia.analysis)
    assert not result.integrity and result.unknown_markers == (quote + 100,)
    assert "every citation resolves: no" in trust_summary(result, 0, 1, "en")


def test_a_reports_notes_on_its_own_searches_are_not_audited_as_claims(tmp_path):
    from finsearch.settings import from_env

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic", now=NOW,
                        pack=PACK, offline=True)
    amd = report("Analyse AMD's recent performance and outlook", settings=settings, now=NOW)
    # The pack has no AMD statements, earnings or filings: the report says what it looked for again,
    # with the searches' own dates and form names, and none of those is a figure to check.
    assert "Still not found after the supplementary searches: " in amd.markdown
    assert "latest 10-K" in amd.markdown
    assert amd.audit.audit.flagged == []
    # Five of its key questions unanswered (the risk factors of its annual report too: no 10-K was
    # found): the report's trust says so, however well grounded.
    asked, answered = len(amd.audit.key_questions), amd.audit.answered
    assert (asked, answered) == (12, 6)          # the company outline's 12 (issue 30)
    assert amd.audit.audit.grounding == 1.0 and amd.audit.trust <= 6 / 12
    assert f"> **Trust {amd.audit.trust:.2f} · key questions answered: 6 of 12.** " in amd.markdown
