"""An institution's holdings from its latest Form 13F-HR, and what changed since the one before.

    sec_13f  data.sec.gov/submissions of the filer (finsearch.reference.filers: a name or a CIK) → its two
             latest 13F-HR → each filing's directory (index.json) → its information table XML
             (`informationTable/infoTable`) → positions by value, share of the portfolio,
             new / added / reduced / sold-out positions

EDGAR has no list of an issuer's holders, so this is one filer's portfolio. Its rows are summed
per security (CUSIP, and put or call apart): a manager lists one security once per sub-manager.

Units: SEC Release 34-96734 (June 2022) moved the 13F `<value>` from thousands of dollars to
dollars, rounded to the nearest dollar, for reports filed from January 3, 2023 — the quarter
ending 2022-12-31 onward. Older reports are multiplied by 1,000 here. Some filers kept
reporting thousands after the change (edgartools found several); a table in which most
share positions would be priced under $1 a share is read as thousands, and the payload says
which unit was used and why.
"""

from __future__ import annotations

import dataclasses

from ...errors import NoData, Unreachable
from . import forms_xml as sec_xml
from .adapter import SEC, Request
from .builders import filing_published, recent_filings, submissions

DOLLARS_FROM_PERIOD = "2022-12-31"    # the first quarter reported in dollars (Release 34-96734)
DIRECTORY_URL = "https://www.sec.gov/Archives/edgar/data/{cik}/{folder}/index.json"
INDEX_PAGE = "https://www.sec.gov/Archives/edgar/data/{cik}/{folder}/{accession}-index.htm"
TOP = 10
CHANGES = 5                           # per kind of change, the largest by value
FORMS = ("13F-HR",)                   # amendments (13F-HR/A) may restate only part of a report


@dataclasses.dataclass(frozen=True)
class Position:
    issuer: str
    title: str | None                 # the class of security ("COM", "CL B NEW")
    cusip: str
    put_call: str | None              # "Put" / "Call" for options, None for the security itself
    value: float                      # US dollars
    shares: float                     # shares, or principal amount for PRN rows
    unit: str                         # SH or PRN

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Table:
    positions: tuple[Position, ...]   # summed per security, largest first
    value_unit: str                   # "dollars" or "thousands" (as filed; values here are dollars)
    unit_reason: str


def read_table(content: bytes | str, period: str) -> Table:
    """The information table's positions in dollars (Unreachable when it is not one)."""
    root = sec_xml.parse(content, "informationTable", "a 13F information table")
    raw = []
    for row in sec_xml.children(root, "infoTable"):
        value, shares = sec_xml.number(row, "value"), sec_xml.number(row, "shrsOrPrnAmt", "sshPrnamt")
        cusip = (sec_xml.text(row, "cusip") or "").upper()
        if value is None or not cusip:
            continue
        raw.append((sec_xml.text(row, "nameOfIssuer") or cusip, sec_xml.text(row, "titleOfClass"), cusip,
                    sec_xml.text(row, "putCall"), value, shares or 0.0,
                    (sec_xml.text(row, "shrsOrPrnAmt", "sshPrnamtType") or "SH").upper()))
    unit, reason = _unit(raw, period)
    scale = 1000.0 if unit == "thousands" else 1.0
    summed: dict[tuple, list] = {}
    for issuer, title, cusip, put_call, value, shares, kind in raw:
        entry = summed.setdefault((cusip, put_call), [issuer, title, cusip, put_call, 0.0, 0.0, kind])
        entry[4] += value * scale
        entry[5] += shares
    positions = sorted((Position(*entry) for entry in summed.values()), key=lambda p: -p.value)
    return Table(tuple(positions), unit, reason)


def _unit(raw: list[tuple], period: str) -> tuple[str, str]:
    if period < DOLLARS_FROM_PERIOD:
        return "thousands", f"a report for {period}, before 13F values moved to dollars (quarters from 2022-12-31)"
    priced = [value / shares for _, _, _, put_call, value, shares, kind in raw
              if kind == "SH" and not put_call and shares > 0]
    if priced and sum(1 for price in priced if price < 1.0) * 2 >= len(priced):
        return "thousands", "filed in thousands after the change: most positions would cost under $1 a share in dollars"
    return "dollars", f"a report for {period}: 13F values are in dollars from the quarter ending 2022-12-31"


