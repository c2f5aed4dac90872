"""Extractive sentences for who trades and who holds, from SEC filings: a US company's insider
transactions (Form 4, `sec_insiders`) and an institution's 13F-HR holdings (`sec_13f`).

Same contract as `facts.WRITERS` (item, reference number, names, language → sentences, each
ending with its citation); names, dates, share counts and prices are copied from the filings.
The Form 4 summary says how many filings were read (the source reads at most ten a call), so
"no open-market sale" is never read as "none ever".
"""

from __future__ import annotations

from ..evidence import Evidence
from ..phrases import Language, phrasebook, say
from ..phrases.dates import DaySpan
from ..phrases.numbers import finite, money, pct
from ..reference.filers import FILERS
from .facts import label
from .markdown import escape

LINES_PER_FILING = 3
TOP_POSITIONS = 5
NAMES_PER_CHANGE = 3
CHANGE_PHRASES = (("new", "facts.thirteenf_new"), ("added", "facts.thirteenf_added"),
                  ("reduced", "facts.thirteenf_reduced"), ("sold", "facts.thirteenf_sold"))


def _records(value) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _shares(value) -> str:
    v = finite(value)
    return "?" if v is None else f"{v:,.0f}"


def insiders(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    return _insider_summary(item, d, r, names, language) if d.get("summary") else _filing(d, r, language)


def _insider_summary(item: Evidence, d: dict, r: int, names: dict, language: Language) -> list[str]:
    totals = d.get("totals") if isinstance(d.get("totals"), dict) else {}
    parts = {}
    for code, key, some, none in (("S", "sales", "facts.insider_sales", "facts.insider_no_sales"),
                                  ("P", "buys", "facts.insider_buys", "facts.insider_no_buys")):
        total = totals.get(code) if isinstance(totals.get(code), dict) else None
        parts[key] = say(some, language, count=int(finite(total.get("transactions")) or 0),
                         shares=_shares(total.get("shares")), value=money(total.get("value"), "USD", language)) \
            if total else say(none, language)
    return [say("facts.insider_summary", language, who=label(item.ticker, names, language),
                count=int(finite(d.get("form4_read")) or 0), max=int(finite(d.get("max_read")) or 0),
                span=DaySpan(escape(str(d.get("first_filed") or "")), escape(str(d.get("last_filed") or ""))),
                ref=r, **parts)]


def _filing(d: dict, r: int, language: Language) -> list[str]:
    lines = []
    for t in _records(d.get("transactions"))[:LINES_PER_FILING]:
        code = t.get("code") if isinstance(t.get("code"), str) else None
        if code and f"form4.code.{code}" not in phrasebook(language):
            code = None                  # a code the Form 4 instructions do not have: not named
        price = finite(t.get("price"))
        at = say("facts.insider_price", language, price=money(price, "USD", language)) if price else ""
        lines.append(say("facts.insider_line", language,
                         what=say(f"form4.code.{code}", language) if code else "?", shares=_shares(t.get("shares")),
                         price=at,
                         date=escape(str(t.get("date") or "?")),
                         after=say("facts.insider_after", language, owned=_shares(t.get("owned_after")))
                         if finite(t.get("owned_after")) is not None else ""))
    if not lines:
        lines.append(say("form4.no_stock_transaction", language))
    roles = [say(f"role.{role}", language) for role in d.get("roles") or []
             if role in ("director", "officer", "ten_percent_owner", "other")]
    role = escape(str(d["title"])) if d.get("title") else say("list.sep", language).join(roles) or "?"
    return [say("facts.insider_filing", language, owner=escape(str(d.get("owner") or "?")), role=role,
                filed=escape(str(d.get("filed") or "")), lines=say("list.semi", language).join(lines),
                ref=r)]


def _filer_name(d: dict) -> str:
    known = next((f.name for f in FILERS if f.cik == d.get("cik")), None)
    return escape(known or str(d.get("filer") or ""))


def thirteen_f(item: Evidence, r: int, names: dict, language: Language) -> list[str]:
    d = item.data or {}
    top = [p for p in _records(d.get("top")) if p.get("issuer") and finite(p.get("value")) is not None]
    if not top:
        return []
    sep = say("list.sep", language)
    positions = sep.join(say("facts.thirteenf_position", language, issuer=escape(str(p["issuer"])),
                             share=pct(p.get("share_pct"), False), value=money(p["value"], "USD", language))
                         for p in top[:TOP_POSITIONS])
    out = [say("facts.thirteenf_top", language, filer=_filer_name(d), period=escape(str(d.get("period") or "")),
               filed=escape(str(d.get("filed") or "")), count=int(finite(d.get("positions")) or len(top)),
               total=money(d.get("total_value"), "USD", language),
               unit=say("facts.thirteenf_unit", language) if d.get("value_unit") == "thousands" else "",
               top=positions, ref=r)]
    changes = d.get("changes") if isinstance(d.get("changes"), dict) else None
    if changes is not None and d.get("previous_period"):
        parts = [say(key, language, names=sep.join(escape(str(c.get("issuer")))
                                                   for c in _records(changes.get(kind))[:NAMES_PER_CHANGE]))
                 for kind, key in CHANGE_PHRASES if _records(changes.get(kind))]
        out.append(say("facts.thirteenf_changes", language, before=escape(str(d["previous_period"])),
                       parts=say("list.semi", language).join(parts) or say("facts.thirteenf_no_change", language),
                       ref=r))
    return out


WRITERS = {"sec_insiders": insiders, "sec_13f": thirteen_f}
