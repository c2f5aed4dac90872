"""A watchlist: whose it is, the instruments it watches, when its brief is due and which alerts it wants.

Instruments are read the way the planner reads a question's ("NVDA", "600519", "0700.HK", "茅台"
→ NVDA, 600519.SS, 0700.HK, 600519.SS), so a watchlist holds only tickers the sources take.
Everything here is a frozen dataclass with `to_json`/`from_json`; `from_json` checks what it
reads, so a damaged or hand-edited record is refused (None from the store), never half-used.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
import secrets
from datetime import datetime, time
from typing import Literal
from urllib.parse import urlsplit

from ..errors import InputError
from ..evidence import parse_utc, to_iso
from ..phrases import Language, say
from ..plan.entities import extract
from ..reference.markets import zone
from .email_code import EmailCheck

log = logging.getLogger(__name__)

Cadence = Literal["daily", "weekly"]
WebhookKind = Literal["generic", "slack", "feishu", "dingtalk"]
WEBHOOK_KINDS: tuple[str, ...] = ("generic", "slack", "feishu", "dingtalk")
AlertKind = Literal["daily_move", "from_price", "filing", "earnings_within"]
ALERT_KINDS: tuple[str, ...] = ("daily_move", "from_price", "filing", "earnings_within")
MAX_INSTRUMENTS = 30
# Watchlist ids and event ids become job ids and file names: letters, digits, _ and - only.
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def new_watchlist_id() -> str:
    return "w" + secrets.token_hex(6)


def id_part(text: str) -> str:
    """`text` (a ticker such as 0700.HK or ^GSPC) as a piece of an id: 0700_HK, _GSPC."""
    return _ID_UNSAFE.sub("_", text)


def instrument_of(text: str, language: Language = "en") -> str:
    """The ticker `text` names, read as the planner reads it; InputError when it names none."""
    found = [e for e in extract(text.strip()) if e.ticker] if text and text.strip() else []
    if len(found) != 1:
        raise InputError(say("watch.not_an_instrument", language, text=text.strip()[:60]))
    return found[0].ticker


@dataclasses.dataclass(frozen=True)
class Schedule:
    """When the brief is due: every day (`weekday` None) or once a week, at `at` on the clock of `timezone`."""
    cadence: Cadence = "daily"
    at: time = time(8, 0)
    timezone: str = "UTC"                  # IANA name
    weekday: int | None = None             # 0 Monday … 6 Sunday; weekly only
    closed_days: bool = False              # also brief on a day every market of the list is closed

    def __post_init__(self):
        if self.cadence not in ("daily", "weekly") or zone(self.timezone) is None \
                or (self.cadence == "weekly") != (self.weekday is not None) \
                or (self.weekday is not None and not 0 <= self.weekday <= 6):
            raise ValueError(f"not a schedule: {self}")

    def to_json(self) -> dict:
        return {"cadence": self.cadence, "at": self.at.strftime("%H:%M"), "timezone": self.timezone,
                "weekday": self.weekday, "closed_days": self.closed_days}

    @classmethod
    def from_json(cls, raw: dict) -> Schedule:
        return cls(raw["cadence"], time.fromisoformat(raw["at"]), raw["timezone"], raw.get("weekday"),
                   bool(raw.get("closed_days", False)))


@dataclasses.dataclass(frozen=True)
class AlertRule:
    """One alert: a daily move of at least `pct` %; a move of `pct` % from `price`; a new filing or
    announcement whose form or title holds one of `kinds` (any, when empty); an earnings date within
    `days` days. For one of the watchlist's instruments (`instrument`), or for each (None)."""
    kind: AlertKind
    pct: float | None = None
    price: float | None = None
    kinds: tuple[str, ...] = ()
    days: int | None = None
    instrument: str | None = None

    def __post_init__(self):
        ok = {"daily_move": self.pct is not None and self.pct > 0,
              "from_price": self.pct is not None and self.pct > 0 and self.price is not None and self.price > 0,
              "filing": all(isinstance(k, str) and k for k in self.kinds),
              "earnings_within": self.days is not None and 0 <= self.days <= 366}
        if not ok.get(self.kind, False) or (self.instrument is not None and not self.instrument):
            raise ValueError(f"not an alert rule: {self}")

    @property
    def key(self) -> str:
        """Names the rule by its values (an event id's piece): the same after another rule is removed, unlike
        its place in the list, so a removal neither re-fires one of its events nor hides a new rule's."""
        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True).encode()).hexdigest()[:8]

    def applies_to(self, ticker: str) -> bool:
        return self.instrument is None or self.instrument == ticker

    def to_json(self) -> dict:
        return {"kind": self.kind, "pct": self.pct, "price": self.price, "kinds": list(self.kinds), "days": self.days,
                "instrument": self.instrument}

    @classmethod
    def from_json(cls, raw: dict) -> AlertRule:
        return cls(raw["kind"], raw.get("pct"), raw.get("price"), tuple(raw.get("kinds") or ()), raw.get("days"),
                   raw.get("instrument"))


