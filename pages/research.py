"""Deep research: one request → an outline → every section researched at once → a long,
cited, audited report (finsearch.research). The page shows progress by section while the
report is written in this script run, then the report and its downloads."""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import InputError
from finsearch.research.result import OutlineReady, ReportFinished, SectionDone
from finsearch.research.run import run_report
from ui import research_view, shell, state

shell.ensure()

KEY = "finsearch_research"          # the last finished report of this session

st.title("Deep research")
question = st.text_input("Research request", placeholder="Analyse NVIDIA's recent performance and outlook",
                         key="research_question")
if st.button("Write report", type="primary", key="research_go") and question.strip():
    try:
        with st.status("Writing the outline…", expanded=True) as status:
            total = done = 0
            for event in run_report(question, settings=state.effective_settings()):
                if isinstance(event, OutlineReady):
                    total = len(event.outline.sections)
                    st.markdown("\n".join(f"{i}. {plain(s.title)}" for i, s in enumerate(event.outline.sections, 1)))
                    status.update(label=research_view.progress_line(0, total))
                elif isinstance(event, SectionDone):
                    done += 1
                    status.update(label=research_view.progress_line(done, total))
                elif isinstance(event, ReportFinished):
                    st.session_state[KEY] = event.report
            status.update(label="Report written", state="complete", expanded=False)
    except InputError as exc:
        st.error(plain(str(exc)))

if st.session_state.get(KEY) is not None:
    research_view.report(st.session_state[KEY], "research")
