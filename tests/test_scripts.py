"""The set-up scripts: every step named as it starts and timed when it ends, and pip's own
progress shown on the long install (scripts/lib.sh, used by start.sh and test.sh).

The scripts run for real in bash, in a copy of the repository's layout where `python3` and
`.venv/bin/python` are stand-ins that write down how they were called: nothing is installed
and no network is used."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from tests.conftest import ROOT

# Stands in for python3 (makes .venv) and for .venv/bin/python (pip, streamlit): each call is
# one line of its arguments in calls.log.
FAKE_PYTHON = """#!/usr/bin/env bash
echo "$*" >>"$CALLS"
if [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin" && cp "$0" "$3/bin/python"
fi
"""


def _bash(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})


def _checkout(tmp_path: Path) -> Path:
    """The scripts and requirements files in a folder of their own, with a fake python3."""
    (tmp_path / "scripts").mkdir()
    for name in ("lib.sh", "start.sh", "test.sh"):
        shutil.copy(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    for name in ("requirements.txt", "requirements-dev.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(FAKE_PYTHON)
    (bin_dir / "python3").chmod(0o755)
    return tmp_path


def test_a_step_is_named_when_it_starts_and_timed_when_it_ends(tmp_path):
    done = _bash('source "$LIB"; steps 2; step "Saying hello" echo hello; echo after',
                 tmp_path, LIB=str(ROOT / "scripts" / "lib.sh"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "hello\nafter\n"
    lines = done.stderr.splitlines()
    assert lines[0] == "[1/2] Saying hello…"
    assert re.fullmatch(r"\[1/2\] Saying hello: done in \d+ s", lines[1]), lines


def test_a_failed_step_says_so_and_stops_the_script(tmp_path):
    failed = _bash('set -e; source "$LIB"; steps 2; step "Passing" true; step "Failing" false; echo never',
                   tmp_path, LIB=str(ROOT / "scripts" / "lib.sh"))
    assert failed.returncode == 1
    assert "never" not in failed.stdout
    lines = failed.stderr.splitlines()
    assert lines[2] == "[2/2] Failing…"
    assert re.fullmatch(r"\[2/2\] Failing: failed after \d+ s \(exit status 1\)", lines[3]), lines


def test_start_names_and_times_each_step_and_lets_pip_show_its_progress(tmp_path):
    checkout = _checkout(tmp_path)
    calls = checkout / "calls.log"
    env = {"PATH": f"{checkout / 'bin'}:{os.environ['PATH']}", "CALLS": str(calls)}
    first = _bash("bash scripts/start.sh --server.port 8599", checkout, **env)
    assert first.returncode == 0, first.stderr
    said = first.stderr.splitlines()
    assert said[0] == "[1/3] Creating the virtual environment .venv…"
    assert re.fullmatch(r"\[1/3\] Creating the virtual environment \.venv: done in \d+ s", said[1])
    assert said[2].startswith("[2/3] Installing the Python packages in requirements.txt (")
    assert re.fullmatch(r"\[2/3\] Installing the Python packages in requirements\.txt .*: done in \d+ s", said[3])
    assert said[4] == "[3/3] Starting the app; Streamlit prints its address below (Ctrl-C stops it)…"
    venv, pip, app = calls.read_text().splitlines()
    assert venv == "-m venv .venv"
    assert pip.startswith("-m pip install ") and pip.endswith("-r requirements.txt")
    assert not {"-q", "--quiet", "-qq"} & set(pip.split()), "pip's progress is shown, not silenced"
    assert app == "-m streamlit run app.py --server.address 127.0.0.1 --server.port 8599"

    # A second start finds both made and installs nothing.
    calls.unlink()
    again = _bash("bash scripts/start.sh", checkout, **env)
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[0] == "[1/3] Virtual environment .venv: already made…"
    assert again.stderr.splitlines()[2] == "[2/3] Python packages: installed, requirements.txt unchanged since…"
    assert calls.read_text().splitlines() == ["-m streamlit run app.py --server.address 127.0.0.1"]

    # A changed requirements file is installed again.
    with (checkout / "requirements.txt").open("a") as out:
        out.write("# changed\n")
    calls.unlink()
    assert _bash("bash scripts/start.sh", checkout, **env).returncode == 0
    assert calls.read_text().splitlines()[0].startswith("-m pip install ")


def test_no_script_installs_python_packages_quietly():
    """pip -q on the long install is what left a first start silent for minutes."""
    for script in ("lib.sh", "start.sh", "test.sh"):
        for line in (ROOT / "scripts" / script).read_text("utf-8").splitlines():
            if "pip install" in line:
                assert not re.search(r"\s(-q+|--quiet)\b", line), f"{script}: {line}"


def test_the_scripts_share_one_step_helper():
    for script in ("start.sh", "test.sh", "local-model.sh"):
        text = (ROOT / "scripts" / script).read_text("utf-8")
        assert "source scripts/lib.sh" in text, script
        assert "step()" not in text and "apt_install()" not in text, f"{script} keeps a copy of a helper"
