"""An e-mail address's confirmation: a 6-digit code from `secrets`, kept only as a salted slow hash, expiring
after `CODE_TTL`, refused for good after `MAX_WRONG` wrong tries — until it is typed, the address is sent nothing.

The state is a frozen `EmailCheck` kept in the watchlist's `Channels` (its JSON in the stored record); the code
itself is returned once by `issue_code`, for the caller to mail, and never kept.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re
import secrets
import unicodedata
from datetime import datetime, timedelta
from typing import Literal

from ..evidence import parse_utc, to_iso

CODE_TTL = timedelta(minutes=30)
MAX_WRONG = 5
# A slow hash: a stored record read by someone else does not give its code back by trying all million at once.
_ROUNDS = 100_000
_CODE = re.compile(r"[0-9]{6}")
_HEX = re.compile(r"[0-9a-f]{64}")

CodeOutcome = Literal["confirmed", "wrong", "expired", "too_many", "no_code"]


@dataclasses.dataclass(frozen=True)
class EmailCheck:
    """Where an address's confirmation stands: `confirmed`, or a code (its salt and hash) sent at `sent_at`,
    good until `expires_at`, with `wrong` wrong tries so far. No code pending: `code_hash` None."""
    confirmed: bool = False
    code_hash: str | None = dataclasses.field(default=None, repr=False)
    salt: str | None = dataclasses.field(default=None, repr=False)
    sent_at: datetime | None = None          # aware UTC
    expires_at: datetime | None = None       # aware UTC
    wrong: int = 0

    def __post_init__(self):
        pending = self.code_hash is not None
        if not isinstance(self.confirmed, bool) or not isinstance(self.wrong, int) \
                or not 0 <= self.wrong <= MAX_WRONG or (self.confirmed and pending) \
                or pending != (self.salt is not None) or pending != (self.expires_at is not None) \
                or (pending and not (_HEX.fullmatch(self.code_hash or "") and _HEX.fullmatch(self.salt or ""))):
            raise ValueError("not an e-mail confirmation")

    def pending(self, now: datetime) -> bool:
        """Whether a code was sent that can still be typed (not expired, tries left)."""
        return self.code_hash is not None and self.expires_at is not None and now < self.expires_at \
            and self.wrong < MAX_WRONG

    def to_json(self) -> dict:
        return {"confirmed": self.confirmed, "code_hash": self.code_hash, "salt": self.salt,
                "sent_at": to_iso(self.sent_at) if self.sent_at else None,
                "expires_at": to_iso(self.expires_at) if self.expires_at else None, "wrong": self.wrong}

    @classmethod
    def from_json(cls, raw: dict | None) -> EmailCheck:
        """The state `to_json` wrote; unconfirmed for a record from before confirmation (None)."""
        if raw is None:
            return cls()
        return cls(raw["confirmed"], raw.get("code_hash"), raw.get("salt"),
                   parse_utc(raw["sent_at"]) if raw.get("sent_at") else None,
                   parse_utc(raw["expires_at"]) if raw.get("expires_at") else None, raw.get("wrong", 0))


def _hash(code: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", code.encode(), bytes.fromhex(salt), _ROUNDS).hex()


def issue_code(now: datetime) -> tuple[EmailCheck, str]:
    """A new code: (the unconfirmed state that keeps its hash, the code to mail — kept nowhere)."""
    code = f"{secrets.randbelow(1_000_000):06d}"
    salt = secrets.token_hex(32)
    return EmailCheck(False, _hash(code, salt), salt, now, now + CODE_TTL, 0), code


def check_code(check: EmailCheck, typed: str, now: datetime) -> tuple[EmailCheck, CodeOutcome]:
    """`typed` against the pending code: (the new state, how it went). The right code confirms; a wrong one
    counts; an expired code or one with no tries left is refused whatever is typed (a new code is needed)."""
    if check.confirmed:
        return check, "confirmed"
    if check.code_hash is None or check.salt is None or check.expires_at is None:
        return check, "no_code"
    if check.wrong >= MAX_WRONG:
        return check, "too_many"
    if now >= check.expires_at:
        return check, "expired"
    typed = re.sub(r"\s", "", unicodedata.normalize("NFKC", typed or ""))     # full-width digits too
    if _CODE.fullmatch(typed) and hmac.compare_digest(_hash(typed, check.salt), check.code_hash):
        return EmailCheck(confirmed=True), "confirmed"
    wrong = dataclasses.replace(check, wrong=check.wrong + 1)
    return wrong, "too_many" if wrong.wrong >= MAX_WRONG else "wrong"


def masked(address: str) -> str:
    """`address` as the page shows whom a code went to: j***@example.com."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"
