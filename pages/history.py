"""History: this visitor's finished runs and deep-research reports (badged "report"), newest
first, with open and delete (asked twice), and the share links they made, each with Revoke.
Nobody else's runs or reports are listed or can be deleted."""

from datetime import datetime, timezone

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import StoreUnavailable
from finsearch.model.usage_text import stage_lines, usage_line
from ui import identity, sharing, shell, state

shell.ensure()

CONFIRM_KEY = "finsearch_history_confirm"     # the one run whose deletion is being asked about
REPORT_BADGE = ":violet-badge[:material/article: report] "    # a deep-research report, not a chat answer


def ask_to_delete(run_id: str) -> None:
    st.session_state[CONFIRM_KEY] = run_id


def keep() -> None:
    st.session_state.pop(CONFIRM_KEY, None)


def revoke(token: str) -> None:
    try:
        revoked = state.store().revoke(token, identity.visitor().owner)
    except StoreUnavailable as exc:
        st.session_state[REVOKE_ERROR_KEY] = f"Not revoked: {exc}."
    else:
        st.toast("Link revoked: it no longer opens." if revoked else "That link was already gone.")


REVOKE_ERROR_KEY = "finsearch_history_revoke_error"
st.title("History")
st.caption("Your answers in this browser" + (" and wherever you sign in." if identity.visitor().signed_in else
                                           ". Nobody else sees them unless you share a link."))
store = state.store()
owner = identity.visitor().owner
try:
    runs = store.list(owner=owner)
    links = store.shares(owner)
except StoreUnavailable as exc:           # Redis down: say so, rather than "no answers yet"
    st.error(plain(f"History cannot be shown right now: {exc}."), icon=":material/cloud_off:")
    st.stop()
if not runs:
    st.info("No answers yet. Ask something on the Chat page; every finished answer (and every deep-research "
            "report) is kept here.")

for summary in runs:
    with st.container(border=True):
        text, open_col, delete_col = st.columns([7, 1.3, 1.3], vertical_alignment="center")
        report = summary.kind == "report"
        text.markdown((REPORT_BADGE if report else "") + f"**{plain(summary.question)}**")
        asked = datetime.fromtimestamp(summary.saved, timezone.utc)
        as_of = summary.asked_at[:16].replace("T", " ")
        meta = [f"{asked:%Y-%m-%d %H:%M} UTC", plain(summary.backend)]
        if as_of[:10] != f"{asked:%Y-%m-%d}":
            meta.append(f"time pinned to {as_of}")
        if summary.sample:
            meta.append("sample data")
        used = usage_line(summary.usage, "en")      # what it cost: calls, tokens, the price when known
        if used:
            meta.append(plain(used))
        text.caption(" · ".join(meta),
                     help="\n\n".join(plain(part) for part in stage_lines(summary.usage, "en")) or None)
        opens = f"/research?report={summary.run_id}" if report else f"/?run={summary.run_id}"
        open_col.link_button("Open", opens, icon=":material/open_in_new:", width="stretch")
        # Deleting cannot be undone (and breaks the answer's share link): the first click only asks.
        if st.session_state.get(CONFIRM_KEY) != summary.run_id:
            delete_col.button("Delete", key=f"delete-{summary.run_id}", icon=":material/delete:", width="stretch",
                              on_click=ask_to_delete, args=(summary.run_id,))
            continue
        st.warning(f"Delete this {'report' if report else 'answer'} for good? Its share link will stop working.",
                   icon=":material/warning:")
        really, keep_col, _ = st.columns([1.6, 1.2, 6])
        if really.button("Really delete", key=f"really-delete-{summary.run_id}", type="primary", width="stretch"):
            st.session_state.pop(CONFIRM_KEY, None)
            try:
                deleted = store.delete(summary.run_id, owner=owner)
                for link in links:            # a link to this answer (or report) alone would open nothing now
                    if deleted and link.run_ids == (summary.run_id,):
                        store.revoke(link.token, owner)
            except StoreUnavailable as exc:
                st.error(plain(f"Not deleted: {exc}."))
            else:
                st.toast("Deleted." if deleted else "Not deleted: it is not yours, or it was already gone.")
                st.rerun()
        keep_col.button("Keep it", key=f"keep-{summary.run_id}", width="stretch", on_click=keep)

if links:
    st.subheader("Share links")
    st.caption("Anyone with one of these links can read what it shares. Revoke a link to close it for good.")
if error := st.session_state.pop(REVOKE_ERROR_KEY, None):
    st.error(plain(error))
for shared in links:
    with st.container(border=True, key=f"share-{shared.token[:12]}"):
        text, revoke_col = st.columns([8.3, 1.3], vertical_alignment="center")
        what = shared.kind if shared.kind in ("conversation", "report") else "answer"
        text.markdown(f"**{plain(shared.question)}**" + (f" and {len(shared.run_ids) - 1} more"
                                                          if len(shared.run_ids) > 1 else ""))
        made = datetime.fromtimestamp(shared.created, timezone.utc)
        text.caption(f"Shared {what} · {made:%Y-%m-%d %H:%M} UTC")
        text.code(sharing.link(shared.token, shared.kind), language=None)
        revoke_col.button("Revoke", key=f"revoke-{shared.token[:12]}", icon=":material/link_off:", width="stretch",
                          on_click=revoke, args=(shared.token,))
