"""A notice: something FinSearch tells a watcher without being asked — a scheduled brief or an
alert — written and cited like an answer, and delivered to the in-app inbox, e-mail or a webhook.

Its id names the event, not the moment: the brief of one watchlist for one local day, or one alert
for one move or one filing. Every delivery is keyed by it, so an event delivered twice (a retried
job, two schedulers) is sent once."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Literal

from ..answer.citations import Reference
from ..evidence import parse_utc, to_iso
from ..phrases import Language

NoticeKind = Literal["brief", "alert"]


@dataclasses.dataclass(frozen=True)
class Notice:
    notice_id: str                     # the event's id: "brief-<watchlist>-<local day>", "alert-<…>"
    owner: str                         # whose watchlist (hosting.identity's owner string)
    kind: NoticeKind
    title: str                         # one line: a subject, a push title
    markdown: str                      # the cited text, as an answer's markdown
    references: tuple[Reference, ...]
    language: Language
    created_at: datetime               # aware UTC

    def to_json(self) -> dict:
        return {"notice_id": self.notice_id, "owner": self.owner, "kind": self.kind, "title": self.title,
                "markdown": self.markdown, "references": [r.to_json() for r in self.references],
                "language": self.language, "created_at": to_iso(self.created_at)}

    @classmethod
    def from_json(cls, raw: dict) -> Notice:
        return cls(raw["notice_id"], raw["owner"], raw["kind"], raw["title"], raw["markdown"],
                   tuple(Reference.from_json(r) for r in raw["references"]), raw["language"],
                   parse_utc(raw["created_at"]))
