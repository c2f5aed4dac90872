"""The interpretation bar above the graph: how the question was read, and one click to
read it another way.

One line says what was read (instruments with name and symbol, the period as dates, the
intents); below it, one row per choice that was a guess — a near spelling or a nickname, a
symbol with other readings, a period the question did not name — with a button for each
other reading. A button hands the corrections to `on_correct`, which re-plans the question.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.plan.entities import Reading
from finsearch.plan.interpretation import Corrections, Instrument, Interpretation
from finsearch.plan.interpretation_text import dates, instrument_line, label, period_line, summary, switch_label

OnCorrect = Callable[[Corrections], None]


def render(interpretation: Interpretation, key: str, on_correct: OnCorrect | None, disabled: bool = False) -> None:
    """The bar; without `on_correct` (a shared read-only page) the choices are shown, not offered."""
    with st.container(key=f"{key}-interpretation"):
        st.caption(plain(summary(interpretation)))
        corrections, language = interpretation.corrections, interpretation.language
        for n, instrument in enumerate(interpretation.instruments):
            line = instrument_line(instrument, language)
            if line is None:
                continue
            read = instrument.mention or instrument.ticker or instrument.name
            _row(line, [(switch_label(r.name, r.ticker, language), corrections.with_ticker(read, r.ticker))
                        for r in _readings(instrument)], f"{key}-switch-{n}", on_correct, disabled)
        line = period_line(interpretation.period, language)
        if line is not None:
            choices = [(f"{label(tc, language)} ({dates(tc)})", corrections.with_period(tc))
                       for tc in interpretation.period.alternatives]
            _row(line, choices, f"{key}-period", on_correct, disabled)


def _readings(instrument: Instrument) -> tuple[Reading, ...]:
    return tuple(r for r in instrument.alternatives if r.ticker != instrument.ticker)


def _row(line: str, choices: list[tuple[str, Corrections]], key: str, on_correct: OnCorrect | None,
         disabled: bool) -> None:
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(plain(line))
        if on_correct is None:
            return
        for n, (label, corrections) in enumerate(choices):
            st.button(plain(label), key=f"{key}-{n}", on_click=on_correct, args=(corrections,), type="tertiary",
                      icon=":material/swap_horiz:", disabled=disabled)
