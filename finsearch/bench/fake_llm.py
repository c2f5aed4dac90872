"""A loopback OpenAI-compatible server with the latency of a real one, for the benchmark.

Every call waits `delay_s` before its first byte (a round trip); streamed answers then
arrive at `tokens_per_s`. Replies are shaped like a cooperative model's: the planner
returns the rule-based draft it was shown, the rewriter keeps the sub-query it was given,
the writer streams `answer_tokens` tokens citing the first evidence item. Each call is
logged with its kind and timing.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_DRAFT = re.compile(r"draft plan[^\n]*:\n(\{.*\})\s*\n\s*Reply", re.S)
_SUB_QUERY = re.compile(r"Sub-query to refine \(source: [^)]*\): (.*)\nCurrent args: (\{.*\})\n")


@dataclasses.dataclass(frozen=True)
class Call:
    kind: str              # plan | rewrite | answer | other
    started: float
    ended: float


class BenchLLM:
    def __init__(self, delay_s: float = 0.4, tokens_per_s: float = 80.0, answer_tokens: int = 120):
        self.delay_s, self.tokens_per_s, self.answer_tokens = delay_s, tokens_per_s, answer_tokens
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def answer_seconds(self) -> float:
        """One streamed answer: the round trip, then its tokens."""
        return self.delay_s + self.answer_tokens / self.tokens_per_s

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def reset(self) -> list[Call]:
        with self._lock:
            calls, self.calls = self.calls, []
        return calls

    def reply(self, body: dict) -> tuple[str, str]:
        system = body["messages"][0]["content"]
        user = body["messages"][-1]["content"] if len(body["messages"]) > 1 else ""
        if "pre-planner" in system:
            draft = _DRAFT.search(body["messages"][1]["content"])
            return "plan", draft.group(1) if draft else '{"nodes": []}'
        if "query rewriter" in system:
            found = _SUB_QUERY.search(user)
            if found:
                return "rewrite", json.dumps({"sub_query": found.group(1), "args": json.loads(found.group(2))})
            return "rewrite", "{}"
        if body.get("stream"):
            words = ["The", "evidence", "shows", "a", "decline", "[1]."] + \
                ["word"] * max(0, self.answer_tokens - 6)
            return "answer", " ".join(words[: self.answer_tokens])
        return "other", "{}"

    def _handler(self):
        bench = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                started = time.monotonic()
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                kind, text = bench.reply(body)
                time.sleep(bench.delay_s)
                if body.get("stream"):
                    self._stream(text)
                else:
                    self._json(text)
                with bench._lock:
                    bench.calls.append(Call(kind, started, time.monotonic()))

            def _json(self, text: str):
                data = json.dumps({"id": "bench", "object": "chat.completion", "created": 0, "model": "bench",
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": text}}],
                                   "usage": {"prompt_tokens": 100, "completion_tokens": len(text) // 4,
                                             "total_tokens": 100 + len(text) // 4}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, text: str):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                words = text.split(" ")
                for i, word in enumerate(words):
                    piece = word + (" " if i < len(words) - 1 else "")
                    self._chunk({"content": piece}, None)
                    time.sleep(1 / bench.tokens_per_s)
                self._chunk({}, "stop")
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

            def _chunk(self, delta: dict, finish):
                chunk = {"id": "bench", "object": "chat.completion.chunk", "created": 0, "model": "bench",
                         "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()

        return Handler
