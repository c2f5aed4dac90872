"""Evidence: one retrieved item, and the sanitiser every item passes through.

Whatever a source returns — live from the network or replayed from a pack someone
shared — is untrusted. `Evidence.from_untrusted` is the only way in: URLs other than
http/https are dropped, text becomes plain text with capped length, numbers become
finite or null, and the id is recomputed so it is stable and safe to use as a key.
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import ipaddress
import json
import math
import re
from datetime import date, datetime, time, timedelta, timezone
from functools import cached_property
from typing import Any
from urllib.parse import urlsplit

from .catalogue import payload_of
from .markup import drop_blocks, sub_tags
from .payloads import PriceHistory, Quote, clean_payload
from .surrogates import replace_lone
from .timecontext import EARLIEST, LATEST

TITLE_MAX = 300
SNIPPET_MAX = 1000
PUBLISHER_MAX = 120
URL_MAX = 2048
DATA_TEXT_MAX = 4000
DATA_DEPTH_MAX = 8
KINDS = ("finance", "news", "web")


@dataclasses.dataclass(frozen=True)
class Evidence:
    id: str
    source: str
    kind: str
    title: str
    url: str | None = None
    publisher: str | None = None
    published: str | None = None          # UTC ISO-8601 "…Z", or None when unknown
    period: dict | None = None            # {"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}
    snippet: str = ""
    data: dict | None = None
    time_weight: float | None = None

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def with_weight(self, weight: float) -> Evidence:
        return dataclasses.replace(self, time_weight=round(weight, 4))

    @property
    def published_at(self) -> datetime | None:
        return parse_utc(self.published) if self.published else None

    @property
    def ticker(self) -> str | None:
        """The instrument a finance payload is about."""
        value = (self.data or {}).get("ticker")
        return value if isinstance(value, str) else None

    @property
    def payload(self) -> str:
        """The payload contract its data follows: its source's own, or the one its spec names
        (cn_daily_bars → price_history)."""
        return payload_of(self.source)

    @cached_property
    def prices(self) -> PriceHistory | None:
        """The price rows and statistics, for a price_history item with data."""
        return PriceHistory.of(self.data) if self.payload == "price_history" and self.data else None

    @cached_property
    def quote(self) -> Quote | None:
        """The quote's fields, for a quote item with data."""
        return Quote.of(self.data) if self.source == "quote" and self.data else None

    @classmethod
    def from_untrusted(cls, raw: dict, *, source: str, kind: str) -> Evidence:
        """Build a safe Evidence from any dict shaped like the contract.

        `source` and `kind` come from the caller (the catalogue), never from the item.
        """
        return _build(raw, source, kind)[0]

    @classmethod
    def from_stored(cls, raw: dict) -> Evidence:
        """An item as `to_dict` wrote it (a stored run): sanitised again, so a damaged or
        tampered record cannot break a page, with its id (references point at it) kept."""
        item, _ = _build(raw, plain_text(raw.get("source"), 40) or "web", str(raw.get("kind")))
        stored_id = plain_text(raw.get("id"), 80)
        return dataclasses.replace(item, id=stored_id or item.id)


def sanitise(raw: list, source: str, kind: str) -> tuple[tuple[Evidence, ...], tuple[str, ...]]:
    """Untrusted items → (safe Evidence, one per id, in order; what had to be repaired, as
    sentences). Anything that is not an object is skipped."""
    out: dict[str, Evidence] = {}
    problems: list[str] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict):
            evidence, repaired = _build(item, source, kind)
            out.setdefault(evidence.id, evidence)
            problems += repaired
    return tuple(out.values()), tuple(dict.fromkeys(problems))


def _build(raw: dict, source: str, kind: str) -> tuple[Evidence, list[str]]:
    if not isinstance(raw, dict):
        raise TypeError("evidence must be a JSON object")
    url = safe_url(raw.get("url"))
    title = plain_text(raw.get("title"), TITLE_MAX)
    published = iso_utc(raw.get("published"))
    period = _period(raw.get("period"))
    data = _json_safe(raw.get("data")) if isinstance(raw.get("data"), dict) else None
    data, problems = clean_payload(source, data)
    weight = _finite(raw.get("time_weight"))
    item = Evidence(
        id="",
        source=source,
        kind=kind if kind in KINDS else "web",
        title=title or (url or "untitled"),
        url=url,
        publisher=plain_text(raw.get("publisher"), PUBLISHER_MAX) or None,
        published=published,
        period=period,
        snippet=plain_text(raw.get("snippet"), SNIPPET_MAX),
        data=data,
        time_weight=None if weight is None else min(1.0, max(0.0, weight)),
    )
    return dataclasses.replace(item, id=stable_id(item)), problems


def stable_id(item: Evidence) -> str:
    """Same item → same id: keyed by URL, else by title and time, else by data identity."""
    if item.url:
        key = item.url
    elif item.data is not None:
        key = json.dumps(
            [item.title, item.data.get("ticker"), item.period, item.published], sort_keys=True
        )
    else:
        key = f"{item.title}|{item.published}"
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]
    return f"{item.source}:{digest}"


# -- plain text -------------------------------------------------------------------

# Blocks dropped whole, then tags; both in linear time (`markup`: a title that opens a hundred
# thousand tags and closes none took minutes as plain regular expressions).
_DROP_BLOCKS = ("script", "style", "iframe", "object", "template")
_TAG = re.compile(r"<[^>]*>")
# Characters that show nothing but can hide or reorder text: C0/C1 controls (tabs and line
# breaks become spaces instead), every Unicode format character (Cf: soft hyphen, zero-width
# characters, bidi controls, word joiner, BOM, the invisible Tags block), and the other
# invisible letters and marks (combining grapheme joiner, Hangul fillers, Khmer inherent
# vowels, variation selectors, Mongolian free variation selectors).
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_SPACE = re.compile(r"\s+")


