"""The interpretation in words, the same in the app's bar and the command line's text."""

from __future__ import annotations

from ..timecontext import TimeContext
from .interpretation import Corrections, Instrument, Interpretation, Period

# The analysis's intent names, as a person would say what they asked for.
INTENT_WORDS = {"why": "the reasons for a move", "price": "prices", "news": "news", "fundamentals": "financials",
                "analyst": "analyst views", "holders": "holders", "dividend": "dividends",
                "valuation": "valuation", "profile": "the company profile", "compare": "a comparison",
                "remarks": "what was said or reported"}


def symbol(name: str, ticker: str | None) -> str:
    if not ticker:
        return f"{name} (symbol to be looked up)"
    return ticker if name == ticker else f"{name} ({ticker})"


def dates(tc: TimeContext) -> str:
    return tc.start.isoformat() if tc.start == tc.end else f"{tc.start} → {tc.end}"


def summary(interpretation: Interpretation) -> str:
    """The one line: what was searched for, over which days, for what."""
    period = interpretation.period
    parts = [", ".join(symbol(i.name, i.ticker) for i in interpretation.instruments) or "no instrument",
             f"{period.time.label} ({dates(period.time)}{', assumed' if period.assumed else ''})"]
    if interpretation.intents:
        parts.append("looking for " + ", ".join(INTENT_WORDS.get(i, i.replace("_", " "))
                                                for i in interpretation.intents))
    return "Read as: " + " · ".join(parts)


def instrument_line(instrument: Instrument) -> str | None:
    """The sentence for an instrument read by a guess or with other readings; None otherwise."""
    here = symbol(instrument.name, instrument.ticker)
    if instrument.corrected:
        return f"{here}: your choice"
    if instrument.alternatives:
        if instrument.name == instrument.ticker:        # a symbol the alias table does not name
            here = f"the symbol {instrument.ticker} ({instrument.kind})"
        return f"{instrument.mention or instrument.ticker} = {here}"
    if instrument.guessed and instrument.mention:
        return f"'{instrument.mention}' read as {here}"
    return None


def period_line(period: Period) -> str | None:
    if period.corrected:
        return f"Period {period.time.label} ({dates(period.time)}): your choice"
    if period.assumed:
        return f"The question names no period: assumed {period.time.label} ({dates(period.time)})"
    return None


def asked_for(corrections: Corrections) -> str:
    """What the user chose, under their question in a re-planned turn."""
    parts = [f"{s.read} as {s.ticker}" for s in corrections.tickers]
    if corrections.period is not None:
        parts.append(f"period {corrections.period.label} ({dates(corrections.period)})")
    return "Re-planned with " + "; ".join(parts)


def command_line_choices(interpretation: Interpretation) -> list[str]:
    """Each guess, with the options that read it another way (for `python -m finsearch` text)."""
    lines = []
    for instrument in interpretation.instruments:
        line = instrument_line(instrument)
        if line is None:
            continue
        read = instrument.mention or instrument.ticker or instrument.name
        others = [f"--ticker {_quoted(read)}={r.ticker} for {symbol(r.name, r.ticker)}"
                  for r in instrument.alternatives if r.ticker != instrument.ticker]
        lines.append(line + (f" (or {'; '.join(others)})" if others else ""))
    line = period_line(interpretation.period)
    if line is not None:
        others = [f"--period {tc.start}:{tc.end} for {tc.label}" for tc in interpretation.period.alternatives]
        lines.append(line + (f" (or {'; '.join(others)})" if others else ""))
    return lines


def _quoted(words: str) -> str:
    return f'"{words}"' if " " in words else words

