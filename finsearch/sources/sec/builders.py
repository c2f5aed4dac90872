"""The SEC builders: a company's filings list, and one section of its latest report.

    sec_filings  data.sec.gov/submissions/CIK##########.json → the newest filings (form, date, link)
    sec_section  the latest 10-K/10-Q's primary document → item 1A / 7 / … → the passages
                 most relevant to the sub-query (sec_text)
    sec_facts    data.sec.gov/api/xbrl/companyconcept → revenue, net income, diluted EPS per
                 period, each as first filed, with the filing it came from

Shapes as SEC serves them (the submissions JSON's `filings.recent`: parallel arrays
`accessionNumber`, `filingDate`, `reportDate`, `acceptanceDateTime`, `form`,
`primaryDocument`, `primaryDocDescription`). A body without them is Unreachable ("SEC
changed its answer"), never "no data".
"""

from __future__ import annotations

import re
from datetime import date

from ...errors import NoData, Unreachable
from ...evidence import iso_utc
from . import text as sec_text
from .adapter import ARCHIVE_URL, SEC, SUBMISSIONS_URL, Request

MAX_FILINGS = 10
KEEP_PASSAGES = 4
RECENT_FIELDS = ("accessionNumber", "filingDate", "form", "primaryDocument")
# What EDGAR's names look like (its Filer Manual allows letters, digits, "-", "_" and "." in a
# document's name; the submissions list may put a rendering folder, "xslF345X05/", before it).
# Anything else is not built into a URL: a filing without an accession is left out, a document
# name that is not one is "" (the filing's folder).
ACCESSION = re.compile(r"\d{10}-\d{2}-\d{6}")
DOCUMENT = re.compile(r"(?:[A-Za-z0-9_.-]{1,40}/)?[A-Za-z0-9_-][A-Za-z0-9_.-]{0,120}")


def submissions(req: Request) -> dict:
    """The company's (or filer's) submissions JSON."""
    try:
        body = req.get(SUBMISSIONS_URL.format(cik=req.company.cik)).json()
    except ValueError as exc:
        raise Unreachable(f"{SEC.name} answered the submissions request with something that is not JSON") from exc
    return body if isinstance(body, dict) else {}


def recent_filings(req: Request, body: dict | None = None) -> list[dict]:
    """The company's recent filings, newest first, one dict per filing (from `body`, the
    submissions JSON, when the caller has it already)."""
    try:
        recent = (submissions(req) if body is None else body)["filings"]["recent"]
        columns = {name: recent[name] for name in RECENT_FIELDS}
        if not all(isinstance(values, list) for values in columns.values()):
            raise TypeError("a column that is not a list")
    except (ValueError, KeyError, TypeError) as exc:
        raise Unreachable(f"{SEC.name} changed its submissions answer: no filings.recent "
                          f"({type(exc).__name__})") from exc
    optional = {name: recent[name] if isinstance(recent.get(name), list) else []
                for name in ("reportDate", "acceptanceDateTime", "primaryDocDescription")}
    rows = []
    # EDGAR's columns are parallel arrays of strings: a value of another type, or a missing one
    # (a column shorter than the rest), is "", and a filing with no accession or form is left out.
    for i in range(len(columns["accessionNumber"])):
        row = {name: _text_at(values, i) for name, values in (columns | optional).items()}
        if not DOCUMENT.fullmatch(row["primaryDocument"]) or ".." in row["primaryDocument"]:
            row["primaryDocument"] = ""
        if ACCESSION.fullmatch(row["accessionNumber"]) and row["form"]:
            rows.append(row)
    rows.sort(key=lambda r: r["filingDate"], reverse=True)
    return rows


def _text_at(values: list, i: int) -> str:
    value = values[i] if i < len(values) else ""
    return value if isinstance(value, str) else ""


def filing_link(req: Request, row: dict) -> str:
    return ARCHIVE_URL.format(cik=req.company.cik, folder=str(row["accessionNumber"]).replace("-", ""),
                              document=row["primaryDocument"])


