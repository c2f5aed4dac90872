"""Insider transactions of a US company: its recent Form 4 filings, read from their XML.

    sec_insiders  data.sec.gov/submissions (form "4", newest first, at most MAX_FORM4)
                  → each filing's ownershipDocument XML → who (name, role), and per
                  common-stock transaction: date, code, shares, price, shares owned after

The submissions list names each Form 4's primary document as EDGAR renders it for people
("xslF345X05/wk-form4_….xml"); the filed XML is the same file name without the rendering
folder. Only the non-derivative table is read (the stock bought, sold, awarded or taken on
exercise); options and units themselves are left out. A Form 4 the company is listed in as the
*owner* (its stake in another issuer) is not about its insiders and is skipped.

The first item summarises what was read, bounded: how many Form 4s (of how many listed), the
sales and purchases in them; then one item per filing, linking to it. A Form 4 whose XML cannot
be read is counted, not guessed at; when none can be read it is Unreachable, and a company with
no Form 4 in its list is NoData.
"""

from __future__ import annotations

import dataclasses

from ...errors import NoData, Unreachable
from ...phrases import say
from ..upstream.bounded import TooLarge
from . import forms_xml as sec_xml
from .adapter import ARCHIVE_URL, SEC, Request
from .builders import filing_published, recent_filings

MAX_FORM4 = 10           # each one is a request: ≥ 1.1 s at SEC's pace, within a node's time
FORM4_MAX_BYTES = 2**20  # a Form 4 is a few kilobytes of XML: a megabyte is not one
CODES = frozenset("PSAMFGDCEHIJKLOUVWXZ")     # the Form 4 transaction codes (General Instructions, 8)
CIK_DIGITS = 10          # SEC's central index keys are at most ten digits
ISSUER_PAGE = "https://www.sec.gov/cgi-bin/own-disp?action=getissuer&CIK={cik:010d}"


@dataclasses.dataclass(frozen=True)
class Transaction:
    date: str | None
    code: str | None                 # one of CODES, as filed
    acquired: bool | None            # A (acquired) / D (disposed)
    shares: float | None
    price: float | None              # per share; None or 0 for awards and gifts
    owned_after: float | None
    security: str | None
    direct: bool | None              # owned directly, or indirectly (a trust, a family member)

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Form4:
    owner: str
    roles: tuple[str, ...]           # director, officer, ten_percent_owner, other
    title: str | None                # the officer's title, or the "other" text
    issuer_cik: int | None
    transactions: tuple[Transaction, ...]


def _raw_document(primary: str) -> str:
    folder, _, name = primary.partition("/")
    return name if name and folder.lower().startswith("xsl") else primary


def read_form4(content: bytes | str) -> Form4:
    """One Form 4's owner and common-stock transactions (Unreachable when it is not one)."""
    root = sec_xml.parse(content, "ownershipDocument", "a Form 4")
    owners = sec_xml.children(root, "reportingOwner")
    names = [sec_xml.text(o, "reportingOwnerId", "rptOwnerName") for o in owners]
    relation = sec_xml.child(owners[0], "reportingOwnerRelationship") if owners else None
    flags = {"director": "isDirector", "officer": "isOfficer", "ten_percent_owner": "isTenPercentOwner",
             "other": "isOther"}
    roles = tuple(role for role, tag in flags.items() if (sec_xml.text(relation, tag) or "").lower() in ("1", "true"))
    title = sec_xml.text(relation, "officerTitle") or sec_xml.text(relation, "otherText")
    issuer = sec_xml.text(root, "issuer", "issuerCik")
    rows = []
    for row in sec_xml.children(sec_xml.child(root, "nonDerivativeTable"), "nonDerivativeTransaction"):
        code = (sec_xml.text(row, "transactionCoding", "transactionCode") or "").upper() or None
        moved = (sec_xml.text(row, "transactionAmounts", "transactionAcquiredDisposedCode") or "").upper()
        nature = (sec_xml.text(row, "ownershipNature", "directOrIndirectOwnership") or "").upper()
        rows.append(Transaction(
            sec_xml.text(row, "transactionDate"), code if code in CODES else None,
            {"A": True, "D": False}.get(moved), sec_xml.number(row, "transactionAmounts", "transactionShares"),
            sec_xml.number(row, "transactionAmounts", "transactionPricePerShare"),
            sec_xml.number(row, "postTransactionAmounts", "sharesOwnedFollowingTransaction"),
            sec_xml.text(row, "securityTitle"), {"D": True, "I": False}.get(nature)))
    return Form4(" / ".join(n for n in names if n) or "?", roles, title,
                 int(issuer) if issuer and issuer.isdigit() and len(issuer) <= CIK_DIGITS else None, tuple(rows))


