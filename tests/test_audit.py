"""The answer audit on planted figures, with hand-computed expectations (EN and ZH units)."""

from datetime import date

import pytest

from finsearch.answer.audit import audit, sentences
from finsearch.answer.citations import Reference
from finsearch.answer.figures import figures_in
from finsearch.evidence import Evidence
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.timecontext import TimeContext

TC = TimeContext(date(2024, 10, 7), date(2024, 10, 13), "last week")


def item(source, kind, **raw):
    return Evidence.from_untrusted(raw, source=source, kind=kind)


PRICES = item("price_history", "finance", title="NVIDIA prices", period={"start": "2024-10-07", "end": "2024-10-13"},
              data={"ticker": "NVDA", "stats": {"start_close": 136.2, "end_close": 126.3, "return_pct": -7.27,
                                                "high": 141.75, "low": 126.27,
                                                "biggest_moves": [{"date": "2024-10-11", "change_pct": -4.7}]}})
NEWS = item("news", "news", title="Nvidia shares slide 4.7% as export curbs weigh", url="https://e.test/1",
            published="2024-10-11T19:45:00Z", snippet="Quarterly revenue of $30.04 billion beat estimates.")
ZH_NEWS = item("news", "news", title="茅台营收12.5亿元，同比增长3.2%", url="https://e.test/2",
               published="2024-10-14T06:00:00Z", snippet="公司市值约1.96万亿元。")


def graph():
    nodes = [SearchNode("n1", "prices", "price_history", {"ticker": "NVDA"}, TC, status=NodeStatus.DONE,
                        evidence=(PRICES,)),
             SearchNode("n2", "news", "news", {"ticker": "NVDA"}, TC, status=NodeStatus.DONE,
                        evidence=(NEWS, ZH_NEWS))]
    return SearchGraph.build("Why did NVDA fall last week?", TC, nodes)


REFS = [Reference(1, PRICES.id, "prices"), Reference(2, NEWS.id, "news"), Reference(3, ZH_NEWS.id, "zh news")]

ANSWER = """NVDA fell 7.27% last week, from $136.20 to $126.30 [1]. The biggest drop was 4.7% on 2024-10-11 [1].
Revenue was $30.04 billion [1]. Analysts expect 55% upside [2]. The close moved $9.90 over the week [1].
The range spanned 12.26% from low to high [1].

茅台营收12.5亿元，同比增长3.2% [3]。市值1.96万亿 [3]。

Shares fell sharply. Volume hit 3.2万 [2]. 消息在10月11日发布 [2]。"""


def verdicts(result):
    return {(c.text, c.verdict) for c in result.checks}


def test_planted_figures_get_the_hand_computed_verdicts():
    result = audit(ANSWER, REFS, graph())
    assert verdicts(result) == {
        ("7.27%", "supported"), ("$136.20", "supported"), ("$126.30", "supported"),
        ("4.7%", "supported"), ("2024-10-11", "supported"),
        ("$30.04 billion", "misattributed"),          # only in the news item, cited [1] (prices)
        ("55%", "unsupported"),
        ("$9.90", "supported"),                       # derived: 136.20 − 126.30
        ("12.26%", "supported"),                      # derived: 141.75 / 126.27 − 1
        ("12.5亿", "supported"), ("3.2%", "supported"), ("1.96万亿", "supported"),
        ("3.2万", "unsupported"),                      # 32,000: not the 3.2 % of the cited story
        ("10月11日", "supported"),
    }
    derived = {c.text for c in result.checks if c.derived}
    assert derived == {"$9.90", "12.26%"}
    assert (len(result.checks), result.count("supported"), result.count("misattributed"),
            result.count("unsupported")) == (14, 11, 1, 2)
    assert result.grounding == round(1 - (2 + 0.5 * 1) / 14, 4) == 0.8214
    assert (result.key_sentences, result.cited_key_sentences) == (11, 10)   # "Shares fell sharply." is uncited
    assert result.coverage == round(10 / 11, 4)
    assert result.integrity
    assert result.trust == round(0.6 * 0.8214 + 0.3 * round(10 / 11, 4) + 0.1, 4)
    misattributed = next(c for c in result.checks if c.verdict == "misattributed")
    assert misattributed.found_in == (NEWS.id,) and misattributed.cited == (PRICES.id,)


def test_citation_integrity_problems_are_reported():
    refs = REFS + [Reference(4, "news:not-retrieved", "elsewhere")]
    result = audit("Up 7.27% [1] and [9].", refs, graph())
    assert result.unknown_markers == (9,)
    assert result.unused_references == (2, 3, 4)
    assert result.foreign_references == (4,)
    assert not result.integrity
    assert result.to_dict()["citations"] == {"resolved": False, "unknown": [9], "unused_references": [2, 3, 4],
                                             "not_retrieved": [4]}


def test_markers_after_the_full_stop_belong_to_the_sentence():
    assert sentences("NVDA fell 4.7%. [2] Then it rose.") == ["NVDA fell 4.7%. [2]", "Then it rose."]
    result = audit("NVDA fell 4.7%. [2]", REFS, graph())
    assert result.checks[0].verdict == "supported" and result.coverage == 1.0


@pytest.mark.parametrize(("text", "expected"), [
    ("1,234.5", [("number", 1234.5)]), ("1.2B", [("number", 1.2e9)]), ("$3.4 billion", [("money", 3.4e9)]),
    ("12%", [("percent", 12.0)]), ("−2.1 %", [("percent", -2.1)]), ("12.5亿", [("money", 1.25e9)]),
    ("3.2万", [("money", 32_000.0)]), ("HK$385.2", [("money", 385.2)]),
    ("MA20 on 600519.SS in Q3 2024, see [3]", []),
    ("risk factors in the latest 10-K, its 10-Q and an 8-K.", []),       # form names, not figures
    # the answer's own count of what it read, not a claim (while "4 upgrades" is one)
    ("No payout ratio was found in what was read (quotes; 1 in all); 4 upgrades.", [("number", 4)]),
    ("读到的 4 篇关于茅台的报道都没有提到风险，在读到的 6 条资料中", []),
])
def test_figure_extraction(text, expected):
    assert [(f.kind, f.value) for f in figures_in(text)] == [(k, pytest.approx(v)) for k, v in expected]


def test_dates_in_every_written_form():
    days = [f.day for f in figures_in("2024-10-11, Oct 11, October 11, 2024, 10月11日, 2024年10月11日")]
    assert [(d.month, d.day) for d in days] == [(10, 11)] * 5
    assert days[0].year == days[2].year == days[4].year == 2024


def test_an_answer_without_figures_is_vacuously_grounded():
    result = audit("Nothing to report.", [], graph())
    assert (result.grounding, result.coverage, len(result.checks)) == (1.0, 1.0, 0)


def test_the_badge_of_an_answer_with_nothing_to_trace_says_so_in_red():
    trust = audit("Nothing to report.", [], graph()).trust_in("en")
    assert trust.badge("en") == "Trust 0.00 · no figures to trace" and trust.colour == "red"


def test_a_ratio_of_two_percentages_is_not_a_derived_figure():
    # (-7.27 / -4.7 - 1) = 54.7 %: a coincidence, not a change between two prices.
    result = audit("Analysts see 55% upside [1].", REFS, graph())
    assert [c.verdict for c in result.checks] == ["unsupported"]


def test_a_difference_in_points_between_two_percentages_is_derived():
    result = audit("The drop was 2.57 points more than the biggest day [1].", REFS, graph())
    assert [(c.verdict, c.derived) for c in result.checks] == [("supported", True)]