def filing_published(row: dict) -> str | None:
    return iso_utc(row.get("acceptanceDateTime") or f"{row['filingDate']}T00:00:00Z")


# A foreign private issuer files its annual report on 20-F (40-F from Canada), its interim and
# current reports on 6-K, its prospectus on F-1: a form asked that the company never files is
# answered with its counterpart ("Alibaba's latest 10-K" is its 20-F).
FORM_COUNTERPARTS = (("10-K", "20-F", "40-F"), ("10-Q", "6-K"), ("8-K", "6-K"), ("S-1", "F-1", "424B4"),
                     ("DEF 14A", "DEFA14A"))


def counterparts(form: str) -> tuple[str, ...]:
    """The forms that serve as `form` for a filer that does not file it, in order."""
    return tuple(dict.fromkeys(other for group in FORM_COUNTERPARTS if form in group for other in group
                               if other != form))


def filings(req: Request) -> list[dict]:
    form, start, end = req.args.get("form"), req.args.get("start"), req.args.get("end")
    dated = [r for r in recent_filings(req)
             if (not start or str(r["filingDate"]) >= start) and (not end or str(r["filingDate"]) <= end)]
    rows = [r for r in dated if not form or r["form"] == form]
    if form and not rows:
        rows = [r for r in dated if r["form"] in counterparts(form)]
    if not rows:
        what = f"{form} " if form else ""
        raise NoData(f"{SEC.name} lists no {what}filings for {req.company.ticker}"
                     + (f" between {start} and {end}" if start or end else ""))
    items = []
    for row in rows[:MAX_FILINGS]:
        about = row.get("primaryDocDescription") or row["form"]
        items.append({
            "title": f"{req.company.name} {row['form']} filed {row['filingDate']}"
                     + (f" (period {row['reportDate']})" if row.get("reportDate") else ""),
            "url": filing_link(req, row), "publisher": SEC.name, "published": filing_published(row),
            "snippet": f"{req.company.name} ({req.company.ticker}) {about}, accession {row['accessionNumber']}",
            "data": {"ticker": req.company.ticker, "form": row["form"], "filed": row["filingDate"],
                     "report_date": row.get("reportDate") or None, "accession": row["accessionNumber"]},
        })
    return items


def section(req: Request) -> list[dict]:
    form, item = req.args.get("form") or "10-K", str(req.args.get("item") or "1A").upper()
    latest = next((r for r in recent_filings(req) if r["form"] == form), None)
    if latest is None:
        raise NoData(f"{SEC.name} lists no {form} for {req.company.ticker}")
    url = filing_link(req, latest)
    text = sec_text.section(req.get(url).text, item)
    filed = str(latest["filingDate"])
    title = sec_text.TITLES.get(item, "")
    if text is None:
        raise NoData(f"item {item} ({title}) was not found in {req.company.ticker}'s {form} filed {filed}")
    chunks = sec_text.passages(text)
    own_name = frozenset(sec_text.words(f"{req.company.name} {req.company.ticker}"))
    best = sec_text.relevant(chunks, req.args.get("query"), KEEP_PASSAGES, ignore=own_name)
    kept = [{"index": i, "score": score, "text": chunks[i]} for i, score in best]
    return [{
        "title": f"{req.company.name} {form} filed {filed}: Item {item}. {title}",
        "url": url, "publisher": SEC.name, "published": filing_published(latest),
        "period": {"start": latest["reportDate"], "end": latest["reportDate"]} if _is_day(latest.get("reportDate"))
        else None,
        "snippet": kept[0]["text"] if kept else "",
        "data": {"ticker": req.company.ticker, "company": req.company.name, "form": form, "item": item,
                 "section_title": title, "filed": filed, "accession": latest["accessionNumber"],
                 "passages": kept, "passages_total": len(chunks)},
    }]


def _is_day(value) -> bool:
    try:
        date.fromisoformat(str(value))
    except ValueError:
        return False
    return True


# -- XBRL facts (data.sec.gov/api/xbrl/companyconcept) -----------------------------------

