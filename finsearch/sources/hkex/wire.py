"""What HKEXnews answers, read strictly: the stock lookup's JSONP, the title search's twice-encoded JSON, its statuses

The shapes, as HKEXnews' public title search (https://www1.hkexnews.hk/search/titlesearch.xhtml)
sends them to its own page (tests/fixtures/hkex/PROVENANCE.md says where each was seen):

    /search/prefix.do?callback=callback&lang=EN&type=A&name=00700&market=SEHK
        callback({"more":"1","stockInfo":[{"stockId":7609,"code":"00700","name":"TENCENT"}]});
    a prefix search: other codes that start alike (warrants, "28500" for "00285") come too, so
    only the row whose code is the one asked for is taken.

    /search/titleSearchServlet.do?…&stockId=7609&fromDate=YYYYMMDD&toDate=YYYYMMDD&rowRange=100&lang=E
        {"result": "[{\"FILE_INFO\":\"89KB\",\"NEWS_ID\":\"…\",\"SHORT_TEXT\":\"…<br/>\",
                      \"TOTAL_COUNT\":\"259\",\"DOD_WEB_PATH\":\"\",\"STOCK_NAME\":\"TENCENT<br/>TENCENT-R\",
                      \"TITLE\":\"…\",\"FILE_TYPE\":\"PDF\",\"DATE_TIME\":\"09/10/2024 17:58\",
                      \"LONG_TEXT\":\"Next Day Disclosure Returns - [Share Buyback]\",
                      \"STOCK_CODE\":\"00700<br/>80700\",\"FILE_LINK\":\"/listedco/listconews/sehk/…pdf\"}]",
         "hasNextRow": false, "sortList": "[[0,0]]", "rowRange": 100, "lang": "E",
         "loadedRecord": 1, "recordCnt": 1}
    `result` is "null" (or null) when nothing was filed in the period. DATE_TIME is Hong Kong time
    (UTC+8, no daylight saving), day first. A stock with two counters (HKD and RMB) lists both,
    joined by <br/>. Titles carry HTML entities (&amp;, &#x3b;). FILE_LINK is a path on the site.

A body of another shape (a maintenance page served with 200, JSON without `result`) is the site
having changed or being down: `Unreachable` with that reason, never "no announcements".
"""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import httpx

from ...errors import Refused, Unreachable
from ...evidence import iso_utc, plain_text
from ..upstream import resilience
from ..upstream.resilience import NETWORK, SERVER, TIMEOUT, Upstream

HKEXNEWS = Upstream("HKEXnews (披露易)", max_concurrent=2, retries=2)
# Where the documents are, whatever host the requests went to (tests send them to loopback).
ORIGIN = "https://www1.hkexnews.hk"
HONG_KONG = ZoneInfo("Asia/Hong_Kong")
_JSONP = re.compile(r"^\s*callback\((?P<body>.*)\)\s*;?\s*$", re.S)
_BREAK = re.compile(r"<br\s*/?>", re.I)
# A document's path on the site as the search gives it: /listedco/listconews/sehk/2024/1009/2024100900827.pdf
# (a _c before the extension for the Chinese one). Anything else is not built into a link.
_PATH = re.compile(r"/[A-Za-z0-9_][A-Za-z0-9_./-]{0,300}")
_OWN_HOSTS = re.compile(r"^https?://(?:www1?\.)?hkexnews\.hk(?=/)", re.I)
_STOCK_ID = re.compile(r"\d{1,12}")
TITLE_MAX, TYPE_MAX, NAME_MAX = 300, 160, 60


class HkexStatus(Exception):
    """An HTTP status from HKEXnews that may pass on a retry (429, 5xx, 408), as a resilience kind."""

    def __init__(self, status: int, kind: str | None):
        super().__init__(f"HTTP {status}")
        self.status, self.kind = status, kind


def check_status(status: int, what: str) -> None:
    """Nothing for a 2xx/3xx; else the failure it is: Refused (401/403/451: the site is blocking
    this client), Unreachable (404 and other 4xx: the endpoint moved or the request is no longer
    one it takes), HkexStatus for what a retry may fix."""
    if status < 400:
        return
    if status in (401, 403, 451):
        raise Refused(f"{HKEXNEWS.name} refused the {what} (HTTP {status}): it may be blocking this client; "
                      "try again later")
    kind = resilience.http_status_kind(status)
    if kind is not None:
        raise HkexStatus(status, kind)
    if status == 404:
        raise Unreachable(f"{HKEXNEWS.name} no longer has its {what} where it was (HTTP 404)")
    raise Unreachable(f"{HKEXNEWS.name} answered the {what} with HTTP {status}")


def classify(exc: BaseException) -> str | None:
    """httpx's failures and HkexStatus → a resilience kind; None: not a transport failure."""
    if isinstance(exc, HkexStatus):
        return exc.kind
    if isinstance(exc, httpx.TimeoutException):
        return TIMEOUT
    # Connected, then dropped before or while answering: the site's hiccup, which a retry may pass
    # (a refused connection or an unknown host is the network's, which it will not).
    if isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError)):
        return SERVER
    if isinstance(exc, httpx.TransportError):
        return NETWORK
    return None


