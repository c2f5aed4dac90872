"""A visitor's edit and the scheduled brief's mark landing at once, on files and a real Redis: both stay.

The brief reads the watchlist, writes for seconds to minutes (two pipeline runs per instrument), then marks
it briefed. It used to save the whole watchlist it had read: an instrument the visitor added meanwhile was
lost, and a visitor's save of what they had read before the mark lost the mark (the next brief repeated the
period). Each change is now one `Watchlists.update`: read, changed and saved as one step."""

from __future__ import annotations

import threading
from datetime import datetime, time, timezone

from finsearch.watch import mine
from finsearch.watch.brief import run_due_brief
from finsearch.watch.lists import open_watchlists
from finsearch.watch.lists_redis import RedisWatchlists
from finsearch.watch.schedule import due_briefs
from finsearch.watch.watchlist import Schedule, Watchlist

ALICE = "key:alice"
FRIDAY_EVENING = datetime(2024, 11, 22, 21, 0, tzinfo=timezone.utc)
FRIDAY_SLOT = datetime(2024, 11, 22, 13, 0, tzinfo=timezone.utc)     # 08:00 in New York


def _alices(lists) -> Watchlist:
    """Alice's watchlist of NVDA, briefed daily at 08:00 New York time, made the Monday before."""
    watched = mine.watch(lists, ALICE, "NVDA", "en", now=datetime(2024, 11, 18, tzinfo=timezone.utc))
    assert watched.outcome == "created"
    return mine.reschedule(lists, ALICE, Schedule("daily", time(8, 0), "America/New_York"))


def test_an_instrument_added_while_the_brief_is_written_stays_and_the_brief_is_marked(backend):
    lists = open_watchlists(backend.settings)
    watchlist = _alices(lists)
    [due] = due_briefs(lists, FRIDAY_EVENING)
    asked = []

    def ask(question, settings):
        if not asked:       # the visitor adds AAPL while the brief is being written (as the old page did it)
            current = lists.get(watchlist.watchlist_id, ALICE)
            lists.save(Watchlist(current.watchlist_id, ALICE, "", (*current.instruments, "AAPL"), current.schedule,
                                 created_at=current.created_at))
        asked.append(question)
        return None

    notice = run_due_brief(lists, *due.args, backend.settings, ask=ask)
    assert notice.notice_id == f"brief-{watchlist.watchlist_id}-2024-11-22"
    kept = lists.get(watchlist.watchlist_id, ALICE)
    assert kept.instruments == ("NVDA", "AAPL")                 # the visitor's edit was not undone by the brief
    assert kept.last_brief_at == FRIDAY_SLOT                    # and the brief is marked: not due again that day
    assert due_briefs(lists, FRIDAY_EVENING) == []


def test_an_edit_read_before_the_brief_was_marked_keeps_the_mark_in_redis(redis_server, settings):
    lists = RedisWatchlists(redis_server.url)
    watchlist = _alices(lists)
    [due] = due_briefs(lists, FRIDAY_EVENING)
    seen = []

    def add_aapl(current):
        seen.append(current.last_brief_at)
        if len(seen) == 1:      # between the visitor's read and their save, the brief is written and marked
            run_due_brief(RedisWatchlists(redis_server.url, redis_server.client()), *due.args, settings,
                          ask=lambda question, settings: None)
        return Watchlist(current.watchlist_id, ALICE, "", (*current.instruments, "AAPL"), current.schedule,
                         created_at=current.created_at, last_brief_at=current.last_brief_at)

    kept = lists.update(watchlist.watchlist_id, ALICE, add_aapl)
    assert seen == [None, FRIDAY_SLOT]                          # read again after the mark landed, not saved stale
    assert kept.instruments == ("NVDA", "AAPL") and lists.get(watchlist.watchlist_id, ALICE) == kept
    assert due_briefs(lists, FRIDAY_EVENING) == []              # the Friday brief is not repeated


def test_edits_at_once_are_all_kept(backend):
    lists = open_watchlists(backend.settings)
    _alices(lists)
    tickers = ["AAPL", "MSFT", "TSLA", "AMZN", "GOOGL", "META", "0700.HK", "600519.SS"]
    start = threading.Barrier(len(tickers) + 1)

    def add(ticker):
        start.wait()
        mine.watch(open_watchlists(backend.settings), ALICE, ticker, "en")

    threads = [threading.Thread(target=add, args=(t,)) for t in tickers]
    for thread in threads:
        thread.start()
    start.wait()
    for thread in threads:
        thread.join(30)
    assert sorted(mine.mine(lists, ALICE).instruments) == sorted(["NVDA", *tickers])
    assert mine.unwatch(lists, ALICE, "NVDA").watchlist.instruments[0] != "NVDA"
    assert mine.unwatch(lists, "key:bob", "AAPL").outcome == "not_watched"     # another owner's is not touched
