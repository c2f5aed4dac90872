#!/usr/bin/env bash
# Install everything the tests need (Python packages into .venv, Debian's Chromium for
# the browser tests) and run the linter and the whole test suite. No internet is used
# by the tests themselves; only the installs reach the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get -o DPkg::Lock::Timeout=300 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium >/dev/null
  else
    sudo apt-get -o DPkg::Lock::Timeout=300 update -qq \
      && sudo DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium >/dev/null
  fi
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
.venv/bin/python -m ruff check .
exec .venv/bin/python -m pytest "$@"
