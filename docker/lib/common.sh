# Shared helpers for docker/build, docker/up and docker/down. Sourced, never run.
#
# Everything runs against the project's own Docker engine: Debian's docker.io, started by
# ensure_engine on its own socket, data root and pid file (no systemd on the build machines), so
# it never touches another engine on the machine. DOCKER_HOST points the client (and
# Testcontainers) at it. Images are built here from Debian only: no image registry is reachable.

DK_SOCKET=${COALITION_DOCKER_SOCKET:-/run/coalition-docker.sock}
DK_DATA=${COALITION_DOCKER_DATA:-/var/lib/coalition-docker}
DK_PID=/run/coalition-docker.pid
DK_LOG=/var/log/coalition-dockerd.log
DK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DK_WORK=${COALITION_DOCKER_WORK:-/var/tmp/coalition-docker}   # debootstrap roots, build contexts, logs
# Debian's client, not whatever "docker" comes first on the PATH (the machine ships a newer one).
DOCKER=/usr/bin/docker

HOST_TAG=docker
HOST_LOGS=$DK_WORK
. "$DK_DIR/../testbed/lib/host.sh"

# The Debian mirror: COALITION_DEBIAN_MIRROR, else the first one apt on this host uses.
debian_mirror() {
  local m=${COALITION_DEBIAN_MIRROR:-$(host_mirror)}
  [ -n "$m" ] || die "no Debian mirror found in apt's sources; set COALITION_DEBIAN_MIRROR to one"
  printf '%s' "$m"
}

engine_answers() { DOCKER_HOST=unix://$DK_SOCKET "$DOCKER" version >/dev/null 2>&1; }

# ensure_engine: install docker.io when missing and start its engine on DK_SOCKET when it does
# not answer. Exits non-zero, with the engine's log, when it cannot start: callers fail, never skip.
ensure_engine() {
  export DOCKER_HOST=unix://$DK_SOCKET
  [ -x "$DOCKER" ] && command -v dockerd >/dev/null && engine_answers && return 0
  if [ "$(id -u)" -ne 0 ]; then
    die "no Docker engine answers on $DK_SOCKET, and starting one needs root (run as root, or start it: see docker/README.md)"
  fi
  ensure_host_packages docker.io
  engine_answers && return 0
  mkdir -p "$DK_DATA" "$(dirname "$DK_LOG")"
  if [ -f "$DK_PID" ] && kill -0 "$(cat "$DK_PID")" 2>/dev/null; then
    say "dockerd (pid $(cat "$DK_PID")) runs but does not answer yet; waiting"
  else
    rm -f "$DK_PID"
    say "starting dockerd on $DK_SOCKET (data in $DK_DATA, log $DK_LOG)"
    # --exec-root of its own: two engines on one machine must not share /var/run/docker.
    setsid dockerd --host "unix://$DK_SOCKET" --data-root "$DK_DATA" --exec-root /run/coalition-docker-exec \
      --pidfile "$DK_PID" >>"$DK_LOG" 2>&1 </dev/null &
  fi
  local i
  for i in $(seq 1 120); do
    engine_answers && { say "dockerd answers on $DK_SOCKET"; return 0; }
    sleep 0.5
  done
  log_tail "$DK_LOG"
  die "dockerd did not answer on $DK_SOCKET within 60 s (its log is above)"
}

dk() { "$DOCKER" "$@"; }
