"""The SEC sources on httpx with SEC EDGAR answering at the transport (tests/sec_wire.py): the
filings list and a 10-K section with values read off the fixtures by hand; the passages kept
are the ones the sub-query is about; the identity SEC requires is sent, and its absence named
with the fix; every failure (403, 429, 503, timeout, refused connection, a changed answer,
an unknown ticker) ending as the right error with a reason."""

from __future__ import annotations

import json

import pytest

from finsearch.errors import (
    FailureKind,
    NoData,
    RateLimited,
    Refused,
    SourceError,
    TimedOut,
    UnknownSymbol,
    Unreachable,
)
from finsearch.sources.sec import adapter
from finsearch.sources.sec import text as sec_text
from finsearch.sources.sec.adapter import SecEdgar, forget_tickers
from tests.sec_wire import FIXTURES, IDENTITY, SEC_PACE_S, Edgar, recorded_10k

DOC = "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"


def test_latest_filings_newest_first_with_links(edgar, sec):
    items = sec.fetch("sec_filings", {"ticker": "AAPL"})
    assert [i["data"]["form"] for i in items] == ["4", "4", "10-K", "8-K", "4", "4", "8-K", "10-Q", "10-Q"]
    first = items[2]
    assert first["title"] == "Apple Inc. 10-K filed 2024-11-01 (period 2024-09-28)"
    assert first["url"] == DOC
    assert first["published"] == "2024-11-01T06:01:36Z"
    assert {s.user_agent for s in edgar.sent} == {IDENTITY}


def test_filings_of_one_form_in_a_period(sec):
    items = sec.fetch("sec_filings", {"ticker": "AAPL", "form": "10-Q", "start": "2024-06-01"})
    assert [i["data"]["accession"] for i in items] == ["0000320193-24-000081"]


def test_no_filing_of_that_form_is_no_data(sec):
    with pytest.raises(NoData, match="lists no 13F-HR filings for AAPL"):
        sec.fetch("sec_filings", {"ticker": "AAPL", "form": "13F-HR"})


def test_risk_factors_keep_the_passages_the_question_is_about(sec):
    item = sec.fetch("sec_section", {"ticker": "AAPL", "form": "10-K", "item": "1A",
                                     "query": "What supply chain risks did Apple list?"})[0]
    d = item["data"]
    assert item["title"] == "Apple Inc. 10-K filed 2024-11-01: Item 1A. Risk Factors"
    assert item["url"] == DOC
    assert (d["filed"], d["item"], d["passages_total"]) == ("2024-11-01", "1A", 7)
    # The "Business Risks" passage (outsourcing partners, component shortages) leads.
    assert "outsourcing partners" in d["passages"][0]["text"]
    assert all(p["score"] > 0 for p in d["passages"])
    assert "Properties" not in " ".join(p["text"] for p in d["passages"])      # the section ends at 1B


def test_a_question_with_no_telling_word_keeps_one_passage_per_sub_heading(sec):
    d = sec.fetch("sec_section", {"ticker": "AAPL", "item": "1A",
                                  "query": "What risks did Apple list in its latest 10-K?"})[0]["data"]
    assert [p["index"] for p in d["passages"]] == [1, 3, 5, 6]
    assert [p["text"].split(":")[0] for p in d["passages"]] == [
        "Macroeconomic and Industry Risks", "Business Risks", "Legal and Regulatory Compliance Risks",
        "Financial Risks"]


def test_mdna_is_item_7(sec):
    d = sec.fetch("sec_section", {"ticker": "AAPL", "item": "7", "query": "net sales"})[0]["data"]
    assert "Total net sales increased 2%" in d["passages"][0]["text"]


def test_annual_figures_as_first_filed(sec):
    periods = sec.fetch("sec_facts", {"ticker": "AAPL", "freq": "annual"})[0]["data"]["periods"]
    assert periods == [
        {"end": "2024-09-28", "fy": 2024, "fp": "FY", "form": "10-K", "filed": "2024-11-01",
         "accession": "0000320193-24-000123", "revenue": 391035000000, "net_income": 93736000000,
         "eps_diluted": 6.08},
        # FY2023 as its own 10-K filed it, not as the FY2024 10-K repeated it.
        {"end": "2023-09-30", "fy": 2023, "fp": "FY", "form": "10-K", "filed": "2023-11-03",
         "accession": "0000320193-23-000106", "revenue": 383285000000, "net_income": 96995000000,
         "eps_diluted": 6.13}]


def test_quarterly_figures_are_three_months_not_year_to_date(edgar, sec):
    latest = sec.fetch("sec_facts", {"ticker": "AAPL", "freq": "quarterly"})[0]["data"]["periods"][0]
    assert (latest["end"], latest["revenue"], latest["net_income"]) == ("2024-06-29", 85777000000, 21448000000)
    # Revenue is filed under RevenueFromContractWithCustomerExcludingAssessedTax: Revenues is never asked.
    assert edgar.count("/us-gaap/Revenues.json") == 0


def test_a_changed_concept_answer_is_unreachable(edgar, sec):
    edgar.fail("changed", on="companyconcept")
    with pytest.raises(Unreachable, match="changed its companyconcept answer"):
        sec.fetch("sec_facts", {"ticker": "AAPL"})


