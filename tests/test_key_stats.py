"""The key-stats card's figures (finsearch/answer/key_stats.py), read from whole runs on replay
packs and from the real yfinance code on recorded Yahoo bodies: every value is the one its
evidence holds (written out here by hand from the pack files and recordings), cited with the
number of the reference that holds it; what the evidence lacks, or the answer does not cite, is
left out; a quote a trading session old is stale; labels follow the question's language."""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timezone

import pytest

from finsearch import pipeline
from finsearch.answer import key_stats
from finsearch.answer.citations import Reference
from finsearch.evidence import sanitise
from finsearch.settings import from_env
from tests.conftest import DEMO_PACK, NOW, ROOT
from tests.yahoo_harness import RecordedYahoo

US_GUIDANCE = ROOT / "tests" / "probes" / "packs" / "us_guidance"      # Adobe, invented data
COMPANY_PACK = ROOT / "tests" / "fixtures" / "company_pack"             # 贵州茅台 through the real adapters
CN_DIVIDEND = ROOT / "tests" / "probes" / "packs" / "cn_dividend"       # 长江电力, invented data


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    folder = tmp_path_factory.mktemp("key-stats")

    def run(question: str, pack, now: datetime):
        settings = from_env({}, cache_dir=folder / "cache", data_dir=folder / "data", llm="heuristic", now=now,
                            node_timeout_s=5.0).replace(pack=pack, offline=True)
        return pipeline.ask(question, settings=settings)
    return run


def cited_source(result, stat) -> str:
    """The source of the evidence the stat's reference number points at."""
    reference = next(r for r in result.answer.references if r.n == stat.ref_n)
    return next(e.source for n in result.graph for e in n.evidence if e.id == reference.evidence_id)


def shown(card) -> dict[str, tuple]:
    return {s.kind: (s.label, s.value, s.as_of) for s in card.stats}


def test_a_single_ticker_answer_on_the_sample_pack(ask):
    result = ask("How is NVDA doing?", DEMO_PACK, NOW)
    card = key_stats.of_run(result)
    # demo_pack/quote-NVDA: last 127.0 USD, change -1.8 %, market cap 3.12e12, 52 weeks 45.32–162.63,
    # as of 2024-10-15T20:00:00Z (16:00 in New York). The pack has no P/E and no earnings calendar.
    assert card.title == "Key stats · NVIDIA (NVDA)"
    assert shown(card) == {"price": ("Price", "$127.00", "2024-10-15 16:00 EDT"),
                           "market_cap": ("Market cap", "$3.12T", "2024-10-15"),
                           "year_range": ("52-week range", "$45.32 – $162.63", "2024-10-15")}
    assert card.get("price").change_pct == -1.8
    assert {cited_source(result, s) for s in card.stats} == {"quote"}
    assert {s.ref_n for s in card.stats} == {2}            # the answer's quote sentence cites it as [2]
    assert not any(s.stale for s in card.stats)


def test_every_stat_with_its_own_reference(ask):
    result = ask("Adobe P/E and next earnings date", US_GUIDANCE, datetime(2025, 3, 18, 21, tzinfo=timezone.utc))
    card = key_stats.of_run(result)
    # quote-ADBE: 423.78 USD (+0.44 %), market cap 1.71e11, 52 weeks 420.23–542.89; profile-ADBE:
    # trailing P/E 31.5; earnings-ADBE: next report 2025-06-12.
    assert [s.kind for s in card.stats] == ["price", "market_cap", "pe", "year_range", "next_earnings"]
    assert shown(card) == {"price": ("Price", "$423.78", "2025-03-18 16:00 EDT"),
                           "market_cap": ("Market cap", "$171.00B", "2025-03-18"),
                           "pe": ("P/E (TTM)", "31.50", "2025-03-18"),
                           "year_range": ("52-week range", "$420.23 – $542.89", "2025-03-18"),
                           "next_earnings": ("Next earnings", "2025-06-12", None)}
    assert {s.kind: cited_source(result, s) for s in card.stats} == {
        "price": "quote", "market_cap": "quote", "pe": "profile", "year_range": "quote", "next_earnings": "earnings"}
    # The same numbers the answer cites for these figures.
    text = result.answer.markdown
    assert "31.50 times trailing" in text and f"[{card.get('pe').ref_n}]" in text
    assert f"expected on 2025-06-12 [{card.get('next_earnings').ref_n}]" in text


