"""The interpretation in words, the same in the app's bar and the command line's text, in the
question's language (the phrasebook's `read.*`, `intent.*` and `kind.*` phrases).

A Chinese question is told in Chinese throughout: instruments by their Chinese names from the
alias table where it has one (宁德时代, not CATL), the period the rules assumed as 今天.
"""

from __future__ import annotations

from ..phrases import Language, phrasebook, say
from ..timecontext import TimeContext
from .alias_table import alias_table
from .interpretation import Corrections, Instrument, Interpretation, Period

# The label the time rules give a question that names no period (`today_context`).
_ASSUMED_TODAY = "today"


# Kinds that have no market symbol to look up (a private company, the LPR, rebar).
_WITHOUT_SYMBOL = ("unlisted", "rate", "commodity")


def symbol(name: str, ticker: str | None, language: Language = "en", kind: str = "unknown") -> str:
    name = local_name(name, ticker, language)
    if not ticker:
        key = "read.symbol_none" if kind in _WITHOUT_SYMBOL else "read.symbol_unresolved"
        return say(key, language, name=name)
    return ticker if name == ticker else say("read.symbol", language, name=name, ticker=ticker)


def local_name(name: str, ticker: str | None, language: Language) -> str:
    """The instrument's name in `language`: for Chinese, the table's Chinese name if it has one."""
    if language == "zh":
        return alias_table().chinese_name(ticker, name) or name
    return name


def dates(tc: TimeContext) -> str:
    return tc.start.isoformat() if tc.start == tc.end else f"{tc.start} → {tc.end}"


def label(tc: TimeContext, language: Language = "en") -> str:
    """The period's label; the one the rules assume (in English) said in the question's language."""
    return say("read.today", language) if tc.label == _ASSUMED_TODAY else tc.label


def summary(interpretation: Interpretation) -> str:
    """The one line: what was searched for, over which days, for what."""
    language = interpretation.language
    period = interpretation.period
    joiner = say("read.list", language)
    key = "read.period_assumed" if period.assumed else "read.period_guess" if period.guess else "read.period"
    parts = [joiner.join(symbol(i.name, i.ticker, language, i.kind) for i in interpretation.instruments)
             or say("read.no_instrument", language),
             say(key, language, label=label(period.time, language), dates=dates(period.time))]
    if interpretation.intents:
        parts.append(say("read.looking_for", language,
                         intents=joiner.join(_intent(i, language) for i in interpretation.intents)))
    return say("read.summary", language, parts=" · ".join(parts))


def _intent(intent: str, language: Language) -> str:
    key = f"intent.{intent}"
    return say(key, language) if key in phrasebook(language) else intent.replace("_", " ")


def instrument_line(instrument: Instrument, language: Language = "en") -> str | None:
    """The sentence for an instrument read by a guess or with other readings; None otherwise."""
    here = symbol(instrument.name, instrument.ticker, language, instrument.kind)
    if instrument.corrected:
        return say("read.your_choice", language, here=here)
    if instrument.alternatives:
        if instrument.name == instrument.ticker:        # a symbol the alias table does not name
            here = say("read.symbol_only", language, ticker=instrument.ticker,
                       kind=say(f"kind.{instrument.kind}", language))
        return say("read.other_readings", language, mention=instrument.mention or instrument.ticker, here=here)
    if instrument.guessed and instrument.mention:
        return say("read.guessed", language, mention=instrument.mention, here=here)
    return None


def period_line(period: Period, language: Language = "en") -> str | None:
    """The sentence for a period the user chose, one assumed, one guessed ("since earnings" before
    the earnings calendar dated the report) or one a source dated; None for one the words dated."""
    words = {"label": label(period.time, language), "dates": dates(period.time)}
    if period.corrected:
        return say("read.period_corrected", language, **words)
    if period.assumed:
        return say("read.period_assumed_line", language, **words)
    if period.guess:
        return say("read.period_guess_line", language, **words)
    if period.dated_by:
        days = say("read.list", language).join(say("read.report_day", language, ticker=d.ticker, day=d.day.isoformat())
                                               for d in period.dated_by)
        return say("read.period_dated_line", language, label=words["label"], days=days,
                   end=period.time.end.isoformat())
    return None


def switch_label(name: str, ticker: str | None, language: Language = "en") -> str:
    """The button that reads an instrument another way."""
    return say("read.switch_to", language, here=symbol(name, ticker, language))


def asked_for(corrections: Corrections, language: Language = "en") -> str:
    """What the user chose, under their question in a re-planned turn."""
    parts = [say("read.replanned_ticker", language, read=s.read, ticker=s.ticker) for s in corrections.tickers]
    if corrections.period is not None:
        parts.append(say("read.replanned_period", language, label=label(corrections.period, language),
                         dates=dates(corrections.period)))
    return say("read.replanned", language, parts=say("read.choices", language).join(parts))


def command_line_choices(interpretation: Interpretation) -> list[str]:
    """Each guess, with the options that read it another way (for `python -m finsearch` text)."""
    language = interpretation.language
    lines = []
    for instrument in interpretation.instruments:
        line = instrument_line(instrument, language)
        if line is None:
            continue
        read = instrument.mention or instrument.ticker or instrument.name
        others = [say("read.or_ticker", language, read=_quoted(read), ticker=r.ticker,
                      here=symbol(r.name, r.ticker, language))
                  for r in instrument.alternatives if r.ticker != instrument.ticker]
        lines.append(_with_options(line, others, language))
    line = period_line(interpretation.period, language)
    if line is not None:
        others = [say("read.or_period", language, start=tc.start, end=tc.end, label=label(tc, language))
                  for tc in interpretation.period.alternatives]
        lines.append(_with_options(line, others, language))
    return lines


def _with_options(line: str, options: list[str], language: Language) -> str:
    if not options:
        return line
    return say("read.or", language, line=line, options=say("read.choices", language).join(options))


def _quoted(words: str) -> str:
    return f'"{words}"' if " " in words else words
