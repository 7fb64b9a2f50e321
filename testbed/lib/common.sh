# Shared helpers for testbed/up and testbed/down. Sourced, never run.
#
# Layout of the state folder ($TB_HOME, default /var/tmp/coalition-testbed):
#   trixie/                 the Debian 13 chroot (kept between runs: it is a cache)
#   run/<instance>/         one folder per started system: config, logs, pid files,
#                           testbed.properties (read by the Java integration tests)
#   run/slots               which Slurm instance owns which port slot
# run/ is bind-mounted into the chroot at the same path, so a path means the same thing
# inside and outside the chroot.

TB_HOME=${COALITION_TESTBED_DIR:-/var/tmp/coalition-testbed}
TB_RUN=$TB_HOME/run
TB_CHROOT=$TB_HOME/trixie
# The Debian mirror for debootstrap: COALITION_DEBIAN_MIRROR, else the one apt on this host uses.
TB_MIRROR=${COALITION_DEBIAN_MIRROR:-}
# Accounts the testbed creates, with fixed uids so the chroot agrees with the host.
TB_USER=coalition-user      # an ordinary user who submits test jobs
TB_USER_UID=19002
TB_REST_USER=coalition-rest # slurmrestd refuses to run as root or as SlurmUser
TB_REST_UID=19001
TB_POOL_USER=coalition-pool # a home site's pool account: runs foreign jobs no identity domain maps
TB_POOL_UID=19003
# How long a daemon may take to answer before "up" gives up on it.
TB_WAIT=${COALITION_TESTBED_WAIT:-90}

HOST_TAG=testbed
HOST_LOGS=$TB_RUN
. "$(dirname "${BASH_SOURCE[0]}")/host.sh"

# fail_with_logs MESSAGE LOG...: the daemon did not come up; show why, then exit non-zero.
fail_with_logs() {
  local msg=$1; shift
  printf '[testbed] ERROR: %s\n' "$msg" >&2
  log_tail "$@"
  exit 1
}

# wait_until SECONDS COMMAND...: retry COMMAND every half second until it succeeds.
wait_until() {
  local limit=$1; shift
  local deadline=$(( $(date +%s) + limit ))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.5
  done
}

# wait_alive SECONDS PIDFILE COMMAND...: like wait_until, but give up at once when the
# process recorded in PIDFILE has died (a daemon that exits at start needs no 90 s wait).
wait_alive() {
  local limit=$1 pidfile=$2; shift 2
  local deadline=$(( $(date +%s) + limit ))
  until "$@" >/dev/null 2>&1; do
    pid_alive "$pidfile" || return 1
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.5
  done
}

# Pid files: only what the testbed started is ever stopped, and only by its recorded pid. Beside
# each, PIDFILE.start keeps the process's start time (field 22 of /proc/PID/stat): the kernel
# recycles pids (pid_max is 32768 here), and a recorded pid that now names another process is
# not ours (seen in CI: a test stopped slurmrestd, and a minute later its pid was a new process).
proc_start() { awk '{print $22}' "/proc/$1/stat" 2>/dev/null; }
pid_alive() {
  [ -f "$1" ] || return 1
  local pid; pid=$(cat "$1")
  kill -0 "$pid" 2>/dev/null || return 1
  [ ! -f "$1.start" ] || [ "$(proc_start "$pid")" = "$(cat "$1.start")" ]
}

# start_daemon NAME PIDFILE LOGFILE COMMAND...: run COMMAND in the foreground of a new
# session, in the background of this script, and record its pid.
start_daemon() {
  local name=$1 pidfile=$2 logfile=$3; shift 3
  if pid_alive "$pidfile"; then
    say "$name already running (pid $(cat "$pidfile"))"
    return 0
  fi
  mkdir -p "$(dirname "$logfile")"
  setsid "$@" >>"$logfile" 2>&1 </dev/null &
  echo $! >"$pidfile"
  proc_start $! >"$pidfile.start"
  say "started $name (pid $!), log $logfile"
}

