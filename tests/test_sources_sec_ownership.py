"""Insider transactions (Form 4) and an institution's 13F-HR holdings, on httpx with SEC EDGAR
answering at the transport (tests/sec_wire.py): values read off the fixtures by hand; the
recorded Form 4 and 13F information table (tests/fixtures/sec/PROVENANCE.md) read as filed;
every failure — 403, 429, a timeout, a broken or changed document, no Form 4, no 13F, an
unknown institution — ending as the right error with its reason."""

from __future__ import annotations

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
from finsearch.sources.sec.adapter import SecEdgar
from finsearch.sources.sec.holdings import read_table
from finsearch.sources.sec.insiders import read_form4
from tests.sec_wire import FIXTURES, NOW

FORM4_DIR = "/Archives/edgar/data/320193/000114036124046120/"
BERKSHIRE_Q3 = "https://www.sec.gov/Archives/edgar/data/1067983/000095012324011775/"


def recorded_information_table() -> bytes:
    """The information table of LTS One Management's 13F-HR for 2023-09-30, as filed (the
    second <XML> document of the recorded submission)."""
    text = (FIXTURES / "recorded" / "13F-HR.0001894188-23-000007.txt").read_text()
    return text.split("<XML>")[2].split("</XML>")[0].encode()


# -- Form 4 --------------------------------------------------------------------------------------

def test_the_latest_form_4s_summed_then_one_item_per_filing(edgar, sec):
    summary, *filings = sec.fetch("sec_insiders", {"ticker": "AAPL"})
    d = summary["data"]
    assert (d["form4_read"], d["form4_listed"], d["max_read"], d["unreadable"]) == (4, 4, 10, 0)
    assert (d["first_filed"], d["last_filed"]) == ("2024-10-04", "2024-11-12")
    # Sales: 100,000 at 226.11 and 20,000 at 227.00; the purchase: 2,000 at 231.78.
    assert d["totals"]["S"] == {"transactions": 2, "shares": 120000.0, "value": 27151000.0}
    assert d["totals"]["P"] == {"transactions": 1, "shares": 2000.0, "value": 463560.0}
    assert summary["url"] == "https://www.sec.gov/cgi-bin/own-disp?action=getissuer&CIK=0000320193"
    assert [f["data"]["owner"] for f in filings] == ["Doe Jane", "Roe Richard", "Park Lee", "Doe Jane"]
    first = filings[0]
    assert first["title"] == "Form 4: Doe Jane (Chief Executive Officer), Apple Inc. (AAPL), filed 2024-11-12"
    assert first["data"]["roles"] == ["director", "officer"]
    assert first["data"]["transactions"][0] == {
        "date": "2024-11-08", "code": "S", "acquired": False, "shares": 100000.0, "price": 226.11,
        "owned_after": 3200000.0, "security": "Common Stock", "direct": True}
    # The link is EDGAR's page for people; the XML read is the filed document beside it.
    assert first["url"] == f"https://www.sec.gov{FORM4_DIR}xslF345X05/form4-20241112_doe.xml"
    assert edgar.count(f"{FORM4_DIR}form4-20241112_doe.xml") == 1 and edgar.count("xslF345X05") == 0
    award = filings[3]["data"]["transactions"][0]
    assert (award["code"], award["price"]) == ("A", None)          # an award has no price, only a footnote


def test_at_most_ten_form_4s_are_read_a_call(edgar, sec):
    # Tesla's recorded list has hundreds of Form 4s; their documents are not in the fixtures (404).
    with pytest.raises(Unreachable, match="none of TSLA's 10 most recent Form 4 documents could be read"):
        sec.fetch("sec_insiders", {"ticker": "TSLA"})
    assert edgar.count("/Archives/edgar/data/1318605/") == 10


def test_a_broken_form_4_is_counted_and_the_others_are_read(edgar, sec):
    edgar.replaced["/Archives/edgar/data/320193/000114036124043210/form4-20241018_park.xml"] = b"<html><body>oops"
    summary, *filings = sec.fetch("sec_insiders", {"ticker": "AAPL"})
    assert (summary["data"]["form4_read"], summary["data"]["unreadable"], len(filings)) == (4, 1, 3)
    assert "P" not in summary["data"]["totals"]


def test_every_form_4_broken_is_unreachable_never_no_data(edgar, sec):
    edgar.fail("changed", on="/form4-")
    with pytest.raises(Unreachable, match="none of AAPL's 4 most recent Form 4 documents") as err:
        sec.fetch("sec_insiders", {"ticker": "AAPL"})
    assert not isinstance(err.value, NoData)