def visible_text(text: str) -> str:
    """`text` without the characters that show nothing (see `_INVISIBLE`), and with each lone
    surrogate, which no UTF-8 file or page takes, as U+FFFD."""
    return _INVISIBLE.sub("", replace_lone(text))


def plain_text(value: Any, limit: int) -> str:
    """Any value as one line of plain text: tags stripped, entities decoded, capped."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    text = sub_tags(_TAG, " ", drop_blocks(text, _DROP_BLOCKS))
    text = html.unescape(text)
    # Entities can hide tags (&lt;b&gt;): strip again after decoding.
    text = sub_tags(_TAG, " ", drop_blocks(text, _DROP_BLOCKS))
    text = _SPACE.sub(" ", text)            # first: tabs and line breaks become spaces, not nothing
    text = visible_text(text)
    text = _SPACE.sub(" ", text).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST_NAME = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*\.?$")


def safe_url(value: Any) -> str | None:
    """An absolute http(s) URL rebuilt from checked parts, else None: its host a DNS name
    (in ASCII) or an IP address, its port a number, no user or password, no quotes,
    backslashes or spaces. (The host is rebuilt, not copied: `https://x.test)![a](b)` has
    a "host" that would close a markdown link.)"""
    if not isinstance(value, str):
        return None
    url = visible_text(value).strip()
    if not url or len(url) > URL_MAX or any(ch.isspace() for ch in url):
        return None
    if any(ch in url for ch in "<>\"'`\\"):
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
        host = _checked_host(parts.hostname)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or host is None or parts.username or parts.password:
        return None
    written = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    if parts.netloc.lower() != (written + (f":{port}" if port is not None else "")).lower():
        return None                            # the authority holds more than a host and a port
    rest = url[len(parts.scheme) + 3 + len(parts.netloc):]
    return f"{parts.scheme.lower()}://{host}{f':{port}' if port is not None else ''}{rest}"


def _checked_host(hostname: str | None) -> str | None:
    """`hostname` as it may appear in a URL: a bracketed IPv6 address, an IPv4 address, or
    a DNS name in ASCII (IDNA); None for anything else."""
    if not hostname:
        return None
    try:
        address = ipaddress.ip_address(hostname)
    except ValueError:
        address = None
    if address is not None:
        return f"[{address}]" if address.version == 6 else str(address)
    try:
        ascii_name = hostname.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    return ascii_name if _HOST_NAME.match(ascii_name) else None


# -- times and numbers --------------------------------------------------------------

# Times outside this range are not real timestamps of financial evidence (and near the
# ends of datetime's range, converting them overflows): such an item is undated.
_EARLIEST = datetime.combine(EARLIEST, time(0), tzinfo=timezone.utc)
_LATEST = datetime.combine(LATEST + timedelta(days=1), time(0), tzinfo=timezone.utc)


def parse_utc(text: str) -> datetime | None:
    """An ISO time as aware UTC, or None (unparseable, or outside 1900–2199)."""
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        value = value.astimezone(timezone.utc)
    except (ValueError, AttributeError, OverflowError, TypeError):
        return None
    return value if _EARLIEST <= value < _LATEST else None


def to_iso(value: datetime) -> str:
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_utc(value: Any) -> str | None:
    """Any timestamp a source may send (epoch seconds, a datetime or pandas Timestamp, a date,
    ISO text) as UTC ISO "…Z", or None when it is not a usable time: one bad date makes one
    item undated, nothing more. Naive times are UTC (how yfinance builds them)."""
    try:
        if isinstance(value, bool):
            return None
        if isinstance(value, (int, float)) and math.isfinite(value) and value > 0:
            parsed = datetime.fromtimestamp(value, timezone.utc)
        elif isinstance(value, datetime):
            if value != value:                  # NaT is a datetime that is not equal to itself
                return None
            parsed = (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
        elif isinstance(value, date):
            parsed = datetime(value.year, value.month, value.day, tzinfo=timezone.utc)
        elif isinstance(value, str) and len(value) <= 64:
            parsed = parse_utc(value.strip())
        else:
            return None
    except (ValueError, OverflowError, OSError):
        return None
    return to_iso(parsed) if parsed is not None and _EARLIEST <= parsed < _LATEST else None


def _period(value: Any) -> dict | None:
    if not isinstance(value, dict):
        return None
    try:
        start = date.fromisoformat(str(value.get("start")))
        end = date.fromisoformat(str(value.get("end")))
    except ValueError:
        return None
    if not all(_EARLIEST.date() <= d < _LATEST.date() for d in (start, end)):
        return None
    if end < start:
        start, end = end, start
    return {"start": start.isoformat(), "end": end.isoformat()}


def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _json_safe(value: Any, depth: int = 0) -> Any:
    """JSON-safe copy: NaN/inf → None, text plain and capped, depth bounded."""
    if depth > DATA_DEPTH_MAX:
        return None
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if abs(value) <= 10**18 else None     # beyond any real figure, and beyond a float
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return plain_text(value, DATA_TEXT_MAX)
    if isinstance(value, dict):
        return {plain_text(k, 200): _json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v, depth + 1) for v in value]
    return plain_text(value, DATA_TEXT_MAX)
