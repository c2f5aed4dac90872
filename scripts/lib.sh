# Sourced by the other scripts: the steps they share, each announced as it starts and timed
# when it ends, so a long install is never a silent wait.
#
#   steps N                   how many steps the script will announce ("[1/N] …")
#   announce TITLE            says the next step has started: "[3/3] TITLE…" (for a last
#                             step that never ends, like a server the script execs)
#   step TITLE COMMAND…       runs COMMAND as the next step: "[1/3] TITLE…" before it, then
#                             "[1/3] TITLE: done in 4 s" (or "failed after 4 s") after it
#   python_env REQUIREMENTS   two steps: the virtual environment .venv (made once) and the
#                             pinned packages in REQUIREMENTS, with pip's own progress bars
#   apt_install PACKAGE…      Debian packages, as root or through sudo, waiting for another
#                             install that holds the lock

_steps_total=0
_steps_done=0

steps() {
  _steps_total=$1
}

# Seconds as people read them: "4 s", "1 min 42 s".
_elapsed() {
  if [ "$1" -lt 60 ]; then echo "$1 s"; else echo "$(($1 / 60)) min $(($1 % 60)) s"; fi
}

announce() {
  _steps_done=$((_steps_done + 1))
  echo "[$_steps_done/$_steps_total] $1…" >&2
}

step() {
  local title=$1 started=$SECONDS status=0
  shift
  announce "$title"
  local tag="[$_steps_done/$_steps_total]"
  "$@" || status=$?
  if [ "$status" = 0 ]; then
    echo "$tag $title: done in $(_elapsed $((SECONDS - started)))" >&2
  else
    echo "$tag $title: failed after $(_elapsed $((SECONDS - started))) (exit status $status)" >&2
  fi
  return "$status"
}

# The packages are installed again only when a requirements file changed since the last
# install that succeeded: pip checking ~100 installed packages prints a line for each.
_requirements_stamp() {
  cat requirements*.txt | sha256sum | cut -d' ' -f1
}

_pip_install() {
  # No -q: pip names each package and draws its progress bars while it downloads.
  .venv/bin/python -m pip install --disable-pip-version-check -r "$1" && _requirements_stamp >"$2"
}

python_env() {
  local requirements=$1 stamp=".venv/.installed-$1.sha256"
  if [ -x .venv/bin/python ]; then
    step "Virtual environment .venv: already made" true
  else
    step "Creating the virtual environment .venv" python3 -m venv .venv
  fi
  if [ "$(cat "$stamp" 2>/dev/null)" = "$(_requirements_stamp)" ]; then
    step "Python packages: installed, $requirements unchanged since" true
  else
    step "Installing the Python packages in $requirements (a first install takes a minute or more)" \
      _pip_install "$requirements" "$stamp"
  fi
}

apt_install() {
  local run=()
  [ "$(id -u)" = 0 ] || run=(sudo)
  "${run[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq \
    && "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null
}
