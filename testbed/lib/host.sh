# Helpers for the scripts that prepare this host (testbed/, docker/): messages, log tails,
# Debian's mirror and packages. Sourced, never run. The sourcing script sets HOST_TAG (the
# prefix of its messages) and HOST_LOGS (the folder apt's log goes to) first.

say()  { printf '[%s] %s\n' "$HOST_TAG" "$*"; }
warn() { printf '[%s] WARNING: %s\n' "$HOST_TAG" "$*" >&2; }
die()  { printf '[%s] ERROR: %s\n' "$HOST_TAG" "$*" >&2; exit 1; }

# Print the last lines of each named log to stderr (for "a daemon did not come up").
log_tail() {
  local f
  for f in "$@"; do
    [ -f "$f" ] || continue
    printf -- '----- last lines of %s -----\n' "$f" >&2
    tail -n 25 "$f" >&2
  done
}

# host_mirror: the first Debian archive URI in apt's sources (deb822 or one-line format).
host_mirror() {
  local m
  m=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
  [ -n "$m" ] || m=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)
  printf '%s' "$m"
}

# COALITION_APT_PROXY: an HTTP proxy for Debian's mirror (.ci/run starts Debian's apt-cacher-ng
# on http://127.0.0.1:3142): the host's packages, both debootstraps, the chroot's packages and the
# images' packages then come through it, so a package several of them install is downloaded once
# per machine. Unset (a developer's machine), everything goes to the mirror as before.
# apt_proxy_env: the variable debootstrap's wget and apt in a chroot or image read, or nothing.
apt_proxy_env() { [ -z "${COALITION_APT_PROXY:-}" ] || printf 'http_proxy=%s\n' "$COALITION_APT_PROXY"; }
# apt_proxy_opts: the same for the host's apt-get (which would also send https sources to it).
apt_proxy_opts() { [ -z "${COALITION_APT_PROXY:-}" ] || printf -- '-oAcquire::http::Proxy=%s\n' "$COALITION_APT_PROXY"; }

# ensure_host_packages PACKAGE...: install the Debian packages that are missing (apt's lists are
# updated once per script); apt's output goes to HOST_LOGS/apt-host.log.
apt_updated=""
ensure_host_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing on the host: ${missing[*]}"
  mkdir -p "$HOST_LOGS"
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$apt_updated" ]; then apt-get $(apt_proxy_opts) update -q >/dev/null || die "apt-get update failed"; apt_updated=1; fi
  apt-get $(apt_proxy_opts) install -y -q --no-install-recommends "${missing[@]}" >"$HOST_LOGS/apt-host.log" 2>&1 \
    || { log_tail "$HOST_LOGS/apt-host.log"; die "could not install ${missing[*]} (log: $HOST_LOGS/apt-host.log)"; }
}
