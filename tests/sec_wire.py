"""SEC EDGAR at httpx's transport: `tests/fixtures/sec/` (see PROVENANCE.md there) served by
an `httpx.MockTransport`, the seam httpx itself offers. Everything above it — httpx's client,
the adapter, the builders, the section finder and the ranker — runs as in production.

On demand a host fails the way SEC and the network do: 403 (SEC's answer to an undeclared
client), 429, 503, a read timeout, a refused connection, a body that is no longer SEC's
shape ("changed"), a body that never ends ("endless"), one that never ends and arrives a byte
at a time ("trickle") or a gzip body that inflates a thousandfold ("bomb"). Every request is logged with its User-Agent.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import time
import zlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

import httpx
import pytest

from finsearch.sources.sec import adapter
from finsearch.sources.sec.adapter import SecEdgar, forget_tickers

NOW = datetime(2024, 11, 15, 21, 0, tzinfo=timezone.utc)   # the SEC tests' clock
IDENTITY = "FinSearch Tests tests@example.com"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sec"
Fault = Literal["403", "429", "503", "timeout", "refused", "changed", "endless", "trickle", "bomb"]
# SEC's page for a client it will not serve (abridged).
UNDECLARED = ("<html><head><title>SEC.gov | Your Request Originates from an Undeclared Automated Tool</title></head>"
              "<body><h1>Your Request Originates from an Undeclared Automated Tool</h1></body></html>")


@dataclasses.dataclass(frozen=True)
class Sent:
    url: str
    user_agent: str


class Edgar:
    def __init__(self):
        self.sent: list[Sent] = []
        self._faults: list[list] = []          # [fault, url part, times left or None]
        self.transport = httpx.MockTransport(self._handle)
        self.document = (FIXTURES / "aapl-20240928.htm").read_bytes()     # or recorded_10k()
        self.replaced: dict[str, bytes] = {}   # a URL path → the body served instead of the fixture

    def fail(self, fault: Fault, on: str = "", times: int | None = None) -> Edgar:
        """Requests whose URL contains `on` (default: every one) answer with `fault`."""
        self._faults.append([fault, on, times])
        return self

    def count(self, part: str = "") -> int:
        return sum(1 for s in self.sent if part in s.url)

    def _fault(self, url: str) -> Fault | None:
        for entry in self._faults:
            fault, on, left = entry
            if on in url and left != 0:
                entry[2] = None if left is None else left - 1
                return fault
        return None

    def _handle(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        self.sent.append(Sent(url, request.headers.get("user-agent", "")))
        fault = self._fault(url)
        if fault == "timeout":
            raise httpx.ReadTimeout("The read operation timed out", request=request)
        if fault == "refused":
            raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
        if fault in ("403", "429", "503"):
            return httpx.Response(int(fault), text=UNDECLARED, headers={"content-type": "text/html"})
        if fault == "changed":
            return httpx.Response(200, json={"cik": "0000320193", "filings": {"history": []}})
        if fault in ("endless", "trickle"):
            self.endless = _Endless() if fault == "endless" else _Endless(b"x", pause_s=0.05)
            return httpx.Response(200, stream=self.endless, headers={"content-type": "text/html"})
        if fault == "bomb":
            # A stream, so that nothing inflates it before the client reads it.
            return httpx.Response(200, stream=httpx.ByteStream(_bomb()),
                                  headers={"content-type": "text/html", "content-encoding": "gzip"})
        path = request.url.path
        if path in self.replaced:
            return httpx.Response(200, content=self.replaced[path], headers={"content-type": "text/xml"})
        if path == "/files/company_tickers.json":
            return httpx.Response(200, content=(FIXTURES / "company_tickers.json").read_bytes(),
                                  headers={"content-type": "application/json"})
        if path == "/submissions/CIK0000320193.json":
            return httpx.Response(200, content=(FIXTURES / "submissions_CIK0000320193.json").read_bytes(),
                                  headers={"content-type": "application/json"})
        if path == "/submissions/CIK0001318605.json":
            return httpx.Response(200, content=gzip.decompress(
                (FIXTURES / "recorded" / "submissions_CIK0001318605.json.gz").read_bytes()),
                headers={"content-type": "application/json"})
        if path == "/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm":
            return httpx.Response(200, content=self.document, headers={"content-type": "text/html"})
        if path == "/submissions/CIK0001067983.json":
            return httpx.Response(200, content=(FIXTURES / "submissions_CIK0001067983.json").read_bytes(),
                                  headers={"content-type": "application/json"})
        form4 = FIXTURES / "form4" / path.rsplit("/", 1)[1]
        if path.startswith("/Archives/edgar/data/320193/") and path.count("/") == 6 and form4.is_file():
            return httpx.Response(200, content=form4.read_bytes(), headers={"content-type": "text/xml"})
        if path.startswith("/Archives/edgar/data/1067983/"):
            folder, name = path.split("/")[5:7]
            thirteen_f = FIXTURES / "13f" / f"{folder}_{name}"
            if thirteen_f.is_file():
                kind = "application/json" if name.endswith(".json") else "text/xml"
                return httpx.Response(200, content=thirteen_f.read_bytes(), headers={"content-type": kind})
        if path.startswith("/api/xbrl/companyconcept/CIK0000320193/us-gaap/"):
            concept = FIXTURES / f"companyconcept_CIK0000320193_{path.rsplit('/', 1)[1]}"
            if concept.exists():
                return httpx.Response(200, content=concept.read_bytes(), headers={"content-type": "application/json"})
        return httpx.Response(404, text="Not Found")


class _Endless(httpx.SyncByteStream):
    """A body that never ends, in `chunk`s `pause_s` apart; `sent` counts the bytes handed to
    the client, `closed` says whether the client has hung up."""

    def __init__(self, chunk: bytes = b"<p>" + b"x" * (2**16 - 3), pause_s: float = 0.0):
        self.chunk, self.pause_s = chunk, pause_s
        self.sent, self.closed = 0, False

    def __iter__(self):
        while not self.closed:
            if self.pause_s:
                time.sleep(self.pause_s)
            self.sent += len(self.chunk)
            yield self.chunk

    def close(self) -> None:
        self.closed = True


def _bomb(inflated_mb: int = 256) -> bytes:
    """A gzip body of a few hundred kilobytes that inflates to `inflated_mb` MB of zeros."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(2**20)
    return b"".join(packer.compress(zeros) for _ in range(inflated_mb)) + packer.flush()


def recorded_10k() -> bytes:
    """Apple's FY2024 10-K as EDGAR serves it (fixtures/sec/recorded, see PROVENANCE.md)."""
    return gzip.decompress((FIXTURES / "recorded" / "aapl-20240928.htm.gz").read_bytes())


def submissions() -> dict:
    return json.loads((FIXTURES / "submissions_CIK0000320193.json").read_text())


# The fixtures the SEC tests share (tests/conftest.py makes them everyone's).
# SEC's pace (0.11 s between requests, process-wide): test_requests_are_paced_under_ten_a_second
# checks it; every other SEC test would spend a tenth of a second a request waiting on it.
SEC_PACE_S = adapter.MIN_INTERVAL_S


@pytest.fixture
def edgar(no_waiting, monkeypatch) -> Edgar:
    """SEC at the transport; retries against it never sleep, and requests are not paced."""
    forget_tickers()
    monkeypatch.setattr(adapter, "MIN_INTERVAL_S", 0.0)
    return Edgar()


@pytest.fixture
def sec(edgar) -> SecEdgar:
    return SecEdgar(IDENTITY, transport=edgar.transport, clock=lambda: NOW, timeout_s=5.0)
