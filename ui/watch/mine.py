"""The visitor's watchlist in the app: found by the visitor's owner, made on the first "Watch", edited here.

The app keeps one watchlist per visitor, its id derived from the owner (a hash), so finding it is one
read, not a scan of everyone's (a watch button is drawn under every answer of a conversation). It is
made with a daily brief at 08:00 on the clock of the first instrument's market (UTC when it has none).
A watchlist holds at least one instrument: removing the last deletes it, schedule and all.
Every change is a read, a change, a save (WATCH's store); failures come back as messages, never raised.
"""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import datetime, timezone

from finsearch.errors import StoreUnavailable
from finsearch.phrases import Language, say
from finsearch.reference.markets import market_of
from finsearch.watch.lists import Watchlists, open_watchlists
from finsearch.watch.watchlist import MAX_INSTRUMENTS, Schedule, Watchlist
from ui import state


def watchlists() -> Watchlists:
    return open_watchlists(state.server_settings())


def default_id(owner: str) -> str:
    """The id of `owner`'s watchlist: "w" and 12 hex digits, as a new watchlist's, naming nobody."""
    return "w" + hashlib.sha256(f"finsearch-watchlist:{owner}".encode("utf-8", "surrogatepass")).hexdigest()[:12]


def mine(owner: str) -> Watchlist | None:
    """`owner`'s watchlist, None when there is none yet (StoreUnavailable when the store is down)."""
    try:
        return watchlists().get(default_id(owner), owner)
    except OSError as exc:
        raise StoreUnavailable(str(exc)) from exc


def watched(owner: str) -> frozenset[str]:
    """The tickers `owner` watches; none when the store cannot be read (the buttons then offer to watch)."""
    try:
        found = mine(owner)
    except StoreUnavailable:
        return frozenset()
    return frozenset(found.instruments) if found is not None else frozenset()


def first_schedule(ticker: str) -> Schedule:
    market = market_of(ticker)
    return Schedule("daily", timezone=market.timezone if market is not None else "UTC")


def watch(owner: str, ticker: str, language: Language) -> tuple[Watchlist | None, str]:
    """Add `ticker` to `owner`'s watchlist (made on first use): (the watchlist, what to tell the visitor)."""
    try:
        current = mine(owner)
        if current is None:
            current = Watchlist(default_id(owner), owner, "", (ticker,), first_schedule(ticker), language=language,
                                created_at=datetime.now(timezone.utc))
        elif ticker in current.instruments:
            return current, say("ui.watch.already", language, ticker=ticker)
        elif len(current.instruments) >= MAX_INSTRUMENTS:
            return None, say("watch.how_many", language, most=str(MAX_INSTRUMENTS))
        else:
            current = dataclasses.replace(current, instruments=(*current.instruments, ticker))
        watchlists().save(current)
    except (StoreUnavailable, OSError, ValueError) as exc:
        return None, _failed(exc, language)
    return current, say("ui.watch.added", language, ticker=ticker, when=when(current.schedule, language))


def unwatch(owner: str, ticker: str, language: Language) -> str:
    """Remove `ticker` from `owner`'s watchlist (the last one deletes the watchlist): what to tell the visitor."""
    try:
        current = mine(owner)
        if current is None or ticker not in current.instruments:
            return say("ui.watch.not_watched", language, ticker=ticker)
        left = tuple(t for t in current.instruments if t != ticker)
        if left:
            watchlists().save(dataclasses.replace(current, instruments=left))
        else:
            watchlists().delete(current.watchlist_id, owner)
    except (StoreUnavailable, OSError, ValueError) as exc:
        return _failed(exc, language)
    return say("ui.watch.removed", language, ticker=ticker)


def reschedule(owner: str, schedule: Schedule, language: Language) -> str:
    """Give `owner`'s watchlist `schedule`: what to tell the visitor."""
    try:
        current = mine(owner)
        if current is None:
            return say("ui.watch.none_yet", language)
        watchlists().save(dataclasses.replace(current, schedule=schedule))
    except (StoreUnavailable, OSError, ValueError) as exc:
        return _failed(exc, language)
    return say("ui.watch.rescheduled", language, when=when(schedule, language))


def when(schedule: Schedule, language: Language) -> str:
    """"every day at 08:00 (America/New_York)", "every Monday at 07:30 (Asia/Shanghai)"."""
    at = schedule.at.strftime("%H:%M")
    if schedule.weekday is None:
        return say("ui.watch.daily_at", language, at=at, zone=schedule.timezone)
    return say("ui.watch.weekly_at", language, day=say(f"ui.watch.weekday.{schedule.weekday}", language), at=at,
               zone=schedule.timezone)


def _failed(exc: Exception, language: Language) -> str:
    """A store's failure as the visitor reads it: the store's own message when it wrote one for people."""
    if isinstance(exc, StoreUnavailable):
        return say("ui.watch.not_saved", language, why=str(exc))
    return say("ui.watch.not_saved_plain", language)


def language(owner: str) -> Language:
    """The language of `owner`'s watch pages: their watchlist's (the answer it was made from), else English."""
    try:
        found = mine(owner)
    except StoreUnavailable:
        return "en"
    return found.language if found is not None else "en"

