#!/bin/bash
# Question 2 of decision 0018 (design B): does the schedd take JobStatus = 4 from a super user's edit, and does the job go to
# the history with the exit code written? Also: is an attribute listed in PROTECTED_JOB_ATTRS refused to its owner?
set -u
CH=/var/tmp/coalition-testbed/trixie
J=/var/tmp/coalition-testbed/run/condor/jobs/q2-$$
as_user() { chroot --userspec=coalition-user:coalition-user "$CH" "$@"; }
as_root() { chroot "$CH" "$@"; }
mkdir -p $J && chmod 777 $J
cat > $J/b.sub <<S
universe = vanilla
executable = /bin/true
output = $J/out
log = $J/log
hold = true
queue
S
cd $J
cl=$(as_user condor_submit $J/b.sub | sed -n 's/.*submitted to cluster \([0-9]*\)\./\1/p'); echo "cluster $cl"
as_root condor_qedit $cl CoalitionHoldToken '"tok-1"'; echo "root sets token rc=$?"
as_user condor_qedit $cl CoalitionHoldToken '"forged"'; echo "owner changes token rc=$? (0: not protected)"
as_root condor_q $cl -af CoalitionHoldToken
echo "--- design B: JobStatus edits"
as_root condor_qedit $cl ExitCode 7 ExitBySignal false; echo "exit attrs rc=$?"
as_root condor_qedit $cl JobStatus 4; echo "JobStatus=4 rc=$?"
sleep 8
as_root condor_q $cl -af JobStatus ExitCode
as_root condor_history $cl -af JobStatus ExitCode
as_root condor_qedit $cl Managed '"External"'; echo "Managed=External rc=$?"
as_root condor_qedit $cl JobStatus 4; echo "JobStatus=4 while External rc=$?"
sleep 8
as_root condor_q $cl -af JobStatus ExitCode Managed
as_root condor_history $cl -af JobStatus ExitCode
# a job left Managed = "External" lingers removed but never leaves the queue (the schedd waits for its manager): it broke the
# next CondorContractIT's empty-queue wait on this machine once; take it out for good
as_root condor_rm -forcex $cl >/dev/null 2>&1
echo "--- the same owner's edit with the attribute in PROTECTED_JOB_ATTRS (the pool admin's step)"
echo 'PROTECTED_JOB_ATTRS = $(PROTECTED_JOB_ATTRS) CoalitionHoldToken CoalitionWhere' > $CH/etc/condor/config.d/98-coalition-protected.conf
as_root condor_reconfig >/dev/null; sleep 2
cl=$(as_user condor_submit $J/b.sub | sed -n 's/.*submitted to cluster \([0-9]*\)\./\1/p'); echo "cluster $cl"
as_root condor_qedit $cl CoalitionHoldToken '"tok-2"'; echo "root sets token rc=$?"
as_user condor_qedit $cl CoalitionHoldToken '"forged"'; echo "owner changes token rc=$? (non-zero: protected)"
as_root condor_q $cl -af CoalitionHoldToken
as_root condor_rm -forcex $cl >/dev/null 2>&1
rm -f $CH/etc/condor/config.d/98-coalition-protected.conf; as_root condor_reconfig >/dev/null