# stop_pidfile NAME PIDFILE [SECONDS]: SIGTERM the recorded pid, wait (10 s by default),
# then SIGKILL; forget the pid.
stop_pidfile() {
  local name=$1 pidfile=$2 grace=${3:-10} pid i
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if pid_alive "$pidfile"; then
    kill -TERM "$pid" 2>/dev/null
    for i in $(seq 1 $((grace * 4))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    if kill -0 "$pid" 2>/dev/null; then
      warn "$name (pid $pid) ignored SIGTERM; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null
    fi
    say "stopped $name (pid $pid)"
  fi
  rm -f "$pidfile" "$pidfile.start"
}

# Accounts: created once, with fixed uids (the chroot copies them).
ensure_accounts() {
  getent passwd "$TB_REST_USER" >/dev/null || useradd --system --uid "$TB_REST_UID" --user-group \
    --no-create-home --shell /usr/sbin/nologin "$TB_REST_USER"
  getent passwd "$TB_USER" >/dev/null || useradd --uid "$TB_USER_UID" --user-group \
    --create-home --shell /bin/bash "$TB_USER"
  getent passwd "$TB_POOL_USER" >/dev/null || useradd --uid "$TB_POOL_UID" --user-group \
    --create-home --shell /bin/bash "$TB_POOL_USER"
}

# write_properties FILE KEY=VALUE...: the contract with the Java tests (org.coalition.testbed).
write_properties() {
  local file=$1; shift
  { echo "# written by testbed/up on $(date -u +%Y-%m-%dT%H:%M:%SZ); read by org.coalition.testbed.Testbed"
    printf '%s\n' "$@"; } >"$file.tmp" && mv "$file.tmp" "$file"
}

# A small command-line tool folder per instance: wrappers that set the right environment
# (SLURM_CONF, SGE_ROOT) or enter the chroot, so tests and people type plain tool names.
# write_wrapper FILE INSIDE_CHROOT(yes|no) ENV... -- COMMAND
write_wrapper() {
  local file=$1 chrooted=$2; shift 2
  local envs=() ; while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local cmd=$1
  mkdir -p "$(dirname "$file")"
  {
    echo '#!/bin/sh'
    echo "# Generated by testbed/up. Runs $cmd with the testbed's settings."
    local e; for e in "${envs[@]}"; do echo "export $e"; done
    if [ "$chrooted" = yes ]; then
      # COALITION_TESTBED_USER=<name> runs the tool as that user (on the host too); the working folder is kept
      # when it exists inside the chroot (the run/ folder does: it is bind-mounted).
      echo 'spec=""; [ -n "${COALITION_TESTBED_USER:-}" ] && spec="--userspec=$COALITION_TESTBED_USER:$COALITION_TESTBED_USER"'
      echo "exec chroot \$spec $TB_CHROOT /bin/sh -c 'cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"' \"\$PWD\" $cmd \"\$@\""
    else
      echo '[ -n "${COALITION_TESTBED_USER:-}" ] && exec setpriv --reuid="$COALITION_TESTBED_USER" --regid="$COALITION_TESTBED_USER" --init-groups '"$cmd"' "$@"'
      echo "exec $cmd \"\$@\""
    fi
  } >"$file"
  chmod 755 "$file"
}

# reserve_ports: keep the testbed's fixed ports out of the kernel's ephemeral range. Where that
# range is wide (1024-65535 on this machine kind), a client's outgoing connection may take, say,
# 17012 as its own port while north's slurmrestd is stopped, and slurmrestd then cannot bind it
# again ("Unable to bind socket: Address already in use", seen in SlurmFederationIT's outage).
# MariaDB and slurmdbd, the Slurm slots (17000 + 10k .. +2), Grid Engine's qmaster and execd,
# HTCondor's shared port; and 18000-18999, where tests draw the ports of the servers they start
# (org.coalition.testbed.Ports). Idempotent; keeps what others reserved; a warning where it cannot.
TB_RESERVED_PORTS=6444-6445,9618,16306,16819,17000-17099,18000-18999
reserve_ports() {
  local have
  have=$(sysctl -n net.ipv4.ip_local_reserved_ports 2>/dev/null) || { warn "cannot read net.ipv4.ip_local_reserved_ports"; return 0; }
  sysctl -q -w net.ipv4.ip_local_reserved_ports="${have:+$have,}$TB_RESERVED_PORTS" \
    || warn "cannot reserve the testbed's ports ($TB_RESERVED_PORTS) from the ephemeral range (read-only /proc/sys?): a restarted daemon may find its port taken"
}
