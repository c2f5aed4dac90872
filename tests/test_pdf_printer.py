"""The PDF printer (finsearch/export/printer.py): one warm Chromium per process shared by every
session, a bounded number of prints at once with the rest queued and told their place, one print
in flight per visitor, a deadline per print, a browser that died relaunched, and a PDF printed once
and kept (kept_pdfs.py). The heavy tests drive Debian's Chromium and count its processes in /proc;
the page's side (the place in the queue, a refusal) is checked through AppTest, and a print made
from the page and its kept PDF offered at once after a reload in test_browser_research's end-to-end run."""

from __future__ import annotations

import dataclasses
import io
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from finsearch.export import printer
from finsearch.export.kept_pdfs import KeptPdfs, PdfKey
from finsearch.export.printer import Printer, PrintFailed, PrintJob, PrintRefused, PrintState
from finsearch.export.report import html_document
from finsearch.research.run import report
from finsearch.settings import from_env
from tests.app_kit import APP
from tests.browser_kit import CHROMIUM
from tests.conftest import DEMO_PACK, NOW
from ui.research.session import ResearchSession

NVIDIA = "Analyse NVIDIA's recent performance and outlook"
# A chart plotly never draws: the printer waits for it until the print's deadline.
HUNG = '<!doctype html><html><body><p>never ready</p><div class="chart"></div></body></html>'
SMALL = "<!doctype html><html><body><h1>A small report</h1></body></html>"


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The bundled sample's report (the demo pack, offline), with its K-line chart."""
    home = tmp_path_factory.mktemp("sample")
    settings = from_env({}, cache_dir=home / "cache", data_dir=home / "data", llm="heuristic", now=NOW,
                        pack=DEMO_PACK, offline=True)
    return report(NVIDIA, settings=settings, now=NOW)


@pytest.fixture
def chromium_printer():
    made: list[Printer] = []

    def make(**kwargs) -> Printer:
        made.append(Printer(CHROMIUM, **kwargs))
        return made[-1]

    yield make
    for one in made:
        one.close()


# -- /proc: the Chromium processes this test's printers started -----------------------------------

