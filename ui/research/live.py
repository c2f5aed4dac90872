"""A report while it is written: the outline (to approve or edit before research starts),
progress by section, and Stop. Reads `ReportView`s only; the buttons call the run's own
`approve`, `hold` and `stop`.

The state is in the key of the status line's container (`st-key-research-<key>-<status>`:
queued, outlining, outline, editing, researching, writing, stopping), for a browser test or anyone
reading the page.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.background.report import ReportRun, ReportView, SectionState
from finsearch.errors import InputError
from finsearch.research.outline import Outline
from finsearch.research.outline_text import outline_text, parse_outline_text
from ui.views import turn as turn_view

STATUS_TEXT = {"queued": "Waiting for a worker to take the report…", "outlining": "Writing the outline…",
               "outline": "Outline ready", "researching": "Researching",
               "writing": "Writing the report…", "stopping": "Stopping…", "editing": "Editing the outline"}
SECTION_MARK = {"waiting": ":gray[○]", "researching": ":orange[◐]", "done": ":green[●]"}


def status_key(key: str, status: str) -> str:
    return f"research-{key}-{status}"


def progress_line(done: int, total: int) -> str:
    return f"Researching: {done} of {total} sections done"


def outline_markdown(outline: Outline) -> str:
    lines = []
    for i, section in enumerate(outline.sections, start=1):
        lines.append(f"{i}. **{plain(section.title)}**")
        lines.extend(f"    - {plain(q)}" for q in section.key_questions)
    return "\n".join(lines)


def waits_for_user(view: ReportView) -> bool:
    """The outline is shown and nothing is researched until the user acts (or its time is up)."""
    return view.status == "outline" and view.outline is not None and not view.approved and not view.stopping


def _status_line(view: ReportView, key: str) -> None:
    status = "stopping" if view.stopping else ("editing" if view.held and waits_for_user(view) else view.status)
    with st.container(key=status_key(key, status)):
        st.markdown(f"**{STATUS_TEXT.get(status, status)}** · {view.elapsed_s:.0f} s")


def outline_choice(view: ReportView, run: ReportRun, key: str, poll_s: float) -> None:
    """The drafted outline with Approve, Edit and Stop. Drawn by the page, not by a fragment that
    reruns every `poll_s`: a click on a button there was once lost in the browser test, and nothing
    changes here in the background but the countdown, which polls on its own."""
    _status_line(view, key)
    st.markdown(outline_markdown(view.outline))
    if view.approve_in_s is not None:
        st.fragment(run_every=poll_s)(lambda: _countdown(run))()
    else:
        st.caption("Approve the outline to start the research, or edit it first.")
    row = st.container(horizontal=True)
    row.button("Approve outline", type="primary", icon=":material/check:", key=f"{key}-approve",
               on_click=run.approve)
    row.button("Edit outline", icon=":material/edit:", key=f"{key}-edit", on_click=run.hold)
    row.button("Stop", icon=":material/stop_circle:", key=f"{key}-stop", on_click=run.stop)


def _countdown(run: ReportRun) -> None:
    view = run.view()
    if not waits_for_user(view) or view.held:
        st.rerun()                     # approved on its own (or stopped): the page draws what follows
    st.caption(f"Researching this outline in {view.approve_in_s:.0f} s unless you approve or edit it.")


def live(view: ReportView, run: ReportRun, key: str) -> None:
    """The run as it stands, polled: the outline being written, then progress by section."""
    _status_line(view, key)
    if view.sections and view.status in ("researching", "writing"):
        total = len(view.sections)
        st.progress(view.sections_done / total, text=progress_line(view.sections_done, total))
        st.markdown("\n".join(_section_line(s) for s in view.sections))
        _watch(view, run, key)
    if not view.stopping and view.status in ("queued", "outlining", "researching"):    # writing takes a moment
        st.button("Stop", icon=":material/stop_circle:", key=f"{key}-stop", on_click=run.stop,
                  help="Stop researching: the report is written from what was found so far.")


def _watch(view: ReportView, run: ReportRun, key: str) -> None:
    """One section's search graph filling in, the one the user picks, with the evidence panel."""
    started = {f"{s.index}. {s.title}": s.index for s in view.sections if s.searches}
    if not started:
        return
    chosen = st.selectbox("Watch a section's searches", ["—", *started], key=f"{key}-watch")
    graph = run.section_graph(started[chosen]) if chosen in started else None
    if graph is not None:
        turn_view.graph_and_evidence(graph, key=f"{key}-live-graph-{started[chosen]}", live=True)


def _section_line(section: SectionState) -> str:
    searches = f" — {section.settled} of {section.searches} searches finished" if section.searches else ""
    return f"- {SECTION_MARK[section.status]} {section.index}. {plain(section.title)}{searches}"


def editor(view: ReportView, run: ReportRun, key: str, on_done: Callable[[], None]) -> None:
    """The outline as text to edit; research starts when the user says so. Drawn by the page,
    not the polling fragment: nothing changes in the background while the outline waits."""
    _status_line(view, key)
    st.caption("One `## heading` per section, its key questions below it, one per line. At most "
               f"{run.budget.sections} sections.")
    text = st.text_area("Outline", value=outline_text(view.outline), height=360, key=f"{key}-outline-text")
    row = st.container(horizontal=True)
    if row.button("Research this outline", type="primary", icon=":material/play_arrow:", key=f"{key}-go"):
        try:
            run.approve(parse_outline_text(text, view.outline, run.budget.sections))
        except InputError as exc:
            st.error(plain(str(exc)))
            return
        on_done()
    if row.button("Stop", icon=":material/stop_circle:", key=f"{key}-stop-edit"):
        run.stop()
        on_done()
