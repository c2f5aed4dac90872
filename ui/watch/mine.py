"""The visitor's watchlist in the app: `finsearch.watch.mine`'s edits (one per owner, each atomic), said to the
visitor in their language; failures come back as messages, never raised.
"""

from __future__ import annotations

from finsearch.errors import StoreUnavailable
from finsearch.phrases import Language, say
from finsearch.watch import mine as owned
from finsearch.watch.lists import Watchlists, open_watchlists
from finsearch.watch.watchlist import MAX_INSTRUMENTS, Schedule, Watchlist
from ui import state


def watchlists() -> Watchlists:
    return open_watchlists(state.server_settings())


def mine(owner: str) -> Watchlist | None:
    """`owner`'s watchlist, None when there is none yet (StoreUnavailable when the store is down)."""
    try:
        return owned.mine(watchlists(), owner)
    except OSError as exc:
        raise StoreUnavailable(str(exc)) from exc


def watched(owner: str) -> frozenset[str]:
    """The tickers `owner` watches; none when the store cannot be read (the buttons then offer to watch)."""
    try:
        found = mine(owner)
    except StoreUnavailable:
        return frozenset()
    return frozenset(found.instruments) if found is not None else frozenset()


def watch(owner: str, ticker: str, language: Language) -> tuple[Watchlist | None, str]:
    """Add `ticker` to `owner`'s watchlist (made on first use): (the watchlist, what to tell the visitor)."""
    try:
        done = owned.watch(watchlists(), owner, ticker, language)
    except (StoreUnavailable, OSError, ValueError) as exc:
        return None, _failed(exc, language)
    if done.outcome == "already":
        return done.watchlist, say("ui.watch.already", language, ticker=ticker)
    if done.outcome == "full":
        return None, say("watch.how_many", language, most=str(MAX_INSTRUMENTS))
    return done.watchlist, say("ui.watch.added", language, ticker=ticker, when=when(done.watchlist.schedule, language))


def unwatch(owner: str, ticker: str, language: Language) -> str:
    """Remove `ticker` from `owner`'s watchlist (the last one deletes the watchlist): what to tell the visitor."""
    try:
        done = owned.unwatch(watchlists(), owner, ticker)
    except (StoreUnavailable, OSError, ValueError) as exc:
        return _failed(exc, language)
    if done.outcome == "not_watched":
        return say("ui.watch.not_watched", language, ticker=ticker)
    return say("ui.watch.removed", language, ticker=ticker)


def reschedule(owner: str, schedule: Schedule, language: Language) -> str:
    """Give `owner`'s watchlist `schedule`: what to tell the visitor."""
    try:
        if owned.reschedule(watchlists(), owner, schedule) is None:
            return say("ui.watch.none_yet", language)
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

