"""The `web_search` source: general web results from ddgs (DuckDuckGo and friends).

    WebSearch().fetch("web_search", {query, ticker?, start?, end?, lang?})
      → [{"title", "url", "publisher", "published", "snippet", "data": None}, …]

The time context becomes a search filter. DuckDuckGo's filters count back from *now*, so:

- a range that ends within the last 2 days gets the smallest `timelimit` reaching back
  to its first day: today only → "d", ≤ 7 days back → "w", ≤ 31 → "m", ≤ 365 → "y";
- an older range gets no filter; its month and year go into the query instead
  ("October 2024", or "2024年10月" in Chinese) unless the query already names the year;
- a range that ends within the last 31 days (or no range at all) also asks for news
  results, which carry dates;
- a dated search lists dated results first and encyclopedia articles last: ddgs always
  asks Wikipedia and Grokipedia first, and they ignore the time filter.

Region follows the language: en → "us-en", zh → "cn-zh".

A block is not an empty search: when the engines refused (rate limit, server errors; see
`engines`) the call fails as Unreachable, "web search is rate-limited", after one
retry; only a search a web engine really answered with nothing is NoData.
"""

from __future__ import annotations

import contextvars
import dataclasses
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timezone
from typing import Any

from ...dedupe import merge_items, site
from ...errors import NoData, RateLimited, SourceError, Unreachable
from ...evidence import PUBLISHER_MAX, SNIPPET_MAX, TITLE_MAX, iso_utc, plain_text, safe_url
from ...phrases import Language, say
from ...phrases.numbers import MONTH_NAMES
from ...settings import Settings
from ..upstream import resilience
from ..upstream.resilience import NETWORK, RATE, SERVER, TIMEOUT, Upstream

REGIONS = {"en": "us-en", "zh": "cn-zh"}
DDGS_TIMEOUT_S = 5
NO_RESULTS = "No results found."          # what ddgs raises (as DDGSException) for an empty search
_NETWORK_WORDS = ("dns", "resolv", "connect", "network", "unreachable")
# The sites of engines.ENCYCLOPEDIA_ENGINES' articles.
ENCYCLOPEDIA_SITES = ("wikipedia.org", "grokipedia.com")
# ddgs asks several engines (DuckDuckGo, Brave, Mojeek, Startpage, Yahoo…), so the user
# hears "web search", not one engine's name.
REASONS = {
    RATE: "web search is rate-limited",
    SERVER: "web search engines answered with server errors",
    TIMEOUT: "web search did not answer in time",
    NETWORK: "web search is unreachable (is the network down?)",
}
@dataclasses.dataclass(frozen=True)
class SearchPlan:
    """How one web_search call is put to ddgs."""
    query: str
    region: str
    timelimit: str | None      # d | w | m | y | None
    with_news: bool


def plan_search(query: str, start: date | None, end: date | None, today: date, lang: str = "en") -> SearchPlan:
    """The ddgs query, region, time filter and whether to ask for news (see the module doc)."""
    region = REGIONS.get(lang, REGIONS["en"])
    if start is None and end is None:
        return SearchPlan(query, region, None, True)
    end = end or today
    start = start or end
    if start > end:
        start, end = end, start
    with_news = (today - end).days <= 31
    if (today - end).days <= 2:
        reach = (today - start).days           # how far back the filter must look
        for limit, days in (("d", 0), ("w", 7), ("m", 31), ("y", 365)):
            if reach <= days:
                return SearchPlan(query, region, limit, with_news)
        return SearchPlan(query, region, None, with_news)
    return SearchPlan(_dated(query, start, end, lang), region, None, with_news)


