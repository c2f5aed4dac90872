"""Who may send a notice on a channel: one claim per (notice_id, channel), so an event is sent once.

A claim is taken before the first attempt and is then in one of two states:

    sending   one deliverer holds it (its token); nobody else sends
    sent      delivered: nobody ever sends it again

A failure the deliverer sees (retries spent, or a refusal) releases the claim, so a later job may
try again. A crash between the send and the record leaves it `sending`, and it stays so: whether
the message left cannot be known, and the issue's rule is "never twice", so such a claim is not
taken over by time (no lease) — it is reported as in doubt, and an operator may `release` it.
Webhook receivers can dedupe by the event id header and mail clients by the Message-ID, which
both name the event, if they prefer a rare duplicate to a rare loss.

Files: an atomic create (O_CREAT | O_EXCL) under `<data_dir>/deliveries/`. Redis: `SET NX` with a
long TTL (the event ids name a day or one move, so after `KEEP_S` nothing asks again), and the
state changes by token in one script each, so only the holder can mark or release.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import secrets
import time
from pathlib import Path
from typing import Literal, Protocol

from ..hosting.redis_link import KEY_PREFIX, breaker, connect, redis_errors, store_unavailable, where
from ..settings import Settings

ClaimState = Literal["taken", "sending", "sent"]    # taken: this deliverer holds it now
KEEP_S = 90 * 24 * 3600       # how long a claim is remembered (Redis TTL)


@dataclasses.dataclass(frozen=True)
class Claim:
    state: ClaimState
    token: str | None = None      # the holder's token, when `taken`


def claim_name(notice_id: str, channel: str) -> str:
    """A claim's file or key name: the channel is hashed (a webhook URL may hold a token, and
    an address is personal), the notice id kept readable when it is a plain id."""
    safe_id = notice_id if notice_id.replace("-", "").replace("_", "").isalnum() and len(notice_id) <= 120 \
        else hashlib.sha256(notice_id.encode()).hexdigest()[:32]
    return f"{safe_id}.{hashlib.sha256(channel.encode()).hexdigest()[:20]}"


class Claims(Protocol):
    def take(self, notice_id: str, channel: str) -> Claim: ...
    def mark_sent(self, notice_id: str, channel: str, token: str) -> None: ...
    def release(self, notice_id: str, channel: str, token: str | None = None) -> bool: ...


class FileClaims:
    """Claims as files: `<data_dir>/deliveries/<claim_name>.json` holding {"state", "token", "at"}."""

    def __init__(self, data_dir: Path):
        self.folder = Path(data_dir).expanduser() / "deliveries"

    def _path(self, notice_id: str, channel: str) -> Path:
        return self.folder / f"{claim_name(notice_id, channel)}.json"

    def take(self, notice_id: str, channel: str) -> Claim:
        path = self._path(notice_id, channel)
        self.folder.mkdir(parents=True, exist_ok=True)
        token = secrets.token_hex(16)
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return Claim(self._state(path))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps({"state": "sending", "token": token, "at": time.time()}))
        return Claim("taken", token)

    def mark_sent(self, notice_id: str, channel: str, token: str) -> None:
        path = self._path(notice_id, channel)
        if self._token(path) != token:
            return                                  # released by an operator meanwhile: not ours
        tmp = path.with_suffix(f".{token}.tmp")
        tmp.write_text(json.dumps({"state": "sent", "token": token, "at": time.time()}), "utf-8")
        os.replace(tmp, path)                       # a reader sees the old record or the new one

    def release(self, notice_id: str, channel: str, token: str | None = None) -> bool:
        """Give the claim up (a failed attempt), or with no token, as an operator: any claim that is
        not `sent` (one in doubt after a crash). Nobody else can create the file while it exists."""
        path = self._path(notice_id, channel)
        record = self._record(path)
        if record is None or record.get("state") == "sent" or (token is not None and record.get("token") != token):
            return False
        try:
            path.unlink()
        except OSError:
            return False
        return True

    def _record(self, path: Path) -> dict | None:
        try:
            record = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) else None

    def _state(self, path: Path) -> ClaimState:
        # A file being written this instant reads as empty: it is someone's claim all the same.
        record = self._record(path) or {}
        return "sent" if record.get("state") == "sent" else "sending"

    def _token(self, path: Path) -> str | None:
        return (self._record(path) or {}).get("token")


# The holder's token is the value's tail ("sending:<token>", "sent:<token>"): only it may change the state.
_MARK_SENT = """
if redis.call('GET', KEYS[1]) == 'sending:' .. ARGV[1] then
  redis.call('SET', KEYS[1], 'sent:' .. ARGV[1], 'EX', ARGV[2]) return 1 end
return 0
"""
_RELEASE = """
local value = redis.call('GET', KEYS[1])
if not value or string.sub(value, 1, 5) == 'sent:' then return 0 end
if ARGV[1] ~= '' and value ~= 'sending:' .. ARGV[1] then return 0 end
redis.call('DEL', KEYS[1]) return 1
"""


class RedisClaims:
    """Claims as keys `finsearch:delivery:<claim_name>` = "sending:<token>" | "sent:<token>"."""

    def __init__(self, url: str, client=None):
        self.where = where(url)
        self.redis = client if client is not None else connect(url)
        self.breaker = breaker(url)
        self._mark_sent = self.redis.register_script(_MARK_SENT)
        self._release = self.redis.register_script(_RELEASE)

    def _key(self, notice_id: str, channel: str) -> str:
        return f"{KEY_PREFIX}delivery:{claim_name(notice_id, channel)}"

    def _call(self, work):
        try:
            with self.breaker:
                return work()
        except redis_errors() as exc:
            raise store_unavailable(self.where, exc) from exc

    def take(self, notice_id: str, channel: str) -> Claim:
        key, token = self._key(notice_id, channel), secrets.token_hex(16)

        def work() -> Claim:
            if self.redis.set(key, f"sending:{token}", nx=True, ex=KEEP_S):
                return Claim("taken", token)
            value = self.redis.get(key) or ""
            return Claim("sent" if value.startswith("sent:") else "sending")
        return self._call(work)

    def mark_sent(self, notice_id: str, channel: str, token: str) -> None:
        self._call(lambda: self._mark_sent(keys=[self._key(notice_id, channel)], args=[token, KEEP_S]))

    def release(self, notice_id: str, channel: str, token: str | None = None) -> bool:
        return bool(self._call(lambda: self._release(keys=[self._key(notice_id, channel)], args=[token or ""])))


def open_claims(settings: Settings) -> Claims:
    """Redis claims when FINSEARCH_REDIS_URL is set (replicas and workers share them), else files."""
    if settings.redis_url:
        return RedisClaims(settings.redis_url)
    return FileClaims(settings.data_dir)
