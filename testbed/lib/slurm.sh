# Slurm clusters: 22.05 on the host (REST v0.0.38), 24.11 in the chroot (REST v0.0.40-v0.0.42).
# A 22.05 cluster started while the testbed's slurmdbd runs (testbed/lib/slurmdbd.sh) sends
# its jobs' accounting there; the others run without accounting.
# Each has two partitions on its one node: "batch" (the default) and "federated", opted in to
# the federation by slurm-handler's job_submit/lua filter (installed as the README says).
# Each cluster is an instance "slurm22-NAME" or "slurm24-NAME" with its own ClusterName, ports,
# state, spool and config, so several independent clusters run side by side.
# Sourced by testbed/up and testbed/down.

SLURM_HOST_PACKAGES=(slurmctld slurmd slurmrestd slurm-client munge slurm-wlm-jwt-plugin curl)
SLURM_CHROOT_PACKAGES=(slurmctld slurmd slurmrestd slurm-client munge slurm-wlm-jwt-plugin)
SLURM_PORT_BASE=17000     # slot k gets ports BASE+10k (slurmctld), +1 (slurmd), +2 (slurmrestd)
SLURM_CPUS=8              # declared per node; more than the machine has (config_overrides)
SLURM_FILTER_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../slurm-handler/src/main/slurm" && pwd)

# install_filter DIR: the project's job_submit.lua beside slurm.conf, opting in partition
# "federated", with coalition-replay in DIR/bin and the results folder DIR/results (root's, 0711).
install_filter() {
  local dir=$1
  mkdir -p "$dir/results" "$dir/bin"
  chmod 711 "$dir/results"
  install -m 755 "$SLURM_FILTER_DIR/coalition-replay" "$dir/bin/coalition-replay"
  sed -e 's|^  partitions = {},|  partitions = { "federated" },|' \
      -e "s|^  replay = \"[^\"]*\",|  replay = \"$dir/bin/coalition-replay\",|" \
      -e "s|^  results = \"[^\"]*\",|  results = \"$dir/results\",|" \
      "$SLURM_FILTER_DIR/job_submit.lua" >"$dir/job_submit.lua.tmp"
  grep -q '"federated"' "$dir/job_submit.lua.tmp" && grep -q "$dir/results" "$dir/job_submit.lua.tmp" \
    || die "could not set the settings of $SLURM_FILTER_DIR/job_submit.lua (did its settings block change?)"
  mv "$dir/job_submit.lua.tmp" "$dir/job_submit.lua"
}

# slurm_slot INSTANCE: a stable port slot per instance, kept in run/slots.
slurm_slot() {
  local inst=$1 slot
  touch "$TB_RUN/slots"
  slot=$(awk -v i="$inst" '$1 == i { print $2 }' "$TB_RUN/slots")
  if [ -z "$slot" ]; then
    slot=$(awk 'BEGIN { m = -1 } { if ($2 > m) m = $2 } END { print m + 1 }' "$TB_RUN/slots")
    echo "$inst $slot" >>"$TB_RUN/slots"
  fi
  echo "$slot"
}

# run_in KIND COMMAND...: run a Slurm command on the host (slurm22) or in the chroot (slurm24).
run_in() {
  local kind=$1; shift
  if [ "$kind" = slurm24 ]; then chroot "$TB_CHROOT" "$@"; else "$@"; fi
}
# side_prefix KIND: the same as a command prefix (for start_daemon, which cannot run functions).
side_prefix() { if [ "$1" = slurm24 ]; then PFX=(chroot "$TB_CHROOT"); else PFX=(); fi; }

