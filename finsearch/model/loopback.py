"""An OpenAI-compatible chat server on loopback, scripted: the model's side of the network
boundary for the tests and the benchmark.

It answers POST /v1/chat/completions (plain or streamed) with `Reply`s chosen by an explicit
script, never by reading the prompt, and GET /v1/models with one model. A request's kind is its X-FinSearch-Call header
(`CallKind`; "" when a client sent none), and its reply is, in this order:

    replies[kind]      that kind's replies in turn, the last one repeating   (`on(kind, …)`);
                       a report's "section" with no script of its own takes the "answer" script
                       (a section is written by the answer's writer and prompt)
    script             the next reply for a call of any kind, in order
    default            everything else

A `Reply` says what comes back and how long it takes (`delay_s` before the first byte,
`token_delay_s` between streamed pieces). A server given a `Pace` (a latency profile) charges
every call as a real model does instead: its time to first token, then its output tokens at
the profile's rate — a whole reply is sent when its last token would be written, a streamed
one drips each piece at the moment its last token would be. Tokens are estimated without a
tokenizer (`text.estimate_tokens`). Every request body and its headers are kept (`requests`,
`headers`), and every answered call is logged with its kind, timing and output tokens (`calls`).
Usage is reported as OpenAI reports it: in a whole reply, and in a stream only when the request
asks (`stream_options.include_usage`), as one last chunk with no choices. A stream stops, as a
real server's does, at the request's `max_tokens` (finish_reason "length"), or when the client
closes the connection (the call's `pieces` says how many it had been sent by then).
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .language_model import CALL_HEADER, CallKind
from .text import estimate_tokens


@dataclasses.dataclass(frozen=True)
class Pace:
    """A model's speed: seconds to the first token, then output tokens per second."""
    name: str
    ttft_s: float
    tokens_per_s: float

    def seconds(self, tokens: float) -> float:
        """How long a reply of `tokens` output tokens takes, first token included."""
        return self.ttft_s + tokens / self.tokens_per_s


# The benchmark's model profiles (issue 15): a hosted GPT-4o-class model, a small model on a
# local GPU, and a reasoning model whose hidden thinking shows up as a long first-token wait.
PROFILES = {p.name: p for p in (Pace("gpt-4o-class", 0.6, 90.0), Pace("small-local", 0.3, 35.0),
                                Pace("reasoning", 4.0, 60.0))}


MODEL_ID = "loopback-model"       # the one model GET /v1/models lists


@dataclasses.dataclass(frozen=True)
class Reply:
    content: str = ""
    status: int = 200
    delay_s: float = 0.0              # before the first byte
    stream_pieces: list[str] | None = None   # for stream=True requests; default: content in words
    token_delay_s: float = 0.0        # after each streamed piece
    reject_schema: bool = False       # answer 400 to a json_schema response_format
    reject_stream_options: bool = False   # answer 400 to a request carrying stream_options, as
                                          # servers that forbid unknown fields do
    send_usage: bool = True           # report usage (streamed: when the request asks for it); some servers never do
    prompt_tokens: int | None = None  # the usage to report; default: the loopback's own count
    completion_tokens: int | None = None
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

    def pieces(self) -> list[str]:
        if self.stream_pieces is not None:
            return self.stream_pieces
        words = self.content.split(" ")
        return [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)]


@dataclasses.dataclass(frozen=True)
class Call:
    kind: str              # the request's X-FinSearch-Call header, "" when it had none
    started: float         # time.monotonic() when the request arrived
    ended: float           # … and when its reply was sent
    output_tokens: int = 0  # the reply's, by `estimate_tokens`
    streamed: bool = False
    pieces: int | None = None   # streamed pieces the client took before the stream ended or it left