# -- the stock lookup ---------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Stock:
    """A listing as HKEXnews knows it: its own id (what the title search takes), code, short name."""
    stock_id: str
    code: str            # five digits: "00700"
    name: str            # HKEXnews' short name: "TENCENT"


def stock_from_lookup(text: str, code: str) -> Stock | None:
    """The row of prefix.do's JSONP whose code is `code` ("00700"), or None when it lists none;
    Unreachable when the answer is not the lookup's JSONP."""
    m = _JSONP.match(text)
    try:
        body = json.loads(m.group("body")) if m else None
        rows = body["stockInfo"]
        if not isinstance(rows, list):
            raise TypeError("stockInfo is not a list")
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise Unreachable(f"{HKEXNEWS.name} answered the stock lookup with something that is not its "
                          f"stock list (the site may have changed, or is down: {type(exc).__name__})") from exc
    for row in rows:
        if not isinstance(row, dict) or str(row.get("code", "")).strip() != code:
            continue
        stock_id = str(row.get("stockId", "")).strip()
        if _STOCK_ID.fullmatch(stock_id):
            return Stock(stock_id, code, plain_text(row.get("name"), NAME_MAX))
    return None


# -- the title search ---------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Filing:
    """One document HKEXnews lists: an announcement, a circular, a return, a report."""
    news_id: str
    title: str
    url: str                   # absolute, on ORIGIN
    released: str | None       # UTC ISO, from DATE_TIME (Hong Kong time)
    document_type: str         # LONG_TEXT: "Announcements and Notices - [Inside Information]"
    file_type: str             # "PDF", "HTM" …
    file_size: str             # "89KB"
    codes: tuple[str, ...]     # the stock's counters, "00700", "80700"
    names: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class SearchPage:
    filings: tuple[Filing, ...]        # in the order HKEXnews listed them (newest first, as asked)
    has_more: bool                     # more documents matched than the rows asked for
    total: int | None                  # how many matched, when HKEXnews says


def search_page(content: bytes) -> SearchPage:
    """The title search's answer read into filings; rows without a title or a document of the site's
    are left out. Unreachable when the answer is not the title search's JSON."""
    try:
        body = json.loads(content)
        if not isinstance(body, dict) or "result" not in body:
            raise KeyError("result")
        result = body["result"]
        rows = json.loads(result) if isinstance(result, str) else result
        rows = [] if rows is None else rows
        if not isinstance(rows, list):
            raise TypeError("result is not a list")
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise Unreachable(f"{HKEXNEWS.name} answered the title search with something that is not its results "
                          f"(the site may be down for maintenance, or has changed: {type(exc).__name__})") from exc
    filings = tuple(f for f in (_filing(row) for row in rows if isinstance(row, dict)) if f is not None)
    total = next((_count(row.get("TOTAL_COUNT")) for row in rows if isinstance(row, dict)), None)
    return SearchPage(filings, body.get("hasNextRow") is True, total if total is not None else _count(
        body.get("recordCnt")))


def _filing(row: dict) -> Filing | None:
    title = plain_text(_text(row.get("TITLE")), TITLE_MAX)
    url = document_url(_text(row.get("FILE_LINK")))
    if not title or url is None:
        return None
    return Filing(news_id=plain_text(_text(row.get("NEWS_ID")), 20), title=title, url=url,
                  released=hong_kong_time(_text(row.get("DATE_TIME"))),
                  document_type=plain_text(_text(row.get("LONG_TEXT")) or _text(row.get("SHORT_TEXT")), TYPE_MAX),
                  file_type=plain_text(_text(row.get("FILE_TYPE")), 20),
                  file_size=plain_text(_text(row.get("FILE_INFO")), 20),
                  codes=_lines(row.get("STOCK_CODE"), 10), names=_lines(row.get("STOCK_NAME"), NAME_MAX))


def _text(value) -> str:
    """A field as text: HKEXnews has sent null and bare numbers where text is meant."""
    if value is None or isinstance(value, (dict, list, bool)):
        return ""
    return str(value)[:4000]


def _lines(value, limit: int) -> tuple[str, ...]:
    """"00700<br/>80700" → ("00700", "80700")."""
    parts = (plain_text(part, limit) for part in _BREAK.split(_text(value))[:8])
    return tuple(part for part in parts if part)


def _count(value) -> int | None:
    text = _text(value).strip()
    return int(text) if text.isdigit() and len(text) < 10 else None


def document_url(link: str) -> str | None:
    """FILE_LINK as an absolute link on ORIGIN: a path on the site, or a link to the site itself
    (rebased onto https://www1); None for anything else (another host, `..`, odd characters)."""
    link = link.strip()
    own = _OWN_HOSTS.match(link)
    path = link[own.end():] if own else link
    if not _PATH.fullmatch(path) or ".." in path or "//" in path:
        return None
    return ORIGIN + path


def hong_kong_time(value: str) -> str | None:
    """"09/10/2024 17:58" (day first, Hong Kong time) → "2024-10-09T09:58:00Z"; None if it is not one."""
    try:
        local = datetime.strptime(value.strip(), "%d/%m/%Y %H:%M").replace(tzinfo=HONG_KONG)
    except ValueError:
        return None
    return iso_utc(local)
