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
status=0
"$top/qemu/run.sh" --flavor normal --tests "$share_test" \
	--out "$LAB_OUT/guest-clock" >"$tmp/run.log" 2>&1 || status=$?
wall=$((SECONDS - start))
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
# The loops must really have competed: each kept at least a third of a
# CPU for the run (the guest's one vCPU wants a whole one).
if [ $((loop_ticks * 3)) -ge $((wall * 100 * 2)) ]; then
	echo "ok 2 - two busy loops ran on the host meanwhile"
else
	echo "not ok 2 - two busy loops ran on the host meanwhile"
fi
echo "#   their CPU time: $((loop_ticks / 100)) s in a run of $wall s"
if [ "$status" -eq 0 ]; then
	echo "ok 3 - $share_test passes with the host busy"
else
	echo "not ok 3 - $share_test passes with the host busy"
	sed 's/^/#   /' "$tmp/run.log"
fi
grep -E '^(ok|not ok|#)' "$LAB_OUT/guest-clock/results.log" 2>/dev/null |
	sed 's/^/#   /'
exit 0
