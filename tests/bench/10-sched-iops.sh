# Benchmark (not pass/fail): IOPS of cfq, mq-deadline, bfq and none on a
# zero-latency null_blk, side by side in one guest run, as ratios to
# none.  Each scheduler runs ROUNDS times, interleaved, to spread drift.
# Run: ./lab bench 10-sched-iops (BENCH_ROUNDS, BENCH_RUNTIME: 3 and 5;
# ./lab passes them on to the guest).
. "$LAB_GUEST_LIB"

SCHEDS="none mq-deadline bfq cfq"
ROUNDS=${BENCH_ROUNDS:-3}
RUNTIME=${BENCH_RUNTIME:-5}
tap_plan 2

nullb_create bench size=1024 blocksize=4096 irqmode=0 submit_queues=2 \
	hw_queue_depth=64
tap_check "zero-latency null_blk" test -b /dev/bench

# iops SCHED: read IOPS of 2 processes, 4k random, depth 16 each
iops() {
	set_scheduler bench "$1" || { echo 0; return; }
	fio --output-format=terse --minimal --filename=/dev/bench --direct=1 \
		--ioengine=libaio --iodepth=16 --rw=randread --bs=4k \
		--time_based --runtime="$RUNTIME" --numjobs=2 --group_reporting \
		--name=bench 2>/dev/null | awk -F';' '{ print $8 }'
}

for r in $(seq 1 "$ROUNDS"); do
	for s in $SCHEDS; do
		echo "$s $(iops "$s")" >>/tmp/bench.iops
	done
done

tap_diag "scheduler   IOPS (mean of $ROUNDS)   ratio to none"
awk '{ sum[$1] += $2; n[$1]++ } END {
	base = sum["none"] / n["none"]
	split("none mq-deadline bfq cfq", order, " ")
	for (i = 1; i <= 4; i++) {
		s = order[i]; m = sum[s] / n[s]
		printf "# %-11s %8d   %5.2f\n", s, m, base ? m / base : 0
	} }' /tmp/bench.iops
tap_ok "measured (figures above; no threshold)"
nullb_remove bench
