"""Delivering one notice on one channel: once per event (a claim), retried with backoff when the
failure is transient (a 5xx, a timeout, a refused connection), never when the receiver refused it.

    deliver(notice, channel, claims) -> Delivery     sent | already_sent | in_flight | failed

A channel whose write is idempotent by itself (the inbox: one item per notice id) needs no claim;
the others take one first (`claims`), mark it sent after a success, and release it after a failure
they saw, so a later job can try again. The clock and the sleep are passed in, so tests wait for
nothing. Nothing logged names a secret: a channel's `label` is what a log line shows.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Literal, Protocol

from ..errors import DeliveryError, StoreUnavailable
from .claims import Claims
from .notice import Notice

log = logging.getLogger(__name__)

Outcome = Literal["sent", "already_sent", "in_flight", "failed"]


class Channel(Protocol):
    """Where a notice goes. `key` names the destination stably (the claim is per notice and key;
    it may hold an address or a URL: it is hashed, never logged); `label` is safe to log."""
    key: str
    label: str
    idempotent: bool          # sending the same notice twice leaves one copy (no claim needed)

    def send(self, notice: Notice) -> None:
        """Deliver `notice`, or raise DeliveryError (transient or not)."""


@dataclasses.dataclass(frozen=True)
class Backoff:
    """Attempts and the waits between them: `first_s`, then × `factor`, at most `cap_s` (a
    receiver's Retry-After is honoured up to the cap). 4 attempts: waits of 2, 8, 32 s."""
    attempts: int = 4
    first_s: float = 2.0
    factor: float = 4.0
    cap_s: float = 60.0

    def wait_s(self, attempt: int, asked_s: float | None = None) -> float:
        """The wait after failed attempt number `attempt` (1-based)."""
        planned = self.first_s * self.factor ** (attempt - 1)
        return min(self.cap_s, max(planned, asked_s or 0.0))


@dataclasses.dataclass(frozen=True)
class Delivery:
    notice_id: str
    channel: str               # the channel's label
    outcome: Outcome
    attempts: int = 0          # sends tried by this call
    reason: str | None = None  # why it failed (no secrets), or why nothing was sent

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def deliver(notice: Notice, channel: Channel, claims: Claims, *, backoff: Backoff = Backoff(),
            sleep: Callable[[float], None] = time.sleep) -> Delivery:
    """Deliver `notice` on `channel` at most once per event: `already_sent` when it was,
    `in_flight` when another deliverer holds the claim (or a crashed one left it in doubt),
    `failed` with the reason after the retries (its claim released for a later try)."""
    if channel.idempotent:
        return _attempts(notice, channel, backoff, sleep)
    try:
        claim = claims.take(notice.notice_id, channel.key)
    except StoreUnavailable as exc:
        # Without the claim the send could repeat: better late (a later job) than twice.
        return Delivery(notice.notice_id, channel.label, "failed", 0, str(exc))
    if claim.state == "sent":
        return Delivery(notice.notice_id, channel.label, "already_sent")
    if claim.state == "sending":
        log.info("delivery of %s on %s is held by another deliverer (or in doubt after a crash)",
                 notice.notice_id, channel.label)
        return Delivery(notice.notice_id, channel.label, "in_flight")
    assert claim.token is not None
    result = _attempts(notice, channel, backoff, sleep)
    try:
        if result.outcome == "sent":
            claims.mark_sent(notice.notice_id, channel.key, claim.token)
        else:
            claims.release(notice.notice_id, channel.key, claim.token)
    except StoreUnavailable as exc:
        # Sent but not recorded: the claim stays `sending`, so nobody sends it again.
        log.warning("delivery of %s on %s: the claim could not be updated (%s)", notice.notice_id, channel.label, exc)
    return result


def _attempts(notice: Notice, channel: Channel, backoff: Backoff, sleep: Callable[[float], None]) -> Delivery:
    reason = None
    for attempt in range(1, max(1, backoff.attempts) + 1):
        try:
            channel.send(notice)
        except DeliveryError as exc:
            reason = str(exc)
            if not exc.transient or attempt >= backoff.attempts:
                log.warning("delivery of %s on %s failed after %d attempt(s): %s", notice.notice_id, channel.label,
                            attempt, reason)
                return Delivery(notice.notice_id, channel.label, "failed", attempt, reason)
            wait = backoff.wait_s(attempt, exc.retry_after_s)
            log.info("delivery of %s on %s: %s; trying again in %.0f s", notice.notice_id, channel.label, reason, wait)
            sleep(wait)
            continue
        return Delivery(notice.notice_id, channel.label, "sent", attempt)
    return Delivery(notice.notice_id, channel.label, "failed", backoff.attempts, reason)
