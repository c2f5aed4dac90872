"""The printer: one warm Chromium per process, shared by every session that asks for a PDF.

A Chromium per click took seconds to start and about 1 GB each (12 at once were 94 processes
and about 8 GB), and anyone with a shared link could start one. Here one browser is launched on
first use (again if it died) and kept; at most `at_once` pages print on it at a time, the rest
wait in order and each can be told how many reports are ahead of it; a visitor has at most one
print in flight, the queue is bounded, and every print has a deadline, so a page that hangs
fails alone and the queue moves on.

Playwright is bound to the thread that started it, so the browser lives on the printer's own
thread, which runs an asyncio loop (two pages print at once on one thread); callers hand in a
document and wait on a `concurrent.futures.Future`. A PDF already kept (`kept_pdfs`) is
returned without a print. Every request off the machine is refused: the document is
self-contained. `pdf_bytes` is the plain call (the command line).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import logging
import re
import shutil
import threading
from concurrent.futures import Future
from typing import Literal

from ..errors import FinSearchError
from .kept_pdfs import KeptPdfs, PdfKey

log = logging.getLogger(__name__)

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
AT_ONCE = 2                   # pages printing at once on the one browser (a report prints in about a second)
DEADLINE_S = 20.0             # one print, from leaving the queue to the PDF
MAX_WAITING = 16              # beyond this many waiting, a print is refused rather than queued for minutes
CLOSE_S = 5.0
_MARGIN = {"top": "14mm", "bottom": "14mm", "left": "12mm", "right": "12mm"}
_OFF_MACHINE = re.compile(r"^(?!data:|about:).*")
_CHARTS_DRAWN = "() => [...document.querySelectorAll('.chart')].every(c => c.querySelector('.main-svg'))"

Refusal = Literal["visitor_busy", "queue_full"]
Stage = Literal["queued", "printing", "done"]


class PrintRefused(FinSearchError):
    """A print not taken: this visitor already has one in flight, or the queue is full."""

    def __init__(self, reason: Refusal):
        super().__init__({"visitor_busy": "a PDF of yours is already being printed",
                          "queue_full": "too many PDFs are waiting to be printed"}[reason])
        self.reason = reason


class PrintFailed(FinSearchError):
    """A print that ended without a PDF: Chromium missing or crashed, or the deadline passed."""


@dataclasses.dataclass(frozen=True)
class PrintState:
    stage: Stage
    ahead: int = 0            # while queued: reports printing or waiting before this one


class PrintJob:
    """One document to print, as its caller holds it: `state()` while it waits, `result()` at the end."""

    def __init__(self, printer: Printer | None, document: str, visitor: str | None, key: PdfKey | None,
                 shelf: KeptPdfs | None):
        self.printer, self.document, self.visitor, self.key, self.shelf = printer, document, visitor, key, shelf
        self.future: Future[bytes] = Future()

    def done(self) -> bool:
        return self.future.done()

    def wait(self, timeout: float) -> bool:
        """Wait at most `timeout` seconds; whether the job has ended."""
        try:
            self.future.exception(timeout=timeout)
        except TimeoutError:
            return False
        return True

    def result(self, timeout: float | None = None) -> bytes:
        """The PDF's bytes, or the `PrintRefused` / `PrintFailed` that ended it."""
        return self.future.result(timeout=timeout)

    def state(self) -> PrintState:
        if self.done() or self.printer is None:
            return PrintState("done")
        return self.printer.state(self)


