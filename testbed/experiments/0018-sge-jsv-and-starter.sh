#!/bin/bash
# Questions 3 and 4 of docs/decisions/0018: does jsv_allowed_mod bind managers too, and what does qacct record when the queue's
# starter_method dies by a signal? Needs `testbed/up sge`; run as root. Restores the global configuration and all.q after.
set -u
export SGE_ROOT=/var/lib/gridengine SGE_CELL=default
E=/var/tmp/coalition-testbed/run/sge/jobs/exp-$$
mkdir -p $E/c && chmod 755 $E
as_user() { setpriv --reuid=coalition-user --regid=coalition-user --init-groups "$@"; }
# A server JSV speaking the protocol directly (jsv_script_interface(3); Debian's jsv_include.sh looks for $SGE_ROOT/util/arch,
# which its layout does not have): every job gets the context variable COALITION_FEDERATE=1.
cat > $E/jsv.sh <<'S'
#!/bin/sh
ac=""
while read -r cmd a b; do
  case "$cmd" in
    START) echo "STARTED" ;;
    PARAM) [ "$a" = "ac" ] && ac="$b" ;;
    BEGIN)
      if [ -n "$ac" ]; then echo "PARAM ac $ac,COALITION_FEDERATE=1"; else echo "PARAM ac COALITION_FEDERATE=1"; fi
      echo "RESULT STATE CORRECT marked for the federation"
      ac="" ;;
    QUIT) exit 0 ;;
  esac
done
S
chmod 755 $E/jsv.sh
qconf -sconf global > $E/global.orig
sed "s|^jsv_url .*|jsv_url                      script:$E/jsv.sh|" $E/global.orig > $E/c/global   # -Mconf takes the name from the file's
qconf -Mconf $E/c/global >/dev/null
cd $E
jid=$(as_user qsub -terse -h -b y -o /dev/null -e /dev/null /bin/true); echo "job $jid: $(qstat -j $jid | grep context)"
echo "manager qalter -l h_rt: $(qalter -l h_rt=100 $jid 2>&1) (rc=$?)"
echo "manager qalter -ac: $(qalter -ac COALITION_PARKED=1 $jid 2>&1) (rc=$?)"
echo "manager qalter -h o: $(qalter -h o $jid 2>&1) (rc=$?)"
echo "owner qalter -l h_rt: $(as_user qalter -l h_rt=100 $jid 2>&1) (rc=$?)"
echo "owner qalter -ac: $(as_user qalter -ac COALITION_PARKED=0 $jid 2>&1) (rc=$?)"
echo "owner qrls -h o: $(as_user qrls -h o $jid 2>&1) (rc=$?)"
j2=$(as_user qsub -clear -terse -h -b y -o /dev/null -e /dev/null /bin/true); echo "qsub -clear: $(qstat -j $j2 | grep context)"
qdel $jid $j2 >/dev/null
cp $E/global.orig $E/c/global; qconf -Mconf $E/c/global >/dev/null
# the starter method
printf '#!/bin/sh\nif [ -n "$COALITION_TEST_KILL" ]; then kill -s "$COALITION_TEST_KILL" $$; sleep 5; fi\nexec "$@"\n' > $E/starter.sh
chmod 755 $E/starter.sh
qconf -mattr queue starter_method $E/starter.sh all.q >/dev/null
sub() { as_user qsub -terse -b y -o /dev/null -e /dev/null "$@"; }
j1=$(sub /bin/sh -c 'exit 3'); j2=$(sub -v COALITION_TEST_KILL=KILL /bin/true); j3=$(sub -v COALITION_TEST_KILL=TERM /bin/true)
j4=$(sub /bin/sh -c 'kill -9 $$'); j5=$(sub -v COALITION_TEST_KILL=SEGV /bin/true)
for i in $(seq 1 60); do [ -z "$(qstat -u coalition-user | tail -n +3)" ] && break; sleep 2; done
sleep 8
for j in "$j1 exit 3" "$j2 starter KILL" "$j3 starter TERM" "$j4 job kill -9" "$j5 starter SEGV"; do
  set -- $j; echo "$j: $(qacct -j $1 2>&1 | grep -E '^(exit_status|failed) ' | tr -s ' ' | tr '\n' ';')"
done
qconf -mattr queue starter_method NONE all.q >/dev/null
