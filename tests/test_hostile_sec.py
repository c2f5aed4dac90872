"""Hostile answers from SEC EDGAR (issue 31 §10), on httpx with EDGAR at the transport
(tests/sec_wire.py): XML that declares an entity bomb or an external entity, a filing that never
ends or inflates a thousandfold, one that trickles, and seeded random damage to every answer
the five SEC sources read (the ticker list, submissions, XBRL facts, the 10-K, Form 4s, a 13F's
directory and information table). Each ends as evidence with inert text or as a source failure
FinSearch meant, never a crash, a hang or gigabytes held."""

from __future__ import annotations

import json
import random
import time
import tracemalloc
import xml.etree.ElementTree as ET
from functools import partial

import httpx
import pytest

from finsearch.errors import TimedOut, Unreachable
from finsearch.sources.sec import text as sec_text
from finsearch.sources.sec.adapter import MAX_RESPONSE_BYTES, SecEdgar, forget_tickers
from finsearch.sources.sec.holdings import read_table
from finsearch.sources.sec.insiders import FORM4_MAX_BYTES, read_form4
from tests.hostile_payloads import leaf, mutate, settled, shape, to_json
from tests.sec_wire import IDENTITY, NOW

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE ownershipDocument [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<ownershipDocument><reportingOwner><reportingOwnerId><rptOwnerName>&lol9;</rptOwnerName>
</reportingOwnerId></reportingOwner></ownershipDocument>"""
# A small bomb: under expat's amplification limit, so the stdlib parser would expand it.
SMALL_BOMB = BILLION_LAUGHS.replace(b"&lol9;", b"&lol3;")
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE informationTable [<!ENTITY passwd SYSTEM "file:///etc/passwd">]>
<informationTable><infoTable><nameOfIssuer>&passwd;</nameOfIssuer><cusip>037833100</cusip>
<value>1</value></infoTable></informationTable>"""
CALLS = [("sec_filings", {"ticker": "AAPL"}),
         ("sec_section", {"ticker": "AAPL", "item": "1A", "query": "supply chain"}),
         ("sec_facts", {"ticker": "AAPL", "freq": "quarterly"}),
         ("sec_insiders", {"ticker": "AAPL"}),
         ("sec_13f", {"filer": "Berkshire"})]
FORM4 = "/Archives/edgar/data/320193/000114036124043210/form4-20241018_park.xml"
TEN_K = "/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"


# -- XML: no entity is ever expanded ----------------------------------------------------------

@pytest.mark.parametrize("document", [BILLION_LAUGHS, SMALL_BOMB], ids=["billion-laughs", "small-bomb"])
def test_an_entity_bomb_in_a_form_4_is_refused_not_expanded(document):
    started = time.monotonic()
    with pytest.raises(Unreachable, match="document type declaration"):
        read_form4(document)
    assert time.monotonic() - started < 1.0


def test_an_external_entity_in_a_13f_table_is_refused_and_no_file_is_read():
    with pytest.raises(Unreachable, match="document type declaration") as caught:
        read_table(EXTERNAL_ENTITY, "2024-09-30")
    assert "root:" not in str(caught.value)


def test_a_form_4_with_a_dtd_is_counted_unreadable_and_the_others_read(edgar, sec):
    edgar.replaced[FORM4] = BILLION_LAUGHS
    summary, *filings = sec.fetch("sec_insiders", {"ticker": "AAPL"})
    assert summary["data"]["unreadable"] == 1 and len(filings) == 3
    assert all("lol" not in f["title"] for f in filings)


def test_a_13f_table_with_an_external_entity_is_unreachable(edgar, sec):
    table = "/Archives/edgar/data/1067983/000095012324011775/form13fInfoTable.xml"
    edgar.replaced[table] = EXTERNAL_ENTITY
    with pytest.raises(Unreachable, match="document type declaration"):
        sec.fetch("sec_13f", {"filer": "Berkshire"})


# -- size and time: read as a stream, bounded -------------------------------------------------

def test_a_filing_that_never_ends_is_refused_at_the_limit(edgar, sec):
    edgar.fail("endless", on="aapl-20240928.htm")
    tracemalloc.start()
    try:
        with pytest.raises(Unreachable, match="sent more than 64 MB"):
            sec.fetch("sec_section", {"ticker": "AAPL", "item": "1A"})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert edgar.endless.closed and edgar.endless.sent <= MAX_RESPONSE_BYTES + 2**17
    assert peak < 3 * MAX_RESPONSE_BYTES, f"{peak / 2**20:.0f} MB held"


def test_a_gzip_bomb_is_refused_as_it_inflates(edgar, sec):
    edgar.fail("bomb", on="aapl-20240928.htm")
    with pytest.raises(Unreachable, match="sent more than 64 MB"):
        sec.fetch("sec_section", {"ticker": "AAPL", "item": "1A"})


def test_a_form_4_larger_than_any_form_4_is_counted_unreadable(edgar, sec):
    edgar.fail("endless", on="form4-20241018_park.xml")
    summary, *filings = sec.fetch("sec_insiders", {"ticker": "AAPL"})
    assert summary["data"]["unreadable"] == 1 and len(filings) == 3
    assert edgar.endless.sent <= FORM4_MAX_BYTES + 2**17


def test_a_trickling_filing_is_given_up_on_and_its_thread_ends(edgar):
    """The node stops waiting at its deadline; the read itself stops soon after, not never."""
    edgar.fail("trickle", on="aapl-20240928.htm")
    sec = SecEdgar(IDENTITY, transport=edgar.transport, clock=lambda: NOW, timeout_s=1.0)
    with pytest.raises(TimedOut):
        sec.fetch("sec_section", {"ticker": "AAPL", "item": "1A"})
    give_up = time.monotonic() + 10
    while not edgar.endless.closed and time.monotonic() < give_up:
        time.sleep(0.05)
    assert edgar.endless.closed, "the abandoned read is still going"


def test_a_filing_of_item_headings_that_never_end_is_read_in_linear_time():
    """Each "Item 1A" used to be walked to the end of the document looking for "Item 1B"."""
    heading = "Item 1A. Risk Factors of a company that names the item again and again, never the next one"
    document = f"<p>{heading}</p><p>We depend on suppliers.</p>" * 20_000    # longer than a page header
    started = time.monotonic()
    found = sec_text.section(document, "1A")
    assert found is not None and found.count(heading) == 20_000     # from the first heading to the end
    assert time.monotonic() - started < 3.0


# -- seeded random damage to every answer -----------------------------------------------------

def _recorded(edgar) -> dict[str, bytes]:
    """Every answer the five calls read, by URL path, as the fake serves them undamaged."""
    sec = SecEdgar(IDENTITY, transport=edgar.transport, clock=lambda: NOW, timeout_s=5.0)
    for source, args in CALLS:
        sec.fetch(source, args)
    paths = {httpx.URL(s.url).path for s in edgar.sent}
    return {path: edgar.transport.handle_request(httpx.Request("GET", f"https://www.sec.gov{path}")).read()
            for path in sorted(paths)}


def _damaged(rng: random.Random, path: str, body: bytes) -> bytes:
    roll = rng.random()
    if roll < 0.08:
        return rng.choice([b"", b"null", b"[]", b"{}", b"<html>oops", BILLION_LAUGHS, EXTERNAL_ENTITY,
                           to_json(shape(rng, ["filings", "recent", "units", "directory", "item", "name"]))])
    if path.endswith(".json"):
        return to_json(mutate(rng, json.loads(body), rate=rng.choice([0.02, 0.05, 0.15])))
    if path.endswith(".xml"):
        return _damaged_xml(rng, body)
    text = body.decode()
    for _ in range(rng.randint(1, 4)):                    # raw markup and text into the filing's HTML
        at = rng.randrange(len(text))
        text = text[:at] + str(leaf(rng)) + text[at:]
    return text.encode("utf-8", "surrogatepass")


def _damaged_xml(rng: random.Random, body: bytes) -> bytes:
    root = ET.fromstring(body.strip())
    for element in list(root.iter()):
        roll = rng.random()
        if roll < 0.15:
            element.text = str(leaf(rng)).encode("utf-8", "replace").decode()   # escaped when written
        elif roll < 0.2:
            element.clear()
    return ET.tostring(root)


@pytest.mark.parametrize("seed", range(6))
def test_no_damaged_answer_crashes_hangs_or_leaks_markup(edgar, seed):
    recorded = _recorded(edgar)
    assert len(recorded) >= 12, sorted(recorded)
    rng = random.Random(seed)
    sec = SecEdgar(IDENTITY, transport=edgar.transport, clock=lambda: NOW, timeout_s=20.0)
    outcomes = []
    for _ in range(6):
        edgar.replaced = {path: _damaged(rng, path, body) for path, body in recorded.items()
                          if rng.random() < 0.6}
        forget_tickers()
        for source, args in CALLS:
            outcomes.append(settled(partial(sec.fetch, source, args), source))
    assert "evidence" in outcomes, "no trial came through: the damage is too heavy to test anything"
