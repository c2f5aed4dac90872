"""API keys for the HTTP API: made, listed and revoked by the operator, checked on every call; only
a hash of each key is kept.

A key is `fsk_<id>_<secret>`: the id (12 hex digits) names the key in `api-key list`, in logs and
as the owner of what it saves (`identity.api_key_owner`); the secret is 256 random bits from
`secrets`. The key is printed once, when it is made, and never stored: the store keeps the id, a
label, when it was made and the SHA-256 of the whole key, which cannot be turned back into it
(the key is random, so no salt or slow hash is needed). A presented key is looked up by its id and
its hash compared in constant time.

    files   api_keys/<id>.json under the data directory (owner-only, 0600)
    Redis   finsearch:api_keys, a hash: id → the same record as JSON (replicas share the keys)

Revoking deletes the record, so the next call with that key is refused on every replica.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import re
import secrets
import time
from pathlib import Path
from typing import Protocol

from ..errors import InputError
from ..settings import Settings
from .redis_link import KEY_PREFIX, breaker, connect, redis_errors, store_unavailable, where

KEY_PATTERN = re.compile(r"^fsk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")    # token_urlsafe(32): 43 characters
ID_PATTERN = re.compile(r"^[0-9a-f]{12}$")
SECRET_BYTES = 32                        # 256 bits
LABEL_CHARS = 80
REDIS_KEY = f"{KEY_PREFIX}api_keys"


@dataclasses.dataclass(frozen=True)
class ApiKey:
    """What is kept of a key: never the key itself."""
    key_id: str
    label: str
    created: float                       # epoch seconds
    digest: str = dataclasses.field(default="", repr=False)      # SHA-256 of the whole key, hex

    def to_json(self) -> dict:
        return {"key_id": self.key_id, "label": self.label, "created": self.created, "sha256": self.digest}

    @classmethod
    def from_json(cls, raw: dict) -> ApiKey | None:
        """A stored record, or None when it is damaged (a damaged record admits nobody)."""
        try:
            key = cls(str(raw["key_id"]), str(raw.get("label", "")), float(raw["created"]), str(raw["sha256"]))
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        return key if ID_PATTERN.match(key.key_id) and len(key.digest) == 64 else None


class ApiKeyStore(Protocol):
    def put(self, key: ApiKey) -> None: ...
    def get(self, key_id: str) -> ApiKey | None: ...
    def all(self) -> list[ApiKey]: ...
    def delete(self, key_id: str) -> bool: ...


def digest_of(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def clean_label(label: str | None) -> str:
    """A label as kept: printable, one line, at most LABEL_CHARS characters."""
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in (label or "")).split())
    return text[:LABEL_CHARS]


def create(store: ApiKeyStore, label: str | None = None, now: float | None = None) -> tuple[ApiKey, str]:
    """A new key: (what is kept of it, the key itself — to be shown once and then forgotten)."""
    key_id = secrets.token_hex(6)
    key = f"fsk_{key_id}_{secrets.token_urlsafe(SECRET_BYTES)}"
    kept = ApiKey(key_id, clean_label(label), time.time() if now is None else now, digest_of(key))
    store.put(kept)
    return kept, key


def check(store: ApiKeyStore, presented: str) -> ApiKey | None:
    """The key `presented` is, when it is one that was made and not revoked; None otherwise.
    Raises StoreUnavailable when the store cannot be reached (down is not "wrong key")."""
    match = KEY_PATTERN.match(presented or "")
    if match is None:
        return None
    kept = store.get(match.group(1))
    if kept is None:
        return None
    return kept if hmac.compare_digest(kept.digest, digest_of(presented)) else None


def revoke(store: ApiKeyStore, key_id: str) -> bool:
    """Revoke the key `key_id`; False when there is none. InputError for what cannot be an id."""
    if not ID_PATTERN.match(key_id or ""):
        raise InputError(f"{key_id[:40]!r} is not a key id: `api-key list` shows them (12 hex digits)")
    return store.delete(key_id)


def listed(store: ApiKeyStore) -> list[ApiKey]:
    """Every key kept, oldest first."""
    return sorted(store.all(), key=lambda k: (k.created, k.key_id))


class FileApiKeyStore:
    def __init__(self, data_dir: Path):
        self.folder = Path(data_dir).expanduser() / "api_keys"

    def _path(self, key_id: str) -> Path:
        return self.folder / f"{key_id}.json"

    def put(self, key: ApiKey) -> None:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = self.folder / f".{key.key_id}.{secrets.token_hex(4)}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(key.to_json(), handle)
        os.replace(temporary, self._path(key.key_id))        # whole or not at all

    def get(self, key_id: str) -> ApiKey | None:
        try:
            return ApiKey.from_json(json.loads(self._path(key_id).read_text("utf-8")))
        except (OSError, ValueError, AttributeError):
            return None

    def all(self) -> list[ApiKey]:
        found = (self.get(path.stem) for path in self.folder.glob("*.json")) if self.folder.is_dir() else ()
        return [key for key in found if key is not None]

    def delete(self, key_id: str) -> bool:
        try:
            self._path(key_id).unlink()
        except FileNotFoundError:
            return False
        return True


class RedisApiKeyStore:
    def __init__(self, url: str, client=None):
        self.where = where(url)
        self.redis = client if client is not None else connect(url)
        self.breaker = breaker(url)

    def _call(self, method: str, *args):
        try:
            with self.breaker:
                return getattr(self.redis, method)(REDIS_KEY, *args)
        except redis_errors() as exc:
            raise store_unavailable(self.where, exc) from exc

    def put(self, key: ApiKey) -> None:
        self._call("hset", key.key_id, json.dumps(key.to_json()))

    def get(self, key_id: str) -> ApiKey | None:
        raw = self._call("hget", key_id)
        return _parsed(raw)

    def all(self) -> list[ApiKey]:
        found = (_parsed(raw) for raw in (self._call("hgetall") or {}).values())
        return [key for key in found if key is not None]

    def delete(self, key_id: str) -> bool:
        return bool(self._call("hdel", key_id))


def _parsed(raw: str | None) -> ApiKey | None:
    if not raw:
        return None
    try:
        return ApiKey.from_json(json.loads(raw))
    except (ValueError, AttributeError):
        return None


def open_key_store(settings: Settings) -> ApiKeyStore:
    """Where these settings keep API keys: Redis when `FINSEARCH_REDIS_URL` is set, else files."""
    if settings.redis_url:
        return RedisApiKeyStore(settings.redis_url)
    return FileApiKeyStore(settings.data_dir)
