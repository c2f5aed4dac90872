"""Each fact of the finance data said once in a report, in the section whose kind fits it
(issue 30; research/repeats.Homes): the analysts' target under the analysts, the quote line under
valuation, the period's prices under price action, EPS under results, the sentence's kind read
from what it cites. On hand-built sections, and on the Adobe probe pack and the bundled sample's
NVIDIA and 贵州茅台 reports."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from finsearch.evidence import Evidence
from finsearch.research.repeats import Homes
from finsearch.research.run import report

ROOT = Path(__file__).resolve().parent.parent

# Report numbers → the items behind them, as ReportCitations would give them.
ITEMS = {1: Evidence("a", "analyst", "finance", "ADBE analysts"), 2: Evidence("q", "quote", "finance", "ADBE quote"),
         3: Evidence("h", "price_history", "finance", "ADBE prices"), 4: Evidence("e", "earnings", "finance", "EPS"),
         5: Evidence("n", "news", "news", "Adobe tops estimates"), 6: Evidence("d", "dividends", "finance", "Divs")}
TARGET = "Analysts' mean price target is $540.00, 27.42% above the price of $423.78 [1][2]."
QUOTE = "Adobe last traded at $423.78 (+0.44% on the day), market cap $171.00B [2]."


def _homes(sections):
    return Homes([(key, asks, blocks, tables) for key, asks, blocks, tables in sections], ITEMS.get)


def test_a_fact_in_two_sections_stays_in_the_one_of_its_kind_whatever_the_order():
    homes = _homes([("results", (), ["Adobe beat: EPS 5.08 against 4.97 [4][5]. " + TARGET], []),
                    ("valuation", (), ["On forward P/E Adobe is at 20.90 [2].", QUOTE], []),
                    ("analysts", (), [TARGET.replace("[1][2]", "[1]")], [])])
    assert homes.blocks(0) == ["Adobe beat: EPS 5.08 against 4.97 [4][5]."]
    assert homes.blocks(2) == [TARGET.replace("[1][2]", "[1]")]     # the same figures, fewer citations
    assert homes.blocks(1) == ["On forward P/E Adobe is at 20.90 [2].", QUOTE]


def test_a_sentence_in_a_section_that_does_not_fit_moves_to_the_one_that_does():
    homes = _homes([("analysts", (), ["The mean target is $540.00 [1].", "Quiet week [5].", QUOTE], []),
                    ("price", (), ["Adobe fell 8.38% over the period [3]. " + QUOTE], []),
                    ("valuation", (), ["No multiple was found."], [])])
    assert homes.blocks(0) == ["The mean target is $540.00 [1].", "Quiet week [5]."]
    assert homes.blocks(1) == ["Adobe fell 8.38% over the period [3]."]
    assert homes.blocks(2) == [QUOTE, "No multiple was found."]          # once, where it fits


def test_a_table_of_another_section_counts_as_said_and_news_sentences_are_left_alone():
    table = "| Metric | Value | Source |\n| --- | --- | --- |\n| Low target | $400.00 | [1] |\n| High | $700.00 | [1] |"
    homes = _homes([("results", (), ["Targets range from $400.00 to $700.00 [1]. Revenue rose 10% [5]."], []),
                    ("analysts", (), ["Ratings: 8 buy, 2 hold [1]."], [table]),
                    ("catalysts", (), ["Revenue rose 10% [5]."], [])])
    assert homes.blocks(0) == ["Revenue rose 10% [5]."]
    assert homes.blocks(1) == ["Ratings: 8 buy, 2 hold [1]."]            # its own table does not drop it
    assert homes.blocks(2) == ["Revenue rose 10% [5]."]                  # news: left to Repeats


def test_a_lead_that_answers_its_own_section_stays_and_a_section_emptied_says_where_it_went():
    homes = _homes([("business", (), ["Next report on 2025-06-12 [4]."], []),
                    ("results", (), ["EPS 5.08 against 4.97 [4].", "Next report on 2025-06-12 [4]."], []),
                    ("catalysts", (), ["Next report on 2025-06-12 [4]. Guidance was weak [5]."], []),
                    ("income", ("What dividends does it pay?",), ["It pays $0.50 a quarter [6]."], []),
                    ("risks", (), ["It pays $0.50 a quarter [6]."], [])])
    assert homes.blocks(2) == ["Next report on 2025-06-12 [4]. Guidance was weak [5]."]
    assert homes.blocks(1) == ["EPS 5.08 against 4.97 [4]."]
    assert homes.blocks(0) == [] and homes.emptied[0] == 2
    assert homes.blocks(3) == ["It pays $0.50 a quarter [6]."] and homes.blocks(4) == []    # the one asking for them
    assert homes.emptied[4] == 3


def test_chinese_sentences_are_rejoined_without_spaces():
    price = "贵州茅台上涨 7.27% [3]。贵州茅台最新价 1,560.00元 [2]。区间最高 1,682.46元 [3]。"
    homes = _homes([("price", (), [price], []),
                    ("valuation", (), ["没有找到市盈率。"], [])])
    assert homes.blocks(0) == ["贵州茅台上涨 7.27% [3]。区间最高 1,682.46元 [3]。"]
    # It leads valuation: nothing there cites data.
    assert homes.blocks(1) == ["贵州茅台最新价 1,560.00元 [2]。", "没有找到市盈率。"]


# -- whole reports ------------------------------------------------------------------------------------------

ADOBE = (ROOT / "tests/probes/packs/us_guidance", datetime(2025, 3, 18, 21, 0, tzinfo=timezone.utc),
         "Analyse Adobe (ADBE): results, valuation and outlook")
SAMPLE_NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)
NVIDIA = (ROOT / "finsearch/demo_pack", SAMPLE_NOW, "Analyse NVIDIA's recent performance and outlook")
MOUTAI = (ROOT / "finsearch/demo_pack", SAMPLE_NOW, "分析贵州茅台的近况")
_CITE = re.compile(r"\[\d+\]")
_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    from finsearch.settings import from_env

    settings = from_env().replace(data_dir=tmp_path_factory.mktemp("data"), node_timeout_s=5.0, llm="heuristic")
    return {name: report(question, settings=settings.replace(pack=pack, offline=True, now=now), now=now).markdown
            for name, (pack, now, question) in (("adobe", ADOBE), ("nvidia", NVIDIA), ("moutai", MOUTAI))}


def _sections(markdown: str) -> dict[str, str]:
    """Each numbered section's text (no key questions, tables or research notes), by its title."""
    out = {}
    for part in re.split(r"\n## (?=\d+\. )", markdown)[1:]:
        title, _, body = part.partition("\n")
        out[re.sub(r"^\d+\. ", "", title)] = "\n".join(
            line for line in body.split("## ")[0].splitlines() if line and not line.startswith(("|", "_")))
    return out


