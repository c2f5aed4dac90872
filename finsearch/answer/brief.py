"""The facts brief a model writer gets beside the evidence: what the rules have already read out
of it, so the model's answer starts from the same facts as the rules' (and is audited the same way).

    facts_brief(view) → lines such as
        - lead shape: why → the cause, the move's date and size (first sentence)
        - ADBE move: -9.42% on 2025-03-14 [1]; most supported cause: guidance cut [3][2][4]; against it: [5]
        - ADBE price: 423.78 USD on 2025-03-18 [2] (a quote of 420.10 from 2025-03-10 is 8 days older [6])
        - ADBE target_mean: 540.0 [7]
        - ADBE upside to the mean target (derived): +27.42% from [7][2]
        - ADBE guidance: revenue 23.30B–23.55B vs consensus 23.70B [4]
        - ADBE results vs expected: EPS 5.08 vs 4.97 [8]; revenue 5.71B vs 5.66B [3]

Every line carries the evidence numbers it came from; a derived figure names its inputs.
"""

from __future__ import annotations

from .cause_sentences import moves_to_explain
from .derived import implied_growth, upside
from .reader import Passage
from .stated import GUIDANCE, guidance_in, results_vs_expected
from .view import AnswerView

# What the first sentence of an answer to each intent holds (the rules' leads, `lead`).
LEAD_SHAPES = {
    "why": "the cause, the move's date and size",
    "compare": "the asked metric ranked, the winner named with its value",
    "valuation": "the multiple against peers or the industry, then cheap / in line / expensive",
    "expensive": "the multiple against peers or the industry, then cheap / in line / expensive",
    "peers": "the multiple against the industry's, then cheap / in line / expensive",
    "dividend": "the yield and the payout ratio, then covered / stretched",
    "price": "the freshest price with its date, or the period's move and its size",
    "surprise": "reported against expected, for revenue and EPS, then beat / missed",
    "guidance": "the guided range against the consensus",
    "analyst": "the mean target and its upside to the freshest price",
    "calendar": "the next report date",
    "response": "what the company said, with its date",
    "worried": "the case for worry, the case against, then what to watch",
}
QUANTITIES = ("price", "market_cap", "pe_trailing", "pe_forward", "pe_static", "industry_pe", "dividend_yield",
              "payout_ratio", "dividend_per_share", "target_mean", "target_low", "target_high", "eps_reported",
              "eps_estimate")


def facts_brief(view: AnswerView) -> list[str]:
    lines = [f"- lead shape: {intent} → {LEAD_SHAPES[intent]} (first sentence)"
             for intent in sorted(view.analysis.intents) if intent in LEAD_SHAPES]
    if "why" in view.analysis.intents or "worried" in view.analysis.intents:
        lines += moves_to_explain(view)
    for ticker in view.tickers:
        lines += _quantities(view, ticker) + _derived(view, ticker) + _stated(view, ticker)
    return lines


def _quantities(view: AnswerView, ticker: str) -> list[str]:
    out = []
    for kind in QUANTITIES:
        current = view.current(kind, ticker)
        if current is None:
            continue
        q = current.value
        when = f" on {q.as_of}" if q.as_of else ""
        line = f"- {ticker} {kind}: {q.value:g}{' ' + q.currency if q.currency and kind in _MONEY else ''}{when} " \
               f"[{view.ref(q.item)}]"
        if current.stale is not None:
            line += f" (an older value {current.stale.value:g} from {current.stale.as_of} is {current.age_days} days " \
                    f"older [{view.ref(current.stale.item)}]: give the fresh one, and say the other's age)"
        out.append(line)
    return out


_MONEY = frozenset({"price", "market_cap", "target_mean", "target_low", "target_high", "dividend_per_share"})


def _derived(view: AnswerView, ticker: str) -> list[str]:
    out = []
    target, price = view.current("target_mean", ticker), view.current("price", ticker)
    gap = upside(target.value, price.value) if target and price else None
    if gap is not None:
        out.append(f"- {ticker} upside to the mean target (derived): {gap.value:+.2f}% from {view.refs(gap.items)}")
    trailing, forward = view.current("pe_trailing", ticker), view.current("pe_forward", ticker)
    growth = implied_growth(trailing.value, forward.value) if trailing and forward else None
    if growth is not None:
        out.append(f"- {ticker} earnings growth implied by trailing vs forward P/E (derived): {growth.value:+.2f}% "
                   f"from {view.refs(growth.items)}")
    return out


def _stated(view: AnswerView, ticker: str) -> list[str]:
    out = []
    passages: list[Passage] = view.reader.find(view.stories(ticker), None, view.topic)
    found = guidance_in([p for p in passages if GUIDANCE.search(p.text)])
    if found is not None:
        rng = found.low.text + (f" to {found.high.text}" if found.high else "")
        versus = f" vs consensus {found.consensus.text}" if found.consensus else ""
        out.append(f"- {ticker} guidance: {found.line or 'results'} {rng}{versus} [{view.ref(found.passage.item)}]")
    lines = results_vs_expected(passages)
    if lines:
        out.append(f"- {ticker} results vs expected: " + "; ".join(
            f"{v.line} {v.reported.text} vs {v.expected.text} ({v.verdict}) [{view.ref(v.passage.item)}]"
            for v in lines))
    return out
