#!/usr/bin/env bash
# Install FinSearch into .venv and start the app (no API key needed: with none, the
# heuristic backend answers; with no network, the bundled sample pack is offered).
# Each step is named as it starts and timed when it ends (scripts/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
steps 3
python_env requirements.txt
# Listening on loopback only: this machine is the only visitor, so Settings may point the app
# at a local model server (see FINSEARCH_VISITOR_MODEL_SERVERS in the README).
announce "Starting the app; Streamlit prints its address below (Ctrl-C stops it)"
exec .venv/bin/python -m streamlit run app.py --server.address 127.0.0.1 "$@"
