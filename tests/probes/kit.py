"""What the probe packs are written with: invented daily bars with planted moves, quotes,
stories and finance items in the shapes the real adapters produce (see finsearch/sources/).

Every pack is invented data, labelled as sample data in its `_pack.json`; none of it is a real
quote or a real headline.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from finsearch.sources.replay import write_recording
from finsearch.sources.yahoo.price_stats import compute

PACKS = Path(__file__).resolve().parent / "packs"
WIGGLE = (0.35, -0.42, 0.58, -0.27, 0.19, -0.61, 0.44, -0.15, 0.31, -0.38, 0.12, -0.22, 0.27)   # % per day


class Pack:
    """One pack folder, emptied and labelled on creation; `record` writes one call."""

    def __init__(self, name: str, now: str, label: str):
        self.folder = PACKS / name
        self.now = now
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("*.json"):
            old.unlink()
        (self.folder / "_pack.json").write_text(json.dumps(
            {"label": f"Probe pack — {label} (invented data)", "sample": True, "now": now},
            ensure_ascii=False, indent=1) + "\n", "utf-8")

    @property
    def fetched_at(self) -> datetime:
        return datetime.fromisoformat(self.now.replace("Z", "+00:00")).astimezone(timezone.utc)

    def record(self, source: str, args: dict, evidence: list[dict]) -> None:
        write_recording(self.folder, source, args, evidence, self.fetched_at)


def bars(start: str, end: str, first_close: float, moves: dict[str, float], holidays: tuple[str, ...] = (),
         phase: int = 0) -> list[list]:
    """Daily OHLCV rows on weekdays from `start` to `end`: a fixed small wiggle per day, the
    planted `moves` (% close to close) on their days."""
    rows, day, i, close = [], date.fromisoformat(start), phase, first_close
    while day.isoformat() <= end:
        stamp = day.isoformat()
        if day.weekday() < 5 and stamp not in holidays:
            change = moves.get(stamp, WIGGLE[i % len(WIGGLE)])
            i += 1
            opened = close
            close = round(close * (1 + change / 100), 2)
            high, low = round(max(opened, close) * 1.004, 2), round(min(opened, close) * 0.996, 2)
            volume = 8_000_000 + 37_000 * (i % 11) + (int(abs(change) * 4_000_000) if stamp in moves else 0)
            rows.append([stamp, opened, high, low, close, volume])
        day += timedelta(days=1)
    return rows


def price_history(pack: Pack, ticker: str, name: str, currency: str, rows: list[list], publisher: str) -> None:
    start, end = rows[0][0], rows[-1][0]
    stats = compute(rows, date.fromisoformat(start), date.fromisoformat(end))
    pack.record("price_history", {"ticker": ticker, "start": start, "end": end, "interval": "1d"}, [{
        "title": f"{name} ({ticker}) daily prices {start} to {end}", "url": None, "publisher": publisher,
        "published": None, "period": {"start": start, "end": end}, "snippet": f"{len(rows)} daily bars",
        "data": {"ticker": ticker, "interval": "1d", "currency": currency,
                 "columns": ["date", "open", "high", "low", "close", "volume"], "rows": rows, "stats": stats}}])


def quote(pack: Pack, ticker: str, name: str, currency: str, rows: list[list], as_of: str, market_cap: float,
          publisher: str, **extra) -> None:
    """The quote as of `as_of`: the last bar on or before that day (a stale quote is one whose
    `as_of` lies days before the pack's now)."""
    day = as_of[:10]
    upto = [r for r in rows if r[0] <= day]
    last, before = upto[-1][4], upto[-2][4]
    year = upto[-250:]
    pack.record("quote", {"ticker": ticker}, [finance(ticker, f"{name} ({ticker}) quote", as_of, publisher, {
        "currency": currency, "last": last, "previous_close": before,
        "change_pct": round((last / before - 1) * 100, 2), "day_low": upto[-1][3], "day_high": upto[-1][2],
        "year_low": min(r[3] for r in year), "year_high": max(r[2] for r in year), "market_cap": market_cap,
        "as_of": as_of, **extra})])


def finance(ticker: str, title: str, published: str | None, publisher: str, data: dict, snippet: str = "",
            url: str | None = None, period: dict | None = None) -> dict:
    item = {"title": title, "url": url, "publisher": publisher, "published": published, "snippet": snippet,
            "data": {"ticker": ticker, **data}}
    if period:
        item["period"] = period
    return item


def story(title: str, published: str, publisher: str, snippet: str, slug: str) -> dict:
    return {"title": title, "url": f"https://example.com/probe/{slug}", "publisher": publisher,
            "published": published, "snippet": snippet}
