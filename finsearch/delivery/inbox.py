"""The in-app inbox: each owner's notices, newest first, read or unread, each opening as an answer.

    put(notice)                 keep it in its owner's inbox; a notice already there is left as it
                                was (one item per event id: delivering it again changes nothing)
    items(owner, limit)         newest first (by when it arrived)
    unread(owner)               how many are unread (the sidebar's count)
    item(owner, notice_id)      one, with the notice's markdown and references (shown as an answer)
    mark_read(owner, notice_id) True when it was there

Files (the default): `<data_dir>/inbox/<owner hash>/<notice hash>.json`, each created whole in
one step (written aside, then hard-linked into place, which fails when it exists). Redis: see
`inbox_redis`. An owner keeps at most `MAX_ITEMS`; the oldest go first.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import tempfile
import time
from pathlib import Path
from typing import Protocol

from ..errors import DeliveryError, StoreUnavailable
from ..settings import Settings
from ..store.runs import record_json
from .inbox_items import MAX_ITEMS, InboxItem, parse_item
from .notice import Notice


class Inbox(Protocol):
    def put(self, notice: Notice) -> bool: ...
    def items(self, owner: str, limit: int = 50) -> list[InboxItem]: ...
    def unread(self, owner: str) -> int: ...
    def item(self, owner: str, notice_id: str) -> InboxItem | None: ...
    def mark_read(self, owner: str, notice_id: str) -> bool: ...


def _hashed(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class FileInbox:
    def __init__(self, data_dir: Path):
        self.root = Path(data_dir).expanduser() / "inbox"

    def _folder(self, owner: str) -> Path:
        return self.root / _hashed(owner)

    def _path(self, owner: str, notice_id: str) -> Path:
        return self._folder(owner) / f"{_hashed(notice_id)}.json"

    def put(self, notice: Notice) -> bool:
        """True when the notice is new to the inbox, False when it was there already."""
        path = self._path(notice.owner, notice.notice_id)
        if path.exists():
            return False
        added = _create(path, record_json(InboxItem(notice, time.time()).to_json()))
        if added:
            self._trim(notice.owner)
        return added

    def _read(self, path: Path) -> InboxItem | None:
        try:
            return parse_item(path.read_text("utf-8"))
        except OSError:
            return None

    def _all(self, owner: str) -> list[InboxItem]:
        folder = self._folder(owner)
        found = [self._read(p) for p in folder.glob("*.json")] if folder.is_dir() else []
        return sorted((i for i in found if i is not None and i.notice.owner == owner),
                      key=lambda i: i.arrived, reverse=True)

    def items(self, owner: str, limit: int = 50) -> list[InboxItem]:
        return self._all(owner)[:max(0, limit)]

    def unread(self, owner: str) -> int:
        return sum(1 for i in self._all(owner) if not i.read)

    def item(self, owner: str, notice_id: str) -> InboxItem | None:
        found = self._read(self._path(owner, notice_id))
        return found if found is not None and found.notice.owner == owner else None

    def mark_read(self, owner: str, notice_id: str) -> bool:
        found = self.item(owner, notice_id)
        if found is None:
            return False
        if not found.read:
            _replace(self._path(owner, notice_id), record_json(dataclasses.replace(found, read=True).to_json()))
        return True

    def _trim(self, owner: str) -> None:
        for old in self._all(owner)[MAX_ITEMS:]:
            try:
                self._path(owner, old.notice.notice_id).unlink()
            except OSError:
                pass


def _create(path: Path, text: str) -> bool:
    """Write `path` whole unless it exists (written aside, then linked: the link fails if it does)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    finally:
        os.unlink(tmp)


def _replace(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def open_inbox(settings: Settings) -> Inbox:
    """Redis when FINSEARCH_REDIS_URL is set (every replica and worker sees one inbox), else files."""
    if settings.redis_url:
        from .inbox_redis import RedisInbox

        return RedisInbox(settings.redis_url)
    return FileInbox(settings.data_dir)


@dataclasses.dataclass(frozen=True)
class InboxChannel:
    """The inbox as a delivery channel: the notice goes to its owner's inbox. Idempotent by
    itself (one item per event id), so it needs no claim and survives any crash."""
    inbox: Inbox
    key: str = "inbox"
    label: str = "inbox"
    idempotent: bool = True

    def send(self, notice: Notice) -> None:
        try:
            self.inbox.put(notice)
        except (StoreUnavailable, OSError) as exc:
            raise DeliveryError(f"the inbox could not be written ({type(exc).__name__})", transient=True) from exc