class LoopbackModel:
    def __init__(self, default: Reply | None = None, pace: Pace | None = None):
        self.default = default or Reply(content="{}")
        self.pace = pace                # when set, every call costs what it would on that model
        self.script: list[Reply] = []
        self.replies: dict[str, list[Reply]] = {}
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []     # each request's headers (names in lower case), in order
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self.stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        # serve_forever looks for shutdown() between polls: at its default 0.5 s every stop took half a
        # second (the test suite stops one of these ~100 times, the benchmark ~20).
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="loopback-model", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> LoopbackModel:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def on(self, kind: CallKind, *replies: Reply) -> LoopbackModel:
        """Calls of `kind` get `replies` in turn, then the last one again and again."""
        with self._lock:
            self.replies[kind] = list(replies)
        return self

    def kinds(self) -> list[str]:
        """The kind of every request so far, in order of arrival."""
        with self._lock:
            return [h.get(CALL_HEADER.lower(), "") for h in self.headers]

    def last(self, kind: str) -> dict:
        """The body of the latest request of call `kind` (a rewrite nobody waits for may
        arrive after the answer, so "the last request" is not the answer's)."""
        with self._lock:
            for body, headers in zip(reversed(self.requests), reversed(self.headers), strict=True):
                if headers.get(CALL_HEADER.lower(), "") == kind:
                    return body
        raise LookupError(f"no {kind} request came")

    def take_calls(self, at_least: int = 0, timeout_s: float = 5.0) -> list[Call]:
        """The calls answered since the last take, in the order they finished; with `at_least`,
        once that many are logged (a call is logged just after its last byte is written, so a
        client that has read the whole reply can ask before the server has logged it)."""
        deadline = time.monotonic() + timeout_s
        while True:
            with self._lock:
                if len(self.calls) >= at_least or time.monotonic() >= deadline:
                    calls, self.calls = self.calls, []
                    return calls
            time.sleep(0.01)

    def next_reply(self, body: dict, headers: dict[str, str]) -> tuple[str, Reply]:
        kind = headers.get(CALL_HEADER.lower(), "")
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            own = self.replies.get(kind) or (self.replies.get("answer") if kind == "section" else None)
            if own:
                return kind, own.pop(0) if len(own) > 1 else own[0]
            return kind, self.script.pop(0) if self.script else self.default

    def _log(self, kind: str, started: float, reply: Reply, streamed: bool, pieces: int | None) -> None:
        with self._lock:
            text = reply.content or "".join(reply.stream_pieces or ())
            self.calls.append(Call(kind, started, time.monotonic(), estimate_tokens(text), streamed, pieces))

    def _wait_until(self, at: float) -> bool:
        """Sleep until time.monotonic() reaches `at`; False when the server is stopping."""
        left = at - time.monotonic()
        return not (left > 0 and self.stopping.wait(left))

    def _handler(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):        # keep test and benchmark output clean
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):    # what OpenAI lists: one model here
                    return self._json(200, {"object": "list", "data": [
                        {"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "loopback"}]})
                return self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

            def do_POST(self):
                started = time.monotonic()
                self.sent: int | None = None     # streamed pieces the client took
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                kind, reply = model.next_reply(body, {k.lower(): v for k, v in self.headers.items()})
                if reply.hang:
                    model.stopping.wait()
                    return
                if reply.delay_s:
                    model.stopping.wait(reply.delay_s)
                if model.pace is not None and not body.get("stream"):
                    # A whole reply arrives when its last token is written.
                    tokens = estimate_tokens(reply.content + (reply.reasoning or ""), exact=True)
                    if not model._wait_until(started + model.pace.seconds(tokens)):
                        return
                self._answer(body, reply, started)
                model._log(kind, started, reply, bool(body.get("stream")), self.sent)

            def _answer(self, body: dict, reply: Reply, started: float):
                wants_schema = (body.get("response_format") or {}).get("type") == "json_schema"
                if reply.reject_schema and wants_schema:
                    message = reply.error_message or "response_format json_schema is not supported"
                    return self._json(400, {"error": {"message": message, "type": "invalid_request_error"}})
                if reply.reject_stream_options and "stream_options" in body:
                    # OpenAI's own words for a parameter it does not know.
                    message = reply.error_message or "Unrecognized request argument supplied: stream_options"
                    return self._json(400, {"error": {"message": message, "type": "invalid_request_error",
                                                      "param": None, "code": None}})
                if reply.status != 200 and reply.raw_body is None:
                    return self._json(reply.status, {"error": {"message": reply.error_message or "scripted failure",
                                                               "type": "server_error"}}, reply.headers)
                if reply.raw_body is not None:
                    return self._raw(reply)
                if body.get("stream"):
                    return self._stream(body, reply, started)
                message = {"role": "assistant", "content": reply.content}
                if reply.tool_calls:
                    message = {"role": "assistant", "content": None, "tool_calls": [
                        {"id": "call_1", "type": "function",
                         "function": {"name": "search", "arguments": json.dumps({"q": reply.content})}}]}
                if reply.reasoning is not None:
                    message["reasoning_content"] = reply.reasoning
                return self._json(200, {
                    "id": "chatcmpl-loopback", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "loopback"),
                    "choices": [{"index": 0, "finish_reason": "tool_calls" if reply.tool_calls else "stop",
                                 "message": message}],
                    **({"usage": _usage(body, reply)} if reply.send_usage else {})}, reply.headers)

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

            def _stream(self, body: dict, reply: Reply, started: float):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                pace = model.pace
                # With a pace: the first piece after the time to first token, each later one when
                # its last token would be written (measured from the start, so no drift builds up).
                written = 0.0
                if pace is not None and not model._wait_until(started + pace.ttft_s):
                    return
                if reply.reasoning is not None:
                    for word in reply.reasoning.split(" "):
                        self._chunk(body, reply, {"reasoning_content": word + " "})
                        if pace is not None:
                            written += estimate_tokens(word + " ", exact=True)
                            if not model._wait_until(started + pace.seconds(written)):
                                return
                self.sent = 0
                finish = "tool_calls" if reply.tool_calls else "stop"
                for i, piece in enumerate(reply.pieces()):
                    if pace is not None and i and not model._wait_until(started + pace.seconds(written)):
                        return
                    if body.get("max_tokens") and written + estimate_tokens(piece, exact=True) > body["max_tokens"]:
                        finish = "length"
                        break
                    if reply.hang_after == i:
                        model.stopping.wait()
                        return
                    if reply.fail_mid_stream and i == 3:
                        self.wfile.flush()
                        self.connection.shutdown(2)
                        return
                    if reply.malformed_chunk_at == i:
                        self.wfile.write(b"data: {not json\n\n")
                        self.wfile.flush()
                    if reply.tool_calls:
                        self._chunk(body, reply, {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                                                  "function": {"name": "search", "arguments": piece}}]})
                    elif not self._chunk(body, reply, {"content": piece}):
                        return                       # the client left: a real server stops writing too
                    written += estimate_tokens(piece, exact=True)
                    if reply.token_delay_s and model.stopping.wait(reply.token_delay_s):
                        return
                if pace is not None and not model._wait_until(started + pace.seconds(written)):
                    return
                final = {"id": "chatcmpl-loopback", "object": "chat.completion.chunk", "created": 0,
                         "model": body.get("model", "loopback"),
                         "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
                if self._wants_usage(body, reply):
                    final["usage"] = None
                try:
                    self.wfile.write(f"data: {json.dumps(final)}\n\n".encode())
                    if self._wants_usage(body, reply):
                        # As OpenAI sends it: one more chunk, no choices, the whole request's usage.
                        last = {**final, "choices": [], "usage": _usage(body, reply)}
                        self.wfile.write(f"data: {json.dumps(last)}\n\n".encode())
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                except OSError:             # the client left after the last piece
                    pass
                self.close_connection = True

            def _wants_usage(self, body: dict, reply: Reply) -> bool:
                return reply.send_usage and bool((body.get("stream_options") or {}).get("include_usage"))

            def _chunk(self, body: dict, reply: Reply, delta: dict):
                chunk = {"id": "chatcmpl-loopback", "object": "chat.completion.chunk", "created": 0,
                         "model": body.get("model", "loopback"),
                         "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
                if self._wants_usage(body, reply):
                    chunk["usage"] = None        # every chunk but the last carries a null usage
                try:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                except OSError:             # the client gave up on the stream
                    self.close_connection = True
                    return False
                if self.sent is not None:
                    self.sent += 1
                return True

        return Handler


def _usage(body: dict, reply: Reply) -> dict:
    """The usage a reply reports: the scripted counts, else a rough count of the request and reply."""
    text = reply.content or "".join(reply.stream_pieces or ())
    prompt = reply.prompt_tokens if reply.prompt_tokens is not None else len(json.dumps(body["messages"])) // 4
    completion = reply.completion_tokens if reply.completion_tokens is not None else max(1, len(text) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