class Printer:
    """One Chromium, launched on the first print, shared by every caller of this process."""

    def __init__(self, executable: str | None = None, *, at_once: int = AT_ONCE, deadline_s: float = DEADLINE_S,
                 max_waiting: int = MAX_WAITING):
        self.executable = executable or shutil.which("chromium") or shutil.which("chromium-browser")
        self.at_once, self.deadline_s, self.max_waiting = at_once, deadline_s, max_waiting
        self.launches = 0                  # browsers started so far (a relaunch after a crash counts)
        self.prints = 0                    # documents Chromium was asked to print
        self._lock = threading.Lock()      # the queue, as callers and the printer thread see it
        self._waiting: list[PrintJob] = []
        self._printing: list[PrintJob] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._playwright = None
        self._browser = None
        self._launching: asyncio.Lock | None = None
        self._tasks: set[asyncio.Task] = set()

    # -- what callers use (any thread) ----------------------------------------------------------

    def submit(self, document: str, *, visitor: str | None = None, key: PdfKey | None = None,
               shelf: KeptPdfs | None = None) -> PrintJob:
        """The job printing `document`: already done when `shelf` keeps `key`'s PDF, the same job
        when that document is already queued or printing (another visitor of a shared report);
        `PrintRefused` when `visitor` has another print in flight or the queue is full. A
        visitor of None (the command line) has no limit."""
        if key is not None and shelf is not None and (done := kept(key, shelf)) is not None:
            return done
        with self._lock:
            in_flight = self._waiting + self._printing
            same = next((j for j in in_flight if key is not None and j.key == key), None)
            if same is not None:
                return same
            if visitor is not None and any(j.visitor == visitor for j in in_flight):
                raise PrintRefused("visitor_busy")
            if len(self._waiting) >= self.max_waiting:
                raise PrintRefused("queue_full")
            job = PrintJob(self, document, visitor, key, shelf)
            self._waiting.append(job)
            loop = self._started()
        loop.call_soon_threadsafe(self._dispatch)
        return job

    def print(self, document: str, **kwargs) -> bytes:
        """`submit`, then wait for the PDF (each print has its deadline, so the wait ends)."""
        return self.submit(document, **kwargs).result()

    def state(self, job: PrintJob) -> PrintState:
        with self._lock:
            if job in self._waiting:
                return PrintState("queued", len(self._printing) + self._waiting.index(job))
            if job in self._printing:
                return PrintState("printing")
        return PrintState("done")

    def close(self) -> None:
        """Close the browser and stop the printer's thread (at exit; a later print starts again)."""
        with self._lock:
            loop, thread, self._loop, self._thread = self._loop, self._thread, None, None
        if loop is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self._shut(), loop).result(timeout=CLOSE_S * 3)
        except Exception as exc:  # closing at exit: nothing left to tell anyone
            log.warning("the printer's browser did not close cleanly: %s", exc)
        loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=CLOSE_S)

    # -- the printer's thread -----------------------------------------------------------------

    def _started(self) -> asyncio.AbstractEventLoop:
        """The printer thread's loop, started on first use (called under the lock)."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            self._launching = None
            self._thread = threading.Thread(target=_serve, args=(self._loop,), name="finsearch-printer", daemon=True)
            self._thread.start()
        return self._loop

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            while self._waiting and len(self._printing) < self.at_once:
                job = self._waiting.pop(0)
                self._printing.append(job)
                task = loop.create_task(self._run(job))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _run(self, job: PrintJob) -> None:
        outcome: bytes | BaseException
        try:
            outcome = await asyncio.wait_for(self._print(job.document), self.deadline_s)
        except asyncio.TimeoutError:
            outcome = PrintFailed(f"the page did not print within {self.deadline_s:g} s")
        except asyncio.CancelledError:      # only `close` cancels a print
            outcome = PrintFailed("the printer was closed")
        except FinSearchError as exc:
            outcome = exc
        except Exception as exc:  # Chromium crashed mid-print: this print fails, the next relaunches it
            outcome = PrintFailed(f"Chromium failed while printing ({type(exc).__name__})")
            log.warning("a print failed: %s", exc)
        if isinstance(outcome, bytes) and job.key is not None and job.shelf is not None:
            job.shelf.put(job.key, outcome)
        with self._lock:
            self._printing.remove(job)
        if isinstance(outcome, bytes):
            job.future.set_result(outcome)
        else:
            job.future.set_exception(outcome)
        self._dispatch()

    async def _print(self, document: str) -> bytes:
        page = await self._new_page()
        self.prints += 1
        try:
            # Offline by design: the document is self-contained, so nothing may be fetched.
            await page.route(_OFF_MACHINE, lambda route: route.abort())
            await page.set_content(document, wait_until="load")
            # Charts print as drawn: wait until plotly has drawn every one.
            await page.wait_for_function(_CHARTS_DRAWN, timeout=self.deadline_s * 1000)
            await page.emulate_media(media="print")
            return await page.pdf(format="A4", print_background=True, margin=_MARGIN)
        finally:
            try:
                await asyncio.wait_for(page.close(), CLOSE_S)
            except Exception as exc:  # a hung page's close: the browser is relaunched if it is gone
                log.warning("a printed page did not close: %s", exc)

    async def _new_page(self):
        """A fresh page (its own context) on the browser, relaunched once if it turns out to be gone
        (killed between two prints: the disconnect may not have been seen yet)."""
        for attempt in (1, 2):
            browser = await self._browser_ready()
            try:
                return await browser.new_page()
            except Exception:
                if attempt == 2 or browser.is_connected():
                    raise
                self._browser = None
        raise AssertionError("unreachable")

    async def _browser_ready(self):
        if self._launching is None:
            self._launching = asyncio.Lock()
        async with self._launching:
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            try:
                from playwright.async_api import async_playwright
            except ImportError as exc:
                raise PrintFailed("PDF export needs playwright: pip install playwright") from exc
            if self._playwright is None:
                self._playwright = await async_playwright().start()
            try:
                self._browser = await self._playwright.chromium.launch(executable_path=self.executable,
                                                                       args=CHROMIUM_ARGS)
            except Exception as exc:
                # Playwright's own driver may be what died: the next print starts it again.
                playwright, self._playwright = self._playwright, None
                with contextlib.suppress(Exception):
                    await playwright.stop()
                raise PrintFailed(f"PDF export needs Chromium (apt-get install chromium): {exc}") from exc
            self.launches += 1
            return self._browser

    async def _shut(self) -> None:
        """End every print (those waiting fail, those printing are cancelled), then the browser."""
        with self._lock:
            waiting, self._waiting = self._waiting, []
        for job in waiting:
            job.future.set_exception(PrintFailed("the printer was closed"))
        printing = list(self._tasks)
        for task in printing:
            task.cancel()
        await asyncio.gather(*printing, return_exceptions=True)
        browser, playwright, self._browser, self._playwright = self._browser, self._playwright, None, None
        if browser is not None:
            with contextlib.suppress(Exception):     # gone already, or hung: the driver's stop ends it
                await asyncio.wait_for(browser.close(), CLOSE_S)
        if playwright is not None:
            await asyncio.wait_for(playwright.stop(), CLOSE_S)


def _serve(loop: asyncio.AbstractEventLoop) -> None:
    """The printer's thread: its loop, until `close` stops it."""
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        left = asyncio.all_tasks(loop)      # Playwright's own, when its driver did not stop in time
        for task in left:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
        loop.close()


def kept(key: PdfKey, shelf: KeptPdfs) -> PrintJob | None:
    """A finished job holding the PDF `shelf` keeps for `key`, or None: Chromium is not asked."""
    pdf = shelf.get(key)
    if pdf is None:
        return None
    job = PrintJob(None, "", None, key, shelf)
    job.future.set_result(pdf)
    return job


_shared: Printer | None = None
_shared_lock = threading.Lock()


def shared() -> Printer:
    """This process's printer, made on first use and closed at exit."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Printer()
            atexit.register(_shared.close)
        return _shared


def pdf_bytes(document: str) -> bytes:
    """The HTML printed to PDF by the shared printer; a FinSearchError naming the fix when it cannot be."""
    return shared().print(document)