def test_no_form_4_in_the_period_is_no_data(sec):
    with pytest.raises(NoData, match="lists no Form 4 .* for AAPL between 2024-11-13 and 2024-11-15"):
        sec.fetch("sec_insiders", {"ticker": "AAPL", "start": "2024-11-13", "end": "2024-11-15"})


def test_form_4s_about_another_issuer_are_not_its_insiders(edgar, sec):
    snow = (FIXTURES / "recorded" / "form4.snow.xml").read_bytes()
    for folder, name in (("000114036124046120", "form4-20241112_doe.xml"),
                         ("000114036124045377", "form4-20241105_roe.xml"),
                         ("000114036124043210", "form4-20241018_park.xml"),
                         ("000114036124041002", "form4-20241004_doe.xml")):
        edgar.replaced[f"/Archives/edgar/data/320193/{folder}/{name}"] = snow
    with pytest.raises(NoData, match="stakes in other companies"):
        sec.fetch("sec_insiders", {"ticker": "AAPL"})


@pytest.mark.parametrize(("fault", "error", "reason"), [
    ("403", Refused, "HTTP 403.*FINSEARCH_SEC_IDENTITY"),
    ("429", RateLimited, "rate-limited the request; retried 2 times"),
    ("timeout", TimedOut, "did not answer in time"),
])
def test_a_blocked_form_4_request_fails_the_call(edgar, sec, fault, error, reason):
    edgar.fail(fault, on="form4-20241105_roe.xml")
    with pytest.raises(error, match=reason):
        sec.fetch("sec_insiders", {"ticker": "AAPL"})


def test_the_recorded_form_4_as_filed():
    form = read_form4((FIXTURES / "recorded" / "form4.snow.xml").read_bytes())
    assert (form.owner, form.roles, form.title, form.issuer_cik) == (
        "Scarpelli Michael", ("officer",), "Chief Financial Officer", 1640147)
    # Six common-stock rows (an exercise, then five sales); the option rows are not stock trades.
    assert [(t.code, t.shares, t.price, t.owned_after) for t in form.transactions] == [
        ("M", 200000.0, 8.88, 301097.0), ("S", 73170.0, 150.841, 227927.0), ("S", 74907.0, 151.814, 153020.0),
        ("S", 41986.0, 152.655, 111034.0), ("S", 5496.0, 153.872, 105538.0), ("S", 4441.0, 154.76, 101097.0)]
    assert form.transactions[0].acquired is True and form.transactions[1].acquired is False


def test_a_document_that_is_not_a_form_4():
    with pytest.raises(Unreachable, match="not an ownershipDocument"):
        read_form4(recorded_information_table())


# -- 13F-HR --------------------------------------------------------------------------------------

def test_berkshires_latest_13f_by_name(edgar, sec):
    (item,) = sec.fetch("sec_13f", {"filer": "Berkshire"})
    d = item["data"]
    assert item["title"] == ("BERKSHIRE HATHAWAY INC: 13F-HR holdings for the quarter ending 2024-09-30 "
                             "(filed 2024-11-14)")
    assert item["url"] == BERKSHIRE_Q3 + "0000950123-24-011775-index.htm"
    assert d["table_url"] == BERKSHIRE_Q3 + "form13fInfoTable.xml"
    assert (d["period"], d["value_unit"], d["positions"], d["total_value"]) == (
        "2024-09-30", "dollars", 11, 226338020814.0)
    # Apple's two rows (270,000,000 + 30,000,000 shares) are one position: 30.89% of the portfolio.
    assert {k: d["top"][0][k] for k in ("issuer", "shares", "value", "share_pct")} == {
        "issuer": "APPLE INC", "shares": 300000000.0, "value": 69904500000.0, "share_pct": 30.89}
    assert [p["issuer"] for p in d["top"][1:3]] == ["AMERICAN EXPRESS CO", "BANK AMER CORP"]
    changes = d["changes"]
    assert d["previous_period"] == "2024-06-30"
    assert [c["issuer"] for c in changes["new"]] == ["DOMINOS PIZZA INC", "POOL CORPORATION"]
    assert [c["issuer"] for c in changes["added"]] == ["OCCIDENTAL PETE CORP"]
    assert [(c["issuer"], c["shares_before"], c["shares_after"]) for c in changes["reduced"]] == [
        ("APPLE INC", 400000000.0, 300000000.0), ("BANK AMER CORP", 1032852006.0, 797683307.0)]
    assert [c["issuer"] for c in changes["sold"]] == ["FLOOR & DECOR HLDGS INC"]
    # The submissions list, then each of the two filings' directory and table: no ticker list.
    assert edgar.count() == 5 and edgar.count("company_tickers") == 0


