"""A report's downloads: Markdown as written, self-contained HTML, and PDF (Chromium's
print-to-PDF of that HTML, `finsearch.export.report`). The PDF is printed by the process's one
shared printer (`finsearch.export.printer`) when asked for, and kept (`kept_pdfs`): a report
already printed, by anyone who opened it, offers its PDF at once. While a print waits its turn the
place in the queue is shown; a refusal says why. A server without Chromium or Playwright says so
instead of offering a button that cannot work."""

from __future__ import annotations

import importlib.util
import shutil

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import FinSearchError
from finsearch.export import printer
from finsearch.export.kept_pdfs import KeptPdfs, PdfKey
from finsearch.export.report import html_document
from finsearch.phrases import say
from finsearch.research.result import Report
from ui import identity, state
from ui.research.session import ResearchSession, session

NO_PDF = ("PDF export is not available on this server: it needs {missing}. The HTML download prints to PDF "
          "from any browser.")
POLL_S = 1.0


def pdf_missing() -> str | None:
    """What this server lacks to print a PDF, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package (pip install playwright)"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "Chromium (apt-get install chromium)"
    return None


def render(done: Report, key: str) -> None:
    left, middle, right = st.columns(3)
    # A download changes nothing on the page: it does not rerun it (a rerun redrew the other
    # buttons under a second click, which then fetched nothing on a busy machine).
    left.download_button("Download Markdown", done.markdown, file_name="report.md", mime="text/markdown",
                         key=f"{key}-md", icon=":material/download:", on_click="ignore")
    middle.download_button("Download HTML", lambda: html_document(done), file_name="report.html",
                           mime="text/html", key=f"{key}-html", icon=":material/download:", on_click="ignore")
    with right:
        _pdf(done, key)


def _shelf() -> KeptPdfs:
    return KeptPdfs(state.server_settings().cache_dir / "pdf")


def _pdf(done: Report, key: str) -> None:
    missing = pdf_missing()
    if missing:
        st.caption(plain(NO_PDF.format(missing=missing)))
        return
    mine, language = session(), done.analysis.language
    job = _job(mine, done)
    if job is not None and job.done() and job.future.exception() is not None:
        mine.pdf_job = None                 # said once; the button offers the print again
        _say_failed(job.future.exception(), language)
        job = None
    if job is None:
        if not st.button("Make PDF", icon=":material/picture_as_pdf:", key=f"{key}-make-pdf"):
            return
        document = html_document(done)
        try:
            job = mine.pdf_job = printer.shared().submit(document, visitor=identity.visitor().owner,
                                                         key=PdfKey.of(done.report_id, document), shelf=_shelf())
        except FinSearchError as exc:
            _say_failed(exc, language)
            return
    if not job.done():
        st.fragment(run_every=POLL_S)(lambda: _waiting(job, language))()
        return
    st.download_button("Download PDF", job.result(), file_name="report.pdf", mime="application/pdf",
                       key=f"{key}-pdf", icon=":material/download:", type="primary", on_click="ignore")


def _job(mine: ResearchSession, done: Report) -> printer.PrintJob | None:
    """This session's print of the report shown, or its kept PDF (another visitor's print), or None."""
    if mine.pdf_job is not None and mine.pdf_job.key is not None and mine.pdf_job.key.report_id == done.report_id:
        return mine.pdf_job
    if mine.pdf_key is None or mine.pdf_key.report_id != done.report_id:
        mine.pdf_key = PdfKey.of(done.report_id, html_document(done))    # once per report shown
    mine.pdf_job = printer.kept(mine.pdf_key, _shelf())
    return mine.pdf_job


def _waiting(job: printer.PrintJob, language) -> None:
    """Polled while the print waits or runs: its place in the queue; the whole page once it ends."""
    now = job.state()
    if now.stage == "done":
        st.rerun()
    text = say("pdf.queued", language, n=now.ahead) if now.stage == "queued" and now.ahead else \
        say("pdf.printing", language)
    st.caption(text)


def _say_failed(exc: BaseException | None, language) -> None:
    if isinstance(exc, printer.PrintRefused):
        st.warning(say(f"pdf.{exc.reason}", language), icon=":material/hourglass_top:")
    elif isinstance(exc, FinSearchError):
        st.error(plain(say("pdf.failed", language, reason=str(exc))), icon=":material/error:")
    else:  # Chromium crashed in a way nobody named: the other downloads still work
        st.error(say("pdf.failed", language, reason=type(exc).__name__), icon=":material/error:")
