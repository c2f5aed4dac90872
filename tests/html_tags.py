"""The links and images an HTML page holds, read with the standard library's parser (for
checking what an exported or rendered page would make a browser open or fetch)."""

from __future__ import annotations

from html.parser import HTMLParser


class Tags(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.links: list[str] = []
        self.images: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a":
            self.links.append(attrs.get("href") or "")
        if tag == "img":
            self.images.append(attrs.get("src") or "")

    def hosts(self) -> set[str]:
        """The hosts of the http(s) links."""
        from urllib.parse import urlsplit

        return {urlsplit(link).hostname or "" for link in self.links if link.startswith(("http://", "https://"))}
