# Flat group scheduling: three blkio cgroups of weight 100, 200 and 300
# with one reader each share a rotational null_blk (100 us per request,
# one request at a time) as 1/6, 2/6 and 3/6, within 2 percentage
# points, in time mode (slice_idle=8) and in IOPS mode (slice_idle=0).
# One fio run per mode: fio places the jobs with cgroup= and writes
# blkio.weight with cgroup_weight=.
. "$LAB_GUEST_LIB"
tap_plan 8

RUNTIME=${CFQ_TEST_RUNTIME:-20}
IOSCHED=/sys/block/cfqgrp/queue/iosched

nullb_create cfqgrp size=768 blocksize=4096 irqmode=2 completion_nsec=100000 \
	hw_queue_depth=1 rotational=1
set_scheduler cfqgrp cfq
tap_check "rotational null_blk, depth 1, 100 us per request, with cfq" \
	grep -q '\[cfq\]' /sys/block/cfqgrp/queue/scheduler

# shares MODE: runs the three readers, prints "w100 w200 w300" shares in
# tenths of a percent.
shares() {
	local out=/tmp/cfqgrp.$1.terse
	fio --output-format=terse --minimal --filename=/dev/cfqgrp --direct=1 \
		--ioengine=psync --rw=read --bs=4k --time_based --runtime="$RUNTIME" \
		--cgroup_nodelete=1 \
		--name=w100 --cgroup=cfq-grp-100 --cgroup_weight=100 --offset=0 \
		--name=w200 --cgroup=cfq-grp-200 --cgroup_weight=200 --offset=256m \
		--name=w300 --cgroup=cfq-grp-300 --cgroup_weight=300 --offset=512m \
		>"$out" 2>/tmp/cfqgrp.$1.err || sed 's/^/# fio: /' /tmp/cfqgrp.$1.err
	awk -F';' '{ b[$3] = ($6 + $47) } END {
		t = b["w100"] + b["w200"] + b["w300"]
		if (!t) { print "-1 -1 -1"; exit }
		printf "%d %d %d\n", b["w100"] * 1000 / t, b["w200"] * 1000 / t,
			b["w300"] * 1000 / t }' "$out"
}

# within SHARE WANT: |SHARE - WANT| <= 20 (tenths of a percent)
within() {
	local d=$(($1 - $2))
	[ "$d" -ge -20 ] && [ "$d" -le 20 ]
}

check_mode() {
	local mode=$1 s100 s200 s300
	set -- $(shares "$mode")
	s100=$1 s200=$2 s300=$3
	tap_diag "$mode: shares w100 $((s100 / 10)).$((s100 % 10)) %, w200 $((s200 / 10)).$((s200 % 10)) %, w300 $((s300 / 10)).$((s300 % 10)) % (want 16.7, 33.3, 50.0)"
	tap_check_timing "$mode: weight 100 gets 1/6 +- 2 points" within "$s100" 167
	tap_check_timing "$mode: weight 200 gets 2/6 +- 2 points" within "$s200" 333
	tap_check_timing "$mode: weight 300 gets 3/6 +- 2 points" within "$s300" 500
}

echo 8 >$IOSCHED/slice_idle
check_mode "time mode"
tap_is "fio wrote blkio.weight of the weight-300 group" \
	"$(cat "$BLKIO/cfq-grp-300/blkio.weight" 2>/dev/null)" 300
echo 0 >$IOSCHED/slice_idle
check_mode "IOPS mode"
echo 8 >$IOSCHED/slice_idle

for w in 100 200 300; do
	rmdir "$BLKIO/cfq-grp-$w" 2>/dev/null
done
nullb_remove cfqgrp
