"""The `news` source: Yahoo Finance ticker news (yfinance) plus RSS feeds, merged.

    NewsSource(feeds).fetch("news", {ticker?, query?, start?, end?, lang?})
      → [{"title", "url", "publisher", "published", "snippet", "data": None}, …]

Every source (yfinance, each feed) runs in a small thread pool, so one slow feed does
not hold up the rest. A source that fails is skipped while another one answered; when
all of them fail, their reasons are raised together as one SourceError. Items are
deduplicated across sources (same URL, or a near-identical title: the richer copy wins),
kept near the requested dates, and returned newest first.

Feed templates (`Settings.news_feeds`) take these placeholders; a template whose
placeholder has no value is skipped:

    {ticker}  the symbol, URL-encoded
    {query}   the search words, URL-encoded; the ticker when no words were given.
              Google News templates also get `after:START before:END+1` for a date range.
    {hl} {gl} {ceid}   the Google News edition:  en → en-US, US, US:en
                                                 zh → zh-CN, CN, CN:zh-Hans
    {region} {lang}    the Yahoo Finance edition: en → US, en-US
                                                 zh → HK, zh-Hant-HK (Yahoo has no
                                                 Simplified-Chinese edition; HK is closest)
"""

from __future__ import annotations

import calendar
import contextvars
import io
import string
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timedelta, timezone
from typing import Any
from urllib.parse import parse_qsl, quote_plus, urlencode, urlsplit, urlunsplit

from ...dedupe import merge_items, site
from ...errors import NoData, SourceError, Unreachable
from ...evidence import PUBLISHER_MAX, SNIPPET_MAX, TITLE_MAX, iso_utc, parse_utc, plain_text, safe_url, to_iso
from ...settings import DEFAULT_FEEDS, Settings
from ..upstream import http, resilience
from ..upstream.resilience import Upstream
from ..yahoo.request import classify as yahoo_classify

EDITIONS = {
    "en": {"hl": "en-US", "gl": "US", "ceid": "US:en", "region": "US", "lang": "en-US"},
    "zh": {"hl": "zh-CN", "gl": "CN", "ceid": "CN:zh-Hans", "region": "HK", "lang": "zh-Hant-HK"},
}
# Upstreams by host suffix; a feed on any other host is named after its host.
DEFAULT_UPSTREAMS = {
    "yahoo.com": Upstream("Yahoo Finance", retries=2),
    "news.google.com": Upstream("Google News", retries=2),
}
FEED_TIMEOUT_S = 5.0
WINDOW_SLACK = timedelta(days=3)     # stories a few days either side of the range still explain it
_TRACKING = ("utm_", ".tsrc", "guccounter", "guce_referrer")
_FEED_HEADERS = {"content-type": "application/xml; charset=utf-8"}


