"""A test notice sent on one channel of a watchlist, through the same delivery code a brief or an alert goes
through (the deliver job's channel, its once-per-event claim, one try), so a visitor sees a hook or an address
work — or why it does not — before the first real notice.

Each test is an event of its own ("test-<watchlist>-<random>"): a claim is per event and channel, so a second
test is sent too, and a real notice is never taken for a test one.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime, timezone
from typing import Literal

from ..delivery.attempts import deliver
from ..delivery.claims import open_claims
from ..delivery.notice import Notice
from ..phrases import say
from ..settings import Settings
from .jobs import ONE_TRY, UNCONFIRMED, WatchedChannel, channel_for
from .watchlist import Watchlist

TrialOutcome = Literal["sent", "gone", "unconfirmed", "retry", "refused"]


@dataclasses.dataclass(frozen=True)
class Trial:
    """How a test went: sent; the channel is gone; its address is not confirmed yet (nothing sent); a failure
    worth another try later; refused by the receiver.
    `detail` is the delivery code's own reason (no secret in it), quoted to the visitor as is."""
    outcome: TrialOutcome
    detail: str = ""


def trial_notice(watchlist: Watchlist, now: datetime) -> Notice:
    language = watchlist.language
    return Notice(f"test-{watchlist.watchlist_id}-{secrets.token_hex(6)}", watchlist.owner, "alert",
                  say("watch.trial.title", language), say("watch.trial.text", language) + "\n", (), language, now)


def send_trial(watchlist: Watchlist, channel_key: str, settings: Settings, now: datetime | None = None) -> Trial:
    """Send a test notice of `watchlist` (as stored) on its channel `channel_key`, once, and say how it went."""
    notice = trial_notice(watchlist, now or datetime.now(timezone.utc))
    channel, why_not = channel_for(settings, notice, watchlist.watchlist_id, channel_key)
    if channel is None:
        return Trial("unconfirmed" if why_not == UNCONFIRMED else "gone", why_not)
    watched = WatchedChannel(channel)
    done = deliver(notice, watched, open_claims(settings), backoff=ONE_TRY)
    if done.outcome == "sent":
        return Trial("sent")
    # attempts == 0: the claims' store could not be reached, nothing was sent: worth another try.
    return Trial("retry" if watched.transient or done.attempts == 0 else "refused", done.reason or "")
