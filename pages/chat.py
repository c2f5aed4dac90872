"""The chat page: ask, watch the search graph fill in, read the cited answer.

URL parameters: `?c=<conversation>` restores one of this visitor's conversations after a
refresh, `?s=<token>` opens what a share link shares (read-only), `?run=<id>` opens one of this
visitor's finished runs read-only (History's Open), `?q=<question>` puts a question in the box, to
be sent by the visitor (any site can link here, and asking spends the visitor's quota).
Another visitor's conversation or run, by id, is "not found": only share tokens open them.
"""

import dataclasses

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.background.question import BackgroundRun, RunView
from finsearch.errors import InputError, StoreUnavailable
from finsearch.hosting.limits import SLOTS, admit
from finsearch.model.llm import choose_backend
from finsearch.phrases import say
from finsearch.plan.analysis import check_question, language_of
from finsearch.plan.interpretation import Corrections
from finsearch.plan.interpretation_text import asked_for
from finsearch.store import valid_id
from ui import identity, sharing, shell, state
from ui.research import entry as research_entry
from ui.views import turn as turn_view

shell.ensure()

# How often a live turn asks for news: a poll costs its session ~10-60 ms of server time and
# puts a state change on the screen within about a poll and a half.
POLL_S = 0.3
# A run this young is given up to this much of its life to finish before its turn is first drawn:
# a sample-pack or cached answer (0.0-0.4 s of engine time) is then drawn finished by the page that
# started it, sparing the poll's wait, the live frame and the page's redraw after it (about 1 s
# after Enter). A slower run's first frame comes this much later, still within the ~0.5 s a state
# change may take to reach the screen.
QUICK_S = 0.3

EXAMPLES = ("Why did NVDA fall last week?", "Compare AAPL and MSFT year to date",
            "What's the latest news on Tesla?", "贵州茅台最近一个月表现如何？")


ASK_KEY = "ask"


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
    try:
        refusal = admit(owner, state.server_settings(), state.counter(), peer=identity.peer(), question=text)
    except (StoreUnavailable, OSError):    # the counter cannot be kept: answering matters more than counting
        refusal = None
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


NOT_FOUND = "This answer does not exist on this server (the link may be wrong, or it was deleted)."


def mine(owner: str | None) -> bool:
    """May this visitor open a run or conversation by its id? Their own, and those saved before
    there were identities (which were open to everyone then, so their old links keep working)."""
    return owner is None or owner == identity.visitor().owner


def permalink(run_id: str) -> None:
    """`?run=`: one of this visitor's own runs, read-only."""
    store = state.store()
    try:
        found = store.load(run_id) if valid_id(run_id) else None
        result, unavailable = (found if found is not None and mine(store.owner_of(run_id)) else None), None
    except StoreUnavailable as exc:       # down is not "deleted": say which
        result, unavailable = None, exc
    st.caption("Shared FinSearch answer (read-only)")
    read_only_view([result] if result is not None else [], unavailable)


def shared_view(token: str) -> None:
    """`?s=`: what a share link shares, read-only for everyone (its owner included)."""
    store = state.store()
    try:
        link, unavailable = store.shared(token), None
        if link is not None and link.kind == "report":     # a report's link with the chat's address
            st.switch_page(research_entry.PAGE, query_params={"s": token})
        results = [r for r in (store.load(i) for i in link.run_ids) if r is not None] if link else []
    except StoreUnavailable as exc:
        link, results, unavailable = None, [], exc
    kind = "conversation" if link is not None and link.kind == "conversation" else "answer"
    st.caption(f"Shared FinSearch {kind} (read-only)")
    read_only_view(results, unavailable)


def read_only_view(results: list, unavailable: Exception | None) -> None:
    if unavailable is not None:
        st.error(plain(f"This answer cannot be loaded right now: {unavailable}."))
    elif not results:
        st.error(NOT_FOUND)
    for result in results:
        with st.chat_message("user"):
            st.markdown(plain(result.question))
        with st.chat_message("assistant"):
            turn_view.finished(result, key=f"p-{result.run_id}", read_only=True)
    if st.button("Ask your own question", icon=":material/add_comment:"):
        st.query_params.clear()
        st.rerun()