class NewsSource:
    """News for a ticker or a topic, from yfinance and RSS feeds (see the module doc)."""

    def __init__(self, feeds: tuple[str, ...] = DEFAULT_FEEDS, yf=None,
                 get_text: Callable[[str, Upstream, float], str] | None = None,
                 upstreams: Mapping[str, Upstream] | None = None,
                 clock: Callable[[], datetime] | None = None, max_items: int = 20):
        self.feeds = tuple(feeds)
        self._yf = yf
        self.get_text = get_text or http.get_text
        self.upstreams = dict(DEFAULT_UPSTREAMS if upstreams is None else upstreams)
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.max_items = max_items

    @classmethod
    def from_settings(cls, settings: Settings) -> NewsSource:
        return cls(feeds=settings.news_feeds)

    def fetch(self, source: str, args: dict) -> list[dict]:
        if source != "news":
            raise SourceError(f"the news adapter cannot answer {source!r}")
        ticker = str(args.get("ticker") or "").strip().upper() or None
        query = " ".join(str(args.get("query") or "").split()) or None
        start, end = _day(args.get("start")), _day(args.get("end"))
        if start and not end:
            end = max(start, self.clock().date())
        lang = args.get("lang") if args.get("lang") in EDITIONS else "en"
        tasks: dict[str, Callable[[], list[dict]]] = {}
        if ticker:
            tasks["Yahoo Finance ticker news"] = lambda: self._ticker_news(ticker)
        failures: list[SourceError] = []
        for template in self.feeds:
            try:
                url = feed_url(template, ticker, query, start, end, lang)
            except SourceError as exc:
                failures.append(exc)
                continue
            if url:
                tasks[url] = lambda url=url: self._feed(url)
        if not tasks:
            raise failures[0] if failures else SourceError("news needs a ticker or a query")

        items: list[dict] = []
        answered = 0
        with ThreadPoolExecutor(max_workers=min(6, len(tasks)), thread_name_prefix="news") as pool:
            # Each in a copy of this context: the node's deadline goes with it (resilience.deadline_scope).
            futures = [pool.submit(contextvars.copy_context().run, task) for task in tasks.values()]
            for future in futures:
                try:
                    items += future.result()
                    answered += 1
                except SourceError as exc:
                    failures.append(exc)
        if not answered:
            raise _combined(failures)

        if start or end:
            items = [i for i in items if _within(i.get("published"), start, end)]
        items = merge_items(items)
        items.sort(key=lambda i: i.get("published") or "", reverse=True)    # undated last
        if not items:
            raise NoData(_nothing_found(ticker, query, start, end))
        return items[: self.max_items]

    # -- sources ------------------------------------------------------------------------

    def _upstream(self, host: str) -> Upstream:
        matches = [k for k in self.upstreams if host == k or host.endswith("." + k)]
        return self.upstreams[max(matches, key=len)] if matches else Upstream(host or "news feed")

    def _ticker_news(self, ticker: str) -> list[dict]:
        yf = self._yf
        if yf is None:
            try:
                import yfinance as yf
            except ImportError:
                raise SourceError("ticker news needs the yfinance package: pip install yfinance") from None
        raw = resilience.call(self._upstream("finance.yahoo.com"), lambda: yf.Ticker(ticker).news, yahoo_classify)
        items = [yf_item(r) for r in raw] if isinstance(raw, list) else []
        return [i for i in items if i]

    def _feed(self, url: str) -> list[dict]:
        try:
            import feedparser
        except ImportError:
            raise SourceError("news feeds need the feedparser package: pip install feedparser") from None
        host = (urlsplit(url).hostname or "").lower()
        text = self.get_text(url, self._upstream(host), FEED_TIMEOUT_S)
        # Bytes, not str: given a str that looks like a URL or a path, feedparser fetches or
        # opens it. The text is already decoded, so its charset is stated explicitly.
        parsed = feedparser.parse(io.BytesIO(text.encode("utf-8")), response_headers=_FEED_HEADERS)
        google = host == "news.google.com"
        items = [feed_item(e, google) for e in parsed.get("entries") or []]
        return [i for i in items if i]


# -- feed URLs --------------------------------------------------------------------------------

def feed_url(template: str, ticker: str | None, query: str | None, start: date | None,
             end: date | None, lang: str = "en") -> str | None:
    """The template filled in, or None when one of its placeholders has no value."""
    words = query or ticker
    if words and "news.google.com" in template:
        if start:
            words += f" after:{start.isoformat()}"
        if end:
            words += f" before:{(end + timedelta(days=1)).isoformat()}"
    values = dict(EDITIONS.get(lang, EDITIONS["en"]))
    values["ticker"] = quote_plus(ticker) if ticker else None
    values["query"] = quote_plus(words) if words else None
    names = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    unknown = [n for n in names if n not in values]
    if unknown:
        raise SourceError(f"news feed template has an unknown placeholder {{{unknown[0]}}}: {template}")
    if any(values[n] is None for n in names):
        return None
    return template.format_map(values)


# -- items ------------------------------------------------------------------------------------

