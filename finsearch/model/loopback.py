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
`headers`), and every answered call is logged with its kind, timing and output tokens (`calls`;
a streamed call's `pieces` says how many the client had been sent when it ended or left).
How a `Reply` is written on the wire, usage and streams included, is `chat_wire`'s.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from http.server import ThreadingHTTPServer

from .chat_wire import ChatWire
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

    def wait_until(self, at: float) -> bool:
        """Sleep until time.monotonic() reaches `at`; False when the server is stopping."""
        left = at - time.monotonic()
        return not (left > 0 and self.stopping.wait(left))

    def _handler(self):
        model = self

        class Handler(ChatWire):
            def log_message(self, *args):        # keep test and benchmark output clean
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):    # what OpenAI lists: one model here
                    return self._json(200, {"object": "list", "data": [
                        {"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "loopback"}]})
                return self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

            def do_POST(self):
                started = time.monotonic()
                self.sent = None
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
                    if not model.wait_until(started + model.pace.seconds(tokens)):
                        return
                self._answer(body, reply, started)
                model._log(kind, started, reply, bool(body.get("stream")), self.sent)

        Handler.model = model
        return Handler
