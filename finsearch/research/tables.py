"""Tables for dense data, drawn from the structured evidence a section was given: statements
by period, valuation multiples, price performance side by side, analyst targets.

Every row ends with its citation, so the audit reads each row as one sentence and traces
its figures to the evidence the row cites. Cell text is escaped; numbers are written as the
rules' sentences write them (`phrases.numbers`), which is how the audit reads them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..answer.facts import label
from ..answer.markdown import escape
from ..evidence import Evidence
from ..phrases import Language, say
from ..phrases.numbers import decimal, finite, money, pct

STATEMENT_LINES = ("revenue", "gross_profit", "operating_income", "net_income", "eps", "free_cash_flow")
MULTIPLES = ("trailing_pe", "forward_pe", "price_to_book", "profit_margin", "beta")
MAX_PERIODS = 6


def tables(given: tuple[Evidence, ...], number: Callable[[Evidence], int], names: dict[str, str],
           language: Language) -> list[str]:
    """The section's tables (markdown), each where its data is dense enough to need one."""
    out = []
    for ticker in dict.fromkeys(e.ticker for e in given if e.kind == "finance" and e.ticker):
        mine = [e for e in given if e.ticker == ticker]
        statements = [e for e in mine if e.source == "financials"]
        if len(statements) >= 2:
            out.append(_statements(statements, number, language))
        multiples = _multiples(mine, number, names, language)
        if multiples:
            out.append(multiples)
    histories = [e for e in given if e.payload == "price_history" and e.data and e.data.get("stats")]
    if len(histories) >= 2:
        out.append(_comparison(histories, number, names, language))
    analysts = [e for e in given if e.source == "analyst" and (e.data or {}).get("targets")]
    if len(analysts) >= 2:
        out.append(_analysts(analysts, number, names, language))
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _head(columns: list[str]) -> list[str]:
    return [_row(columns), _row(["---"] * len(columns))]


def _statements(items: list[Evidence], number, language: Language) -> str:
    items = sorted(items, key=lambda e: (e.period or {}).get("end") or "")[-MAX_PERIODS:]
    currency = (items[-1].data or {}).get("currency")
    present = [k for k in STATEMENT_LINES if any(finite(((e.data or {}).get("lines") or {}).get(k)) is not None
                                                 for e in items)]
    columns = [say("report.col.period", language), *(_capital(say(f"facts.line.{k}", language)) for k in present),
               say("report.col.source", language)]
    rows = []
    for item in items:
        d = item.data or {}
        lines = d.get("lines") or {}
        cells = [escape(str(d.get("period_label") or (item.period or {}).get("end") or ""))]
        for key in present:
            value = lines.get(key)
            cells.append(decimal(value) if key == "eps" else money(value, currency, language))
        cells.append(f"[{number(item)}]")
        rows.append(_row(cells))
    title = say("report.table.statements", language, currency=escape(str(currency or "")))
    return "\n".join([f"**{title}**", "", *_head(columns), *rows])


def _multiples(items: list[Evidence], number, names: dict, language: Language) -> str:
    rows = []
    quote = next((e for e in items if e.source == "quote"), None)
    profile = next((e for e in items if e.source == "profile"), None)
    if quote is not None:
        d = quote.data or {}
        if finite(d.get("last")) is not None:
            rows.append(_row([say("report.metric.last", language), money(d["last"], d.get("currency"), language),
                              f"[{number(quote)}]"]))
        if finite(d.get("market_cap")) is not None:
            rows.append(_row([say("report.metric.market_cap", language),
                              money(d["market_cap"], d.get("currency"), language), f"[{number(quote)}]"]))
    if profile is not None:
        ratios = (profile.data or {}).get("ratios") or {}
        for key in MULTIPLES:
            value = finite(ratios.get(key))
            if value is None:
                continue
            shown = pct(value, False) if key == "profit_margin" else decimal(value)
            rows.append(_row([say(f"report.metric.{key}", language), shown, f"[{number(profile)}]"]))
    if len(rows) < 3:           # two figures read better in a sentence than in a table
        return ""
    who = label((quote or profile).ticker, names, language)
    columns = [say("report.col.metric", language), say("report.col.value", language),
               say("report.col.source", language)]
    return "\n".join([f"**{say('report.table.multiples', language)} — {who}**", "", *_head(columns), *rows])


def _comparison(items: list[Evidence], number, names: dict, language: Language) -> str:
    columns = [say("report.col.instrument", language), say("report.col.return", language),
               say("report.col.last", language), say("report.col.high", language), say("report.col.low", language),
               say("report.col.source", language)]
    rows = []
    for item in sorted(items, key=lambda e: -(finite((e.data or {}).get("stats", {}).get("return_pct")) or 0)):
        d = item.data or {}
        s, cur = d.get("stats") or {}, d.get("currency")
        rows.append(_row([label(item.ticker, names, language), pct(s.get("return_pct")),
                          money(s.get("end_close"), cur, language), money(s.get("high"), cur, language),
                          money(s.get("low"), cur, language), f"[{number(item)}]"]))
    return "\n".join([f"**{say('report.table.comparison', language)}**", "", *_head(columns), *rows])


def _analysts(items: list[Evidence], number, names: dict, language: Language) -> str:
    columns = [say("report.col.instrument", language), say("report.col.mean", language),
               say("report.col.range", language), say("report.col.source", language)]
    rows = []
    for item in items:
        d = item.data or {}
        t, cur = d.get("targets") or {}, d.get("currency")
        rows.append(_row([label(item.ticker, names, language), money(t.get("mean"), cur, language),
                          f"{money(t.get('low'), cur, language)} – {money(t.get('high'), cur, language)}",
                          f"[{number(item)}]"]))
    return "\n".join([f"**{say('report.table.analysts', language)}**", "", *_head(columns), *rows])