def insiders(req: Request) -> list[dict]:
    start, end = req.args.get("start"), req.args.get("end")
    listed = [r for r in recent_filings(req) if r["form"] == "4"
              and (not start or str(r["filingDate"]) >= start) and (not end or str(r["filingDate"]) <= end)]
    if not listed:
        raise NoData(f"{SEC.name} lists no Form 4 (insider transaction) filings for {req.company.ticker}"
                     + (f" between {start} and {end}" if start or end else ""))
    items, unreadable, elsewhere = [], 0, 0
    for row in listed[:MAX_FORM4]:
        folder = str(row["accessionNumber"]).replace("-", "")
        xml_url = ARCHIVE_URL.format(cik=req.company.cik, folder=folder, document=_raw_document(row["primaryDocument"]))
        try:
            # A 403, 429 or timeout fails the call, as for any request.
            content = req.get(xml_url, limit=FORM4_MAX_BYTES).content
        except (NoData, TooLarge):
            unreadable += 1                          # a document EDGAR no longer has, or far too large: counted
            continue
        try:
            form = read_form4(content)
        except Unreachable:
            unreadable += 1                          # a broken document: counted, the others still read
            continue
        if form.issuer_cik is not None and form.issuer_cik != req.company.cik:
            elsewhere += 1
            continue
        items.append(_filing_item(req, row, form))
    if not items and unreadable:
        raise Unreachable(f"none of {req.company.ticker}'s {unreadable} most recent Form 4 documents could be read "
                          f"as ownershipDocument XML")
    if not items:
        raise NoData(f"{req.company.ticker}'s most recent Form 4 filings report its stakes in other companies, "
                     "none by its own insiders")
    return [_summary(req, items, len(listed), unreadable, elsewhere)] + items


def _filing_item(req: Request, row: dict, form: Form4) -> dict:
    folder = str(row["accessionNumber"]).replace("-", "")
    url = ARCHIVE_URL.format(cik=req.company.cik, folder=folder, document=row["primaryDocument"])
    lines = [_line(t) for t in form.transactions]
    who = form.owner + (f" ({form.title})" if form.title else "")
    return {
        "title": f"Form 4: {who}, {req.company.name} ({req.company.ticker}), filed {row['filingDate']}",
        "url": url, "publisher": SEC.name, "published": filing_published(row),
        "snippet": "; ".join(lines) if lines else say("form4.no_stock_transaction", "en"),
        "data": {"ticker": req.company.ticker, "company": req.company.name, "owner": form.owner,
                 "roles": list(form.roles), "title": form.title, "filed": row["filingDate"],
                 "accession": row["accessionNumber"], "transactions": [t.to_json() for t in form.transactions]},
    }


def _line(t: Transaction) -> str:
    what = say(f"form4.code.{t.code}", "en") if t.code else "transaction"
    price = f" at ${t.price:,.2f}" if t.price else ""
    after = f", {t.owned_after:,.0f} shares owned after" if t.owned_after is not None else ""
    shares = f"{t.shares:,.0f}" if t.shares is not None else "?"
    return f"{t.date or '?'}: {what} ({t.code}), {shares} shares{price}{after}"


def _summary(req: Request, items: list[dict], listed: int, unreadable: int, elsewhere: int) -> dict:
    totals: dict[str, dict] = {}
    for item in items:
        for t in item["data"]["transactions"]:
            if not t["code"]:
                continue
            total = totals.setdefault(t["code"], {"transactions": 0, "shares": 0.0, "value": 0.0})
            total["transactions"] += 1
            total["shares"] += t["shares"] or 0.0
            total["value"] += (t["shares"] or 0.0) * (t["price"] or 0.0)
    filed = [item["data"]["filed"] for item in items]
    read = len(items) + unreadable + elsewhere
    return {
        "title": f"{req.company.name} ({req.company.ticker}) insider transactions: the {read} most recent Form 4 "
                 f"filings ({min(filed)} to {max(filed)})",
        "url": ISSUER_PAGE.format(cik=req.company.cik), "publisher": SEC.name,
        "published": items[0]["published"],
        "snippet": f"Read {read} of {listed} Form 4 filings listed (at most {MAX_FORM4} a call): "
                   + ", ".join(f"{code} {v['transactions']} ({v['shares']:,.0f} shares)"
                               for code, v in sorted(totals.items())),
        "data": {"ticker": req.company.ticker, "company": req.company.name, "summary": True,
                 "form4_read": read, "form4_listed": listed, "max_read": MAX_FORM4, "unreadable": unreadable,
                 "other_issuers": elsewhere, "first_filed": min(filed), "last_filed": max(filed),
                 "totals": {code: {**v, "shares": round(v["shares"], 4), "value": round(v["value"], 2)}
                            for code, v in sorted(totals.items())}},
    }