def _information_table(req: Request, row: dict) -> tuple[str, Table]:
    folder = str(row["accessionNumber"]).replace("-", "")
    try:
        items = req.get(DIRECTORY_URL.format(cik=req.company.cik, folder=folder)).json()["directory"]["item"]
        names = [str(item["name"]) for item in items]
    except (ValueError, KeyError, TypeError) as exc:
        raise Unreachable(f"{SEC.name} changed its filing directory answer ({type(exc).__name__})") from exc
    # The information table is the filing's XML document that is not its cover page (primary_doc.xml).
    table = next((n for n in names if n.lower().endswith(".xml") and n.lower() != "primary_doc.xml"), None)
    if table is None:
        raise Unreachable(f"{SEC.name}'s 13F-HR {row['accessionNumber']} has no information table")
    url = f"https://www.sec.gov/Archives/edgar/data/{req.company.cik}/{folder}/{table}"
    return url, read_table(req.get(url).content, str(row.get("reportDate") or row["filingDate"]))


def holdings(req: Request) -> list[dict]:
    body = submissions(req)
    name = str(body.get("name") or req.company.name)
    reports = [r for r in recent_filings(req, body) if r["form"] in FORMS]
    if not reports:
        raise NoData(f"{SEC.name} lists no 13F-HR holdings report for {name} (CIK {req.company.cik})")
    latest = reports[0]
    period = str(latest.get("reportDate") or "")
    table_url, table = _information_table(req, latest)
    if not table.positions:
        raise NoData(f"{name}'s 13F-HR for {period} lists no holdings")
    earlier = next((r for r in reports[1:] if str(r.get("reportDate") or "") < period), None)
    before = _information_table(req, earlier)[1] if earlier is not None else None
    total = sum(p.value for p in table.positions)
    top = [{**p.to_json(), "share_pct": round(100 * p.value / total, 2) if total > 0 else None}
           for p in table.positions[:TOP]]
    folder = str(latest["accessionNumber"]).replace("-", "")
    return [{
        "title": f"{name}: 13F-HR holdings for the quarter ending {period} (filed {latest['filingDate']})",
        "url": INDEX_PAGE.format(cik=req.company.cik, folder=folder, accession=latest["accessionNumber"]),
        "publisher": SEC.name, "published": filing_published(latest),
        "snippet": f"{len(table.positions)} positions, ${total:,.0f} in all; largest: "
                   + "; ".join(f"{p['issuer']} {p['share_pct']}%" for p in top[:5]),
        "data": {"filer": name, "cik": req.company.cik, "form": latest["form"], "period": period,
                 "filed": latest["filingDate"], "accession": latest["accessionNumber"], "table_url": table_url,
                 "value_unit": table.value_unit, "unit_reason": table.unit_reason, "currency": "USD",
                 "total_value": round(total, 2), "positions": len(table.positions), "top": top,
                 "previous_period": str(earlier.get("reportDate") or "") if earlier is not None else None,
                 "changes": _changes(table, before) if before is not None else None},
    }]


def _changes(now: Table, before: Table) -> dict:
    """New, added, reduced and sold-out positions by shares, the largest by value first."""
    old = {(p.cusip, p.put_call): p for p in before.positions}
    new = {(p.cusip, p.put_call): p for p in now.positions}

    def change(p_now: Position | None, p_old: Position | None) -> dict:
        p = p_now or p_old
        return {"issuer": p.issuer, "cusip": p.cusip, "put_call": p.put_call,
                "shares_before": p_old.shares if p_old else 0.0, "shares_after": p_now.shares if p_now else 0.0,
                "value": p_now.value if p_now else p_old.value}

    kinds: dict[str, list[dict]] = {"new": [], "added": [], "reduced": [], "sold": []}
    for key, p in new.items():
        q = old.get(key)
        if q is None:
            kinds["new"].append(change(p, None))
        elif p.shares > q.shares:
            kinds["added"].append(change(p, q))
        elif p.shares < q.shares:
            kinds["reduced"].append(change(p, q))
    kinds["sold"] = [change(None, q) for key, q in old.items() if key not in new]
    return {kind: sorted(rows, key=lambda c: -c["value"])[:CHANGES] for kind, rows in kinds.items()}
