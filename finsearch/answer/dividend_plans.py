"""China-market dividend plans as the sites write them: the cash per share of a plan written per 10
shares ("10派31.69元(含税)" → ¥3.169), and the cash of a fiscal year when a company pays twice in it."""

from __future__ import annotations

import re

# A China-market plan per 10 shares ("10派31.69元(含税)", "10送3转4派5.2元"): the answer says its cash per
# share (¥3.17), and the yield on it, so the per-share amount is a value the plan holds too.
_PER_TEN_CASH = re.compile(r"10\s*股?\s*(?:送[\d.]+股?)?\s*(?:转(?:增)?[\d.]+股?)?\s*派(?:发)?(?:现金)?(?:红利)?"
                           r"(\d+(?:\.\d+)?)\s*元")


def per_share_of_plan(text: str) -> float | None:
    """The cash per share a plan written per 10 shares pays ("10派31.69元" → 3.169), else None."""
    found = _PER_TEN_CASH.search(text)
    return float(found.group(1)) / 10 if found else None


_FISCAL_YEAR = re.compile(r"^\s*((?:19|20)\d{2})")


def cash_of_the_year(plans: list[dict]) -> tuple[float | None, str | None]:
    """The cash per share of the latest plan's fiscal year, every plan of that year added up
    ("2024年报" 10派31.69元 and "2024中报" 10派25.76元 → 5.745, "2024"): a company paying twice a year
    yields on both, not on the latest alone. One plan of its year, or a period without a year,
    is that plan's cash (year None)."""
    latest = per_share_of_plan(str(plans[0].get("plan") or ""))
    found = _FISCAL_YEAR.match(str(plans[0].get("period") or ""))
    if latest is None or found is None:
        return latest, None
    by_period: dict[str, float] = {}
    for plan in plans:              # newest first: a period listed twice counts once, as its newest plan
        period = str(plan.get("period") or "")
        cash = per_share_of_plan(str(plan.get("plan") or ""))
        if period.startswith(found.group(1)) and cash is not None:
            by_period.setdefault(period, cash)
    if len(by_period) < 2:
        return latest, None
    return round(sum(by_period.values()), 6), found.group(1)
