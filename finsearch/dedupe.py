"""Telling retrieved items apart: URL and title keys, near-identical titles, and merging.

The answer generator deduplicates evidence with these keys, and the news and web
sources deduplicate their raw items with the same rules, so "the same story" means the
same thing everywhere: the same URL after normalising (scheme and host case, trailing
slash, `utm_*` parameters, fragment), or the same or a near-identical title.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def url_key(url: str | None) -> str | None:
    """A URL normalised for comparison, or None when there is none."""
    if not url:
        return None
    parts = urlsplit(url)
    query = urlencode(sorted((k, v) for k, v in parse_qsl(parts.query) if not k.lower().startswith("utm_")))
    return urlunsplit((parts.scheme.lower(), (parts.hostname or "").lower(), parts.path.rstrip("/"), query, ""))


def title_key(title: str) -> str:
    """A title reduced to lower-case words (Latin letters, digits and CJK characters)."""
    return re.sub(r"[^0-9a-z\u4e00-\u9fff]+", " ", title.lower()).strip()


def near(a: str, b: str) -> bool:
    """Whether two title keys name the same story: equal, or ≥ 85 % of (≥ 4) words shared."""
    if not a or not b:
        return False
    if a == b:
        return True
    ta, tb = set(a.split()), set(b.split())
    return len(ta) >= 4 and len(ta & tb) / len(ta | tb) >= 0.85


def site(url: str | None) -> str | None:
    """The site a URL belongs to, as people write it: "reuters.com" (no "www.")."""
    if not url:
        return None
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return None
    return host.removeprefix("www.") or None


def _richness(item: dict) -> tuple:
    return (bool(item.get("url")), bool(item.get("published")), bool(item.get("publisher")),
            len(item.get("snippet") or ""))


def merge_items(items: Iterable[dict]) -> list[dict]:
    """Raw item dicts (title/url/publisher/published/snippet) without repeats.

    Of each group of repeats the richest copy is kept (a URL, a date, a publisher, the
    longer snippet), with fields it lacks filled in from the others; groups keep the
    position of their first member.
    """
    kept: list[dict] = []
    seen: list[tuple[set[str], list[str]]] = []       # per group: its URL keys and title keys
    for item in items:
        url, title = url_key(item.get("url")), title_key(item.get("title") or "")
        match = next((i for i, (urls, titles) in enumerate(seen)
                      if (url and url in urls) or any(near(title, t) for t in titles)), None)
        if match is None:
            kept.append(dict(item))
            seen.append(({url} if url else set(), [title]))
            continue
        best, other = (item, kept[match]) if _richness(item) > _richness(kept[match]) else (kept[match], item)
        merged = dict(best)
        for field, value in other.items():
            if value and not merged.get(field):
                merged[field] = value
        kept[match] = merged
        if url:
            seen[match][0].add(url)
        seen[match][1].append(title)
    return kept
