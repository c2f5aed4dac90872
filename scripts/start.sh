#!/usr/bin/env bash
# Install FinSearch into .venv and start the app (no API key needed: with none, the
# heuristic backend answers; with no network, the bundled sample pack is offered).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
# Listening on loopback only: this machine is the only visitor, so Settings may point the app
# at a local model server (see FINSEARCH_VISITOR_MODEL_SERVERS in the README).
exec .venv/bin/python -m streamlit run app.py --server.address 127.0.0.1 "$@"
