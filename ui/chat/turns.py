"""A chat turn on the page: polled in a fragment while its run goes, drawn by the page once it ends.

A turn that has ended shows its answer, or its error and the graph it had searched.

A finished turn left in a polling fragment was redrawn twice a second in every session, so a turn
leaves its fragment when its run ends: the fragment draws the last colours and asks for one
whole-page rerun, and from then on the page draws the turn."""

import dataclasses

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.background.question import RunView
from finsearch.plan.analysis import language_of
from finsearch.plan.interpretation_text import asked_for
from ui import state
from ui.chat import ask
from ui.views import turn as turn_view

# How often a live turn asks for news: a poll costs its session ~10-60 ms of server time and
# puts a state change on the screen within about a poll and a half.
POLL_S = 0.3
# A run this young is given up to this much of its life to finish before its turn is first drawn:
# a sample-pack or cached answer (0.0-0.4 s of engine time) is then drawn finished by the page that
# started it, sparing the poll's wait, the live frame and the page's redraw after it (about 1 s
# after Enter). A slower run's first frame comes this much later, still within the ~0.5 s a state
# change may take to reach the screen.
QUICK_S = 0.3


def draw(turn: state.Turn) -> None:
    """One turn: the question (with how it was corrected), then its answer, live or finished."""
    with st.chat_message("user"):
        st.markdown(plain(turn.question))
        if turn.corrections:
            st.caption(plain(asked_for(turn.corrections, language_of(turn.question))))
    with st.chat_message("assistant"):
        if turn.running and turn.run.join(max(0.0, QUICK_S - turn.run.view().elapsed_s)):
            settle(turn, turn.run.view())         # a quick run (QUICK_S): drawn finished at once
        if turn.running:
            # Only a turn in progress polls, in a fragment of its own. A finished turn is drawn
            # by the page itself: were it left in the fragment, the browser would go on asking
            # to rerun a fragment of that identity, and every session's finished answers would
            # be redrawn twice a second (which starved the server under load). Live and finished
            # states share a layout, so the page does not jump when the answer lands.
            st.fragment(run_every=POLL_S)(lambda: live(turn))()
        else:
            with st.container():       # where the fragment's own container was: the graph's frame stays
                settled(turn)


def live(turn: state.Turn) -> None:
    """The polling part: the turn's run as it stands, until it ends and the page takes over."""
    view = turn.run.view()
    if not view.finished:
        turn_view.live(view, turn.key, on_stop=turn.run.stop)
        return
    # The last nodes' colours go out with this fragment, before the whole page is redrawn
    # (which takes seconds on a busy server): drawn as still being put on the page, or as
    # stopping when Stop ended it (the click's rerun may be the one that finds it ended).
    # Best effort: Streamlit drops what a run has not yet delivered when the next one starts,
    # so a loaded server may go straight to the settled turn.
    last = "stopping" if view.stopping else "answering"
    turn_view.live(dataclasses.replace(view, status=last), turn.key, on_stop=turn.run.stop)
    settle(turn, view)
    st.rerun()                         # the whole page: draws the turn as settled, enables the chat input


def settle(turn: state.Turn, view: RunView) -> None:
    """Keep what a finished run left (`view`): its result, or its error and what it had found."""
    turn.final_view = view
    turn.save_error = view.save_error
    if view.result is not None:
        turn.result = view.result
    else:
        turn.error = view.error or "The run ended without an answer."


def settled(turn: state.Turn) -> None:
    """A turn whose run has ended: its answer (to correct, or to follow up), or its error."""
    if turn.result is not None:
        # Charts wait for a click except on the answer just asked: on an earlier turn, and on every
        # turn of a restored conversation (no run of this page's): a page's first chart costs the
        # browser plotly.js itself (1-5 s), which held back a restored page's graphs.
        chat = state.chat()
        turn_view.finished(turn.result, key=turn.key, save_error=turn.save_error, busy=chat.active() is not None,
                           on_correct=lambda corrections: ask.start(chat, turn.question, turn, corrections),
                           on_ask=lambda question: ask.start(chat, question),
                           charts_folded=turn is not chat.turns[-1] or turn.run is None)
    elif turn.error is not None:
        with st.container(key=turn_view.status_key(turn.key, "failed")):
            st.error(plain(turn.error), icon=":material/error:")
        if turn.final_view is not None and turn.final_view.graph is not None:
            turn_view.graph_and_evidence(turn.final_view.graph, key=f"{turn.key}-graph",
                                         language=language_of(turn.question))
