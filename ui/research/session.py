"""The deep research page's session state: one object under one key, created behind a guard.
It holds the report being written (its background run) and the last finished one, never
element handles."""

from __future__ import annotations

import dataclasses

import streamlit as st

from finsearch.background.report import ReportRun
from finsearch.export.kept_pdfs import PdfKey
from finsearch.export.printer import PrintJob
from finsearch.research.result import Report
from finsearch.result import new_id

KEY = "finsearch_research"


@dataclasses.dataclass
class ResearchSession:
    run: ReportRun | None = None       # while it runs (until the page picks up its end)
    report: Report | None = None              # the last finished report
    error: str | None = None                  # why the last run ended without a report, shown once
    save_error: str | None = None             # the last report could not be stored
    saved: bool = False                       # the last report is in the store (`?report=`, Share)
    stopped_before_research: bool = False     # Stop came before the outline was researched
    pdf_key: PdfKey | None = None             # which PDF the report shown would be (its HTML's digest, once)
    pdf_job: PrintJob | None = None           # its print: queued, printing, or done (a kept PDF is done at once)
    consumed_q: bool = False                  # a ?q= link is read once per session
    handed: str | None = None                 # the request this session's chat handed over (`/report …`)
    linked: str | None = None                 # a request that came in a link: in the box, waiting for a click
    key: str = dataclasses.field(default_factory=lambda: "r" + new_id()[:10])   # widget keys of the current run

    @property
    def running(self) -> bool:
        return self.run is not None


def session() -> ResearchSession:
    if KEY not in st.session_state:
        st.session_state[KEY] = ResearchSession()
    return st.session_state[KEY]