@pytest.mark.parametrize("filer", ["1067983", "CIK0001067983", "伯克希尔", "Berkshire Hathaway Inc"])
def test_the_filer_by_cik_or_any_of_its_names(sec, filer):
    assert sec.fetch("sec_13f", {"filer": filer})[0]["data"]["cik"] == 1067983


def test_an_unknown_institution_is_named_and_nothing_is_sent(edgar, sec):
    with pytest.raises(UnknownSymbol, match="no 13F filer named 'Acme Capital' is known here; give its SEC CIK"):
        sec.fetch("sec_13f", {"filer": "Acme Capital"})
    assert edgar.sent == []


def test_a_filer_without_13f_reports_is_no_data(sec):
    with pytest.raises(NoData, match="lists no 13F-HR holdings report for Apple Inc. \\(CIK 320193\\)"):
        sec.fetch("sec_13f", {"filer": "320193"})


def test_a_broken_information_table_is_unreachable(edgar, sec):
    edgar.fail("changed", on="form13fInfoTable")
    with pytest.raises(Unreachable, match="a 13F information table that is not well-formed XML"):
        sec.fetch("sec_13f", {"filer": "Berkshire"})


def test_a_changed_filing_directory_is_unreachable(edgar, sec):
    edgar.fail("changed", on="index.json")
    with pytest.raises(Unreachable, match="changed its filing directory answer"):
        sec.fetch("sec_13f", {"filer": "Berkshire"})


@pytest.mark.parametrize(("fault", "error"), [("403", Refused), ("429", RateLimited), ("timeout", TimedOut)])
def test_a_blocked_13f_request_fails_the_call(edgar, sec, fault, error):
    edgar.fail(fault, on="1067983")
    with pytest.raises(error):
        sec.fetch("sec_13f", {"filer": "Berkshire"})


@pytest.mark.parametrize("source, args", [("sec_insiders", {"ticker": "AAPL"}), ("sec_13f", {"filer": "Berkshire"})])
def test_without_an_identity_nothing_is_sent(edgar, source, args):
    with pytest.raises(SourceError, match='set FINSEARCH_SEC_IDENTITY="Your Name you@example.com"') as err:
        SecEdgar(None, transport=edgar.transport).fetch(source, args)
    assert edgar.sent == [] and err.value.kind is FailureKind.NOT_SET_UP


def test_the_answer_says_which_setting_is_missing(tmp_path):
    from finsearch import pipeline
    from finsearch.settings import from_env

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic", now=NOW)
    result = pipeline.ask("伯克希尔最新13F持仓", settings=settings)        # no identity: nothing is sent
    assert [(n.source, n.failure) for n in result.graph] == [("sec_13f", FailureKind.NOT_SET_UP)]
    assert result.answer.markdown.replace("\\", "") == (
        "未能查询“Berkshire Hathaway Inc”的13F 持仓：该数据源需要先完成设置"
        "（SEC EDGAR 需要联系人姓名和邮箱，可在设置页填写）。")


def test_the_recorded_information_table_in_dollars():
    table = read_table(recorded_information_table(), "2023-09-30")
    # Its cover page's tableValueTotal is 454926000; the largest position IFF, 154,405,000.
    total = sum(p.value for p in table.positions)
    assert (table.value_unit, len(table.positions), total) == ("dollars", 14, 454926000)
    assert (table.positions[0].issuer, table.positions[0].value) == ("INTERNATIONAL FLAVORS&FRAGRA", 154405000.0)


def test_a_report_before_the_change_is_in_thousands():
    table = read_table(recorded_information_table(), "2022-09-30")
    assert table.value_unit == "thousands" and table.positions[0].value == 154405000000.0


def test_a_filer_still_reporting_thousands_after_the_change_is_read_as_thousands():
    # Amazon at $127 a share: 137,500 shares filed as 17,479 (thousands), not 17,479,000.
    xml = ('<informationTable xmlns="http://www.sec.gov/edgar/document/thirteenf/informationtable"><infoTable>'
           "<nameOfIssuer>AMAZON COM INC</nameOfIssuer><titleOfClass>COM</titleOfClass><cusip>023135106</cusip>"
           "<value>17479</value><shrsOrPrnAmt><sshPrnamt>137500</sshPrnamt><sshPrnamtType>SH</sshPrnamtType>"
           "</shrsOrPrnAmt></infoTable></informationTable>")
    table = read_table(xml, "2023-09-30")
    assert (table.value_unit, table.positions[0].value) == ("thousands", 17479000.0)
    assert "under $1 a share" in table.unit_reason
