"""The wire under ddgs: a stand-in for `primp.Client`, the HTTP client ddgs 9.16 builds
every engine's requests on (`ddgs/http_client.py`). Everything above it is the real ddgs:
its engines build the requests, parse the pages in `tests/fixtures/web/`, aggregate and
rank them, and turn statuses and exceptions into what our adapter sees.

    wire = Wire(monkeypatch)
    wire.serve("html.duckduckgo.com", Reply.page("duckduckgo_html_nvda.html"))
    wire.everywhere(Reply(429))                      # every engine answers 429
    wire.serve("duckduckgo.com/news.js", primp.TimeoutError("operation timed out"))

Routes match a substring of the URL, the first added first; a URL no route matches gets
an empty result page (an engine that found nothing). A route given several replies serves
them in turn and then repeats the last. Every request is kept in `wire.requests`.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import primp

FIXTURES = Path(__file__).parent / "fixtures" / "web"


@dataclasses.dataclass(frozen=True)
class Reply:
    status: int
    body: str = ""

    @classmethod
    def page(cls, name: str, status: int = 200) -> Reply:
        return cls(status, (FIXTURES / name).read_text(encoding="utf-8"))


EMPTY = Reply.page("empty_page.html")


@dataclasses.dataclass(frozen=True)
class Hang:
    """An engine that never answers, until `release` is set (as a dead server's socket would,
    until the client's timeout)."""
    release: threading.Event


@dataclasses.dataclass(frozen=True)
class Request:
    method: str
    url: str
    params: dict | None
    data: dict | None


class _Response:
    """What primp returns: ddgs reads `status_code`, `content` and `text`."""

    def __init__(self, reply: Reply):
        self.status_code = reply.status
        self.text = reply.body
        self.content = reply.body.encode("utf-8")


class Wire:
    def __init__(self, monkeypatch):
        self.routes: list[tuple[str, list[Reply | Hang | BaseException]]] = []
        self.fallback: Reply | Hang | BaseException = EMPTY
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        wire = self

        class Client:
            def __init__(self, **_options: Any):
                pass

            def headers_update(self, _headers: dict) -> None:
                pass

            def set_cookies(self, _url: str, _cookies: dict) -> None:
                pass

            def request(self, method: str, url: str, params: dict | None = None, data: dict | None = None,
                        **_kw: Any) -> _Response:
                return wire._answer(Request(method, url, params, data))

        monkeypatch.setattr(primp, "Client", Client)

    def serve(self, url_part: str, *replies: Reply | Hang | BaseException) -> Wire:
        self.routes.append((url_part, list(replies)))
        return self

    def everywhere(self, reply: Reply | Hang | BaseException) -> Wire:
        """What every URL without a route of its own gets."""
        self.fallback = reply
        return self

    def _answer(self, request: Request) -> _Response:
        with self._lock:
            self.requests.append(request)
            reply = self.fallback
            for part, replies in self.routes:
                if part in request.url:
                    reply = replies.pop(0) if len(replies) > 1 else replies[0]
                    break
        if isinstance(reply, Hang):
            reply.release.wait()
            raise TimeoutError("the engine did not answer")
        if isinstance(reply, BaseException):
            raise reply
        return _Response(reply)

    def hosts(self) -> list[str]:
        return [r.url.split("/")[2] for r in self.requests]

    def asked(self, url_part: str) -> list[Request]:
        return [r for r in self.requests if url_part in r.url]


def news_page_routes(wire: Wire) -> Wire:
    """DuckDuckGo news as it answers a good query: the vqd token page, then news.js."""
    return (wire.serve("duckduckgo.com/news.js", Reply.page("duckduckgo_news_nvda.json"))
                .serve("://duckduckgo.com", Reply.page("duckduckgo_home_vqd.html")))


def encyclopedia_routes(wire: Wire) -> Wire:
    """The two encyclopedias ddgs always asks first, each with its "Nvidia" article."""
    return (wire.serve("action=opensearch", Reply.page("wikipedia_opensearch_nvidia.json"))
                .serve("wikipedia.org/w/api.php?action=query", Reply.page("wikipedia_extract_nvidia.json"))
                .serve("grokipedia.com", Reply.page("grokipedia_typeahead_nvidia.json")))


def text_page_routes(wire: Wire) -> Wire:
    """The text engines as they answer a good query: DuckDuckGo's results page and the
    encyclopedias' articles; the other engines find nothing."""
    return encyclopedia_routes(wire.serve("html.duckduckgo.com", Reply.page("duckduckgo_html_nvda.html")))


def nothing_found_routes(wire: Wire) -> Wire:
    """Every engine, text and news, answering that it found nothing."""
    return (wire.serve("action=opensearch", Reply.page("wikipedia_opensearch_empty.json"))
                .serve("grokipedia.com", Reply(200, '{"results":[]}'))
                .serve("duckduckgo.com/news.js", Reply.page("duckduckgo_news_empty.json"))
                .serve("://duckduckgo.com", Reply.page("duckduckgo_home_vqd.html")))