def test_an_a_share_in_chinese(ask):
    result = ask("贵州茅台估值怎么样？市盈率多少", COMPANY_PACK, datetime(2024, 11, 15, 8, tzinfo=timezone.utc))
    card = key_stats.of_run(result)
    # quote-600519.SS: 1538.0 CNY (-0.77 %), market cap 1.93e12, as of 07:00Z (15:00 in Shanghai);
    # cn_industry_compare: P/E (TTM) 22.87 valued on 2024-11-14, newer than the undated profile's 22.9.
    assert card.title == "关键数据 · 贵州茅台（600519.SS）"
    assert shown(card) == {"price": ("最新价", "1,538.00元", "2024-11-15 15:00 CST"),
                           "market_cap": ("市值", "1.93万亿元", "2024-11-15"),
                           "pe": ("市盈率（TTM）", "22.87", "2024-11-14")}
    assert {s.kind: cited_source(result, s) for s in card.stats} == {
        "price": "quote", "market_cap": "quote", "pe": "cn_industry_compare"}


def test_an_a_shares_52_week_range(ask):
    result = ask("长江电力现在股价多少", CN_DIVIDEND, datetime(2025, 8, 15, 8, tzinfo=timezone.utc))
    card = key_stats.of_run(result)
    # quote-600900.SS: 28.03 CNY, market cap 7.05e11, 52 weeks 27.66–29.03.
    assert shown(card)["price"][:2] == ("最新价", "28.03元")
    assert shown(card)["market_cap"][:2] == ("市值", "7,050亿元")
    assert shown(card)["year_range"][:2] == ("52周区间", "27.66元 – 29.03元")
    assert cited_source(result, card.get("year_range")) == "quote"


def test_a_comparison_has_no_card(ask):
    result = ask("Compare NVDA and MSFT this month", DEMO_PACK, NOW)
    assert len(result.analysis.tickers) == 2 and result.answer.references
    assert key_stats.of_run(result) is None


def test_a_quote_a_session_old_is_stale(ask):
    result = ask("How is NVDA doing?", DEMO_PACK, NOW)
    evidence = [e for n in result.graph for e in n.evidence]
    # Read on Thursday 2024-10-17: Wednesday's session came after the Tuesday quote.
    later = key_stats.key_stats(evidence, result.answer.references, "NVDA", "en",
                                datetime(2024, 10, 17, 18, tzinfo=timezone.utc))
    assert later.get("price").stale and later.get("price").as_of == "2024-10-15 16:00 EDT"
    # Read on Wednesday before the open, the Tuesday quote is still the latest.
    morning = key_stats.key_stats(evidence, result.answer.references, "NVDA", "en",
                                  datetime(2024, 10, 16, 12, tzinfo=timezone.utc))
    assert not morning.get("price").stale


def test_what_the_answer_does_not_cite_is_left_out(ask):
    result = ask("How is NVDA doing?", DEMO_PACK, NOW)
    evidence = [e for n in result.graph for e in n.evidence]
    quote_id = next(e.id for e in evidence if e.source == "quote")
    uncited = [r for r in result.answer.references if r.evidence_id != quote_id]
    # Without the quote only the daily close is left: one stat is no card.
    assert key_stats.key_stats(evidence, uncited, "NVDA", "en", NOW) is None


# -- the real yfinance code on recorded Yahoo bodies -----------------------------------------

YAHOO_NOW = datetime(2025, 10, 30, 20, 0, tzinfo=timezone.utc)        # the day after the chart recording