# -- ranking, measured -------------------------------------------------------------------------

# Sub-queries and the passages of the fixture's Item 1A a reader would pick (indices, by hand).
JUDGED = [
    ("supply chain and manufacturing partners", {3}),
    ("component shortages semiconductors", {3}),
    ("tariffs and trade disputes with China", {1}),
    ("antitrust, the Digital Markets Act and privacy regulation", {5}),
    ("competition and price cuts", {2}),
    ("tax legislation and stock price volatility", {6}),
]


def test_bm25_finds_the_judged_passage_first():
    text = sec_text.section((FIXTURES / "aapl-20240928.htm").read_text(), "1A")
    chunks = sec_text.passages(text)
    top1 = [sec_text.relevant(chunks, query, 1)[0][0] in wanted for query, wanted in JUDGED]
    first_k = [0 in wanted for _, wanted in JUDGED]          # the baseline: the section's opening
    assert sum(top1) == len(JUDGED)                          # 6/6 at rank 1
    assert sum(first_k) == 0


# -- identity and failures -------------------------------------------------------------------

def test_without_an_identity_nothing_is_sent_and_the_fix_is_named(edgar):
    sec = SecEdgar(None, transport=edgar.transport)
    with pytest.raises(SourceError, match='set FINSEARCH_SEC_IDENTITY="Your Name you@example.com"'):
        sec.fetch("sec_filings", {"ticker": "AAPL"})
    assert edgar.sent == []


def test_an_unknown_ticker(sec):
    with pytest.raises(UnknownSymbol, match="no company with the ticker ZZZZ"):
        sec.fetch("sec_filings", {"ticker": "ZZZZ"})


def test_a_403_is_refused_and_names_the_identity(edgar, sec):
    edgar.fail("403")
    with pytest.raises(Refused, match="HTTP 403.*FINSEARCH_SEC_IDENTITY") as err:
        sec.fetch("sec_filings", {"ticker": "AAPL"})
    assert err.value.kind is FailureKind.REFUSED and edgar.count() == 1


def test_a_rate_limit_is_retried_then_reported(edgar, sec):
    edgar.fail("429")
    with pytest.raises(RateLimited, match="SEC EDGAR rate-limited the request; retried 2 times"):
        sec.fetch("sec_filings", {"ticker": "AAPL"})
    assert edgar.count() == 3


def test_a_passing_outage_is_retried_away(edgar, sec):
    edgar.fail("503", on="submissions", times=1)
    assert sec.fetch("sec_filings", {"ticker": "AAPL"})


def test_a_timeout_is_timed_out(edgar, sec):
    edgar.fail("timeout")
    with pytest.raises(TimedOut, match="SEC EDGAR did not answer in time"):
        sec.fetch("sec_filings", {"ticker": "AAPL"})


def test_a_refused_connection_is_unreachable_at_once(edgar, sec):
    edgar.fail("refused")
    with pytest.raises(Unreachable, match="cannot reach SEC EDGAR"):
        sec.fetch("sec_filings", {"ticker": "AAPL"})
    assert edgar.count() == 1


def test_a_changed_answer_is_unreachable_never_no_data(edgar, sec):
    edgar.fail("changed", on="submissions")
    with pytest.raises(Unreachable, match="changed its submissions answer") as err:
        sec.fetch("sec_filings", {"ticker": "AAPL"})
    assert not isinstance(err.value, NoData)


def test_the_ticker_list_is_read_once_for_every_run(edgar, sec):
    sec.fetch("sec_filings", {"ticker": "AAPL"})
    another_run = SecEdgar(IDENTITY, transport=edgar.transport)
    another_run.fetch("sec_filings", {"ticker": "AAPL"})
    assert edgar.count("company_tickers.json") == 1


def test_requests_are_paced_under_ten_a_second(edgar, sec, monkeypatch):
    import time

    monkeypatch.setattr(adapter, "MIN_INTERVAL_S", SEC_PACE_S)      # the one test of the pace
    started = time.monotonic()
    sec.fetch("sec_section", {"ticker": "AAPL", "item": "1A"})
    assert edgar.count() == 3 and time.monotonic() - started >= 0.2     # ≥ 0.11 s between requests


# -- the recorded 10-K: Apple's FY2024 filing as EDGAR serves it ---------------------------------

# Sub-queries and the opening words of the passage a reader picks in the recorded Item 1A (read by hand).
RECORDED_JUDGED = [
    ("supply chain and manufacturing partners", "The Company has invested in manufacturing process equipment"),
    ("component shortages semiconductors", "Because the Company currently obtains certain components from single"),
    ("tariffs and trade disputes with China", "The Company has a large, global business with sales outside the U.S."),
    ("antitrust Digital Markets Act", "The Company is also currently subject to antitrust investigations"),
    ("competition and price cuts", "The Company has a minority market share in the global smartphone"),
    ("tax legislation and stock price volatility", "The Company is subject to changes in tax rates"),
]