def _dated(query: str, start: date, end: date, lang: str) -> str:
    if str(end.year) in query:
        return query
    language: Language = "zh" if lang == "zh" else "en"     # a plan's `lang` argument is free text
    if (start.year, start.month) == (end.year, end.month):
        label = say("search.one_month", language, year=end.year, month=end.month, month_name=MONTH_NAMES[end.month - 1])
    elif start.year == end.year and end.month - start.month == 1:
        label = say("search.two_months", language, year=end.year, first=start.month, last=end.month,
                    first_name=MONTH_NAMES[start.month - 1], last_name=MONTH_NAMES[end.month - 1])
    else:
        label = " ".join(str(y) for y in range(start.year, end.year + 1)[-3:])
    return f"{query} {label}"


class Blocked(Exception):
    """The search engines refused to answer (`kind` RATE or SERVER): not an empty search."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


class WebSearch:
    """General web search through ddgs, dated by the call's time context."""

    def __init__(self, upstream: Upstream | None = None, clock: Callable[[], datetime] | None = None,
                 max_results: int = 10):
        # One retry: a block lasts minutes, and every try asks each engine once more.
        self.upstream = upstream or Upstream("web search", max_concurrent=2, retries=1)
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.max_results = max_results

    @classmethod
    def from_settings(cls, settings: Settings) -> WebSearch:
        return cls()           # nothing in the settings concerns web search

    def fetch(self, source: str, args: dict) -> list[dict]:
        if source != "web_search":
            raise SourceError(f"the web search adapter cannot answer {source!r}")
        query = " ".join(str(args.get("query") or "").split())
        if not query:
            raise SourceError("web search needs a query")
        lang = args.get("lang") if args.get("lang") in REGIONS else "en"
        plan = plan_search(query, _day(args.get("start")), _day(args.get("end")), self.clock().date(), lang)
        new_client = _watched_ddgs()
        news_max = max(3, self.max_results // 2)

        def search(kind: str, limit: int) -> list[dict]:
            tries = 0

            def run() -> list:
                nonlocal tries
                tries += 1
                client = new_client(timeout=max(1, round(resilience.time_left(DDGS_TIMEOUT_S))))
                try:
                    found = getattr(client, kind)(plan.query, region=plan.region, timelimit=plan.timelimit,
                                                  max_results=limit)
                except Exception as exc:
                    refused = client.refusal()
                    if refused is not None:
                        raise Blocked(refused) from exc
                    if _is_empty(exc):        # no engine failed, none refused: nothing there
                        return []
                    final = _final_failure(exc)
                    if final is not None:
                        raise final from exc
                    raise
                found = found if isinstance(found, list) else []
                # The encyclopedias rarely block; their article alone, while the web engines
                # refused, is a block too.
                refused = client.refusal()
                if refused is not None and all(_encyclopedia(r.get("href")) for r in found if isinstance(r, dict)):
                    raise Blocked(refused)
                return found

            try:
                return resilience.call(self.upstream, run, classify)
            except SourceError as exc:
                raise _readable(exc, tries) from exc.__cause__

        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="web") as pool:
            # ddgs counts its encyclopedia articles in max_results: ask for that many more,
            # so that they cannot take the places of web results (see `dated_first`).
            # Each search runs in this call's context, so the node's deadline reaches it.
            text = pool.submit(contextvars.copy_context().run, search, "text",
                               self.max_results + len(ENCYCLOPEDIA_SITES))
            news = pool.submit(contextvars.copy_context().run, search, "news", news_max) \
                if plan.with_news else None
            results, errors = {}, []
            for kind, future in (("text", text), ("news", news)):
                if future is None:
                    continue
                try:
                    results[kind] = future.result()
                except SourceError as exc:
                    errors.append(exc)
        items = [i for i in map(news_item, results.get("news", [])[:news_max]) if i]
        items += [i for i in map(text_item, results.get("text", [])) if i]
        items = merge_items(items)
        if args.get("start") or args.get("end"):
            items = dated_first(items)
        items = items[: self.max_results]
        if not items:
            if errors:        # one search blocked and the other empty is a block, not "nothing"
                raise errors[0]
            subject = f"{args['ticker']}: {plan.query}" if args.get("ticker") else plan.query
            raise NoData(f'no web results for "{subject}"')
        return items


