"""HKEXnews on loopback: a real HTTP server answering the stock lookup and the title search from
`tests/fixtures/hkex/` (see PROVENANCE.md there), byte for byte. The adapter talks to it over real
HTTP through httpx, as it talks to www1.hkexnews.hk; only the host differs.

On demand a path fails the way the site and the network do: 403 (a block), 429, 503, an answer
slower than the call may wait ("slow"), a connection closed before any answer ("reset"), a
maintenance page served with 200 ("maintenance"), JSON of another shape ("changed"), a body that
never ends ("endless"). Every request is logged with its path, its query and its headers.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "hkex"
NOW = datetime(2024, 10, 15, 12, 0, tzinfo=timezone.utc)      # 20:00 in Hong Kong
Fault = Literal["403", "429", "503", "slow", "reset", "maintenance", "changed", "endless"]
MAINTENANCE = (b"<!DOCTYPE html><html><head><title>HKEXnews</title></head><body><h1>System Maintenance</h1>"
               b"<p>The service is temporarily unavailable.</p></body></html>")


@dataclasses.dataclass(frozen=True)
class Sent:
    path: str
    query: dict[str, str]
    headers: dict[str, str]


class HkexSite:
    """HKEXnews as its search page sees it. `searches[(stock_id, lang)]` is the body the title search
    answers (tests swap in others); `fail(fault, on=…)` makes requests whose path holds `on` fail."""

    def __init__(self):
        self.sent: list[Sent] = []
        self.lookups = {code: (FIXTURES / f"prefix_{code}.jsonp").read_bytes() for code in ("00700", "00285")}
        self.searches = {("7609", "E"): (FIXTURES / "search_7609_E.json").read_bytes(),
                         ("7609", "ZH"): (FIXTURES / "search_7609_ZH.json").read_bytes()}
        self._faults: list[list] = []            # [fault, path part, times left or None]
        self.slow_s = 3.0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True, name="hkexnews on loopback")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def fail(self, fault: Fault, on: str = "", times: int | None = None) -> HkexSite:
        self._faults.append([fault, on, times])
        return self

    def count(self, part: str = "") -> int:
        return sum(1 for s in self.sent if part in s.path)

    def searched(self) -> list[dict[str, str]]:
        return [s.query for s in self.sent if s.path.endswith("titleSearchServlet.do")]

    def start(self) -> HkexSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def fault_for(self, path: str) -> Fault | None:
        for entry in self._faults:
            fault, on, left = entry
            if on in path and left != 0:
                entry[2] = None if left is None else left - 1
                return fault
        return None

    def answer(self, path: str, query: dict[str, str]) -> tuple[int, str, bytes]:
        """(status, content type, body) for a request that does not fail."""
        if path == "/search/prefix.do":
            if query.get("lang") != "EN":            # the site answers lower-case languages with nothing
                return 200, "text/html;charset=utf-8", b"callback();\n"
            body = self.lookups.get(query.get("name", ""), (FIXTURES / "prefix_none.jsonp").read_bytes())
            return 200, "text/html;charset=utf-8", body
        if path == "/search/titleSearchServlet.do":
            body = self.searches.get((query.get("stockId", ""), query.get("lang", "")),
                                     (FIXTURES / "search_empty.json").read_bytes())
            return 200, "application/json;charset=utf-8", body
        return 404, "text/html", b"<html><body>404 Not Found</body></html>"


def _handler(site: HkexSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:       # quiet: the test reads `site.sent`
            pass

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
            site.sent.append(Sent(parts.path, query, {k.lower(): v for k, v in self.headers.items()}))
            fault = site.fault_for(parts.path)
            if fault == "reset":
                self.close_connection = True
                self.connection.close()
                return
            if fault == "slow":
                time.sleep(site.slow_s)
            if fault in ("403", "429", "503"):
                self._send(int(fault), "text/html", b"<html><body><h1>Access Denied</h1></body></html>")
            elif fault == "maintenance":
                self._send(200, "text/html;charset=utf-8", MAINTENANCE)
            elif fault == "changed":
                self._send(200, "application/json", json.dumps({"data": [], "total": 0}).encode())
            elif fault == "endless":
                self._endless()
            else:
                self._send(*site.answer(parts.path, query))

        def _send(self, status: int, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _endless(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"[" * 65536
            try:
                while True:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:                              # the client hung up
                self.close_connection = True

    return Handler
