"""A comparison's and an event's tables, the companies side by side, each drawn once in the
section it belongs to: valuation multiples, results against estimates (and each company's
statements), the analysts' targets with the upside, and the price action over the period.

Built from each company's findings (`findings.read`), so a figure in a table is the one the
summary's rules read; every row ends with its citations.
"""

from __future__ import annotations

import dataclasses

from ..answer.facts import label
from ..evidence import Evidence
from ..phrases import Language, say
from ..phrases.numbers import decimal, finite, money, pct
from .stance import Rules
from .tables import _head, _row, _statements, _valuation


def comparison_tables(rules: list[Rules], evidence: list[Evidence], language: Language) -> dict[str, str]:
    """section key (vs_*) → its table, for whatever of the companies' findings is tabular."""
    out = {}
    for key, table in (("vs_valuation", valuation(rules, evidence, language)),
                       ("vs_results", results(rules, evidence, language)),
                       ("vs_analysts", targets(rules, language)),
                       ("vs_price", price_action(rules, language))):
        if table:
            out[key] = table
    return out


def valuation(rules: list[Rules], evidence: list[Evidence], language: Language) -> str:
    if not rules:
        return ""
    first = rules[0]
    others = tuple(r.findings.ticker for r in rules[1:])
    together = dataclasses.replace(first.findings, peers=tuple(dict.fromkeys((*others, *first.findings.peers))))
    return _valuation(together, evidence, first.number, first.names, language)


def results(rules: list[Rules], evidence: list[Evidence], language: Language) -> str:
    """EPS against the estimate and the guidance, one row per company that has either, then
    each company's statements by period."""
    rows = []
    for r in rules:
        f = r.findings
        if f.eps is None and f.guidance is None:
            continue
        reported, estimate = f.eps if f.eps else (None, None)
        guidance = "—" if f.guidance is None else say(
            "report.results_word." + ("guided_below" if f.guidance.direction < 0 else "guided_above"), language)
        items = [reported.item if reported else None, f.guidance.item if f.guidance else None]
        rows.append(_row([label(f.ticker, r.names, language), decimal(reported.value) if reported else "—",
                          decimal(estimate.value) if estimate else "—",
                          say(f"report.results_word.{f.results}", language) if f.results else "—", guidance,
                          r.refs(*items)]))
    out = []
    if rows:
        columns = [say(f"report.col.{c}", language) for c in ("instrument", "eps_reported", "eps_estimate", "result",
                                                              "guidance", "source")]
        out.append("\n".join([f"**{say('report.table.results_side', language)}**", "", *_head(columns), *rows]))
    for r in rules:
        statements = [e for e in evidence if e.source == "financials" and e.ticker == r.findings.ticker]
        if statements:
            out.append(_statements(statements, r.number, language))
    return "\n\n".join(out)


def targets(rules: list[Rules], language: Language) -> str:
    """Each company's mean target, its range, the distance to the mean and its ratings."""
    rows = []
    for r in rules:
        f = r.findings
        if f.analyst is None:
            continue
        d = f.analyst.data or {}
        t, cur = d.get("targets") or {}, d.get("currency")
        if finite(t.get("mean")) is None:
            continue
        counts = {k: v for k, v in (d.get("recommendations") or {}).items() if finite(v)}
        buys = sum(v for k, v in counts.items() if k in ("strong_buy", "buy"))
        rated = say("report.rated_buy", language, buy=buys, total=sum(counts.values())) if counts else "—"
        upside = f"{pct(f.to_target.value)} {say('report.derived', language)}" if f.to_target else "—"
        rows.append(_row([label(f.ticker, r.names, language), money(t["mean"], cur, language),
                          f"{money(t.get('low'), cur, language)} – {money(t.get('high'), cur, language)}", upside,
                          rated, r.refs(f.analyst, f.price.item if f.to_target else None)]))
    if not rows:
        return ""
    columns = [say(f"report.col.{c}", language) for c in ("instrument", "mean", "range", "to_target", "ratings",
                                                          "source")]
    return "\n".join([f"**{say('report.table.analysts', language)}**", "", *_head(columns), *rows])


def price_action(rules: list[Rules], language: Language) -> str:
    """Each company's longest price history: its period, return, close, range and biggest moves."""
    rows = []
    for r in sorted(rules, key=lambda r: -(r.findings.stats.return_pct or 0) if r.findings.stats else 0):
        item = r.findings.history
        if item is None:
            continue
        s, cur, period = item.prices.stats, item.prices.currency, item.period or {}
        moves = say("list.sep", language).join(f"{m.date} {pct(m.change_pct)}" for m in s.biggest_moves[:2])
        rows.append(_row([label(item.ticker, r.names, language), f"{period.get('start', '')} → {period.get('end', '')}",
                          pct(s.return_pct), money(s.end_close, cur, language), money(s.high, cur, language),
                          money(s.low, cur, language), moves or "—", r.refs(item)]))
    if len(rows) < 2:
        return ""
    columns = [say(f"report.col.{c}", language) for c in ("instrument", "period", "return", "last", "high", "low",
                                                          "moves", "source")]
    return "\n".join([f"**{say('report.table.price_side', language)}**", "", *_head(columns), *rows])
