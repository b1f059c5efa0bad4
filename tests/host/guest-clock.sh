#!/usr/bin/env bash
# The normal guest's figures do not depend on how busy the host is: its
# clock counts the instructions it executes (qemu/run.sh, LAB_CLOCK), so
# a share test passes, every share judged at the contract's 2 points plus
# 20 %, while two busy loops take the host's CPUs.  The guest gets less
# wall time and runs longer; its time and its disks' stay in step.  TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/qemu/lab.conf"
tmp=$(mktemp -d)
loops=
trap 'kill $loops 2>/dev/null; rm -rf "$tmp"' EXIT
# one of the share tests whose figures weigh the guest's CPU work
# against the 100 us null_blk (eight BE levels, time and IOPS mode)
share_test=26-cfq-prio-weights
echo "1..3"

for _ in 1 2; do
	sh -c 'while :; do :; done' &
	loops="$loops $!"
done
start=$SECONDS
busy=$(host_busy_ticks)
status=0
# the CPU time of the run itself (QEMU and the lab around it), from the
# shell's own count of its children's time
TIMEFORMAT='%3U %3S'
{ time "$top/qemu/run.sh" --flavor normal --tests "$share_test" \
	--out "$LAB_OUT/guest-clock" >"$tmp/run.log" 2>&1 || status=$?; } 2>"$tmp/time"
wall=$((SECONDS - start))
busy=$(($(host_busy_ticks) - busy))
loop_ticks=0
for pid in $loops; do
	loop_ticks=$((loop_ticks + $(process_ticks "$pid")))
done
kill $loops
loops=

if grep -q 'icount clock' "$tmp/run.log"; then
	echo "ok 1 - the normal guest runs on its instruction clock"
else
	echo "not ok 1 - the normal guest runs on its instruction clock"
	sed 's/^/#   /' "$tmp/run.log"
fi
# The guest must really have competed for the CPUs: besides the run's
# own CPU time, the host was busy for at least two thirds of a CPU over
# the run (the guest's one vCPU wants a whole one).  That is the two
# loops on a quiet host; on a host busy with more, the loops get less
# and the rest makes up for it.
run_ticks=$(awk '{ printf "%d\n", ($1 + $2) * 100 }' "$tmp/time")
other_ticks=$((busy - run_ticks))
if [ $((other_ticks * 3)) -ge $((wall * 100 * 2)) ]; then
	echo "ok 2 - the host was busy besides the guest (two busy loops and more)"
else
	echo "not ok 2 - the host was busy besides the guest (two busy loops and more)"
fi
echo "#   in a run of $wall s: the loops took $((loop_ticks / 100)) s of CPU, all but the run $((other_ticks / 100)) s, the run $((run_ticks / 100)) s"
if [ "$status" -eq 0 ]; then
	echo "ok 3 - $share_test passes with the host busy"
else
	echo "not ok 3 - $share_test passes with the host busy"
	sed 's/^/#   /' "$tmp/run.log"
fi
grep -E '^(ok|not ok|#)' "$LAB_OUT/guest-clock/results.log" 2>/dev/null |
	sed 's/^/#   /'
exit 0
