"""When a watchlist's brief is due: its local time on its days, in its time zone, on trading days.

A slot is the schedule's local time on a local day, turned into UTC through `zoneinfo` (a time
the spring-forward gap skips is read with the offset before the gap, one hour later on the wall;
an autumn time that comes twice is the first). The brief's id names the local day, so a day
has one slot and DST never makes two briefs or none.

A slot is a briefing slot when, since the slot before it (a day, or a week, earlier), a market of
the watchlist had a session (`reference.markets`, exchange_calendars): a Saturday-morning brief on
New York shares has nothing to say and is skipped, while a Tuesday-morning one in Shanghai reports
Monday's New York session. An instrument with no exchange calendar (crypto, currencies) trades
every day. `Schedule.closed_days` asks for the brief on closed days too; the brief then covers
every instrument, else only those whose market traded.

The seam for the scheduler (the JOBS part): `due_briefs(watchlists, now)` lists what is due —
the latest briefing slot at or before `now` of each watchlist not briefed since — as `DueBrief`s
whose `job_id` is also the notice id ("brief-<watchlist>-<local day>"), so enqueueing it as a
unique job from any number of schedulers runs it once; the job runs
`brief.run_due_brief(watchlists, *due.args, settings)`, which marks the watchlist briefed.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, timedelta, timezone

from ..reference.markets import market_of, sessions, zone
from .lists import Watchlists
from .watchlist import Schedule, Watchlist

LOOK_BACK_DAYS = 8                     # a weekly schedule's last slot is within a week
LOOK_AHEAD_DAYS = 60                   # the next briefing slot, past the longest market closure


@dataclasses.dataclass(frozen=True)
class DueBrief:
    job_id: str                        # "brief-<watchlist id>-<local day>": the notice id, a unique job id
    watchlist_id: str
    owner: str
    local_day: date
    due_at: datetime                   # the slot, aware UTC

    @property
    def args(self) -> tuple[str, str, str]:
        """What the job is called with (after the watchlists): plain strings, fit for any queue."""
        return (self.watchlist_id, self.owner, self.local_day.isoformat())


def slot(schedule: Schedule, day: date) -> datetime:
    """The schedule's time on local `day`, in UTC."""
    local = datetime.combine(day, schedule.at, tzinfo=zone(schedule.timezone))
    return local.astimezone(timezone.utc)


def local_day_of(moment: datetime, schedule: Schedule) -> date:
    return moment.astimezone(zone(schedule.timezone)).date()


def previous_slot(schedule: Schedule, at: datetime) -> datetime:
    """The slot a cadence before the one at `at` (the day, or the week, before)."""
    step = timedelta(days=7 if schedule.cadence == "weekly" else 1)
    return slot(schedule, local_day_of(at, schedule) - step)


def _on_its_day(schedule: Schedule, day: date) -> bool:
    return schedule.weekday is None or day.weekday() == schedule.weekday


def traded(ticker: str, start: datetime, end: datetime) -> bool:
    """Whether `ticker`'s market had a session on a day of its own clock after `start`, up to `end`."""
    market = market_of(ticker)
    if market is None:
        return True
    clock = zone(market.timezone)
    first, last = start.astimezone(clock).date() + timedelta(days=1), end.astimezone(clock).date()
    return bool(sessions(market, first, last))


def briefed_tickers(watchlist: Watchlist, at: datetime) -> tuple[str, ...]:
    """The instruments the brief of the slot at `at` covers: those whose market traded since the
    slot before (every one when the schedule asks for closed days too, if any traded or not)."""
    if watchlist.schedule.closed_days:
        return watchlist.instruments
    before = previous_slot(watchlist.schedule, at)
    return tuple(t for t in watchlist.instruments if traded(t, before, at))


def is_briefing_slot(watchlist: Watchlist, day: date) -> bool:
    schedule = watchlist.schedule
    return _on_its_day(schedule, day) and bool(briefed_tickers(watchlist, slot(schedule, day)))


def last_slot(watchlist: Watchlist, now: datetime) -> datetime | None:
    """The latest briefing slot at or before `now`, or None within the look-back."""
    today = local_day_of(now, watchlist.schedule)
    for back in range(LOOK_BACK_DAYS):
        day = today - timedelta(days=back)
        if slot(watchlist.schedule, day) <= now and is_briefing_slot(watchlist, day):
            return slot(watchlist.schedule, day)
    return None


def next_due(watchlist: Watchlist, after: datetime) -> datetime | None:
    """The first briefing slot after `after` (UTC), or None within `LOOK_AHEAD_DAYS`."""
    start = local_day_of(after, watchlist.schedule)
    for ahead in range(LOOK_AHEAD_DAYS):
        day = start + timedelta(days=ahead)
        if slot(watchlist.schedule, day) > after and is_briefing_slot(watchlist, day):
            return slot(watchlist.schedule, day)
    return None


def due_brief(watchlist: Watchlist, now: datetime) -> DueBrief | None:
    """The brief `watchlist` is owed at `now`: its latest slot, when it was made before it and has
    not been briefed since. Slots missed while no scheduler ran are one brief, not many."""
    at = last_slot(watchlist, now)
    if at is None or (watchlist.created_at and watchlist.created_at > at) \
            or (watchlist.last_brief_at and watchlist.last_brief_at >= at):
        return None
    day = local_day_of(at, watchlist.schedule)
    return DueBrief(f"brief-{watchlist.watchlist_id}-{day.isoformat()}", watchlist.watchlist_id, watchlist.owner,
                    day, at)


def due_briefs(watchlists: Watchlists, now: datetime) -> list[DueBrief]:
    """Every brief due at `now` (aware), soonest due first."""
    due = [d for d in (due_brief(w, now) for w in watchlists.every()) if d is not None]
    return sorted(due, key=lambda d: (d.due_at, d.job_id))
