"""An inbox item as either inbox keeps it: the notice, when it arrived, whether it was read; and how many an
owner keeps. Its own module so the files inbox and the Redis one share it without importing each other."""

from __future__ import annotations

import dataclasses
import json

from .notice import Notice

MAX_ITEMS = 500


@dataclasses.dataclass(frozen=True)
class InboxItem:
    notice: Notice
    arrived: float            # epoch s
    read: bool = False

    def to_json(self) -> dict:
        return {"notice": self.notice.to_json(), "arrived": self.arrived, "read": self.read}

    @classmethod
    def from_json(cls, raw: dict) -> InboxItem:
        return cls(Notice.from_json(raw["notice"]), float(raw["arrived"]), bool(raw.get("read", False)))


def parse_item(text: str | None) -> InboxItem | None:
    """An item as stored, or None when it is damaged (left out, never a crash)."""
    try:
        return InboxItem.from_json(json.loads(text or ""))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
