"""When a limit resets, as the rules write it: the wait rounded up and never "0" ("41 minutes",
"2 hours", "41 分钟"), and the UTC clock time it ends at ("15:00").

A visitor's time zone is not known to the server, so a reset is said both ways: the wait is
right anywhere, the clock time is what an operator's log and a second visit can check.
"""

from __future__ import annotations

import dataclasses
import math
import time

from . import Language, say


@dataclasses.dataclass(frozen=True)
class Reset:
    wait: str        # "41 minutes"
    at: str          # "15:00" (UTC)


def span(seconds: float, language: Language) -> str:
    """3600 → "1 hour", 5400 → "2 hours", 90 → "2 minutes", 5 → "1 minute": rounded up, never "0"."""
    if seconds >= 3600:
        return say("wait.hours", language, n=str(math.ceil(seconds / 3600 - 1e-9)))
    return say("wait.minutes", language, n=str(max(1, math.ceil(seconds / 60 - 1e-9))))


def reset(at: float, now: float, language: Language) -> Reset:
    """How long from `now` until `at` (both epoch seconds), and the UTC time `at` is."""
    return Reset(span(max(0.0, at - now), language), time.strftime("%H:%M", time.gmtime(at)))
