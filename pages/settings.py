"""Settings for this browser session, over the server's defaults (environment or secrets.toml).

The API key typed here stays in this session's memory only: it is never saved, logged,
shown back or put in a link. The SEC EDGAR contact is no secret (SEC asks for it), but it is a
person's email address: it stays in the session too, and goes to SEC only.
"""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.catalogue import SOURCE_IDS
from finsearch.model.endpoint import for_visitor
from finsearch.settings import sec_identity
from finsearch.sources.setup import demo_pack, source_cache
from ui import shell, state

shell.ensure()

st.title("Settings")
st.caption("These apply to this browser session only. Server defaults come from the environment or "
           "`.streamlit/secrets.toml`.")
mine = state.session_settings()
server = state.server_settings()
current = state.effective_settings()
policy = state.visitor_policy(server)
changes: dict = {}

st.subheader("Model")
backend = st.radio("Backend", ["auto", "openai", "heuristic"], index=["auto", "openai", "heuristic"].index(current.llm),
                   horizontal=True, help="auto: an OpenAI-compatible model when a key or base URL is set, "
                                         "else the rule-based heuristic backend.")
changes["llm"] = backend
changes["model"] = st.text_input("Model", value=current.model).strip() or server.model
if policy == "off":
    st.text_input("Base URL (OpenAI-compatible server)", value="", placeholder="set by the operator",
                  disabled=True, help="The operator has not allowed visitors to choose another model server "
                                      "(FINSEARCH_VISITOR_MODEL_SERVERS).")
else:
    base_url = st.text_input(
        "Base URL (OpenAI-compatible server)", value=mine.overrides.get("base_url") or "",
        placeholder="empty: the server's own" + (", or e.g. http://localhost:11434/v1" if policy == "any" else ""),
        help="Another model server needs your own API key: the server's key is only ever sent to the server's own "
             "model server." + ("" if policy == "any" else " Loopback and private addresses are not allowed here."))
    changes["base_url"] = base_url.strip() or server.base_url
    chosen = for_visitor(server, changes["base_url"], mine.api_key, policy)
    if chosen.refusal:
        st.warning(plain(chosen.refusal), icon=":material/block:")
    elif chosen.settings.base_url != server.base_url and not mine.api_key:
        st.caption("No key will be sent to that server unless you enter one below.")
if mine.api_key:
    st.success("An API key is set for this session.", icon=":material/key:")
    if st.button("Forget the key"):
        mine.api_key = None
        st.rerun()
else:
    typed = st.text_input("API key", type="password", value="", key="api-key-entry",
                          help="Kept in this browser session's memory only.")
    if typed:
        mine.api_key = typed.strip()
        del st.session_state["api-key-entry"]
        st.rerun()
    if server.api_key:
        st.caption("The server has a default key configured; it is used only with the server's own model server.")

st.subheader("Search")
changes["deadline_s"] = float(st.number_input(
    "Answer within (seconds)", min_value=10.0, max_value=600.0, value=float(current.deadline_s), step=5.0,
    help="One time budget per question. Model and source calls share it; when the model is slow or "
         "stops answering, the rule-based planner, rewriter and writer finish within it."))
changes["answer_due_s"] = float(st.number_input(
    "Answer due after (seconds)", min_value=2.0, max_value=600.0, value=float(current.answer_due_s), step=5.0,
    help="A model that has not begun writing its plan by half this time, or its answer 2 s before it, "
         "leaves that part to the rules (a small local model on a busy machine can read its prompt for "
         "longer). Raise it, with the time budget above, for a model that thinks long before it writes."))
changes["window_hours"] = float(st.number_input("Time-weighting window (hours)", min_value=1.0, max_value=24 * 90.0,
                                                value=float(current.window_hours), step=12.0))
changes["time_weighting"] = st.toggle("Time weighting", value=current.time_weighting)
changes["rewriter"] = st.toggle("Dynamic query rewriter", value=current.rewriter)
changes["judge"] = st.toggle("LLM judge of presentation and entailment (extra model calls)", value=current.judge,
                             help="The figures audit always runs, in code; the judge needs a model.")
changes["research_approve_s"] = float(st.number_input(
    "Deep research: start researching the outline after (seconds)", min_value=0.0, max_value=600.0,
    value=float(current.research_approve_s), step=1.0,
    help="The outline is shown first; you can approve or edit it. Unless you do, it is researched as "
         "drafted after this many seconds (0: wait for you)."))
enabled = st.multiselect("Sources", list(SOURCE_IDS),
                         default=[s for s in SOURCE_IDS if s not in current.disabled_sources])
changes["disabled_sources"] = frozenset(s for s in SOURCE_IDS if s not in enabled)

st.subheader("Data")
changes["offline"] = st.toggle("Offline: use only cached or replayed data", value=current.offline)
packs = {"none": None, "bundled sample pack (invented data)": demo_pack()}
if server.pack and server.pack != demo_pack():
    packs[f"server pack: {server.pack.name}"] = server.pack
labels = list(packs)
chosen = next((label for label, path in packs.items() if path == current.pack), "none")
changes["pack"] = packs[st.selectbox("Replay pack", labels, index=labels.index(chosen))]

st.subheader("SEC EDGAR")
typed_identity = st.text_input(
    "Contact for SEC EDGAR (name and email)", value=current.sec_identity or "", key="sec-identity",
    placeholder="e.g. Jane Doe jane@example.com",
    help="SEC asks every client to say who is asking and answers none that does not; it is sent only to "
         "SEC EDGAR, as the User-Agent of the US filings sources. Kept for this browser session, never put in "
         "a link or a saved answer.")
identity = sec_identity(typed_identity)
if typed_identity.strip() and identity is None:
    st.warning("SEC needs a name and an email address, e.g. “Jane Doe jane@example.com”.", icon=":material/badge:")
elif not (identity or server.sec_identity):
    st.caption("Without it the US filings sources (SEC EDGAR) cannot be asked.")
changes["sec_identity"] = identity or server.sec_identity

mine.overrides = {k: v for k, v in changes.items() if getattr(server, k) != v}
if policy == "off":
    mine.overrides.pop("base_url", None)
if mine.overrides:
    st.caption("Changed for this session: " + ", ".join(sorted(mine.overrides)))
    if st.button("Reset to server defaults"):
        mine.overrides = {}
        st.rerun()

st.subheader("Cache")
cache = source_cache(server)
stats = cache.stats()
if not stats["usable"]:
    st.warning("The source cache cannot be used on this server (see the server log); answers are fetched "
               "fresh every time.", icon=":material/warning:")
else:
    st.write(f"{stats['entries']} cached source results, {stats['bytes'] / 1_048_576:.1f} MB.")
    if st.button("Clear the cache", icon=":material/delete_sweep:"):
        removed = cache.clear()
        st.toast(f"Removed {removed} cached results.")
        st.rerun()
