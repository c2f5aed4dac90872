"""A uvicorn server run on a thread of the test's process for as long as a test needs it: started
(waited for, within a bound) and stopped cleanly after, so a test can look at its state directly."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import uvicorn


@contextlib.contextmanager
def serving(server: uvicorn.Server, what: str) -> Iterator[None]:
    thread = threading.Thread(target=server.run, name=f"test-{what}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, f"the {what} did not start"
        time.sleep(0.02)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(15)
        assert not thread.is_alive(), f"the {what} did not stop"
