# Grid Engine 8.1.9 (qmaster and one execution host) with its DRMAA 1.0 library, on the host.
# Sourced by testbed/up and testbed/down.

# libdrmaa1.0-java: Grid Engine's org.ggf.drmaa (/usr/share/java/drmaa.jar), the reference
# drmaa-api's StandardBindingFidelityIT checks the standard binding against.
SGE_PACKAGES=(gridengine-master gridengine-exec gridengine-client gridengine-drmaa1.0 libdrmaa1.0-java)
SGE_SLOTS=4
SGE_DRMAA_LIB=/usr/lib/gridengine-drmaa/lib/libdrmaa.so.1.0
export SGE_ROOT=/var/lib/gridengine SGE_CELL=default

sge_up() {
  ensure_host_packages "${SGE_PACKAGES[@]}"
  local dir=$TB_RUN/sge host common=$SGE_ROOT/$SGE_CELL/common
  host=$(hostname)
  mkdir -p "$dir/bin" "$dir/jobs"
  chmod 1777 "$dir/jobs"
  [ -f "$common/bootstrap" ] || die "Grid Engine cell $SGE_CELL is not initialised ($common/bootstrap missing); reinstall gridengine-master"
  echo "$host" >"$common/act_qmaster"
  # Without this alias qmaster refuses clients: "client IP resolved to host name localhost ... not identical".
  grep -qx "$host localhost" "$common/host_aliases" 2>/dev/null || echo "$host localhost" >>"$common/host_aliases"

  local spool qpid
  spool=$(awk '$1 == "qmaster_spool_dir" { print $2 }' "$common/bootstrap")
  qpid=$spool/qmaster.pid
  if pid_alive "$dir/sge_qmaster.pid"; then
    say "sge_qmaster already running (pid $(cat "$dir/sge_qmaster.pid"))"
  else
    if [ -s "$qpid" ] && kill -0 "$(cat "$qpid")" 2>/dev/null; then
      die "a Grid Engine qmaster the testbed did not start runs (pid $(cat "$qpid")); stop it first"
    fi
    rm -f "$qpid"   # a pid file left by an earlier qmaster would be read as the new one
    /usr/sbin/sge_qmaster >>"$dir/sge_qmaster.out" 2>&1 || fail_with_logs "sge_qmaster would not start" "$dir/sge_qmaster.out" "$spool/messages"
    wait_until "$TB_WAIT" test -s "$qpid" || fail_with_logs "sge_qmaster wrote no pid file" "$spool/messages"
    cp "$qpid" "$dir/sge_qmaster.pid"
    say "started sge_qmaster (pid $(cat "$dir/sge_qmaster.pid")), log $spool/messages"
  fi
  wait_until "$TB_WAIT" qconf -sconf global || fail_with_logs "sge_qmaster did not answer" "$spool/messages" "$dir/sge_qmaster.out"

  # Configuration, each step only when missing.
  qconf -sh 2>/dev/null | grep -qx "$host" || qconf -ah "$host" >/dev/null
  qconf -ss 2>/dev/null | grep -qx "$host" || qconf -as "$host" >/dev/null
  if ! qconf -se "$host" >/dev/null 2>&1; then
    printf 'hostname %s\nload_scaling NONE\ncomplex_values NONE\nuser_lists NONE\nxuser_lists NONE\nprojects NONE\nxprojects NONE\nusage_scaling NONE\nreport_variables NONE\n' \
      "$host" >"$dir/exechost"
    qconf -Ae "$dir/exechost" >/dev/null
  fi
  if ! qconf -shgrp @allhosts >/dev/null 2>&1; then
    printf 'group_name @allhosts\nhostlist %s\n' "$host" >"$dir/allhosts"
    qconf -Ahgrp "$dir/allhosts" >/dev/null
  fi
  if ! qconf -sq all.q >/dev/null 2>&1; then
    qconf -sq | sed -e 's/^qname .*/qname all.q/' -e 's/^hostlist .*/hostlist @allhosts/' \
      -e "s/^slots .*/slots $SGE_SLOTS/" -e 's/^pe_list .*/pe_list NONE/' >"$dir/all.q"
    qconf -Aq "$dir/all.q" >/dev/null
  fi
  # The default load threshold (np_load_avg 1.75) puts the queue in alarm ("a": no jobs start)
  # whenever this 2-core machine's load average passes 3.5, as it does right after a Maven build.
  qconf -sq all.q | grep -Eq '^load_thresholds +NONE$' || qconf -rattr queue load_thresholds NONE all.q >/dev/null
  # A job of several slots on one host needs a parallel environment: "smp" keeps them together.
  if ! qconf -sp smp >/dev/null 2>&1; then
    printf '%s\n' "pe_name smp" "slots 9999" "user_lists NONE" "xuser_lists NONE" "start_proc_args /bin/true" \
      "stop_proc_args /bin/true" 'allocation_rule $pe_slots' "control_slaves FALSE" "job_is_first_task TRUE" \
      "urgency_slots min" "accounting_summary FALSE" "qsort_args NONE" >"$dir/smp.pe"
    qconf -Ap "$dir/smp.pe" >/dev/null
  fi
  qconf -sq all.q | grep -Eq '^pe_list +smp$' || qconf -rattr queue pe_list smp all.q >/dev/null
  # The scheduler runs every 15 s by default; every 2 s, a job starts within seconds, as elsewhere.
  if ! qconf -ssconf | grep -Eq '^schedule_interval +0:0:2$'; then
    qconf -ssconf | sed 's/^schedule_interval .*/schedule_interval                 0:0:2/' >"$dir/sched_conf"
    qconf -Msconf "$dir/sched_conf" >/dev/null
  fi
  # Jobs submitted by root run only with min_uid/min_gid 0; the file must be named "global".
  mkdir -p "$dir/conf"
  qconf -sconf global >"$dir/conf/global"
  # The queue is usable once the qmaster has the execd's first load report; with the default
  # report interval (40 s) that took up to 84 s on a busy machine, near the wait limit. Every 5 s.
  if ! grep -Eq '^min_uid +0$' "$dir/conf/global" || ! grep -Eq '^min_gid +0$' "$dir/conf/global" \
      || ! grep -Eq '^load_report_time +00:00:05$' "$dir/conf/global"; then
    sed -i -e 's/^min_uid .*/min_uid                      0/' -e 's/^min_gid .*/min_gid                      0/' \
      -e 's/^load_report_time .*/load_report_time             00:00:05/' "$dir/conf/global"
    qconf -Mconf "$dir/conf/global" >/dev/null
  fi

  # A home for Coalition, as docs/gridengine-home.md tells a site admin to set one up (issue #50): Coalition's starter method on
  # all.q (every job of the suite starts through it), its results folder (the daemon's alone, mode 711), and the two qmaster
  # params that keep a replayed exit status 99 or 100 from requeueing the job or putting it in error.
  local src results=$dir/results coalition=$dir/coalition
  src=$(dirname "${BASH_SOURCE[0]}")/../..
  mkdir -p "$coalition"
  install -d -m 711 "$results"
  install -m 755 "$src/slurm-handler/src/main/slurm/coalition-replay" "$coalition/coalition-replay"
  sed "s|^RESULTS=.*|RESULTS=$results|" "$src/gridengine-handler/src/main/gridengine/coalition-gridengine-starter" >"$coalition/starter.new"
  chmod 755 "$coalition/starter.new" && mv -f "$coalition/starter.new" "$coalition/coalition-gridengine-starter"
  qconf -sq all.q | grep -Eq "^starter_method +$coalition/coalition-gridengine-starter$" \
    || qconf -mattr queue starter_method "$coalition/coalition-gridengine-starter" all.q >/dev/null
  if ! grep -Eq '^qmaster_params +FORBID_RESCHEDULE=1,FORBID_APPERROR=1$' "$dir/conf/global"; then
    sed -i 's/^qmaster_params .*/qmaster_params               FORBID_RESCHEDULE=1,FORBID_APPERROR=1/' "$dir/conf/global"
    qconf -Mconf "$dir/conf/global" >/dev/null
  fi
  # qacct reads the accounting file, which qmaster writes every 15 s by default: at once here, so that a test that waits for a
  # job's record (the home contract, DRMAA's examples) does not wait for the flush.
  if ! grep -q 'accounting_flush_time=00:00:00' "$dir/conf/global"; then
    sed -i -e '/^reporting_params /{ /\\$/N; s/.*/reporting_params             accounting=true reporting=false flush_time=00:00:15 joblog=false sharelog=00:00:00 accounting_flush_time=00:00:00/; }' \
      "$dir/conf/global"
    qconf -Mconf "$dir/conf/global" >/dev/null
  fi

  # The execd names its spool folder after the name its address resolves to, which may be
  # "localhost" rather than the hostname here; find its pid file by pattern.
  local espool_base espool
  espool_base=$(qconf -sconf global | awk '$1 == "execd_spool_dir" { print $2 }')
  execd_pidfile() { ls "$espool_base"/*/execd.pid 2>/dev/null | head -n 1; }
  if pid_alive "$dir/sge_execd.pid"; then
    say "sge_execd already running (pid $(cat "$dir/sge_execd.pid"))"
  else
    rm -f "$espool_base"/*/execd.pid
    /usr/sbin/sge_execd >>"$dir/sge_execd.out" 2>&1 || fail_with_logs "sge_execd would not start" "$dir/sge_execd.out"
    execd_started() { [ -s "$(execd_pidfile)" ]; }
    wait_until "$TB_WAIT" execd_started || fail_with_logs "sge_execd wrote no pid file" "$dir/sge_execd.out" "$espool_base"/*/messages
    cp "$(execd_pidfile)" "$dir/sge_execd.pid"
    say "started sge_execd (pid $(cat "$dir/sge_execd.pid")), log $(dirname "$(execd_pidfile)")/messages"
  fi
  espool=$(dirname "$(execd_pidfile)")
  queue_line() { qstat -f -q "all.q@$host" 2>&1 | awk -v q="all.q@$host" '$1 == q'; }
  queue_ready() { qmod -c "all.q@$host" >/dev/null 2>&1; queue_line | awk 'NF == 5 { ok = 1 } END { exit !ok }'; }
  wait_until "$TB_WAIT" queue_ready || {
    warn "queue state: $(queue_line)"   # a state column (u, a, E...) says why; -explain says more
    qstat -f -explain a -q "all.q@$host" >&2 2>&1 || true
    fail_with_logs "Grid Engine queue all.q@$host did not become usable" "$espool/messages" "$spool/messages"
  }

  # The tools themselves, not Debian's /usr/bin links: those run gridengine-wrapper, which runs util/arch (uname, cpp and cc1,
  # ldd: 35 processes, 0.3 s a call, 0.8 s on a loaded host) on every call, even with SGE_ARCH set; the binaries take 0.02 s.
  local t arch
  arch=$(/usr/share/gridengine/util/arch)
  for t in qsub qstat qdel qhold qrls qalter qmod qacct qconf qhost qrsub qrstat qrdel; do
    write_wrapper "$dir/bin/$t" no SGE_ROOT="$SGE_ROOT" SGE_CELL="$SGE_CELL" SGE_ARCH="$arch" -- "/usr/lib/gridengine/$t"
  done
  write_properties "$dir/testbed.properties" \
    "kind=sge" "sge.root=$SGE_ROOT" "sge.cell=$SGE_CELL" "bin=$dir/bin" "jobs.dir=$dir/jobs" \
    "drmaa.library=$SGE_DRMAA_LIB" "slots=$SGE_SLOTS" "queue=all.q" "pe=smp" "user=$TB_USER" "pool=$TB_POOL_USER" \
    "log.qmaster=$spool/messages" "log.execd=$espool/messages" "results.dir=$results" "spool=$spool"
  say "sge is up: Grid Engine qmaster and execd on $host, queue all.q with $SGE_SLOTS slots, DRMAA $SGE_DRMAA_LIB, tools in $dir/bin, logs $spool/messages"
}

sge_down() {
  stop_pidfile "sge_execd" "$TB_RUN/sge/sge_execd.pid"
  stop_pidfile "sge_qmaster" "$TB_RUN/sge/sge_qmaster.pid" 30
  rm -f "$TB_RUN/sge/testbed.properties"
}