@dataclasses.dataclass(frozen=True)
class WebhookTarget:
    """A webhook the watchlist's notices go to. The URL of a Slack, Feishu or DingTalk hook is itself a
    credential and the secret signs what is sent: neither is in a repr, a log line or `shown()`."""
    kind: WebhookKind
    url: str = dataclasses.field(repr=False)
    secret: str | None = dataclasses.field(default=None, repr=False)   # generic: required; feishu, dingtalk: optional

    def __post_init__(self):
        if self.kind not in WEBHOOK_KINDS or not re.match(r"^https?://[^\s/]+", self.url or "") \
                or (self.kind == "generic" and not self.secret) or (self.kind == "slack" and self.secret):
            raise ValueError(f"not a webhook: {self.kind}")     # the URL and secret are not named

    @property
    def key(self) -> str:
        """Names this hook stably among the watchlist's (a job id's piece), revealing nothing of it."""
        return "webhook-" + hashlib.sha256(self.url.encode()).hexdigest()[:10]

    def shown(self) -> dict:
        """What listing a watchlist shows: the kind, the host, whether a secret is set — never the secret."""
        return {"kind": self.kind, "host": urlsplit(self.url).hostname or "", "secret_set": bool(self.secret)}

    def to_json(self) -> dict:
        return {"kind": self.kind, "url": self.url, "secret": self.secret}

    @classmethod
    def from_json(cls, raw: dict) -> WebhookTarget:
        return cls(raw["kind"], raw["url"], raw.get("secret"))


@dataclasses.dataclass(frozen=True)
class Channels:
    """Where a watchlist's notices go: its owner's inbox always; an e-mail address (once confirmed, `email_check`)
    and webhooks when given."""
    email: str | None = dataclasses.field(default=None, repr=False)      # personal: not in a repr or a log
    webhooks: tuple[WebhookTarget, ...] = ()
    email_check: EmailCheck = dataclasses.field(default=EmailCheck(), repr=False)

    def __post_init__(self):
        if self.email is not None and (not re.fullmatch(r"[^@\s,;<>]+@[^@\s,;<>]+", self.email)):
            raise ValueError("not one e-mail address")
        if len({w.key for w in self.webhooks}) != len(self.webhooks):
            raise ValueError("a webhook is named twice")
        if not isinstance(self.email_check, EmailCheck):
            raise ValueError("not an e-mail confirmation")

    @property
    def email_confirmed(self) -> bool:
        """Whether the address may be sent notices: its owner typed the code mailed to it."""
        return self.email is not None and self.email_check.confirmed

    def keys(self) -> tuple[str, ...]:
        """Each channel's key: "inbox", "email", "webhook-<hash of its URL>"."""
        return ("inbox", *(("email",) if self.email else ()), *(w.key for w in self.webhooks))

    def shown(self) -> dict:
        return {"inbox": True, "email": self.email, "webhooks": [w.shown() for w in self.webhooks]}

    def to_json(self) -> dict:
        return {"email": self.email, "webhooks": [w.to_json() for w in self.webhooks],
                "email_check": self.email_check.to_json()}

    @classmethod
    def from_json(cls, raw: dict) -> Channels:
        # A record from before confirmation has no "email_check": its address reads as unconfirmed.
        return cls(raw.get("email"), tuple(WebhookTarget.from_json(w) for w in raw.get("webhooks") or ()),
                   EmailCheck.from_json(raw.get("email_check")))


