"""Evaluate: a benchmark summary written by `python -m finsearch eval …`, as a table and bar charts."""

from pathlib import Path

import pandas as pd
import streamlit as st

from finsearch.errors import InputError
from finsearch.evaluate.summary import category_rows, describe_config, find_summaries, parse_summary, table_rows
from finsearch.markdown import plain
from ui import shell, state

shell.ensure()

st.title("Evaluate")
st.caption("Benchmark results from `python -m finsearch eval DATASET --format mcq|finsearchcomp "
           "--variants … --out DIR`. Pick a summary.json found under a folder, or upload one.")

default_folder = state.server_settings().data_dir / "eval"
folder = Path(st.text_input("Folder with evaluation runs", value=str(default_folder)).strip()
              or default_folder).expanduser()
upload = st.file_uploader("…or upload a summary.json", type=["json"])

content: bytes | None = None
name = ""
if upload is not None:
    content, name = upload.getvalue(), upload.name
else:
    found = find_summaries(folder)
    if not found:
        st.info(f"No summary.json under {plain(str(folder))}. Run an evaluation with --out pointing at a "
                "folder inside it, or upload a summary.json.")
    else:
        def label(path: Path) -> str:
            try:
                return str(path.parent.relative_to(folder)) if path.parent != folder else "."
            except ValueError:
                return str(path.parent)

        chosen = st.selectbox("Summary", found, format_func=label)
        name = str(chosen)
        try:
            content = chosen.read_bytes()
        except OSError as exc:
            st.error(f"Cannot read {plain(name)}: {plain(exc.strerror or str(exc))}")

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
            st.caption(plain(note))

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
