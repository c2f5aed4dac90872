# Sourced by the other scripts: apt_install PACKAGE… installs Debian packages as root, else
# through sudo, waiting for another install that holds the lock.
apt_install() {
  local run=()
  [ "$(id -u)" = 0 ] || run=(sudo)
  "${run[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq \
    && "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null
}
