#!/bin/bash
# Question 1 of decision 0018: does a super user's condor_qedit of Cmd/Arguments/TransferInput on a
# held vanilla job take effect at its next start? For a single proc, a proc of a cluster of 2, and a spooled job.
set -u
CH=/var/tmp/coalition-testbed/trixie
J=/var/tmp/coalition-testbed/run/condor/jobs/q1-$$
as_user() { chroot --userspec=coalition-user:coalition-user "$CH" "$@"; }
as_root() { chroot "$CH" "$@"; }
mkdir -p $J && chmod 777 $J
cat > $J/orig.sh <<'S'
#!/bin/sh
echo ORIGINAL "$@"
exit 3
S
cat > $J/replay.sh <<'S'
#!/bin/sh
echo REPLAYED "$@"; cat manifest.txt; echo made > made-by-replay.txt
exit 42
S
echo "the manifest" > $J/manifest.txt
chmod 755 $J/*.sh; chmod 644 $J/manifest.txt
cat > $J/one.sub <<S
universe = vanilla
executable = $J/orig.sh
arguments = a b
output = $J/out.\$(Process)
error = $J/err.\$(Process)
log = $J/log
should_transfer_files = YES
when_to_transfer_output = ON_EXIT
hold = true
initialdir = $J
+CoalitionFederate = true
queue 2
S
cd $J
out=$(as_user condor_submit $J/one.sub) || { echo "submit failed: $out"; exit 1; }
cl=$(echo "$out" | sed -n 's/.*submitted to cluster \([0-9]*\)\./\1/p')
echo "cluster $cl"
as_root condor_q $cl -af ProcId JobStatus HoldReasonCode Cmd Args
# edit proc 1 only: the replay, its arguments and its input file
as_root condor_qedit $cl.1 Cmd "\"$J/replay.sh\"" Args "\"x y\"" TransferInput "\"$J/manifest.txt\"" CoalitionWhere "\"west/slurm:12345\""
echo "qedit rc=$?"
as_root condor_q $cl -af ProcId JobStatus Cmd Args TransferInput CoalitionWhere
as_root condor_release $cl
for i in $(seq 1 60); do n=$(as_root condor_q $cl -af ProcId | wc -l); [ "$n" = 0 ] && break; sleep 2; done
echo "--- history"
as_root condor_history $cl -af ProcId JobStatus ExitCode ExitBySignal Cmd CoalitionWhere
echo "--- outputs"; for f in out.0 out.1 made-by-replay.txt; do echo "[$f]"; cat $J/$f 2>&1; done
as_root condor_rm -forcex $cl >/dev/null 2>&1
