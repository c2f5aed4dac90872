"""A brief asked for now ("Brief me now"), written in a background thread and put in its owner's inbox.

The same `watch.brief.write_brief` the scheduled job runs, for the watchlist's instruments. On replay
data it takes a fraction of a second, but on live sources it is two pipeline runs per instrument
(up to 30 of them): seconds to minutes, too long to hold a page's script run. The page polls `view()`.
The notice's id names this asking (the watchlist and the moment it was asked), so it is a new inbox
item, never the scheduled brief of the day (which keeps its own id and still arrives).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from typing import Literal

from ..delivery.inbox import Inbox
from ..delivery.notice import Notice
from ..phrases import say
from ..settings import Settings
from ..watch.brief import write_brief
from ..watch.watchlist import Watchlist

log = logging.getLogger(__name__)

BriefStatus = Literal["writing", "done", "failed"]


@dataclasses.dataclass(frozen=True)
class BriefView:
    status: BriefStatus
    notice: Notice | None = None
    error: str | None = None           # for the person, in the watchlist's language


def asked_id(watchlist: Watchlist, asked_at: float) -> str:
    """The part of the notice id naming this asking: "<watchlist>-now<epoch s>" (a job id's letters)."""
    return f"{watchlist.watchlist_id}-now{int(asked_at)}"


class BackgroundBrief:
    """`start()` writes the brief of `watchlist` in a thread and puts it in `inbox`; `view()` says how it went."""

    def __init__(self, watchlist: Watchlist, settings: Settings, inbox: Inbox, *, write=write_brief):
        self.watchlist, self._settings, self._inbox, self._write = watchlist, settings, inbox, write
        self._lock = threading.Lock()
        self._view = BriefView("writing")
        self._thread = threading.Thread(target=self._work, name="finsearch-brief", daemon=True)

    def start(self) -> BackgroundBrief:
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def view(self) -> BriefView:
        with self._lock:
            return self._view

    def _work(self) -> None:
        watchlist = self.watchlist
        try:
            notice = self._write(list(watchlist.instruments), self._settings, language=watchlist.language,
                                 owner=watchlist.owner, watchlist_id=asked_id(watchlist, time.time()))
            self._inbox.put(notice)
            found = BriefView("done", notice)
        except Exception:  # a thread's crash would otherwise leave the page "writing" for ever
            log.warning("a brief asked for now failed", exc_info=True)
            found = BriefView("failed", error=say("brief_now.failed", watchlist.language))
        with self._lock:
            self._view = found
