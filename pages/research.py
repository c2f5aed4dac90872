"""Deep research: one request → an outline, shown at once to approve or edit (or researched as
drafted after a few seconds, a setting) → every section researched at once, with progress by
section and a Stop that keeps what was found → a long, cited, audited report and its
downloads (finsearch.research), written as a job (background.queued_report: it outlives this page and
this server process) — or, on a visitor's own model key, never kept with a job, in this process
(background.report).

URL parameters: `?q=<request>` puts a request in the box, where it waits for a click (any site can
link here, and a report spends the visitor's quota); the chat's `/report` prompt hands its request
over the same way and starts it at once (ui.research.entry);
`?report=<id>` shows one of this visitor's saved reports again (set when a report is saved, so a
reload keeps it); `?s=<token>` shows a shared report, read-only (ui.research.stored).
"""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.background.queued_report import QueuedReport
from finsearch.errors import InputError
from finsearch.hosting.limits import SLOTS, admit_if_countable
from finsearch.phrases import say
from finsearch.plan.analysis import check_question, language_of
from finsearch.result import new_id
from ui import identity, shell, state
from ui.research import entry as research_entry
from ui.research import live as research_live
from ui.research import runs as research_runs
from ui.research import stored as research_stored
from ui.research import view as research_view
from ui.research.session import ResearchSession, session

shell.ensure()

# How often a report in progress asks for news (as the chat's live turn does).
POLL_S = 0.3
QUESTION_KEY = "research_question"
GO = "Write report"
EXAMPLE_REQUEST = "Analyse NVIDIA's recent performance and outlook"
EMPTY_REQUEST = f"Type what the report should research first, for example: {EXAMPLE_REQUEST}."


def start(mine: ResearchSession, question: str) -> None:
    """Start a report in the background; bad input or a limit gets a message instead."""
    try:
        text = check_question(question)
    except InputError as exc:
        st.warning(plain(str(exc)) if question.strip() else EMPTY_REQUEST, icon=":material/warning:")
        return
    owner = identity.visitor().owner
    refusal = admit_if_countable(owner, state.server_settings(), state.counter(), peer=identity.peer(), question=text)
    if refusal is not None:
        st.warning(plain(refusal.message), icon=":material/hourglass_top:")
        return
    run = research_runs.new_run(text)
    SLOTS.hold(owner, run.start())
    mine.run, mine.report, mine.error, mine.save_error, mine.saved = run, None, None, None, False
    mine.stopped_before_research, mine.linked = False, None
    for name in (research_stored.REPORT_PARAM, research_stored.SHARE_PARAM):   # the old report's link
        st.query_params.pop(name, None)
    if isinstance(run, QueuedReport):     # a reload (or another replica) follows the job again
        st.query_params[research_stored.REPORT_PARAM] = run.report_id
    mine.key = "r" + new_id()[:10]    # this run's widgets and anchors (an id starting with a letter)


def live(mine: ResearchSession) -> None:
    """The polling part: redraws the run until it needs the whole page (editing, or the end)."""
    run = mine.run
    if run is None:
        return
    view = run.view()
    if view.finished:
        mine.run, mine.report, mine.error, mine.save_error = None, view.report, view.error, view.save_error
        mine.saved = view.report is not None and view.save_error is None
        mine.stopped_before_research = view.status == "stopped" and view.report is None
        if mine.saved:                      # a reload of this address shows the report again
            st.query_params[research_stored.REPORT_PARAM] = view.report.report_id
        else:                               # nothing stored to show again
            st.query_params.pop(research_stored.REPORT_PARAM, None)
        st.rerun()
    if research_live.waits_for_user(view):
        st.rerun()                          # the outline's choices are drawn by the page, not polled
    research_live.live(view, run, mine.key)


def main() -> None:
    mine = session()
    params = st.query_params
    if (arrived := research_entry.arrival(mine)) is not None:
        st.session_state[QUESTION_KEY] = arrived.request
        mine.linked = None if arrived.handed else arrived.request
        if arrived.handed and not mine.running:
            start(mine, arrived.request)

    saved_id = params.get(research_stored.REPORT_PARAM)
    if saved_id and mine.run is None and (mine.report is None or saved_id != mine.report.report_id):
        if (followed := research_runs.following(saved_id)) is not None:    # still being written: follow it again
            mine.run, mine.report, mine.error, mine.save_error, mine.saved = followed, None, None, None, False
            mine.stopped_before_research, mine.key = False, "r" + saved_id[:10]
            st.session_state[QUESTION_KEY] = followed.question
            SLOTS.hold(identity.visitor().owner, followed)

    st.title("Deep research")
    st.caption("An outline first, which you can approve or edit; then every section researched at once; then a "
               "long report in which every figure is traced to its source.")
    question = st.text_input("Research request", placeholder=f"e.g. {EXAMPLE_REQUEST}",
                             key=QUESTION_KEY, disabled=mine.running)
    notice = st.empty()       # filled after the button: its click may start the run the notice waits for
    if st.button(GO, type="primary", key="research_go", disabled=mine.running):
        start(mine, question)
    if mine.linked and not mine.running:
        notice.info(say("ui.linked.report", language_of(mine.linked), button=GO), icon=":material/link:")

    if mine.run is not None:
        view = mine.run.view()
        if research_live.waits_for_user(view) and view.held:
            research_live.editor(view, mine.run, mine.key, on_done=st.rerun)
        elif research_live.waits_for_user(view):
            research_live.outline_choice(view, mine.run, mine.key, POLL_S)
        else:
            st.fragment(run_every=POLL_S)(lambda: live(mine))()
        return
    if mine.error:
        st.error(plain(mine.error), icon=":material/error:")
    elif mine.stopped_before_research:
        with st.container(key=research_live.status_key(mine.key, "stopped")):
            st.info("Stopped before the research began: there is nothing to report yet.")
    if mine.save_error:
        st.warning(plain(mine.save_error), icon=":material/cloud_off:")
    if token := params.get(research_stored.SHARE_PARAM):
        if (link := research_stored.shared(token)) is not None:
            research_view.report(link, research_stored.widget_key("s", link))
        return
    saved_id = params.get(research_stored.REPORT_PARAM)
    if saved_id and (mine.report is None or saved_id != mine.report.report_id):    # a reload, or a link
        found = research_stored.own(saved_id)
        mine.report, mine.saved, mine.save_error = found, found is not None, None
        mine.key = research_stored.widget_key("p", found) if found is not None else mine.key
    if mine.report is not None:
        research_view.report(mine.report, mine.key)
        if mine.saved:
            research_stored.share(mine.report, mine.key)


main()