@dataclasses.dataclass(frozen=True)
class Watchlist:
    watchlist_id: str
    owner: str                             # hosting.identity's owner string
    name: str
    instruments: tuple[str, ...]           # tickers, as `instrument_of` reads them
    schedule: Schedule = Schedule()
    alerts: tuple[AlertRule, ...] = ()
    language: Language = "en"
    created_at: datetime | None = None     # aware UTC
    last_brief_at: datetime | None = None  # when its last brief was written: the next covers from there
    channels: Channels = Channels()

    def __post_init__(self):
        if not self.instruments or len(self.instruments) > MAX_INSTRUMENTS or _ID_UNSAFE.search(self.watchlist_id) \
                or not self.owner or self.language not in ("en", "zh"):
            raise ValueError(f"not a watchlist: {self.watchlist_id}")

    def to_json(self) -> dict:
        return {"watchlist_id": self.watchlist_id, "owner": self.owner, "name": self.name,
                "instruments": list(self.instruments), "schedule": self.schedule.to_json(),
                "alerts": [a.to_json() for a in self.alerts], "language": self.language,
                "created_at": to_iso(self.created_at) if self.created_at else None,
                "last_brief_at": to_iso(self.last_brief_at) if self.last_brief_at else None,
                "channels": self.channels.to_json()}

    @classmethod
    def from_json(cls, raw: dict) -> Watchlist:
        """The watchlist `to_json` wrote; ValueError (or KeyError, TypeError) for anything else."""
        return cls(raw["watchlist_id"], raw["owner"], str(raw.get("name") or ""), tuple(raw["instruments"]),
                   Schedule.from_json(raw["schedule"]), tuple(AlertRule.from_json(a) for a in raw.get("alerts") or ()),
                   raw.get("language") or "en",
                   parse_utc(raw["created_at"]) if raw.get("created_at") else None,
                   parse_utc(raw["last_brief_at"]) if raw.get("last_brief_at") else None,
                   Channels.from_json(raw.get("channels") or {}))        # records from before channels: inbox only


def parse_watchlist(text: str | None) -> Watchlist | None:
    """A stored watchlist (either store's record), or None for a damaged one (logged, left out)."""
    if text is None:
        return None
    try:
        return Watchlist.from_json(json.loads(text))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        log.warning("a stored watchlist could not be read: %s", type(exc).__name__)
        return None


def new_watchlist(owner: str, words: list[str], *, name: str = "", schedule: Schedule = Schedule(),
                  alerts: tuple[AlertRule, ...] = (), language: Language = "en",
                  now: datetime | None = None, channels: Channels = Channels()) -> Watchlist:
    """A new watchlist of the instruments `words` name (each read as the planner reads it, repeats
    kept once); InputError, in `language`, for words that name no instrument or too many of them."""
    tickers = list(dict.fromkeys(instrument_of(w, language) for w in words))
    if not tickers or len(tickers) > MAX_INSTRUMENTS:
        raise InputError(say("watch.how_many", language, most=str(MAX_INSTRUMENTS)))
    return Watchlist(new_watchlist_id(), owner, name or ", ".join(tickers), tuple(tickers), schedule, alerts,
                     language, now, channels=channels)
