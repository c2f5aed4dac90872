"""Alerts: a watchlist's rules checked against fresh data, each event one notice with its evidence cited.

    daily_move       the last session closed at least `pct` % from the one before   (price_history)
    from_price       the last close is at least `pct` % from the reference `price`  (price_history)
    filing           a filing or announcement since `since`, of one of `kinds`:
                     an SEC form (sec_filings), words of a cninfo or HKEXnews title
                     (cn_announcements, hk_announcements)
    earnings_within  the next earnings date is within `days` days                  (earnings)

Each notice's id names the event, so the same move, filing or date found by every later check
is the same notice, which delivery sends once: "alert-<watchlist>-move-NVDA-2024-10-11",
"alert-<watchlist>-price-NVDA-<rule key>-2024-10-11", "alert-<watchlist>-filing-NVDA-<accession or
link>", "alert-<watchlist>-earnings-NVDA-2025-02-26". Data comes through the data hub, so a
replay pack, the cache and live sources all serve it; a source that fails is logged and
skipped (a check that cannot see data fires nothing).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import date, datetime, timedelta, timezone

from ..answer.citations import reference
from ..answer.markdown_builder import say_md
from ..answer.titles import instrument, reference_title
from ..delivery.notice import Notice
from ..errors import SourceError
from ..evidence import Evidence
from ..phrases import say
from ..phrases.numbers import pct
from ..reference.markets import market_of
from ..settings import Settings
from ..sources.hub import DataHub
from ..sources.setup import make_hub
from .watchlist import AlertRule, Watchlist, id_part

log = logging.getLogger(__name__)

PRICE_DAYS = 14                        # enough calendar days for the last two sessions after a long closure
FILING_DAYS = 7                        # how far back a filing is new, without `since`


def check_alerts(watchlist: Watchlist, settings: Settings, now: datetime | None = None, *,
                 since: datetime | None = None, hub: DataHub | None = None) -> list[Notice]:
    """The alerts `watchlist`'s rules fire at `now` (default settings.now, else the clock): one
    notice per event. Filings count from `since` (default `FILING_DAYS` before `now`)."""
    now = now or settings.now or datetime.now(timezone.utc)
    hub = hub or make_hub(settings)
    check = _Check(watchlist, hub, now, since or now - timedelta(days=FILING_DAYS))
    fired: dict[str, Notice] = {}
    for ticker in watchlist.instruments:
        for rule in watchlist.alerts:
            if not rule.applies_to(ticker):
                continue
            for notice in check.rule(ticker, rule):
                fired.setdefault(notice.notice_id, notice)
    return list(fired.values())


class _Check:
    def __init__(self, watchlist: Watchlist, hub: DataHub, now: datetime, since: datetime):
        self.watchlist, self.hub, self.now, self.since = watchlist, hub, now, since
        self.language = watchlist.language
        self._calls: dict[tuple, tuple[Evidence, ...]] = {}

    def rule(self, ticker: str, rule: AlertRule) -> list[Notice]:
        if rule.kind in ("daily_move", "from_price"):
            return self._price(ticker, rule)
        if rule.kind == "filing":
            return self._filings(ticker, rule)
        return self._earnings(ticker, rule)

    def _call(self, source: str, args: dict) -> tuple[Evidence, ...]:
        key = (source, tuple(sorted(args.items())))
        if key not in self._calls:
            try:
                self._calls[key] = self.hub.call(source, args).evidence
            except SourceError as exc:
                log.info("alert check of %s %s: %s", source, args.get("ticker"), exc)
                self._calls[key] = ()
        return self._calls[key]

    def _notice(self, event: str, ticker: str, key: str, item: Evidence, dated: date | None, **values) -> Notice:
        who = instrument(ticker, {}, self.language)
        ref = reference(1, item, dated, reference_title(item, {}, self.language))
        text = say_md(f"alert.{key}", self.language, who=who, **values)
        return Notice(f"alert-{self.watchlist.watchlist_id}-{event}", self.watchlist.owner, "alert",
                      say(f"alert.{key}_title", self.language, who=who), f"{text} [1]\n", (ref,),
                      self.language, self.now)

    # -- moves ----------------------------------------------------------------------------------

    def _price(self, ticker: str, rule: AlertRule) -> list[Notice]:
        end = self.now.date()
        start = end - timedelta(days=PRICE_DAYS)
        for item in self._call("price_history", {"ticker": ticker, "start": start.isoformat(), "end": end.isoformat()}):
            closes = _closes(item, end)
            if len(closes) < 2:
                continue
            (_, before), (day, last) = closes[-2], closes[-1]
            if rule.kind == "daily_move":
                change = (last / before - 1) * 100
                if abs(change) >= rule.pct:
                    return [self._notice(f"move-{id_part(ticker)}-{day}", ticker, "daily_move", item,
                                         date.fromisoformat(day), change=pct(change, signed=True), day=day)]
            else:
                change = (last / rule.price - 1) * 100
                if abs(change) >= rule.pct:
                    return [self._notice(f"price-{id_part(ticker)}-{rule.key}-{day}", ticker, "from_price", item,
                                         date.fromisoformat(day), change=pct(change, signed=True),
                                         price=f"{rule.price:,.2f}", close=f"{last:,.2f}", day=day)]
        return []

    # -- filings and announcements --------------------------------------------------------------

    def _filings(self, ticker: str, rule: AlertRule) -> list[Notice]:
        source = _filing_source(ticker)
        if source is None:
            return []
        args = {"ticker": ticker, "start": self.since.date().isoformat(), "end": self.now.date().isoformat()}
        out = []
        for item in self._call(source, args):
            published = item.published_at
            if published is None or not self.since <= published <= self.now or not _of_kind(item, rule.kinds):
                continue
            event = (item.data or {}).get("accession") \
                or hashlib.sha256((item.url or item.title).encode()).hexdigest()[:12]
            out.append(self._notice(f"filing-{id_part(ticker)}-{id_part(str(event))}", ticker, "filing", item,
                                    published.date(), title=item.title, day=published.date().isoformat()))
        return out

    # -- earnings -------------------------------------------------------------------------------

    def _earnings(self, ticker: str, rule: AlertRule) -> list[Notice]:
        for item in self._call("earnings", {"ticker": ticker}):
            next_date = (item.data or {}).get("next_date")
            try:
                when = date.fromisoformat(str(next_date)[:10])
            except ValueError:
                continue
            if 0 <= (when - self.now.date()).days <= rule.days:
                return [self._notice(f"earnings-{id_part(ticker)}-{when}", ticker, "earnings_within", item, None,
                                     day=when.isoformat())]
        return []


def _closes(item: Evidence, end: date) -> list[tuple[str, float]]:
    """(day, close) of a price series's daily rows up to `end`, oldest first."""
    data = item.data or {}
    columns = data.get("columns") or []
    if "date" not in columns or "close" not in columns:
        return []
    at, close = columns.index("date"), columns.index("close")
    rows = [(str(r[at])[:10], r[close]) for r in data.get("rows") or ()
            if isinstance(r, list) and len(r) > max(at, close) and isinstance(r[close], (int, float)) and r[close] > 0]
    return [r for r in rows if r[0] <= end.isoformat()]


def _filing_source(ticker: str) -> str | None:
    market = market_of(ticker)
    if ticker.endswith((".SS", ".SZ")):
        return "cn_announcements"
    if ticker.endswith(".HK"):
        return "hk_announcements"
    return "sec_filings" if market is not None and market.calendar == "XNYS" and not ticker.startswith("^") else None


def _of_kind(item: Evidence, kinds: tuple[str, ...]) -> bool:
    """An SEC filing by its form; an announcement by words of its title (or its document type)."""
    if not kinds:
        return True
    data = item.data or {}
    form = str(data.get("form") or "").upper()
    text = f"{item.title} {data.get('doc_type') or ''}".casefold()
    return any(k.upper() == form or k.casefold() in text for k in kinds)