def test_the_recorded_10ks_risk_factors_end_where_item_1b_begins():
    text = sec_text.section(recorded_10k().decode("ascii"), "1A")
    assert text.startswith("Item 1A. Risk Factors\nThe Company’s business, reputation, results of operations")
    assert text.endswith("which could have a material adverse impact on investor confidence and employee retention.")
    assert "Unresolved Staff Comments" not in text
    assert "2024 Form 10-K |" not in text                       # the page footers are gone


def test_bm25_on_the_recorded_10k_ranks_the_judged_passage_first():
    chunks = sec_text.passages(sec_text.section(recorded_10k().decode("ascii"), "1A"))
    own_name = frozenset(sec_text.words("Apple Inc. AAPL"))
    top1 = [chunks[sec_text.relevant(chunks, query, 1, ignore=own_name)[0][0]].startswith(opening)
            for query, opening in RECORDED_JUDGED]
    assert sum(top1) == len(JUDGED)                              # 6/6 at rank 1 (87 passages)


def test_the_latest_10ks_risks_through_the_adapter_on_the_recorded_filing(edgar, sec):
    edgar.document = recorded_10k()
    d = sec.fetch("sec_section", {"ticker": "AAPL", "item": "1A",
                                  "query": "What risks did Apple list in its latest 10-K?"})[0]["data"]
    # No telling word (Apple is "the Company" there): one passage per sub-heading.
    assert [p["text"].split(":")[0] for p in d["passages"]] == [
        "Macroeconomic and Industry Risks", "Business Risks", "Legal and Regulatory Compliance Risks",
        "Financial Risks"]
    assert d["passages_total"] == 87


def test_teslas_recorded_submissions():
    edgar = Edgar()
    sec = SecEdgar(IDENTITY, transport=edgar.transport)
    forget_tickers()
    items = sec.fetch("sec_filings", {"ticker": "TSLA", "form": "10-K"})
    # The newest 10-K in the recording: accepted Friday 2022-02-04 after hours, filed Monday 2022-02-07.
    assert items[0]["title"] == "Tesla, Inc. 10-K filed 2022-02-07 (period 2021-12-31)"
    assert items[0]["url"] == "https://www.sec.gov/Archives/edgar/data/1318605/000095017022000796/tsla-20211231.htm"
    assert items[0]["published"] == "2022-02-04T20:11:27Z"
    latest = sec.fetch("sec_filings", {"ticker": "TSLA"})
    assert len(latest) == 10 and latest[0]["data"]["form"] == "4"
    assert latest[0]["url"].endswith("/000179056522000015/xslF345X03/edgardoc.xml")     # EDGAR's rendered Form 4


# -- a foreign private issuer: an annual report on 20-F, interim and current reports on 6-K -----------------

def _alibaba(edgar) -> None:
    """Alibaba's submissions (fixtures/sec, see PROVENANCE.md) and its row in SEC's ticker list."""
    tickers = json.loads((FIXTURES / "company_tickers.json").read_text())
    tickers["4"] = {"cik_str": 1577552, "ticker": "BABA", "title": "Alibaba Group Holding Ltd"}
    edgar.replaced["/files/company_tickers.json"] = json.dumps(tickers).encode()
    edgar.replaced["/submissions/CIK0001577552.json"] = (FIXTURES / "submissions_CIK0001577552.json").read_bytes()


def test_a_10k_asked_of_a_company_that_files_20fs_is_its_20f(edgar, sec):
    _alibaba(edgar)
    items = sec.fetch("sec_filings", {"ticker": "BABA", "form": "10-K"})
    assert [i["title"] for i in items] == ["Alibaba Group Holding Ltd 20-F filed 2024-05-23 (period 2024-03-31)"]


def test_a_10q_or_8k_asked_of_it_is_its_6ks_and_its_own_form_is_kept(edgar, sec):
    _alibaba(edgar)
    since_october = sec.fetch("sec_filings", {"ticker": "BABA", "form": "10-Q", "start": "2024-10-01"})
    assert [i["data"]["filed"] for i in since_october] == ["2024-11-15", "2024-10-15"]
    assert [i["data"]["form"] for i in sec.fetch("sec_filings", {"ticker": "BABA", "form": "8-K"})] == ["6-K"] * 3
    assert [i["data"]["form"] for i in sec.fetch("sec_filings", {"ticker": "BABA", "form": "20-F"})] == ["20-F"]


def test_a_form_the_company_files_is_never_swapped_and_a_counterpart_only_stands_in(sec):
    # Apple files 10-Qs (a 6-K never stands in for them); its "20-F" is its 10-K.
    assert [i["data"]["form"] for i in sec.fetch("sec_filings", {"ticker": "AAPL", "form": "10-Q"})] == ["10-Q"] * 2
    assert [i["data"]["form"] for i in sec.fetch("sec_filings", {"ticker": "AAPL", "form": "20-F"})] == ["10-K"]
    with pytest.raises(NoData, match="lists no 10-Q filings for AAPL between 2024-09-01 and 2024-11-15"):
        sec.fetch("sec_filings", {"ticker": "AAPL", "form": "10-Q", "start": "2024-09-01", "end": "2024-11-15"})