def dated_first(items: list[dict]) -> list[dict]:
    """Dated items, then undated web pages, then encyclopedia articles (each group in its
    order): for a dated search, the time filter holds only for the first two."""
    def rank(item: dict) -> int:
        if item.get("published"):
            return 0
        return 2 if _encyclopedia(item.get("url")) else 1
    return sorted(items, key=rank)


def _encyclopedia(url: str | None) -> bool:
    return (site(url) or "").endswith(ENCYCLOPEDIA_SITES)


def _watched_ddgs() -> Callable[..., Any]:
    try:
        from .engines import WatchedDDGS
    except ImportError:
        raise SourceError("web search needs the ddgs package: pip install ddgs") from None
    return WatchedDDGS


# -- failures ---------------------------------------------------------------------------------

def _ddgs_errors() -> tuple[type, type, type] | None:
    try:
        from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException
    except ImportError:
        return None
    return DDGSException, RatelimitException, TimeoutException


def classify(exc: BaseException) -> str | None:
    """ddgs failures as resilience kinds: blocks, rate limits and timeouts are retried."""
    if isinstance(exc, Blocked):
        return exc.kind
    errors = _ddgs_errors()
    if errors is None or not isinstance(exc, errors[0]):
        return TIMEOUT if isinstance(exc, TimeoutError) else None
    _, ratelimit, timeout = errors
    if isinstance(exc, ratelimit):
        return RATE
    if isinstance(exc, timeout):
        return TIMEOUT
    message = str(exc).lower()
    if "ratelimit" in message or "429" in message:
        return RATE
    if "timed out" in message or "timeout" in message:
        return TIMEOUT
    if any(word in message for word in _NETWORK_WORDS):
        return NETWORK
    return None


def _is_empty(exc: BaseException) -> bool:
    """ddgs raises DDGSException("No results found.") when every engine answered with nothing."""
    errors = _ddgs_errors()
    return errors is not None and isinstance(exc, errors[0]) and str(exc).strip() == NO_RESULTS


def _final_failure(exc: BaseException) -> SourceError | None:
    """A DDGSException that retrying cannot fix, as a readable reason (else None)."""
    errors = _ddgs_errors()
    if errors is None or not isinstance(exc, errors[0]) or classify(exc) is not None:
        return None
    detail = plain_text(str(exc), 120)
    return Unreachable("web search failed" + (f" ({detail})" if detail else ""))


def _readable(exc: SourceError, tries: int) -> SourceError:
    """The resilience layer's failure, said as web search's: "web search is rate-limited;
    retried 1 time". Failures of no known kind keep their own words."""
    kind = classify(exc.__cause__) if exc.__cause__ is not None else None
    if kind not in REASONS:
        return exc
    retried = tries - 1
    error = RateLimited if kind == RATE else Unreachable
    return error(REASONS[kind] + (f"; retried {retried} time{'s' if retried != 1 else ''}" if retried else ""))


# -- items ------------------------------------------------------------------------------------

def text_item(raw: Any) -> dict | None:
    """A ddgs text result (title, href, body) as a raw web item."""
    if not isinstance(raw, dict):
        return None
    url = safe_url(raw.get("href"))
    title = plain_text(raw.get("title"), TITLE_MAX)
    if not title and not url:
        return None
    return {"title": title or url, "url": url, "publisher": site(url), "published": None,
            "snippet": plain_text(raw.get("body"), SNIPPET_MAX), "data": None}


def news_item(raw: Any) -> dict | None:
    """A ddgs news result (date, title, body, url, source) as a raw web item."""
    if not isinstance(raw, dict):
        return None
    url = safe_url(raw.get("url"))
    title = plain_text(raw.get("title"), TITLE_MAX)
    if not title and not url:
        return None
    return {"title": title or url, "url": url,
            "publisher": plain_text(raw.get("source"), PUBLISHER_MAX) or site(url),
            "published": iso_utc(raw.get("date")),
            "snippet": plain_text(raw.get("body"), SNIPPET_MAX), "data": None}


def _day(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None
