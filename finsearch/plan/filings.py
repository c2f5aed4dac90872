"""Which SEC form a question names, and the period basis of the figures it asks a filing for."""

from __future__ import annotations

import re

_FORMS = re.compile(r"\b(10-?K|10-?Q|8-?K)\b", re.I)


def form_asked(question: str) -> str | None:
    """The SEC form a question names ("Tesla 8-K filings" → "8-K"), if one."""
    m = _FORMS.search(question)
    if m is None:
        return None
    form = m.group(1).upper().replace("-", "")
    return f"{form[:-1]}-{form[-1]}"


def filed_basis(question: str, freq: str) -> str:
    """Fiscal years or quarters of filed figures: a 10-K's are annual, a 10-Q's quarterly."""
    form = form_asked(question)
    if form in ("10-K", "10-Q"):
        return "annual" if form == "10-K" else "quarterly"
    return "annual" if freq in ("annual", "ttm") else "quarterly"