CONCEPT_URL = "https://data.sec.gov/api/xbrl/companyconcept/CIK{cik:010d}/us-gaap/{tag}.json"
# Each line, by the us-gaap tags companies file it under (the first one a company uses wins).
CONCEPTS = {"revenue": ("RevenueFromContractWithCustomerExcludingAssessedTax", "Revenues", "SalesRevenueNet"),
            "net_income": ("NetIncomeLoss",),
            "eps_diluted": ("EarningsPerShareDiluted",)}
FACT_PERIODS = 4
QUARTER_DAYS = (80, 100)          # a 10-Q's three-month figures, not its year-to-date ones


def _facts_of(req: Request, tags: tuple[str, ...]) -> tuple[str, list[dict]] | None:
    for tag in tags:
        try:
            body = req.get(CONCEPT_URL.format(cik=req.company.cik, tag=tag)).json()
        except NoData:
            continue                                  # the company does not file this tag
        except ValueError as exc:
            raise Unreachable(f"{SEC.name} answered {tag} with something that is not JSON") from exc
        units = body.get("units") if isinstance(body, dict) else None
        if not isinstance(units, dict) or not units:
            raise Unreachable(f"{SEC.name} changed its companyconcept answer: no units for {tag}")
        return tag, [dict(f, unit=unit) for unit, facts in units.items() if isinstance(facts, list)
                     for f in facts if isinstance(f, dict)]
    return None


def _in_basis(fact: dict, basis: str) -> bool:
    if basis == "annual":
        return fact.get("form") == "10-K" and fact.get("fp") == "FY" and (_days(fact) or 365) > 300
    days = _days(fact)
    return fact.get("form") in ("10-Q", "10-K") and (days is None or QUARTER_DAYS[0] <= days <= QUARTER_DAYS[1])


def _days(fact: dict) -> int | None:
    try:
        return (date.fromisoformat(fact["end"]) - date.fromisoformat(fact["start"])).days
    except (KeyError, TypeError, ValueError):
        return None


def facts(req: Request) -> list[dict]:
    basis = req.args.get("freq") or "annual"
    by_end: dict[str, dict] = {}
    tags = {}
    for line, candidates in CONCEPTS.items():
        found = _facts_of(req, candidates)
        if found is None:
            continue
        tags[line], values = found
        # The figure as first filed for each period (later filings restate comparatives).
        for fact in sorted(values, key=lambda f: str(f.get("filed"))):
            if not _in_basis(fact, basis) or not _is_day(fact.get("end")):
                continue
            period = by_end.setdefault(fact["end"], {"end": fact["end"], "fy": fact.get("fy"), "fp": fact.get("fp"),
                                                     "form": fact.get("form"), "filed": fact.get("filed"),
                                                     "accession": fact.get("accn")})
            period.setdefault(line, fact.get("val"))
    if not by_end:
        raise NoData(f"{SEC.name} has no {basis} XBRL figures for {req.company.ticker}")
    periods = sorted(by_end.values(), key=lambda p: p["end"], reverse=True)[:FACT_PERIODS]
    latest = periods[0]
    folder = str(latest.get("accession") or "").replace("-", "")
    return [{
        "title": f"{req.company.name} reported figures (SEC XBRL, {basis}), latest period ending {latest['end']}",
        "url": f"https://www.sec.gov/Archives/edgar/data/{req.company.cik}/{folder}/" if folder else
               f"https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK={req.company.cik}",
        "publisher": SEC.name, "published": iso_utc(f"{latest['filed']}T00:00:00Z") if latest.get("filed") else None,
        "period": {"start": latest["end"], "end": latest["end"]},
        "snippet": f"{req.company.name} {latest.get('form')} filed {latest.get('filed')}: "
                   + ", ".join(f"{line} {latest[line]}" for line in CONCEPTS if latest.get(line) is not None),
        "data": {"ticker": req.company.ticker, "company": req.company.name, "currency": "USD", "basis": basis,
                 "tags": tags, "periods": periods},
    }]
