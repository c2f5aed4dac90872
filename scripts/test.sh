#!/usr/bin/env bash
# Install everything the tests need (Python packages into .venv; Debian's Chromium and a CJK
# font for the browser tests; Debian's redis-server for the shared-store tests) and run the
# linter and the whole test suite. No internet is used by the tests themselves; only the
# installs reach the package registries. Each step is named and timed (scripts/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# Without a CJK font Chinese text renders as boxes, and the glyph test would fail for the machine's sake.
[ -n "$(fc-list :lang=zh 2>/dev/null)" ] || missing+=(fonts-noto-cjk)
# The Redis backend is tested against a real server the tests start themselves (no service runs).
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
if [ ${#missing[@]} = 0 ]; then steps 4; else steps 5; fi
[ ${#missing[@]} = 0 ] || step "Installing ${missing[*]} from Debian" apt_install "${missing[@]}"
python_env requirements-dev.txt
step "Linting with ruff" .venv/bin/python -m ruff check .
step "Running the tests" .venv/bin/python -m pytest "$@"
