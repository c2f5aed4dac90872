"""A report's downloads: Markdown as written, self-contained HTML, and PDF (Chromium's
print-to-PDF of that HTML, `finsearch.export.report`). The PDF takes Chromium a few
seconds, so it is made when asked for and kept for this report; a server without Chromium
or Playwright says so instead of offering a button that cannot work."""

from __future__ import annotations

import importlib.util
import shutil
from concurrent.futures import ThreadPoolExecutor

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import FinSearchError
from finsearch.export.report import html_document, pdf_bytes
from finsearch.research.result import Report
from ui.research.session import session

NO_PDF = ("PDF export is not available on this server: it needs {missing}. The HTML download prints to PDF "
          "from any browser.")


def pdf_missing() -> str | None:
    """What this server lacks to print a PDF, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package (pip install playwright)"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "Chromium (apt-get install chromium)"
    return None


def render(done: Report, key: str) -> None:
    left, middle, right = st.columns(3)
    left.download_button("Download Markdown", done.markdown, file_name="report.md", mime="text/markdown",
                         key=f"{key}-md", icon=":material/download:")
    middle.download_button("Download HTML", lambda: html_document(done), file_name="report.html",
                           mime="text/html", key=f"{key}-html", icon=":material/download:")
    with right:
        _pdf(done, key)


def _pdf(done: Report, key: str) -> None:
    missing = pdf_missing()
    if missing:
        st.caption(plain(NO_PDF.format(missing=missing)))
        return
    mine = session()
    if mine.pdf is None or mine.pdf_for != done.report_id:    # one PDF kept: the last report's printed
        if not st.button("Make PDF", icon=":material/picture_as_pdf:", key=f"{key}-make-pdf"):
            return
        try:
            with st.spinner("Printing the report to PDF…"):
                # Its own thread: Playwright's sync API refuses a thread that runs an event loop.
                with ThreadPoolExecutor(max_workers=1, thread_name_prefix="finsearch-pdf") as pool:
                    mine.pdf = pool.submit(pdf_bytes, html_document(done)).result()
                    mine.pdf_for = done.report_id
        except FinSearchError as exc:
            st.error(plain(f"The PDF could not be made: {exc}"))
            return
        except Exception as exc:  # Chromium crashed or timed out: the other downloads still work
            st.error(f"The PDF could not be made ({type(exc).__name__}). The HTML download prints to PDF "
                     "from any browser.")
            return
    st.download_button("Download PDF", mine.pdf, file_name="report.pdf", mime="application/pdf",
                       key=f"{key}-pdf", icon=":material/download:", type="primary")
