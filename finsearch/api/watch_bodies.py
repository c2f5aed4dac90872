"""What the watchlist and inbox calls of the HTTP API send and get back, as types (the OpenAPI document is
generated from them): a watchlist as its owner sees it (webhook URLs and secrets never shown), a schedule,
inbox items newest first, and the ticket of a brief asked for now."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..delivery.inbox_items import InboxItem
from ..evidence import to_iso
from ..watch.schedule import next_due
from ..watch.watchlist import Schedule, Watchlist


class ScheduleBody(BaseModel):
    """When the brief is due: every day, or once a week on `weekday`, at `at` on the clock of `timezone`."""
    cadence: Literal["daily", "weekly"] = Field(description="daily, or weekly (then `weekday` is needed)")
    at: str = Field(description="local time, HH:MM", examples=["08:00"])
    timezone: str = Field(description="an IANA time zone", examples=["America/New_York"])
    weekday: int | None = Field(None, description="0 Monday … 6 Sunday; weekly only")
    closed_days: bool = Field(False, description="also brief on a day every market of the list is closed")

    @classmethod
    def of(cls, schedule: Schedule) -> ScheduleBody:
        return cls(**schedule.to_json())


class WatchlistBody(BaseModel):
    """The caller's watchlist."""
    watchlist_id: str
    instruments: list[str] = Field(description="tickers, as the planner reads them", examples=[["NVDA", "0700.HK"]])
    schedule: ScheduleBody
    language: Literal["en", "zh"] = Field(description="the language its briefs and alerts are written in")
    created_at: str | None = None
    last_brief_at: str | None = Field(None, description="when its last scheduled brief was written (ISO, UTC)")
    next_brief_at: str | None = Field(None, description="when its next scheduled brief is due (ISO, UTC)")
    channels: dict[str, Any] = Field(description="where its notices go: the inbox always, e-mail, webhooks "
                                                 "(kind and host only)")

    @classmethod
    def of(cls, watchlist: Watchlist, now: datetime | None = None) -> WatchlistBody:
        due = next_due(watchlist, now or datetime.now(timezone.utc))
        return cls(watchlist_id=watchlist.watchlist_id, instruments=list(watchlist.instruments),
                   schedule=ScheduleBody.of(watchlist.schedule), language=watchlist.language,
                   created_at=to_iso(watchlist.created_at) if watchlist.created_at else None,
                   last_brief_at=to_iso(watchlist.last_brief_at) if watchlist.last_brief_at else None,
                   next_brief_at=to_iso(due) if due else None, channels=watchlist.channels.shown())


class InboxItemBody(BaseModel):
    """One notice in the inbox: a brief or an alert, cited like an answer."""
    notice_id: str
    kind: Literal["brief", "alert"]
    title: str
    markdown: str = Field(description="the cited text; [n] are the references'")
    references: list[dict[str, Any]]
    language: Literal["en", "zh"]
    created_at: str
    arrived_at: str = Field(description="when it reached the inbox (ISO, UTC)")
    read: bool = Field(description="whether it was opened (in the app)")

    @classmethod
    def of(cls, item: InboxItem) -> InboxItemBody:
        notice = item.notice.to_json()
        return cls(**notice, arrived_at=to_iso(datetime.fromtimestamp(item.arrived, timezone.utc)), read=item.read)


class InboxBody(BaseModel):
    unread: int = Field(description="how many of the caller's notices are unread")
    items: list[InboxItemBody] = Field(description="newest first")


class BriefTicket(BaseModel):
    job_id: str = Field(description="the brief's job; the brief arrives in GET /v1/inbox")
    status: Literal["queued"] = "queued"
