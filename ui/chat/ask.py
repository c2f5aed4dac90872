"""Asking in the chat: a question checked, admitted by the limits, and answered in the background.

It becomes the next turn, or a turn that reads an earlier one's question again with corrections.

A question that cannot be asked leaves a note on the chat (`flash`: bad input, put back in the box;
`refusal`: a limit), which the page says above the chat box on its next draw."""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.background.question import BackgroundRun
from finsearch.errors import InputError
from finsearch.hosting.limits import SLOTS, admit_if_countable
from finsearch.plan.analysis import check_question
from finsearch.plan.interpretation import Corrections
from ui import identity, state


def start(chat: state.Chat, question: str, redo: state.Turn | None = None,
          corrections: Corrections | None = None) -> None:
    """Start answering `question` in the background (bad input gets a message instead);
    with `redo`, as a new turn that reads that turn's question with `corrections`."""
    try:
        text = check_question(question)
    except InputError as exc:
        if question.strip():                          # empty input is simply ignored
            chat.flash = (str(exc), question)
        return
    owner = identity.visitor().owner
    refusal = admit_if_countable(owner, state.server_settings(), state.counter(), peer=identity.peer(), question=text)
    if refusal is not None:
        chat.refusal = refusal.message
        return
    store = state.store()
    conversation = chat.conversation
    endpoint = state.endpoint()
    if endpoint.refusal:
        st.toast(plain(endpoint.refusal + " Your question goes to the server's own model."), icon=":material/block:")
    prior = redo.prior if redo is not None else chat.prior()
    corrections = corrections or Corrections()
    run = BackgroundRun(text, endpoint.settings, prior=prior, corrections=corrections,
                        on_finish=lambda result: store.save(result, conversation, owner=owner))
    # Started before it takes its slot: other sessions count the slots by asking each run whether
    # it has ended, which a thread not yet started cannot answer.
    SLOTS.hold(owner, run.start())
    chat.turns.append(state.Turn(question=text, run=run, prior=prior, corrections=corrections))
    state.IN_FLIGHT.add(state.Asked(conversation, owner, text, run, prior, corrections))
    st.query_params["c"] = conversation