def restore(conversation: str) -> state.Chat:
    """This visitor's conversation back after a reload. Another visitor's is "not found", and
    is not adopted: what this visitor asks next starts a conversation of their own."""
    chat = state.new_chat()
    store = state.store()
    try:
        if not mine(store.conversation_owner(conversation)):
            st.error("This conversation does not exist on this server (the link may be wrong). A shared "
                     "conversation has a share link of its own.")
            del st.query_params["c"]
            return chat
        runs = store.load_conversation(conversation)
    except StoreUnavailable as exc:       # the chat goes on; a reload restores it once the store is back
        st.error(plain(f"This conversation cannot be restored right now: {exc}."))
        runs = []
    chat.conversation = conversation
    chat.turns = [state.Turn(question=r.question, result=r, corrections=r.corrections) for r in runs]
    # A question still being answered is saved when it ends: until then, it is taken from the run.
    chat.turns += state.IN_FLIGHT.of(conversation, identity.visitor().owner)
    return chat


def render_turn(turn: state.Turn) -> None:
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
    if turn.result is not None:
        # Charts wait for a click except on the answer just asked: on an earlier turn, and on every
        # turn of a restored conversation (no run of this page's): a page's first chart costs the
        # browser plotly.js itself (1-5 s), which held back a restored page's graphs.
        chat = state.chat()
        turn_view.finished(turn.result, key=turn.key, save_error=turn.save_error, busy=chat.active() is not None,
                           on_correct=lambda corrections: start(chat, turn.question, turn, corrections),
                           on_ask=lambda question: start(chat, question),
                           charts_folded=turn is not chat.turns[-1] or turn.run is None)
    elif turn.error is not None:
        with st.container(key=turn_view.status_key(turn.key, "failed")):
            st.error(plain(turn.error), icon=":material/error:")
        if turn.final_view is not None and turn.final_view.graph is not None:
            turn_view.graph_and_evidence(turn.final_view.graph, key=f"{turn.key}-graph",
                                         language=language_of(turn.question))


def main() -> None:
    chat = state.chat()
    params = st.query_params
    if params.get("s"):
        shared_view(params["s"])
        return
    if params.get("run"):
        permalink(params["run"])
        return
    wanted = params.get("c")
    if wanted and valid_id(wanted) and wanted != chat.conversation and not chat.turns:
        chat = restore(wanted)
    question = params.get("q")
    if question and not chat.consumed_q:
        chat.consumed_q = True
        del params["q"]
        st.session_state[ASK_KEY] = chat.linked = question

    with st.sidebar:
        if st.button("New chat", icon=":material/add_comment:", width="stretch"):
            st.query_params.clear()
            state.new_chat()
            st.rerun()
        settings = state.effective_settings()
        backend = plain(settings.model) if choose_backend(settings) == "openai" else "heuristic (no LLM)"
        st.caption(f"Backend: {backend}")
        sharing.conversation_share(chat.conversation, [t.result for t in chat.turns
                                                       if t.result is not None and not t.save_error])

    if not chat.turns:
        st.title("FinSearch")
        st.markdown("Ask about stocks, indices, currencies, commodities or crypto. Every figure in the answer "
                    "is cited; click a node of the search graph to see the evidence behind it.")
        cols = st.columns(len(EXAMPLES))
        for col, example in zip(cols, EXAMPLES, strict=True):
            if col.button(example, key=f"example-{example}", width="stretch"):
                start(chat, example)
                st.rerun()

    for turn in chat.turns:
        render_turn(turn)

    if chat.refusal:
        st.warning(plain(chat.refusal), icon=":material/hourglass_top:")
        chat.refusal = None

    if chat.flash:
        message, text = chat.flash
        st.warning(plain(message) + " Your question is back in the box below, to shorten and send again.",
                   icon=":material/warning:")
        st.session_state[ASK_KEY] = text           # put back where it was typed, not lost
        chat.flash = None

    if chat.linked:
        st.info(say("ui.linked.question", language_of(chat.linked)), icon=":material/link:")

    # In the language of the conversation so far (its last question's), English to begin with.
    language = language_of(chat.turns[-1].question) if chat.turns else "en"
    prompt = st.chat_input(say("ui.ask", language), key=ASK_KEY, disabled=chat.active() is not None,
                           max_chars=None)
    if prompt is not None:
        chat.linked = None
        research_entry.hand_off(prompt)        # "/report …" opens deep research instead
        start(chat, prompt)
        st.rerun()


main()