def feed_item(entry: Mapping[str, Any], google: bool = False) -> dict | None:
    """One feedparser entry as a raw news item; None when it has no title."""
    title = plain_text(entry.get("title"), TITLE_MAX)
    if not title:
        return None
    url = clean_link(entry.get("link"))
    source = entry.get("source")
    publisher = plain_text(source.get("title"), PUBLISHER_MAX) if isinstance(source, Mapping) else ""
    if google:
        # Google News titles end with " - Publisher"; the story's title is what precedes it.
        head, sep, tail = title.rpartition(" - ")
        if sep and head and (tail == publisher or (not publisher and len(tail) <= 60)):
            title, publisher = head, tail
    snippet = plain_text(entry.get("summary"), SNIPPET_MAX)
    if google:
        snippet = _after_repeats(snippet, title, publisher)
    stamp = entry.get("published_parsed") or entry.get("updated_parsed")
    published = None
    if stamp:
        try:
            published = to_iso(datetime.fromtimestamp(calendar.timegm(stamp), timezone.utc))
        except (TypeError, ValueError, OverflowError, OSError):
            published = None
    return _item(title, url, publisher or _site_label(url), published, snippet)


def yf_item(raw: Any) -> dict | None:
    """One `yf.Ticker(t).news` item, in the 1.x nested shape or the older flat one."""
    if not isinstance(raw, Mapping):
        return None
    content = raw.get("content")
    if isinstance(content, Mapping):
        provider = content.get("provider")
        links = [content.get("canonicalUrl"), content.get("clickThroughUrl")]
        url = next((clean_link(link.get("url")) for link in links
                    if isinstance(link, Mapping) and clean_link(link.get("url"))), None)
        title = content.get("title")
        publisher = provider.get("displayName") if isinstance(provider, Mapping) else None
        published = content.get("pubDate") or content.get("displayTime")
        snippet = content.get("summary") or content.get("description")
    else:
        title, url = raw.get("title"), clean_link(raw.get("link"))
        publisher, published, snippet = raw.get("publisher"), raw.get("providerPublishTime"), raw.get("summary")
    title = plain_text(title, TITLE_MAX)
    if not title:
        return None
    publisher = plain_text(publisher, PUBLISHER_MAX) or _site_label(url)
    return _item(title, url, publisher, iso_utc(published), plain_text(snippet, SNIPPET_MAX))


def clean_link(value: Any) -> str | None:
    """An http(s) link without tracking parameters (utm_*, Yahoo's .tsrc …); else None."""
    url = safe_url(value)
    if not url:
        return None
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(k, v) for k, v in pairs if not k.lower().startswith(_TRACKING)]
    if len(kept) == len(pairs):
        return url
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(kept), parts.fragment))


def _item(title: str, url: str | None, publisher: str | None, published: str | None, snippet: str) -> dict:
    return {"title": title, "url": url, "publisher": publisher or None, "published": published,
            "snippet": snippet, "data": None}


def _site_label(url: str | None) -> str | None:
    host = site(url)
    return "Yahoo Finance" if host and (host == "yahoo.com" or host.endswith(".yahoo.com")) else host


def _after_repeats(snippet: str, title: str, publisher: str) -> str:
    """A Google News description minus its leading copy of the title and publisher.

    The description is the headline as a link plus the publisher, sometimes followed by
    related headlines: only those are news; a bare repeat leaves no snippet at all.
    """
    rest = snippet
    for part in (title, publisher):
        if part and rest.startswith(part):
            rest = rest[len(part):].lstrip()
    return rest


def _day(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def _within(published: str | None, start: date | None, end: date | None) -> bool:
    """Undated items stay; dated ones must fall within the range, give or take 3 days."""
    when = parse_utc(published) if published else None
    if when is None:
        return True
    if start and when < _midnight(start) - WINDOW_SLACK:
        return False
    return not (end and when >= _midnight(end + timedelta(days=1)) + WINDOW_SLACK)


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def _nothing_found(ticker: str | None, query: str | None, start: date | None, end: date | None) -> str:
    subject = ticker or f'"{query}"'
    when = f" between {start.isoformat()} and {end.isoformat()}" if start and end else \
        f" up to {end.isoformat()}" if end else ""
    return f"no news found for {subject}{when}"


def _combined(failures: list[SourceError]) -> SourceError:
    """Every source failed: one error naming each distinct reason (" | "), Unreachable first."""
    failures = sorted(failures, key=lambda e: not isinstance(e, Unreachable))
    reasons = list(dict.fromkeys(str(e) for e in failures))
    error = Unreachable if failures and isinstance(failures[0], Unreachable) else SourceError
    return error(" | ".join(reasons) or "no news source answered", kind=failures[0].kind if failures else None)


