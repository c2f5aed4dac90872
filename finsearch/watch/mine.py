"""One owner's watchlist — a visitor's in the app, an API key's over HTTP: found by its owner, made by the
first instrument watched, each edit one atomic `Watchlists.update` (never a read, then a save of the whole).

An owner keeps one watchlist, its id derived from the owner (a hash), so finding it is one read, not a scan
of everyone's. It is made with a daily brief at 08:00 on the clock of the first instrument's market (UTC when
it has none). It holds at least one instrument: removing the last deletes it, schedule and all. Outcomes are
told as values (`Watched`, `Unwatched`); the app and the API say them in their own words.
"""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import datetime, timezone
from typing import Literal

from ..phrases import Language
from ..reference.markets import market_of
from .lists import Watchlists
from .watchlist import MAX_INSTRUMENTS, Schedule, Watchlist


def default_id(owner: str) -> str:
    """The id of `owner`'s watchlist: "w" and 12 hex digits, as a new watchlist's, naming nobody."""
    return "w" + hashlib.sha256(f"finsearch-watchlist:{owner}".encode("utf-8", "surrogatepass")).hexdigest()[:12]


def mine(watchlists: Watchlists, owner: str) -> Watchlist | None:
    """`owner`'s watchlist, None when there is none yet."""
    return watchlists.get(default_id(owner), owner)


def first_schedule(ticker: str) -> Schedule:
    market = market_of(ticker)
    return Schedule("daily", timezone=market.timezone if market is not None else "UTC")


@dataclasses.dataclass(frozen=True)
class Watched:
    outcome: Literal["added", "created", "already", "full"]
    watchlist: Watchlist | None        # as kept (None: there is none, when it was full… of nothing)


def watch(watchlists: Watchlists, owner: str, ticker: str, language: Language,
          now: datetime | None = None) -> Watched:
    """Add `ticker` (as `instrument_of` reads it) to `owner`'s watchlist, made on first use in `language`."""
    outcome = "added"

    def add(current: Watchlist | None) -> Watchlist | None:
        nonlocal outcome
        if current is None:
            outcome = "created"
            return Watchlist(default_id(owner), owner, "", (ticker,), first_schedule(ticker), language=language,
                             created_at=now or datetime.now(timezone.utc))
        if ticker in current.instruments:
            outcome = "already"
            return current
        if len(current.instruments) >= MAX_INSTRUMENTS:
            outcome = "full"
            return current
        outcome = "added"
        return dataclasses.replace(current, instruments=(*current.instruments, ticker))

    kept = watchlists.update(default_id(owner), owner, add)
    return Watched(outcome, kept)


@dataclasses.dataclass(frozen=True)
class Unwatched:
    outcome: Literal["removed", "not_watched"]
    watchlist: Watchlist | None        # what is left (None: the last one went, and the watchlist with it)


def unwatch(watchlists: Watchlists, owner: str, ticker: str) -> Unwatched:
    """Remove `ticker` from `owner`'s watchlist; the last one deletes the watchlist."""
    outcome = "removed"

    def remove(current: Watchlist | None) -> Watchlist | None:
        nonlocal outcome
        if current is None or ticker not in current.instruments:
            outcome = "not_watched"
            return current
        outcome = "removed"
        left = tuple(t for t in current.instruments if t != ticker)
        return dataclasses.replace(current, instruments=left) if left else None

    kept = watchlists.update(default_id(owner), owner, remove)
    return Unwatched(outcome, kept)


def reschedule(watchlists: Watchlists, owner: str, schedule: Schedule) -> Watchlist | None:
    """Give `owner`'s watchlist `schedule`; None when they have none."""
    return watchlists.update(default_id(owner), owner,
                             lambda current: current and dataclasses.replace(current, schedule=schedule))
