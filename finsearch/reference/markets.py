"""Where a ticker trades, and when that market is open.

    market_of(ticker)          the market, read from Yahoo's suffix (none = New York), or None
    bar_day(stamp, zone)       the market's trading day of a price row's stamp
    sessions(market, a, b)     its trading days in [a, b]
    sessions_back(market, d, n) the n-th trading day before d
    closed_throughout(…)       whether the calendar says no session falls in [a, b]
    closure_around(code, d)    the run of closed days (weekend and holiday) around d

Sessions and holidays come from `exchange_calendars` (maintained; its NYSE, Shanghai,
Hong Kong, Tokyo … calendars). It has no Shenzhen calendar: Shenzhen keeps Shanghai's
holidays, so .SZ uses XSHG. A market without a calendar, or a date outside a calendar's
range (about twenty years back to one year ahead), falls back to weekdays.

exchange_calendars takes a second or more to import and a fraction of one to build each
calendar, so it is imported on first use and every calendar is built once per process.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import warnings
from datetime import date, datetime, timedelta, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo


@dataclasses.dataclass(frozen=True)
class Market:
    name: str
    timezone: str                 # IANA name: the clock its trading days are counted in
    calendar: str | None = None   # exchange_calendars code; None: weekdays


NEW_YORK = Market("NYSE/Nasdaq", "America/New_York", "XNYS")
SHANGHAI = Market("Shanghai Stock Exchange", "Asia/Shanghai", "XSHG")
HONG_KONG = Market("Hong Kong Stock Exchange", "Asia/Hong_Kong", "XHKG")
TOKYO = Market("Tokyo Stock Exchange", "Asia/Tokyo", "XTKS")

# Yahoo's ticker suffix → market.
SUFFIXES: dict[str, Market] = {
    "SS": SHANGHAI,
    "SZ": Market("Shenzhen Stock Exchange", "Asia/Shanghai", "XSHG"),
    "HK": HONG_KONG,
    "T": TOKYO,
    "L": Market("London Stock Exchange", "Europe/London", "XLON"),
    "AX": Market("Australian Securities Exchange", "Australia/Sydney", "XASX"),
    "TO": Market("Toronto Stock Exchange", "America/Toronto", "XTSE"),
    "DE": Market("Xetra", "Europe/Berlin", "XETR"),
    "F": Market("Frankfurt Stock Exchange", "Europe/Berlin", "XFRA"),
    "PA": Market("Euronext Paris", "Europe/Paris", "XPAR"),
    "AS": Market("Euronext Amsterdam", "Europe/Amsterdam", "XAMS"),
    "MI": Market("Borsa Italiana", "Europe/Rome", "XMIL"),
    "MC": Market("Bolsa de Madrid", "Europe/Madrid", "XMAD"),
    "SW": Market("SIX Swiss Exchange", "Europe/Zurich", "XSWX"),
    "KS": Market("Korea Exchange", "Asia/Seoul", "XKRX"),
    "TW": Market("Taiwan Stock Exchange", "Asia/Taipei", "XTAI"),
    "BO": Market("Bombay Stock Exchange", "Asia/Kolkata", "XBOM"),
    "NS": Market("National Stock Exchange of India", "Asia/Kolkata", "XBOM"),   # same holidays as BSE
    "SI": Market("Singapore Exchange", "Asia/Singapore", "XSES"),
}
# Indices are named with a caret and no suffix; these follow their home market.
INDICES: dict[str, Market] = {
    "^HSI": HONG_KONG, "^HSCE": HONG_KONG, "^N225": TOKYO,
    "^AXJO": SUFFIXES["AX"], "^FTSE": SUFFIXES["L"], "^GDAXI": SUFFIXES["DE"], "^FCHI": SUFFIXES["PA"],
    "^KS11": SUFFIXES["KS"], "^TWII": SUFFIXES["TW"], "^BSESN": SUFFIXES["BO"], "^NSEI": SUFFIXES["NS"],
    "^STI": SUFFIXES["SI"], "^GSPTSE": SUFFIXES["TO"],
}
# Crypto pairs (BTC-USD) trade every day, currencies (EURUSD=X) and futures (CL=F) round the
# clock on their own calendars: no stock-exchange calendar describes them.
_NO_CALENDAR = re.compile(r"-[A-Z]{3,4}$|=[XF]$|\.NYB$|^\^(?:STOXX50E|BVSP)$")


def market_of(ticker: str | None) -> Market | None:
    """The market `ticker` trades on, or None when it is unknown or has no exchange calendar."""
    symbol = (ticker or "").strip().upper()
    if not symbol or _NO_CALENDAR.search(symbol):
        return None
    if symbol in INDICES:
        return INDICES[symbol]
    if "." in symbol:
        return SUFFIXES.get(symbol.rsplit(".", 1)[1])
    return NEW_YORK                   # US listings (and US indices) carry no suffix


def zone(name: object) -> tzinfo | None:
    """The timezone called `name`, or None for a missing or unknown name (or not a name:
    payloads from a pack or a cache may hold anything)."""
    return _zone(name) if isinstance(name, str) and name else None


@lru_cache(maxsize=64)
def _zone(name: str) -> tzinfo | None:
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError, OSError):     # not found is a KeyError; a malformed key, ValueError
        return None


def zone_for(timezone: object, ticker: str | None) -> tzinfo | None:
    """The clock a payload's rows are counted in: the timezone Yahoo named, else the one of
    the ticker's market, else None (UTC)."""
    found = zone(timezone)
    if found is None and (market := market_of(ticker)) is not None:
        found = zone(market.timezone)
    return found


