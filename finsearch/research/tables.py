"""Tables drawn from structured evidence: for a section, statements by period, valuation
multiples, price performance side by side, analyst targets where the data are dense; for a
company report, from its findings, a valuation table (the company, its peers, its industry),
the analysts' targets and rating changes, EPS against estimates and the price action, each
however small, in the section it belongs to.

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
from .findings import Findings

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


# -- a company report's tables, each drawn once, in the section it belongs to ---------------------------

def company_tables(findings: Findings, evidence: list[Evidence], number: Callable[[Evidence], int],
                   names: dict[str, str], language: Language) -> dict[str, str]:
    """section key → its table, for whatever of the findings is tabular, however small: a quote
    and a profile make a valuation table, a target an analysts' table."""
    out = {}
    for key, table in (("valuation", _valuation(findings, evidence, number, names, language)),
                       ("analysts", _targets(findings, number, language)),
                       ("results", _results(findings, evidence, number, language)),
                       ("price", _price_action(findings, evidence, number, names, language))):
        if table:
            out[key] = table
    return out


_VALUATION = (("price", "report.metric.last"), ("market_cap", "report.metric.market_cap"),
              ("pe_trailing", "report.metric.trailing_pe"), ("pe_forward", "report.metric.forward_pe"),
              ("pe_static", "report.metric.pe_static"), ("pb", "report.metric.price_to_book"),
              ("dividend_yield", "report.metric.dividend_yield"))


def _valuation(f: Findings, evidence: list[Evidence], number, names: dict, language: Language) -> str:
    """One row per instrument (the company, then each peer retrieved, then its industry)."""
    tickers = [f.ticker, *f.peers]
    kinds = [(k, words) for k, words in _VALUATION if any(f.value(k, t) for t in tickers)]
    if not kinds:
        return ""
    rows = []
    for ticker in tickers:
        values = [f.value(k, ticker) for k, _ in kinds]
        if not any(values):
            continue
        cells = [label(ticker, names, language)]
        price = f.value("price", ticker)
        for (kind, _), q in zip(kinds, values, strict=True):
            currency = (q.currency or (price.currency if price else None)) if q else None
            cells.append("—" if q is None else money(q.value, currency, language) if kind in ("price", "market_cap")
                         else pct(q.value, False) if kind == "dividend_yield" else decimal(q.value))
        refs = dict.fromkeys(f"[{number(q.item)}]" for q in values if q is not None)
        rows.append(_row([*cells, "".join(refs)]))
    industry, shown = f.value("industry_pe"), [k for k, _ in kinds]
    column = next((shown.index(k) for k in ("pe_static", "pe_trailing") if k in shown), None)
    if industry is not None and column is not None:       # the industry's P/E under the company's own
        cells = [say("report.row.industry", language)] + ["—"] * len(kinds)
        cells[column + 1] = decimal(industry.value)
        rows.append(_row([*cells, f"[{number(industry.item)}]"]))
    return _table(say("report.table.multiples", language), kinds, rows, language)


def _table(title: str, kinds, rows: list[str], language: Language) -> str:
    columns = [say("report.col.instrument", language), *(say(words, language) for _, words in kinds),
               say("report.col.source", language)]
    return "\n".join([f"**{title}**", "", *_head(columns), *rows])


def _targets(f: Findings, number, language: Language) -> str:
    """The analysts' targets, the distance to the mean, the ratings and every rating change."""
    a = f.analyst
    if a is None:
        return ""
    d = a.data or {}
    t, cur, ref = d.get("targets") or {}, d.get("currency"), f"[{number(a)}]"
    rows = []
    for key in ("mean", "median", "high", "low"):
        if finite(t.get(key)) is not None:
            rows.append(_row([say(f"report.metric.target_{key}", language), money(t[key], cur, language), ref]))
    if f.to_target is not None:
        refs = "".join(dict.fromkeys(f"[{number(i)}]" for i in (f.target.item, f.price.item)))
        rows.append(_row([say("report.metric.to_target", language),
                          f"{pct(f.to_target.value)} {say('report.derived', language)}", refs]))
    counts = {k: v for k, v in (d.get("recommendations") or {}).items() if finite(v)}
    if counts:
        rows.append(_row([say("report.metric.ratings", language), say("list.sep", language).join(
            f"{v} {say(f'report.rating.{k}', language)}" for k, v in counts.items()
            if f"report.rating.{k}" in _RATINGS), ref]))
    for change in f.changes:
        who = escape(str(change.firm or change.item.publisher or ""))
        to = f" → {escape(str(change.to))}" if change.to else ""
        rows.append(_row([say(f"report.metric.{change.action}", language),
                          f"{change.day or ''} · {who}{to}".strip(" ·"), f"[{number(change.item)}]"]))
    if not rows:
        return ""
    columns = [say("report.col.metric", language), say("report.col.value", language),
               say("report.col.source", language)]
    return "\n".join([f"**{say('report.table.analysts', language)}**", "", *_head(columns), *rows])


_RATINGS = frozenset(f"report.rating.{k}" for k in ("strong_buy", "buy", "hold", "sell", "strong_sell"))


def _results(f: Findings, evidence: list[Evidence], number, language: Language) -> str:
    """EPS against estimates by quarter, then the statements by period."""
    out = []
    earnings = f.eps[0].item if f.eps else None
    history = [h for h in ((earnings.data or {}).get("history") or []) if finite(h.get("eps_reported")) is not None] \
        if earnings is not None else []
    if history:
        columns = [say("report.col.period", language), say("report.col.eps_reported", language),
                   say("report.col.eps_estimate", language), say("report.col.surprise", language),
                   say("report.col.source", language)]
        rows = [_row([str(h.get("date") or "")[:10], decimal(h.get("eps_reported")), decimal(h.get("eps_estimate")),
                      pct(h.get("surprise_pct")), f"[{number(earnings)}]"])
                for h in sorted(history, key=lambda h: str(h.get("date")), reverse=True)[:4]]
        out.append("\n".join([f"**{say('report.table.eps', language)}**", "", *_head(columns), *rows]))
    statements = [e for e in evidence if e.source == "financials" and e.ticker == f.ticker]
    if statements:
        out.append(_statements(statements, number, language))
    return "\n\n".join(out)


def _price_action(f: Findings, evidence: list[Evidence], number, names: dict, language: Language) -> str:
    """The period's return, close, range and biggest daily moves, the company's peers beside it."""
    if f.history is None:
        return ""
    peers = [e for e in evidence if e.payload == "price_history" and e.ticker in f.peers and e.prices]
    peers = list({e.ticker: e for e in peers}.values())
    columns = [say("report.col.instrument", language), say("report.col.period", language),
               say("report.col.return", language), say("report.col.last", language), say("report.col.high", language),
               say("report.col.low", language), say("report.col.moves", language), say("report.col.source", language)]
    rows = []
    for item in [f.history, *peers]:
        s, cur, period = item.prices.stats, item.prices.currency, item.period or {}
        moves = say("list.sep", language).join(f"{m.date} {pct(m.change_pct)}" for m in s.biggest_moves[:2])
        rows.append(_row([label(item.ticker, names, language), f"{period.get('start', '')} → {period.get('end', '')}",
                          pct(s.return_pct),
                          money(s.end_close, cur, language), money(s.high, cur, language),
                          money(s.low, cur, language), moves or "—", f"[{number(item)}]"]))
    return "\n".join([f"**{say('report.table.price_action', language)}**", "", *_head(columns), *rows])
