"""Share links: made when the owner asks (Share), shown to them, revoked from History.

A link is `?s=<token>` (`finsearch.store.shares`; a report's on the research page): a
capability, not the run's id. Links this session made are remembered per run, report and
conversation snapshot, so the popover shows the same link again rather than minting a new one
on every rerun.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import StoreUnavailable
from finsearch.phrases import Language, say
from finsearch.result import RunResult
from finsearch.store.shares import ShareKind
from ui import identity, state

MADE_KEY = "finsearch_share_links"        # slot ("run:<id>" / "report:<id>" / "conversation:<id>:<n>") → token


def made() -> dict[str, str]:
    if MADE_KEY not in st.session_state:
        st.session_state[MADE_KEY] = {}
    return st.session_state[MADE_KEY]


def link(token: str, kind: ShareKind = "run") -> str:
    """The link that opens `token`: on the chat page, or a report's on the research page, from
    whichever page shows it (History's links once opened History itself, which shares nothing)."""
    return share_url(st.context.url or "", st.get_option("server.baseUrlPath") or "", token, kind)


def share_url(current: str, base_path: str, token: str, kind: ShareKind = "run") -> str:
    """`token`'s link on the app whose page `current` is (served under `base_path`, if any)."""
    parts = urlsplit(current)
    root = f"/{base_path.strip('/')}" if base_path.strip("/") else ""
    path = f"{root}/{'research' if kind == 'report' else ''}"
    return urlunsplit((parts.scheme, parts.netloc, path, f"s={token}", "")) if parts.netloc else f"{path}?s={token}"


def create(slot: str, kind: ShareKind, run_ids: list[str], question: str) -> None:
    """A button's callback: make the link (once per slot) for this visitor."""
    try:
        token = state.store().share(kind, run_ids, identity.visitor().owner, question).token
    except (StoreUnavailable, OSError) as exc:
        st.session_state[f"{MADE_KEY}-error"] = f"No share link was made: {exc}."
        return
    made()[slot] = token


def show_error() -> None:
    error = st.session_state.pop(f"{MADE_KEY}-error", None)
    if error:
        st.error(plain(error))


def run_share(result: RunResult, key: str, shareable: bool) -> None:
    """The body of a finished answer's Share dialog, in the answer's language."""
    language = result.analysis.language
    if not shareable:
        st.caption(say("ui.share.not_saved", language))
        return
    one_share("run", result.run_id, result.question, key, language)


def share_answer(result: RunResult, key: str, shareable: bool) -> None:
    """Open the answer's Share dialog. A dialog, not a popover: a popover opened from the last
    answer's row hung over the chat box below it, where a modal says plainly what it covers."""
    _SHARE_DIALOGS[result.analysis.language](result, key, shareable)


_SHARE_DIALOGS = {language: st.dialog(say("ui.share.title", language))(run_share) for language in ("en", "zh")}


def one_share(kind: ShareKind, stored_id: str, question: str, key: str, language: Language = "en") -> None:
    """The body of a Share popover for one stored run or report, in `language`."""
    what = say("ui.share.what.report" if kind == "report" else "ui.share.what.run", language)
    slot = f"{kind}:{stored_id}"
    token = made().get(slot)
    if token is None:
        st.caption(say("ui.share.make", language, what=what))
        st.button(say("ui.share.create", language), key=f"{key}-share", icon=":material/add_link:", on_click=create,
                  args=(slot, kind, [stored_id], question))
        show_error()
        return
    st.caption(say("ui.share.made", language, what=what))
    st.code(link(token, kind), language=None)


def conversation_share(conversation: str, runs: list[RunResult]) -> None:
    """The sidebar's "Share conversation": a snapshot of the answers so far."""
    if not runs:
        return
    slot = f"conversation:{conversation}:{len(runs)}"   # asking more makes a new snapshot
    with st.popover("Share conversation", icon=":material/link:", width="stretch"):
        token = made().get(slot)
        if token is None:
            st.caption("A read-only snapshot of this conversation's answers so far. What you ask afterwards "
                       "stays private.")
            st.button("Create share link", key=f"share-conversation-{len(runs)}", icon=":material/add_link:",
                      on_click=create, args=(slot, "conversation", [r.run_id for r in runs], runs[0].question))
            show_error()
        else:
            st.caption("Anyone with this link can read these answers (read-only). Revoke it from History.")
            st.code(link(token), language=None)