def bar_day(stamp: str, where: tzinfo | None) -> date:
    """The trading day of a price row: a date stays itself; a UTC time ("…T23:00:00Z") is
    read on the market's clock (a Sydney Monday session starts on Sunday in UTC).
    ValueError for text that is neither."""
    text = str(stamp)
    if len(text) <= 10:
        return date.fromisoformat(text)
    when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if when.tzinfo is None or where is None:
        return when.date()
    return when.astimezone(where).date()


# -- calendars ---------------------------------------------------------------------------

_LOCK = threading.Lock()
_CALENDARS: dict[str, object] = {}


def _calendar(code: str):
    """The exchange_calendars calendar `code`, built once; None when it cannot be built."""
    with _LOCK:
        if code not in _CALENDARS:
            try:
                import exchange_calendars
                # exchange_calendars 4.13 builds its schedule with pandas calls that pandas 3.1
                # deprecates (Pandas4Warning, a DeprecationWarning); that is for it to fix, and
                # says nothing to our users. Silenced only while a calendar is built, under
                # this lock, once per code.
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    _CALENDARS[code] = exchange_calendars.get_calendar(code)
            except Warning:
                # A warning turned error by the process's filters: catch_warnings is process-wide,
                # so another thread resetting the filters (pytest's "error", per test) can undo
                # ours mid-build. Weekdays this time, not for good: the next call builds it again.
                return None
            except Exception:         # a missing or broken install: weekdays, as for any market
                _CALENDARS[code] = None
        return _CALENDARS[code]


def warm_up(codes: tuple[str, ...] = ("XNYS", "XSHG", "XHKG")) -> None:
    """Build the calendars most questions need now, so that the first chart or trading-day
    count of a server's life does not pay for importing and building them (~2 s)."""
    for code in codes:
        _calendar(code)


def _in_bounds(calendar, start: date, end: date) -> bool:
    return calendar is not None and calendar.first_session.date() <= start and end <= calendar.last_session.date()


def _weekdays(start: date, end: date) -> list[date]:
    return [start + timedelta(days=i) for i in range((end - start).days + 1)
            if (start + timedelta(days=i)).weekday() < 5]


def sessions(market: Market | None, start: date, end: date) -> list[date]:
    """The trading days in [start, end], oldest first (weekdays when no calendar applies)."""
    if end < start:
        return []
    calendar = _calendar(market.calendar) if market and market.calendar else None
    if not _in_bounds(calendar, start, end):
        return _weekdays(start, end)
    return [stamp.date() for stamp in calendar.sessions_in_range(start.isoformat(), end.isoformat())]


def has_calendar(market: Market | None, start: date, end: date) -> bool:
    """Whether the market's own calendar (not the weekday fallback) covers [start, end]."""
    return bool(market and market.calendar) and _in_bounds(_calendar(market.calendar), start, end)


def closed_throughout(market: Market | None, start: date, end: date) -> bool:
    """True only when the market's calendar covers [start, end] and has no session in it
    (a weekend, a holiday); never for a market without a calendar."""
    return has_calendar(market, start, end) and not sessions(market, start, end)


def sessions_back(market: Market | None, today: date, count: int) -> date:
    """The first of the last `count` trading days up to `today` (today counts when it is one:
    "the past 5 sessions" on a Tuesday are the five ending that Tuesday)."""
    window = timedelta(days=2 * count + 21)          # holidays never close a market for 3 weeks
    while True:
        days = sessions(market, today - window, today)
        if len(days) >= count:
            return days[-count]
        window *= 2


def closure_around(code: str, day: date) -> tuple[date, date] | None:
    """The closed days around `day` on calendar `code` (from the day after the last session
    before it to the day before the next one), or None when the calendar does not cover it
    or `day` is a session."""
    calendar = _calendar(code)
    if not _in_bounds(calendar, day - timedelta(days=31), day + timedelta(days=31)):
        return None
    around = [s.date() for s in calendar.sessions_in_range((day - timedelta(days=31)).isoformat(),
                                                            (day + timedelta(days=31)).isoformat())]
    before = [s for s in around if s < day]
    after = [s for s in around if s > day]
    if day in around or not before or not after:
        return None
    return before[-1] + timedelta(days=1), after[0] - timedelta(days=1)