@pytest.fixture
def yahoo_evidence(tmp_path, no_waiting):
    from finsearch.sources.yahoo.adapter import YahooFinance

    RecordedYahoo(tmp_path / "yfinance")
    finance = YahooFinance(clock=lambda: YAHOO_NOW, cache_dir=tmp_path / "yfinance")
    items = []
    for source in ("quote", "profile"):
        found, _ = sanitise(finance.fetch(source, {"ticker": "AAPL"}), source, "finance")
        items += found
    return items


@pytest.mark.filterwarnings("ignore::pandas.errors.Pandas4Warning")
def test_recorded_yahoo_quote_and_profile(yahoo_evidence):
    refs = [Reference(n, e.id, e.title) for n, e in enumerate(yahoo_evidence, start=1)]
    card = key_stats.key_stats(yahoo_evidence, refs, "AAPL", "en", YAHOO_NOW, "Apple (AAPL)")
    # history_chart_AAPL: last 269.70, previous close 269.0 (+0.26 %), 52 weeks 169.21–271.41 (meta);
    # quote_v7_AAPL: marketCap 4002453389312, trailingPE 40.925644.
    assert shown(card) == {"price": ("Price", "$269.70", "2025-10-30 16:00 EDT"),
                           "market_cap": ("Market cap", "$4.00T", "2025-10-30"),
                           "pe": ("P/E (TTM)", "40.93", "2025-10-30"),
                           "year_range": ("52-week range", "$169.21 – $271.41", "2025-10-30")}
    sources = {r.n: e.source for r, e in zip(refs, yahoo_evidence, strict=True)}
    assert {s.kind: sources[s.ref_n] for s in card.stats} == {
        "price": "quote", "market_cap": "quote", "pe": "profile", "year_range": "quote"}
    assert card.get("price").change_pct == 0.26


def test_a_stat_is_plain_data():
    stat = key_stats.Stat("pe", "P/E (TTM)", "31.50", "2025-03-18", 1)
    assert dataclasses.asdict(stat) == stat.to_json()
    assert key_stats.KeyStats("ADBE", "Key stats · Adobe (ADBE)", (stat,)).to_json()["stats"] == [stat.to_json()]


# -- the HTML export ---------------------------------------------------------------------------

def test_the_html_export_shows_the_card_with_its_citations(ask):
    from finsearch.export import answer_html

    result = ask("Adobe P/E and next earnings date", US_GUIDANCE, datetime(2025, 3, 18, 21, tzinfo=timezone.utc))
    page = answer_html.render(result)
    card = page.split('<div class="key-stats">', 1)[1].split("</div>", 1)[0]
    assert "<b>Key stats · Adobe (ADBE)</b>" in card
    assert "<th>P/E (TTM)</th>" in card and "<th>52-week range</th>" in card
    assert "<b>31.50</b>" in card and "<b>$420.23 – $542.89</b>" in card
    assert "<b>$423.78</b>" in card and "+0.44%" in card and "as of 2025-03-18 16:00 EDT" in card
    # Each [n] leads where the exported answer's own [n] leads (a source's address, else its entry below).
    answer = page.split('<div class="answer">', 1)[1]
    for stat in key_stats.of_run(result).stats:
        target = re.compile(rf'href="([^"]+)">\[{stat.ref_n}\]</a>')
        assert target.findall(card) and set(target.findall(card)) == set(target.findall(answer)), stat.kind
        if target.findall(card)[0].startswith("#"):
            assert f'<li id="ref-{stat.ref_n}">' in page
    # Above the answer.
    assert page.index('<div class="key-stats">') < page.index('<div class="answer">')


def test_the_html_export_of_a_comparison_has_no_card(ask):
    from finsearch.export import answer_html

    result = ask("Compare NVDA and MSFT this month", DEMO_PACK, NOW)
    assert 'class="key-stats"' not in answer_html.render(result)
