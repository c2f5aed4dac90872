"""Evaluate: a benchmark summary written by `python -m finsearch eval …`, as a table and bar charts."""

from pathlib import Path

import pandas as pd
import streamlit as st

from finsearch.answer.markdown import plain, plain_with_code
from finsearch.errors import InputError
from finsearch.evaluate.summary import category_rows, describe_config, table_rows
from finsearch.evaluate.summary_files import (
    SUMMARY_MAX_MB,
    eval_folder,
    find_summaries,
    parse_summary,
    read_summary,
)
from ui import shell, state

shell.ensure()

st.title("Evaluate")
st.caption("Benchmark results written by the eval command (python -m finsearch eval DATASET --format … "
           "--out DIR). Pick a summary found under the data directory, or upload one.")

server = state.server_settings()
browsing = state.may_browse_folders(server)
if not browsing:
    st.info("Browsing the server's folders is for its operator (FINSEARCH\\_ADMIN=1 turns it on for everyone, "
            "or open the app on the server's own machine). You can upload a summary.json.", icon=":material/lock:")
typed = "" if not browsing else st.text_input("Folder with evaluation runs", value="",
                      placeholder="empty: every run under the data directory's eval folder",
                      help="A folder inside the server's data directory (relative to its eval folder)."
                           + (" Any folder on the server is allowed here." if server.eval_any_folder else ""))
# The box states its own limit ("Limit 2MB per file"): the same one the summary is read with.
upload = st.file_uploader("…or upload a summary.json", type=["json"], max_upload_size=SUMMARY_MAX_MB)

content: bytes | None = None
name = ""
if upload is not None:
    content, name = upload.getvalue(), upload.name
elif browsing:
    try:
        folder = eval_folder(server.data_dir, typed, allow_any=server.eval_any_folder)
    except InputError as exc:
        st.error(plain(str(exc)))
        folder = None
    # A summary reached through a symlink must resolve inside the data directory too.
    within = None if server.eval_any_folder else server.data_dir
    found = find_summaries(folder, within=within) if folder is not None else []
    if folder is not None and not found:
        # The server's own paths are not shown to visitors: the folder is named as the operator set it.
        st.info("No summary.json here yet. Run an evaluation with --out pointing at a folder under the data "
                "directory's eval folder (FINSEARCH\\_DATA\\_DIR/eval), or upload a summary.json.")
    elif found:
        def label(path: Path) -> str:
            try:
                where = path.parent.relative_to(folder)
            except ValueError:
                return str(path.parent)
            return str(where) if str(where) != "." else (folder.name or str(folder))

        chosen = st.selectbox("Summary", found, format_func=label)
        name = str(chosen)
        try:
            content = read_summary(chosen, within=within)
        except OSError as exc:
            st.error(f"Cannot read {plain(chosen.name)}: {plain(exc.strerror or str(exc))}")

summary = None
if content is not None:
    try:
        summary = parse_summary(content, Path(name).name or "summary.json")
    except InputError as exc:
        st.error(plain(str(exc)))

if summary is not None:
    meta = [plain(str(summary.get("format") or "?"))]
    if summary.get("dataset"):
        meta.append(f"dataset {plain(str(summary['dataset']))}")
    if summary.get("generated_at"):
        meta.append(f"generated {plain(str(summary['generated_at']))}")
    if isinstance(summary.get("config"), dict) and summary["config"]:
        meta.append(plain(describe_config(summary["config"])))
    st.markdown(" · ".join(meta))
    for note in summary.get("notes") or []:
        if isinstance(note, str) and note:
            st.caption(plain_with_code(note))    # the notes name fields as `code`

    rows = table_rows(summary)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")

    frame = pd.DataFrame({"variant": [r["variant"] for r in rows],
                          "accuracy": pd.to_numeric([r["accuracy"] for r in rows], errors="coerce"),
                          "mean latency (ms)": pd.to_numeric([r["latency mean (ms)"] for r in rows],
                                                             errors="coerce")})
    left, right = st.columns(2)
    with left:
        st.subheader("Accuracy")
        st.bar_chart(frame, x="variant", y="accuracy")
    with right:
        st.subheader("Mean latency")
        st.bar_chart(frame, x="variant", y="mean latency (ms)")

    categories = category_rows(summary)
    if categories:
        st.subheader("Accuracy by category")
        st.dataframe(pd.DataFrame(categories), hide_index=True, width="stretch")
