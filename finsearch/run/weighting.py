"""Time weighting: how close each piece of evidence is to the node's time context.

The interval runs from lo = start 00:00 UTC to hi = min(end + 1 day 00:00 UTC, now).
An item at time t inside [lo, hi] has Δ = 0; outside, Δ is the hours to the nearer
end (future items included). w = max(floor, 1 − Δ / window). Undated items get
`undated_weight`. Items that cover a period (price history, a statement) are placed by
that period: Δ is the gap between [period.start, period.end + 1 day] and [lo, hi].
With time weighting off every weight is 1 (the paper's ablation).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta, timezone

from ..evidence import Evidence
from ..settings import Settings
from ..timecontext import TimeContext


@dataclasses.dataclass(frozen=True)
class WeightPolicy:
    window_hours: float = 72.0
    floor: float = 0.1
    undated_weight: float = 0.5
    enabled: bool = True

    @classmethod
    def of(cls, settings: Settings) -> WeightPolicy:
        return cls(settings.window_hours, settings.floor, settings.undated_weight, settings.time_weighting)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=timezone.utc)


def _end_of(day: date) -> datetime:
    """Midnight after `day` (the last representable day ends at its own midnight)."""
    return _midnight(day + timedelta(days=1) if day < date.max else day)


def interval(ctx: TimeContext, now: datetime) -> tuple[datetime, datetime]:
    lo = _midnight(ctx.start)
    hi = min(_end_of(ctx.end), now)
    return lo, max(lo, hi)


def gap_hours(a: tuple[datetime, datetime], b: tuple[datetime, datetime]) -> float:
    """Hours between two closed intervals: 0 when they overlap."""
    if a[1] < b[0]:
        return (b[0] - a[1]).total_seconds() / 3600
    if b[1] < a[0]:
        return (a[0] - b[1]).total_seconds() / 3600
    return 0.0


def weight(item: Evidence, ctx: TimeContext, now: datetime, policy: WeightPolicy) -> float:
    if not policy.enabled:
        return 1.0
    span = interval(ctx, now)
    if item.period:
        start = _midnight(date.fromisoformat(item.period["start"]))
        end = _end_of(date.fromisoformat(item.period["end"]))
        delta = gap_hours((start, end), span)
    else:
        published = item.published_at
        if published is None:
            return policy.undated_weight
        delta = gap_hours((published, published), span)
    return max(policy.floor, 1.0 - delta / policy.window_hours)


def weigh(items: Iterable[Evidence], ctx: TimeContext, now: datetime,
          policy: WeightPolicy) -> tuple[Evidence, ...]:
    """The items with `time_weight` filled in, in their original order."""
    return tuple(item.with_weight(weight(item, ctx, now, policy)) for item in items)