munge_up() {
  local kind=$1 inst root=""
  if [ "$kind" = slurm24 ]; then inst=munge-chroot; root=$TB_CHROOT; else inst=munge-host; fi
  local dir=$TB_RUN/$inst
  mkdir -p "$dir" "$root/run/munge"
  run_in "$kind" chown munge:munge /run/munge   # the chroot's munge uid differs from the host's
  if pid_alive "$dir/munged.pid"; then return 0; fi
  if [ -S "$root/run/munge/munge.socket.2" ] && run_in "$kind" munge -n >/dev/null 2>&1; then
    say "$inst: a munged we did not start already answers; using it"
    return 0
  fi
  side_prefix "$kind"
  start_daemon "$inst" "$dir/munged.pid" "$dir/munged.log" "${PFX[@]}" munged -F --force
  wait_alive "$TB_WAIT" "$dir/munged.pid" run_in "$kind" munge -n || fail_with_logs "munged ($inst) did not answer" "$dir/munged.log"
}

# slurm_up KIND NAME
slurm_up() {
  local kind=$1 name=$2
  local inst=$kind-$name dir=$TB_RUN/$kind-$name
  case "$name" in (*[!a-z0-9]*|"") die "cluster name '$name' must be lowercase letters and digits";; esac
  if [ "$kind" = slurm24 ]; then
    ensure_chroot "${SLURM_CHROOT_PACKAGES[@]}"
  else
    ensure_host_packages "${SLURM_HOST_PACKAGES[@]}"
  fi
  ensure_accounts
  munge_up "$kind"

  local slot ctld_port slurmd_port rest_port
  slot=$(slurm_slot "$inst")
  ctld_port=$((SLURM_PORT_BASE + 10 * slot)); slurmd_port=$((ctld_port + 1)); rest_port=$((ctld_port + 2))
  mkdir -p "$dir"/{state,spool,log,bin,jobs}
  chmod 1777 "$dir/jobs"   # users' test jobs write their output here
  [ -f "$dir/jwt.key" ] || { head -c 32 /dev/urandom >"$dir/jwt.key"; }
  chmod 600 "$dir/jwt.key"
  install_filter "$dir"
  local conf=$dir/slurm.conf accounting=none
  local accounting_conf="AccountingStorageType=accounting_storage/none"
  # One GPU (a stand-in: see gres.conf below) on every cluster but slurm22's c1, so that a
  # federation of the testbed has sites with a GPU and one without.
  local gpus=1
  [ "$inst" = slurm22-c1 ] && gpus=0
  local gres_conf="" node_gres=""
  if [ "$gpus" -gt 0 ]; then gres_conf="GresTypes=gpu"; node_gres=" Gres=gpu:$gpus"; fi
  # Memory is enforced where the kernel offers a cgroup v1 memory hierarchy (this machine kind
  # does): 22.05's task/cgroup kills a job past its --mem and Slurm records OUT_OF_MEMORY. 24.11 in
  # the chroot stays without (cgroup.conf below). The clusters share the host's cgroup tree, where
  # Slurm names a job's cgroup by uid and job id alone, so each cluster numbers its jobs from a
  # range of its own (FirstJobId): two clusters' jobs never meet in one cgroup.
  local track=proctrack/linuxproc task=task/none memory=false
  if [ "$kind" = slurm22 ] && [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
    track=proctrack/cgroup task=task/cgroup memory=true
  fi
  if [ "$kind" = slurm22 ] && slurmdbd_serves "$name"; then
    accounting=slurmdbd
    accounting_conf="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$SLURMDBD_PORT"
  fi
  cat >"$conf" <<EOF
# Generated by testbed/up for instance $inst. One node, two partitions, loopback only.
ClusterName=$name
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$dir/jwt.key
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.daemon.pid
SlurmdPidFile=$dir/slurmd.daemon.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=$track
TaskPlugin=$task
FirstJobId=$((slot * 1000000 + 1))
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
$accounting_conf
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
# Schedule a batch job when it is submitted or released, not up to 3 s later (Slurm's default
# batch_sched_delay): a site that lends and borrows short jobs tunes it so (docs/operations.md).
SchedulerParameters=batch_sched_delay=0
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
JobSubmitPlugins=lua
# Bind to what SlurmctldHost and NodeAddr resolve to (127.0.0.1), not to every address.
CommunicationParameters=NoInAddrAny
SlurmctldTimeout=30
SlurmdTimeout=60
$gres_conf
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$SLURM_CPUS RealMemory=8000$node_gres State=UNKNOWN
# Partition pilots is what a site whose batch system takes cores back from foreign work sets up
# (sharing.eviction: batch-system, docs/jobs.md): its jobs are preempted for the other partitions
# cancelled as scancel would (SIGTERM, the rest killed after KillWait). Nothing else uses it.
PreemptType=preempt/partition_prio
PreemptMode=CANCEL
PartitionName=batch Nodes=localhost Default=YES MaxTime=INFINITE State=UP PriorityTier=10 PreemptMode=OFF
PartitionName=federated Nodes=localhost MaxTime=INFINITE State=UP PriorityTier=10 PreemptMode=OFF
PartitionName=pilots Nodes=localhost MaxTime=INFINITE State=UP PriorityTier=1 PreemptMode=CANCEL
EOF

  # Slurm 22.05's slurmd drops a GPU without a device file ("Removing file-less GPU") and the node
  # is then drained for reporting fewer than slurm.conf says: the testbed's one GPU is /dev/null.
  # Slurm counts and allocates it as any GPU (CUDA_VISIBLE_DEVICES=0); with task/none nothing binds it.
  rm -f "$dir/gres.conf"
  [ "$gpus" -gt 0 ] && printf '# Generated by testbed/up.\nName=gpu File=/dev/null\n' >"$dir/gres.conf"

  # 24.11's slurmd loads a cgroup plugin even with proctrack/linuxproc and task/none, and the
  # chroot has no cgroup filesystem: switch it off. 22.05 reads the file only with task/cgroup.
  rm -f "$dir/cgroup.conf"
  [ "$kind" = slurm24 ] && printf '# Generated by testbed/up.\nCgroupPlugin=disabled\n' >"$dir/cgroup.conf"
  [ "$memory" = true ] && printf '# Generated by testbed/up.\nCgroupPlugin=cgroup/v1\nConstrainRAMSpace=yes\nConstrainSwapSpace=yes\nAllowedSwapSpace=0\n' >"$dir/cgroup.conf"
  local env=(SLURM_CONF="$conf")
  side_prefix "$kind"
  start_daemon "$inst slurmctld" "$dir/slurmctld.pid" "$dir/log/slurmctld.out" \
    "${PFX[@]}" env "${env[@]}" slurmctld -D -f "$conf"
  wait_alive "$TB_WAIT" "$dir/slurmctld.pid" run_in "$kind" env "${env[@]}" scontrol ping \
    || fail_with_logs "$inst: slurmctld did not answer on port $ctld_port" "$dir/log/slurmctld.log" "$dir/log/slurmctld.out"
  start_daemon "$inst slurmd" "$dir/slurmd.pid" "$dir/log/slurmd.out" \
    "${PFX[@]}" env "${env[@]}" slurmd -D -f "$conf" -N localhost
  node_ready() { run_in "$kind" env "${env[@]}" sinfo -h -n localhost -o %T | grep -Eq '^(idle|mixed|allocated)'; }
  if ! wait_alive 20 "$dir/slurmd.pid" node_ready; then
    run_in "$kind" env "${env[@]}" scontrol update nodename=localhost state=resume >/dev/null 2>&1 || true
    wait_alive "$TB_WAIT" "$dir/slurmd.pid" node_ready \
      || fail_with_logs "$inst: node localhost did not become idle" "$dir/log/slurmd.log" "$dir/log/slurmd.out" "$dir/log/slurmctld.log"
  fi

  # A token for root and one for the ordinary user, a day long; "up" renews them.
  local u
  for u in root "$TB_USER"; do
    run_in "$kind" env "${env[@]}" scontrol token username="$u" lifespan=86400 2>"$dir/log/token.err" \
      | sed -n 's/^SLURM_JWT=//p' >"$dir/jwt.$u.token"
    [ -s "$dir/jwt.$u.token" ] || fail_with_logs "$inst: scontrol token failed" "$dir/log/token.err" "$dir/log/slurmctld.log"
    chmod 600 "$dir/jwt.$u.token"
  done
  chown "$TB_USER" "$dir/jwt.$TB_USER.token"

  # slurmrestd: JWT only, as an unprivileged user, on loopback.
  local plugin=openapi/v0.0.38 versions=v0.0.38
  if [ "$kind" = slurm24 ]; then plugin=openapi/slurmctld; versions=v0.0.40,v0.0.41,v0.0.42; fi
  start_daemon "$inst slurmrestd" "$dir/slurmrestd.pid" "$dir/log/slurmrestd.log" \
    "${PFX[@]}" env "${env[@]}" SLURM_JWT=daemon slurmrestd -u "$TB_REST_USER" -g "$TB_REST_USER" \
      -s "$plugin" -a rest_auth/jwt "127.0.0.1:$rest_port"
  # 22.05 answers nothing without a token, not even /openapi/v3: wait for an authenticated ping.
  local ping_version=${versions%%,*}
  rest_ready() {
    curl -fsS -o /dev/null -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $(cat "$dir/jwt.root.token")" \
      "http://127.0.0.1:$rest_port/slurm/$ping_version/ping"
  }
  wait_alive "$TB_WAIT" "$dir/slurmrestd.pid" rest_ready \
    || fail_with_logs "$inst: slurmrestd did not answer on 127.0.0.1:$rest_port" "$dir/log/slurmrestd.log"

  local t
  for t in sbatch squeue scontrol sinfo scancel sacct srun; do
    if [ "$kind" = slurm24 ]; then
      write_wrapper "$dir/bin/$t" yes SLURM_CONF="$conf" -- "/usr/bin/$t"
    else
      write_wrapper "$dir/bin/$t" no SLURM_CONF="$conf" -- "/usr/bin/$t"
    fi
  done
  local version
  version=$(run_in "$kind" env "${env[@]}" scontrol --version | awk '{print $2}')
  write_properties "$dir/testbed.properties" \
    "kind=$kind" "cluster=$name" "slurm.version=$version" \
    "rest.url=http://127.0.0.1:$rest_port" "rest.versions=$versions" \
    "rest.user=root" "rest.token.file=$dir/jwt.root.token" \
    "user=$TB_USER" "user.token.file=$dir/jwt.$TB_USER.token" "pool=$TB_POOL_USER" \
    "jwt.key.file=$dir/jwt.key" "slurm.conf=$conf" "bin=$dir/bin" "jobs.dir=$dir/jobs" \
    "partition=batch" "federated.partition=federated" "pilots.partition=pilots" "results.dir=$dir/results" "cpus=$SLURM_CPUS" "gpus=$gpus" \
    "slurmctld.port=$ctld_port" "slurmd.port=$slurmd_port" "rest.port=$rest_port" "accounting=$accounting" \
    "memory.enforced=$memory"
  say "$inst is up: Slurm $version, cluster '$name', slurmrestd http://127.0.0.1:$rest_port ($versions), accounting $accounting, tools in $dir/bin, logs in $dir/log"
}

slurm_down() {
  local kind=$1 name=$2 dir=$TB_RUN/$1-$2
  [ -d "$dir" ] || return 0
  stop_pidfile "$kind-$name slurmrestd" "$dir/slurmrestd.pid"
  stop_pidfile "$kind-$name slurmd" "$dir/slurmd.pid"
  stop_pidfile "$kind-$name slurmctld" "$dir/slurmctld.pid"
  rm -f "$dir/testbed.properties"
}

# munge is shared by the clusters on one side; it stops with the last of them.
munge_down_if_idle() {
  local kind=$1 inst
  if [ "$kind" = slurm24 ]; then inst=munge-chroot; else inst=munge-host; fi
  ls "$TB_RUN/$kind"-*/slurmctld.pid >/dev/null 2>&1 && return 0
  [ "$kind" = slurm22 ] && pid_alive "$SLURMDBD_DIR/slurmdbd.pid" && return 0
  stop_pidfile "$inst munged" "$TB_RUN/$inst/munged.pid"
}