def _cited_sentences(text: str) -> set[str]:
    return {" ".join(_CITE.sub("", s).split()).casefold() for line in text.splitlines()
            for s in _END.split(line) if _CITE.search(s) and len(_CITE.sub("", s).strip()) > 12}


@pytest.mark.parametrize("name", ["adobe", "nvidia", "moutai"])
def test_no_cited_sentence_is_in_two_sections(reports, name):
    seen: dict[str, str] = {}
    for title, text in _sections(reports[name]).items():
        for sentence in _cited_sentences(text):
            assert sentence not in seen, f"“{sentence}” in {seen[sentence]} and {title}"
            seen[sentence] = title


@pytest.mark.parametrize(("name", "fact", "home"), [
    ("adobe", "mean price target for Adobe (ADBE) is $540.00", "Analyst views"),
    # the section's own lead gave the price of 2025-03-18: its quote line adds the day's change and market cap
    ("adobe", "Adobe (ADBE) moved +0.44% on 2025-03-18, market cap $171.00B", "Valuation"),
    ("nvidia", "last traded at $127.00", "Valuation"),
    ("moutai", "最新价 1,560.00元（当日 -0.39%）", "估值"),
])
def test_a_fact_is_stated_in_the_section_of_its_kind_only(reports, name, fact, home):
    where = [title for title, text in _sections(reports[name]).items() if fact in text]
    assert where == [home]


def test_a_section_left_with_notes_only_points_to_where_its_lead_went():
    homes = _homes([("business", (), [QUOTE, "The sample has no profile data."], []),
                    ("valuation", (), ["On forward P/E Adobe is at 20.90 [2]."], [])])
    assert homes.blocks(0) == ["The sample has no profile data."] and homes.emptied == {0: 1}
    assert homes.blocks(1) == ["On forward P/E Adobe is at 20.90 [2].", QUOTE]
