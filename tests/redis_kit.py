"""A real redis-server for tests: on a free loopback port, in a temporary folder, stopped after.

`scripts/test.sh` installs Debian's redis-server; without it the Redis tests are skipped with
that reason (on CI it is always there). Persistence is on (append-only file, fsync on every
write), so a test can kill the server like a crash and start it again on the same data.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from finsearch.hosting.redis_link import new_client

SERVER = shutil.which("redis-server")
MISSING = "redis-server is not installed (scripts/test.sh installs it: apt-get install redis-server)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--protected-mode", "yes",
             "--logfile", str(self.folder / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = new_client(self.url)
        for _ in range(200):                       # ready within a second or two on a busy machine
            try:
                if client.ping():
                    break
            except Exception:  # not listening yet
                time.sleep(0.02)
        else:
            self.stop()
            raise RuntimeError(f"redis-server did not start; see {self.folder / 'redis.log'}")
        client.close()
        return self

    def pause(self) -> None:
        """Freeze it (SIGSTOP), like a server stuck in a long command or a swapped-out machine: it
        still accepts connections (the kernel does), but answers nothing until `resume`."""
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """Stop it like a crash (SIGKILL): no goodbye, no final save."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.resume()                          # a paused server would not act on SIGTERM
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.process = None

    def client(self):
        return new_client(self.url)

    def values(self) -> str:
        """Every key and value in the server, as one text (for looking for what must not be there)."""
        client = self.client()
        out = []
        read = {"string": client.get, "hash": client.hgetall, "set": client.smembers,
                "list": lambda key: client.lrange(key, 0, -1),
                "zset": lambda key: client.zrange(key, 0, -1, withscores=True)}
        for key in client.scan_iter(count=500):
            kind = client.type(key)
            out.append(f"{key} {read[kind](key) if kind in read else kind}")
        client.close()
        return "\n".join(out)


def running_redis(folder: Path) -> Iterator[RedisServer]:
    """The `redis_server` fixture's body (conftest.py): a started server, stopped afterwards."""
    if SERVER is None:
        pytest.skip(MISSING)
    server = RedisServer(folder).start()
    try:
        yield server
    finally:
        server.stop()
