"""Leads that rank instruments by the metric the question names: "compare the dividend yields",
"which is cheapest on P/E", "is A cheaper than B on P/E?".

    ranked(view) → ["By dividend yield, Verizon (VZ) ranks highest at 6.27%, against AT&T (T) at 4.66% … [1][2][3].",
                    …]

The freshest value of the metric per instrument (`freshness`), ranked the way the question
asks ("cheapest" from the bottom, "highest" from the top; P/E cheapest first, the rest highest
first), the winner named with its value and the others after it; a yes/no question ("Is A …
than B?") is answered yes or no first. Instruments without the metric are named. Returns and
market caps are ranked by `lead` (the period's windows and currencies need their own care).
"""

from __future__ import annotations

from ..phrases import say
from ..phrases.numbers import decimal, pct
from .asked import Asked, Metric
from .derived import upside
from .view import AnswerView

RANKED_METRICS: frozenset[Metric] = frozenset({"dividend_yield", "payout_ratio", "pe_trailing", "pe_forward", "upside"})
PE = frozenset({"pe_trailing", "pe_forward"})


def shown(metric: Metric, value: float) -> str:
    return decimal(value) if metric in PE else pct(value, False)


def metric_values(view: AnswerView, metric: Metric) -> list[tuple[str, float, list]]:
    """(ticker, value, the items that give it) for each instrument that has the metric."""
    out = []
    for ticker in view.tickers:
        if metric == "upside":
            target, price = view.current("target_mean", ticker), view.current("price", ticker)
            found = upside(target.value, price.value) if target and price else None
            if found is not None:
                out.append((ticker, found.value, found.items))
            continue
        current = view.current(metric, ticker)
        if current is None and metric == "pe_trailing":
            current = view.current("pe_static", ticker)        # an A-share's P/E on last year's profit
        if current is not None:
            out.append((ticker, current.value.value, [current.value.item]))
    return out


def ranked(view: AnswerView, asked: Asked) -> list[str]:
    """The ranking sentence(s) for the asked metric; [] when fewer than two instruments have it."""
    metric = asked.metric
    if metric not in RANKED_METRICS or len(view.tickers) < 2:
        return []
    rows = metric_values(view, metric)
    if len(rows) < 2:
        return []
    language = view.language
    rows.sort(key=lambda row: row[1], reverse=not asked.ascending)
    best, others = rows[0], rows[1:]
    verdict = _verdict(metric, asked.ascending, len(rows))
    sentence = say("lead.rank", language, metric=say(f"metric.{metric}", language), best=view.who(best[0]),
                   verdict=say(f"verdict.{verdict}", language), value=shown(metric, best[1]),
                   others=say("list.sep", language).join(
                       say("lead.rank_other", language, who=view.who(t), value=shown(metric, v)) for t, v, _ in others),
                   refs=view.refs(i for _, _, items in rows for i in items))
    if asked.yes_no and view.analysis.entities:
        first = next((e.ticker for e in view.analysis.entities if e.ticker), None)
        sentence = say("lead.yes" if first == best[0] else "lead.no", language) + sentence
    out = [sentence]
    missing = [t for t in view.tickers if t not in {r[0] for r in rows}]
    if missing:
        out.append(say("lead.rank_missing", language, metric=say(f"metric_noun.{metric}", language),
                       who=say("list.sep", language).join(view.who(t) for t in missing)))
    if metric == "pe_trailing":
        forward = metric_values(view, "pe_forward")
        if len(forward) >= 2:
            forward.sort(key=lambda row: row[1], reverse=not asked.ascending)
            out.append(say("lead.rank_also", language, metric=say("metric.pe_forward", language),
                           ranking=say("list.sep", language).join(
                               say("lead.rank_other", language, who=view.who(t), value=shown("pe_forward", v))
                               for t, v, _ in forward),
                           refs=view.refs(i for _, _, items in forward for i in items)))
    return out


def _verdict(metric: Metric, ascending: bool, count: int) -> str:
    most = count > 2
    if metric in PE:
        return ("cheapest" if most else "cheaper") if ascending else ("dearest" if most else "dearer")
    return ("lowest" if most else "lower") if ascending else ("highest" if most else "higher")
