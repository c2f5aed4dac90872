"""The OpenAI chat-completions wire as the loopback server writes a scripted `Reply`: a whole reply, an error, a stream.

    ChatWire            the request handler's writing half; `loopback.LoopbackModel`'s handler reads the
                        request, picks the reply and hands it to `_answer(body, reply, started)`
    reply_usage(body, reply) → the usage a reply reports

Usage is reported as OpenAI reports it: in a whole reply, and in a stream only when the request
asks (`stream_options.include_usage`), as one last chunk with no choices. A stream stops, as a
real server's does, at the request's `max_tokens` (finish_reason "length"), or when the client
closes the connection (`sent` says how many pieces it had been sent by then). With the server's
`Pace`, each streamed piece is sent when its last token would be written.
"""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING

from .text import estimate_tokens

if TYPE_CHECKING:
    from .loopback import LoopbackModel, Reply


class ChatWire(BaseHTTPRequestHandler):
    """Writes a `Reply` as an OpenAI-compatible server would; `model` is the server it answers for."""
    protocol_version = "HTTP/1.1"
    model: LoopbackModel
    sent: int | None = None         # streamed pieces the client took

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
            **({"usage": reply_usage(body, reply)} if reply.send_usage else {})}, reply.headers)

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
        model = self.model
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        pace = model.pace
        # With a pace: the first piece after the time to first token, each later one when
        # its last token would be written (measured from the start, so no drift builds up).
        written = 0.0
        if pace is not None and not model.wait_until(started + pace.ttft_s):
            return
        if reply.reasoning is not None:
            for word in reply.reasoning.split(" "):
                self._chunk(body, reply, {"reasoning_content": word + " "})
                if pace is not None:
                    written += estimate_tokens(word + " ", exact=True)
                    if not model.wait_until(started + pace.seconds(written)):
                        return
        self.sent = 0
        finish = "tool_calls" if reply.tool_calls else "stop"
        for i, piece in enumerate(reply.pieces()):
            if pace is not None and i and not model.wait_until(started + pace.seconds(written)):
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
        if pace is not None and not model.wait_until(started + pace.seconds(written)):
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
                last = {**final, "choices": [], "usage": reply_usage(body, reply)}
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


def reply_usage(body: dict, reply: Reply) -> dict:
    """The usage a reply reports: the scripted counts, else a rough count of the request and reply."""
    text = reply.content or "".join(reply.stream_pieces or ())
    prompt = reply.prompt_tokens if reply.prompt_tokens is not None else len(json.dumps(body["messages"])) // 4
    completion = reply.completion_tokens if reply.completion_tokens is not None else max(1, len(text) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