def _parents() -> dict[int, int]:
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                parents[int(name)] = int(Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return parents


def _descendants(root: int, parents: dict[int, int]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _chromium_under(root: int, parents: dict[int, int]) -> tuple[list[int], list[int]]:
    """Chromium has its arguments written back as one string, so the command line is read joined.
    A browser process has no `--type=` (renderers, the GPU and utility processes and the zygotes all
    have one) and no Chromium parent: a child the browser has forked and not yet exec'd still carries
    the browser's command line (the 8-session test once counted two browsers so, on a busy machine)."""
    real = os.path.realpath(CHROMIUM)
    lines: dict[int, str] = {}
    for pid in _descendants(root, parents):
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if line.startswith((CHROMIUM, real, "/usr/lib/chromium/")):
            lines[pid] = line
    browsers = [pid for pid, line in lines.items() if "--type=" not in line and parents.get(pid) not in lines]
    return list(lines), browsers


_before: set[int] = set()      # Chromium browsers running when the test began, and not its printers'


@pytest.fixture(autouse=True)
def _others_chromium():
    """The browser tests' Chromium (one for the whole session) is not this test's to count."""
    _before.clear()
    _before.update(_chromium_under(os.getpid(), _parents())[1])
    yield
    _before.clear()


def chromium_processes() -> tuple[list[int], list[int]]:
    """(every Chromium process this test's printers started, the browser processes among them):
    those under this test process, less any browser running before the test and what is under it."""
    parents = _parents()
    every, browsers = _chromium_under(os.getpid(), parents)
    others = {*_before, *(pid for root in _before for pid in _descendants(root, parents))}
    return [p for p in every if p not in others], [p for p in browsers if p not in others]


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            total += next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                          if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
    return total / 1024


def wait_for(check, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


def text_of(pdf: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


# -- without Chromium ------------------------------------------------------------------------------

def test_the_same_report_gives_the_same_html(sample):
    # The PDF is kept under a digest of the HTML: a chart's random id made every export a new document.
    assert html_document(sample) == html_document(sample)
    assert 'id="chart-1"' in html_document(sample)


def test_a_kept_pdf_is_returned_without_starting_chromium(tmp_path):
    shelf = KeptPdfs(tmp_path)
    key = PdfKey.of("abc123", "<html>the report</html>")
    shelf.put(key, b"%PDF-1.4 kept")
    nowhere = Printer("/nonexistent/chromium")
    job = nowhere.submit("<html>the report</html>", visitor="anon:x", key=key, shelf=shelf)
    assert job.done() and job.result() == b"%PDF-1.4 kept" and job.state() == PrintState("done")
    assert (nowhere.launches, nowhere.prints, nowhere._thread) == (0, 0, None)
    # Another report, or the same one written again (other HTML), is not that PDF.
    assert printer.kept(PdfKey.of("abc123", "<html>written again</html>"), shelf) is None


def test_kept_pdfs_are_bounded_and_named_safely(tmp_path):
    shelf = KeptPdfs(tmp_path, keep=3)
    for n in range(5):
        shelf.put(PdfKey(f"r{n}", "d"), b"%PDF-1.4 " + bytes([48 + n]))
        os.utime(tmp_path / f"r{n}-d.pdf", (1000 + n, 1000 + n))
    shelf.put(PdfKey("r5", "d"), b"%PDF-1.4 5")
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["r3-d.pdf", "r4-d.pdf", "r5-d.pdf"]
    assert PdfKey("../../etc/passwd", "d").file_name == "report-d.pdf"


# -- the page --------------------------------------------------------------------------------------

class _HeldPrinter:
    """Stands in for the shared printer on the page: every print stays queued behind two others,
    or every print is refused."""

    def __init__(self, refuse: bool = False):
        self.refuse = refuse

    def submit(self, document, *, visitor=None, key=None, shelf=None) -> PrintJob:
        if self.refuse:
            raise PrintRefused("visitor_busy")
        return PrintJob(self, document, visitor, key, shelf)

    def state(self, job) -> PrintState:
        return PrintState("queued", 2)


@pytest.mark.parametrize("refuse", [False, True])
def test_the_page_says_the_place_in_the_queue_or_why_not(sample, sample_app_env, monkeypatch, refuse):
    monkeypatch.setattr(printer, "shared", lambda: _HeldPrinter(refuse))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/research.py")
    at.session_state["finsearch_research"] = ResearchSession(report=sample)
    at.run()
    next(b for b in at.button if (b.key or "").endswith("-make-pdf")).click().run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    warnings = [w.value for w in at.warning]
    if refuse:
        assert "One of your PDFs is already being printed: make this one when it is done." in warnings
    else:
        assert "2 reports ahead of yours in the print queue…" in captions
    assert not at.get("download_button")[2:], "no PDF to download yet"


# -- real Chromium ---------------------------------------------------------------------------------

@dataclasses.dataclass
class Crowd:
    """What many sessions asking for a PDF at once got, and what Chromium took meanwhile."""
    pdfs: dict[int, bytes]
    refused: dict[int, str]
    processes: int = 0
    browsers: int = 0
    rss_mb: float = 0.0


def print_at_once(shared: Printer, documents: list[str]) -> Crowd:
    """Every document printed by its own session (its own visitor, its own thread), all at once."""
    crowd = Crowd({}, {})
    printing = threading.Event()
    go = threading.Barrier(len(documents))

    def session(n: int) -> None:
        go.wait()
        try:
            crowd.pdfs[n] = shared.print(documents[n - 1], visitor=f"anon:visitor-{n}")
        except PrintRefused as refused:
            crowd.refused[n] = refused.reason

    def watch() -> None:
        while printing.is_set():
            every, browsers = chromium_processes()
            crowd.processes = max(crowd.processes, len(every))
            crowd.browsers = max(crowd.browsers, len(browsers))
            crowd.rss_mb = max(crowd.rss_mb, rss_mb(every))
            time.sleep(0.05)

    printing.set()
    watcher = threading.Thread(target=watch)
    watcher.start()
    sessions = [threading.Thread(target=session, args=(n,)) for n in range(1, len(documents) + 1)]
    for thread in sessions:
        thread.start()
    for thread in sessions:
        thread.join()
    printing.clear()
    watcher.join()
    return crowd


def copies(sample, count: int) -> list[str]:
    base = html_document(sample)
    return [base.replace("<body>", f"<body><p>Copy {n} of {count}</p>", 1) for n in range(1, count + 1)]


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_eight_sessions_print_on_one_browser(sample, chromium_printer, capsys):
    shared = chromium_printer()
    crowd = print_at_once(shared, copies(sample, 8))
    with capsys.disabled():
        print(f"\n8 sessions at once: at most {crowd.processes} Chromium processes, {crowd.browsers} browser, "
              f"peak RSS sum {crowd.rss_mb:.0f} MB")
    assert sorted(crowd.pdfs) == list(range(1, 9)) and not crowd.refused
    for n, pdf in crowd.pdfs.items():
        assert pdf.startswith(b"%PDF") and f"Copy {n} of 8" in text_of(pdf)
    assert crowd.browsers == 1 and shared.launches == 1
    assert 0 < crowd.processes <= 14, crowd


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_twenty_sessions_at_once_stay_on_one_bounded_browser(sample, chromium_printer, capsys):
    """The red team's attack (issue 31 §2): 20 print requests from 20 sessions at the same moment.
    Each is printed or told plainly why not (the queue's bound); Chromium stays one browser
    of a dozen processes, its memory that of one browser, not twenty."""
    shared = chromium_printer()
    crowd = print_at_once(shared, copies(sample, 20))
    with capsys.disabled():
        print(f"\n20 sessions at once: {len(crowd.pdfs)} printed, {len(crowd.refused)} told the queue is full; "
              f"at most {crowd.processes} Chromium processes, {crowd.browsers} browser, "
              f"peak RSS sum {crowd.rss_mb:.0f} MB")
    assert sorted([*crowd.pdfs, *crowd.refused]) == list(range(1, 21)), "every request answered"
    assert set(crowd.refused.values()) <= {"queue_full"}
    assert len(crowd.pdfs) >= shared.max_waiting              # the queue takes its bound, then says "full"
    for n, pdf in crowd.pdfs.items():
        assert pdf.startswith(b"%PDF") and f"Copy {n} of 20" in text_of(pdf)
    assert crowd.browsers == 1 and shared.launches == 1
    assert 0 < crowd.processes <= 14 and crowd.rss_mb < 2500, crowd


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_queue_tells_each_its_place_and_a_hung_page_meets_its_deadline(chromium_printer):
    one = chromium_printer(at_once=1, deadline_s=8)
    assert one.print(SMALL).startswith(b"%PDF")           # warm: the launch is not in the hung print's time
    hung = one.submit(HUNG, visitor="anon:a")
    wait_for(lambda: hung.state().stage == "printing", "the hung page started printing")
    second = one.submit(SMALL + "<!-- b -->", visitor="anon:b")
    third = one.submit(SMALL + "<!-- c -->", visitor="anon:c")
    assert (second.state(), third.state()) == (PrintState("queued", 1), PrintState("queued", 2))
    with pytest.raises(PrintFailed, match="did not print within 8 s"):
        hung.result(timeout=60)
    # The queue moved on past it.
    assert second.result(timeout=60).startswith(b"%PDF") and third.result(timeout=60).startswith(b"%PDF")
    assert one.launches == 1


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_visitor_has_one_print_in_flight(chromium_printer):
    one = chromium_printer(at_once=1, deadline_s=30)
    first = one.submit(HUNG, visitor="anon:a")
    with pytest.raises(PrintRefused) as refused:
        one.submit(SMALL, visitor="anon:a")
    assert refused.value.reason == "visitor_busy"
    other = one.submit(SMALL, visitor="anon:b")               # someone else queues behind it
    assert other.state().stage == "queued" and not first.done()


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_report_is_printed_once_and_kept(sample, chromium_printer, tmp_path):
    one = chromium_printer()
    shelf = KeptPdfs(tmp_path / "pdf")
    document = html_document(sample)
    key = PdfKey.of(sample.report_id, document)
    first = one.submit(document, visitor="anon:owner", key=key, shelf=shelf)
    # A visitor of the shared link asking while it prints waits for the same print.
    assert one.submit(document, visitor="anon:guest", key=key, shelf=shelf) is first
    pdf = first.result(timeout=120)
    assert pdf.startswith(b"%PDF") and "NVIDIA" in text_of(pdf) and "References" in text_of(pdf)
    # The range buttons and the tool bar of the chart do nothing on paper: not printed.
    assert not re.search(r"\b(?:1M|3M|6M|YTD|1Y|All)\b", text_of(pdf)), "a chart's range buttons do nothing on paper"
    again = one.submit(document, visitor="anon:guest", key=key, shelf=shelf)
    assert again.done() and again.result() == pdf and one.prints == 1


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_browser_that_died_is_relaunched(chromium_printer):
    one = chromium_printer()
    assert one.print(SMALL).startswith(b"%PDF")
    _, browsers = chromium_processes()
    assert len(browsers) == 1
    os.kill(browsers[0], signal.SIGKILL)
    wait_for(lambda: browsers[0] not in chromium_processes()[1], "the browser was gone")
    assert one.print(SMALL + "<!-- again -->").startswith(b"%PDF")
    _, now = chromium_processes()
    assert one.launches == 2 and len(now) == 1 and now != browsers
