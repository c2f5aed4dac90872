"""A meter between FinSearch and a real model server: a loopback HTTP proxy that passes every
request and reply through untouched and notes, per model call, what a user waits for.

For each POST it records the call's kind (the `X-FinSearch-Call` header), when the request
went out, when the first piece of text came back (for a stream: the first `content` delta;
for a whole reply: the reply), when it ended, and the output tokens (the server's own usage
count when it sends one, else one per streamed piece, which is how llama.cpp, Ollama and
vLLM stream). The benchmark's real-model profile reads TTFT and tokens per second from it,
measured on the wire rather than taken from the server's word.

Loopback only, one upstream; the request's headers (the API key among them) go to that
upstream and nowhere else, and nothing is kept but the timings above.
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import statistics
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from ..model.language_model import CALL_HEADER

_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


@dataclasses.dataclass(frozen=True)
class Metered:
    kind: str
    started: float                    # time.monotonic() when the request went out
    first_text: float | None          # … when its first text came back
    last_text: float | None           # … when its last text reached the client (it may hang up early)
    ended: float
    output_tokens: int
    streamed: bool
    status: int

    @property
    def ttft_s(self) -> float | None:
        return None if self.first_text is None else self.first_text - self.started

    @property
    def tokens_per_s(self) -> float | None:
        """Output tokens after the first, per second of writing them, up to the last one the client
        took (streams only: a whole reply's tokens all arrive at once)."""
        if not self.streamed or self.first_text is None or self.last_text is None or self.output_tokens < 2 \
                or self.last_text <= self.first_text:
            return None
        return (self.output_tokens - 1) / (self.last_text - self.first_text)


class Meter:
    """`Meter(upstream).start()`; point FinSearch at `base_url`; read `calls`; `stop()`."""

    def __init__(self, upstream: str):
        parsed = urllib.parse.urlsplit(upstream.rstrip("/"))
        if parsed.scheme != "http" or not parsed.hostname:
            raise ValueError(f"the meter measures a plain-http server (a local one), not {upstream!r}")
        self._host, self._port, self._path = parsed.hostname, parsed.port or 80, parsed.path
        self.calls: list[Metered] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{self._path}"

    def start(self) -> Meter:
        # (a short poll: shutdown() waits for the next one, half a second at the default)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="bench-meter",
                         daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def take(self) -> list[Metered]:
        with self._lock:
            calls, self.calls = self.calls, []
        return calls

    def _note(self, call: Metered) -> None:
        with self._lock:
            self.calls.append(call)

    def _handler(self):
        meter = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                self._relay(None)

            def do_POST(self):
                self._relay(self.rfile.read(int(self.headers.get("Content-Length", "0"))))

            def _relay(self, body: bytes | None):
                started = time.monotonic()
                upstream = http.client.HTTPConnection(meter._host, meter._port, timeout=600)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
                try:         # (the meter's base URL has the upstream's path: a request's path is the same)
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    reply = upstream.getresponse()
                    self.send_response(reply.status)
                    for name, value in reply.getheaders():
                        if name.lower() not in _HOP:
                            self.send_header(name, value)
                    self.send_header("Connection", "close")
                    streamed = "event-stream" in (reply.getheader("Content-Type") or "")
                    if not streamed:
                        data = reply.read()
                        self.send_header("Content-Length", str(len(data)))
                        self.end_headers()
                        self.wfile.write(data)
                        if body is not None:
                            meter._note(_whole(self.headers.get(CALL_HEADER, ""), started, data, reply.status))
                        return
                    self.end_headers()
                    self._stream(reply, started)
                except OSError:                       # either side went away: nothing more to pass on
                    pass
                finally:
                    upstream.close()
                    self.close_connection = True

            def _stream(self, reply, started: float):
                first = last = usage = None
                pieces = 0
                try:
                    for line in iter(reply.readline, b""):
                        self.wfile.write(line)
                        self.wfile.flush()
                        text, reported = _event(line)
                        if text:
                            last = time.monotonic()
                            first = first or last
                            pieces += 1
                        usage = reported or usage
                finally:      # (a client that hung up ends the loop: the usage is then the pieces it took)
                    meter._note(Metered(self.headers.get(CALL_HEADER, ""), started, first, last, time.monotonic(),
                                        usage or pieces, True, reply.status))

        return Handler


def _event(line: bytes) -> tuple[str, int | None]:
    """A server-sent event line's text delta and reported output tokens."""
    if not line.startswith(b"data:") or line.strip() == b"data: [DONE]":
        return "", None
    try:
        chunk = json.loads(line[5:])
    except ValueError:
        return "", None
    text = "".join(str((c.get("delta") or {}).get("content") or "") for c in chunk.get("choices") or [])
    tokens = (chunk.get("usage") or {}).get("completion_tokens")
    return text, tokens if isinstance(tokens, int) else None


def _whole(kind: str, started: float, data: bytes, status: int) -> Metered:
    ended = time.monotonic()
    try:
        tokens = int(json.loads(data).get("usage", {}).get("completion_tokens") or 0)
    except (ValueError, AttributeError, TypeError):
        tokens = 0
    return Metered(kind, started, ended, ended, ended, tokens, False, status)


def summary(calls: list[Metered]) -> dict:
    """Medians over the calls: TTFT (ms) and tokens per second of the streamed ones, over all and
    per kind of call (a plan's prompt is not an answer's: a local model reads each at its own pace)."""
    def figures(mine: list[Metered]) -> dict:
        ttft = [c.ttft_s for c in mine if c.ttft_s is not None]
        rates = [c.tokens_per_s for c in mine if c.tokens_per_s is not None]
        return {"calls": len(mine), "ttft_ms": round(statistics.median(ttft) * 1000) if ttft else None,
                "tokens_per_s": round(statistics.median(rates), 1) if rates else None}

    return {**figures(calls), "by_kind": {kind: figures([c for c in calls if c.kind == kind])
                                          for kind in sorted({c.kind for c in calls})}}
