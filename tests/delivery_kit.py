"""What the delivery tests share: a notice with hostile text in it, a real HTTP receiver on loopback that
records each request and answers as the test scripts it, and a real SMTP server on loopback that keeps each mail."""

from __future__ import annotations

import dataclasses
import email
import threading
from datetime import datetime, timezone
from email import policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from aiosmtpd.controller import Controller

from finsearch.answer.citations import Reference
from finsearch.delivery.notice import Notice
from tests.redis_kit import free_port

HOSTILE_MARKDOWN = ("NVDA fell **4.1%** today [1]. <script>alert('x')</script> <!channel> "
                    "[click](javascript:alert(1)) & more")


def notice(notice_id: str = "alert-NVDA-2024-10-15-move", owner: str = "visitor-1", language: str = "en",
           markdown: str = HOSTILE_MARKDOWN) -> Notice:
    refs = (Reference(1, "quote-NVDA", "NVDA <img src=x onerror=alert(1)> quote", "https://finance.example.com/q/NVDA",
                      "Example Finance", day="2024-10-15"),
            Reference(2, "news-1", "A story with a bad link", "javascript:alert(2)", "Somebody"))
    return Notice(notice_id, owner, "alert", "NVDA moved −4.1%\r\nBcc: victim@example.com", markdown, refs,
                  language, datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc))


@dataclasses.dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """A webhook receiver: answers each request with the next scripted (status, body, headers),
    the last one again once the script is spent. `hold` keeps every answer until it is set."""

    def __init__(self, script: list[tuple[int, bytes, dict]] | None = None):
        self.script = list(script or [(200, b"ok", {})])
        self.requests: list[Received] = []
        self.hold = threading.Event()
        self.hold.set()
        self.arrived = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                receiver.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                receiver.arrived.set()
                receiver.hold.wait(10)
                status, answer, headers = receiver.script.pop(0) if len(receiver.script) > 1 else receiver.script[0]
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.hold.set()
        self.server.shutdown()
        self.server.server_close()


class Mailbox:
    """An SMTP server on loopback (aiosmtpd) that keeps each message it is handed, parsed."""

    def __init__(self):
        self.messages: list = []
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port())

    @property
    def port(self) -> int:
        return self.controller.port

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"

    def __enter__(self) -> Mailbox:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()
