#!/bin/bash
set -u
CH=/var/tmp/coalition-testbed/trixie
J=/var/tmp/coalition-testbed/run/condor/jobs/q1s-$$
as_user() { chroot --userspec=coalition-user:coalition-user "$CH" "$@"; }
as_root() { chroot "$CH" "$@"; }
mkdir -p $J && chmod 777 $J
printf '#!/bin/sh\necho ORIGINAL "$@"\nexit 3\n' > $J/orig.sh
printf '#!/bin/sh\necho REPLAYED "$@"; cat manifest.txt; echo made > made-by-replay.txt\nexit 42\n' > $J/replay.sh
echo "the manifest" > $J/manifest.txt; chmod 755 $J/*.sh; chmod 644 $J/manifest.txt
cat > $J/s.sub <<S
universe = vanilla
executable = $J/orig.sh
arguments = a b
initialdir = $J
output = out
error = err
log = $J/log
should_transfer_files = YES
when_to_transfer_output = ON_EXIT
requirements = (TARGET.Arch == "none")
queue
S
out=$(as_user condor_submit -spool $J/s.sub); cl=$(echo "$out" | sed -n 's/.*submitted to cluster \([0-9]*\)\./\1/p'); echo "cluster $cl"
sleep 3; as_root condor_hold $cl; sleep 1
as_root condor_q $cl -af JobStatus HoldReasonCode Cmd SUBMIT_Cmd Iwd SUBMIT_Iwd TransferIn
as_root condor_qedit $cl Cmd "\"$J/replay.sh\"" Args "\"x y\"" TransferInput "\"$J/manifest.txt\"" Requirements true; echo "qedit rc=$?"
as_root condor_release $cl
for i in $(seq 1 40); do s=$(as_root condor_q $cl -af JobStatus); [ "$s" = 4 ] && break; [ -z "$s" ] && break; sleep 2; done
as_root condor_q $cl -af JobStatus ExitCode HoldReason Cmd
as_user condor_transfer_data $cl; echo "transfer_data rc=$?"
ls $J; cat $J/out 2>&1
as_root condor_history $cl -af JobStatus ExitCode Cmd
as_root condor_rm -forcex $cl >/dev/null 2>&1 # a spooled job stays in the queue after its output is fetched
