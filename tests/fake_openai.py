"""A small OpenAI-compatible chat server on loopback, for tests (the network boundary).

It answers POST /v1/chat/completions from a script of replies the test sets up; each
reply is a `Reply`. With no script left it repeats `default`. Every request body is
kept in `requests` so tests can check what the client sent.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclasses.dataclass
class Reply:
    content: str = ""
    status: int = 200
    delay_s: float = 0.0              # before the first byte
    stream_pieces: list[str] | None = None   # for stream=True requests; default: content in words
    token_delay_s: float = 0.0        # between streamed pieces
    reject_schema: bool = False       # answer 400 to a json_schema response_format
    fail_mid_stream: bool = False     # drop the connection after a few pieces
    hang: bool = False                # never answer (until the server stops)
    headers: dict[str, str] = dataclasses.field(default_factory=dict)   # extra response headers
    raw_body: str | None = None       # send this body as is (with `content_type`) instead of JSON
    content_type: str = "text/html; charset=utf-8"
    tool_calls: bool = False          # a tool call instead of content
    malformed_chunk_at: int | None = None    # stream a broken `data: {…` line before piece i
    hang_after: int | None = None     # stream this many pieces, then go silent (until the server stops)
    reasoning: str | None = None      # `reasoning_content` alongside the content
    error_message: str | None = None  # the error body's message (a default per kind of error)


class FakeOpenAI:
    def __init__(self):
        self.script: list[Reply] = []
        self.default = Reply(content="{}")
        self.route: Callable[[dict], Reply | None] | None = None   # choose a reply from the request
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []     # each request's headers, in order
        self._lock = threading.Lock()
        self.stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def next_reply(self, body: dict, headers: dict[str, str] | None = None) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.headers.append(dict(headers or {}))
        if self.route is not None:            # outside the lock: concurrent calls stay concurrent
            chosen = self.route(body)
            if chosen is not None:
                return chosen
        with self._lock:
            return self.script.pop(0) if self.script else self.default

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):        # keep test output clean
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                reply = fake.next_reply(body, {k.lower(): v for k, v in self.headers.items()})
                if reply.hang:
                    fake.stopping.wait()
                    return
                if reply.delay_s:
                    fake.stopping.wait(reply.delay_s)
                wants_schema = (body.get("response_format") or {}).get("type") == "json_schema"
                if reply.reject_schema and wants_schema:
                    message = reply.error_message or "response_format json_schema is not supported"
                    return self._json(400, {"error": {"message": message, "type": "invalid_request_error"}})
                if reply.status != 200 and reply.raw_body is None:
                    return self._json(reply.status, {"error": {"message": reply.error_message or "scripted failure",
                                                               "type": "server_error"}}, reply.headers)
                if reply.raw_body is not None:
                    return self._raw(reply)
                if body.get("stream"):
                    return self._stream(body, reply)
                usage = {"prompt_tokens": len(json.dumps(body["messages"])) // 4,
                         "completion_tokens": max(1, len(reply.content) // 4)}
                usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
                message = {"role": "assistant", "content": reply.content}
                if reply.tool_calls:
                    message = {"role": "assistant", "content": None, "tool_calls": [
                        {"id": "call_1", "type": "function",
                         "function": {"name": "search", "arguments": json.dumps({"q": reply.content})}}]}
                if reply.reasoning is not None:
                    message["reasoning_content"] = reply.reasoning
                return self._json(200, {
                    "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "finish_reason": "tool_calls" if reply.tool_calls else "stop",
                                 "message": message}],
                    "usage": usage}, reply.headers)

            def _json(self, status: int, payload: dict, headers: dict | None = None):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def _raw(self, reply: Reply):
                data = reply.raw_body.encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, body: dict, reply: Reply):
                pieces = reply.stream_pieces
                if pieces is None:
                    words = reply.content.split(" ")
                    pieces = [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)]
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                if reply.reasoning is not None:
                    for word in reply.reasoning.split(" "):
                        self._chunk(body, {"reasoning_content": word + " "})
                for i, piece in enumerate(pieces):
                    if reply.hang_after == i:
                        fake.stopping.wait()
                        return
                    if reply.fail_mid_stream and i == 3:
                        self.wfile.flush()
                        self.connection.shutdown(2)
                        return
                    if reply.malformed_chunk_at == i:
                        self.wfile.write(b"data: {not json\n\n")
                        self.wfile.flush()
                    if reply.tool_calls:
                        self._chunk(body, {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                                           "function": {"name": "search", "arguments": piece}}]})
                    else:
                        self._chunk(body, {"content": piece})
                    if reply.token_delay_s and fake.stopping.wait(reply.token_delay_s):
                        return
                final = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0,
                         "model": body.get("model", "fake"),
                         "choices": [{"index": 0, "delta": {},
                                      "finish_reason": "tool_calls" if reply.tool_calls else "stop"}]}
                self.wfile.write(f"data: {json.dumps(final)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

            def _chunk(self, body: dict, delta: dict):
                chunk = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0,
                         "model": body.get("model", "fake"),
                         "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
                try:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                except OSError:             # the client gave up on the stream: fine
                    fake.stopping.wait(0)

        return Handler
