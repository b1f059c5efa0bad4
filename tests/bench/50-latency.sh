# Benchmark, not pass/fail: starting an application while a copy runs
# (issue 12's matrix, item 3; the seed article's case).  On an ext2 file
# system on a memory-backed null_blk that serves like the fairness disk
# (100 us a request, one at a time, rotational), the "application" is a
# set of 200 files of 16 KiB read cold by one cat in group /app; the
# "copy" is a sequential reader and a buffered writer of large files in
# group /copy; both groups at weight 500.  Figure: the time to read the
# set under the copy as a ratio to the same read on the idle disk, per
# scheduler (none, mq-deadline, bfq, cfq), BENCH_ROUNDS rounds (3).
# Rows for tests/bench/report.sh:
#   row latency SCHED ROUND IDLE_SECONDS LOADED_SECONDS
#
# Run: ./lab bench 50-latency.
. "$LAB_GUEST_LIB"
tap_plan 2

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=lat
mnt=/mnt/lat
out=/tmp/lat
rounds=${BENCH_ROUNDS:-3}
cfq_memory_nullb $disk 512 completion_nsec=100000 hw_queue_depth=1 rotational=1
mkdir -p $mnt
if mke2fs -q /dev/$disk >$out.mkfs 2>&1 && mount -t ext2 /dev/$disk $mnt; then
	tap_ok "ext2 on $disk"
else
	tap_fail "ext2 on $disk"
	sed 's/^/#   /' $out.mkfs
	tap_skip_rest "no file system"
fi

mkdir -p $mnt/app
for i in $(seq 1 200); do
	dd if=/dev/urandom of=$mnt/app/f$i bs=16k count=1 2>/dev/null
done
dd if=/dev/zero of=$mnt/big bs=1M count=160 2>/dev/null
sync
for g in app copy; do
	mkdir -p $BLKIO/$g
	echo 500 >$BLKIO/$g/blkio.weight
done

# cold_read: seconds to read the application's files with a cold cache,
# from group /app
cold_read() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$1/tasks"
		read -r t0 _ </proc/uptime
		cat "$2"/app/* >/dev/null
		read -r t1 _ </proc/uptime
		echo "$t0 $t1"' sh "$BLKIO/app" $mnt |
		awk '{ printf "%.3f\n", $2 - $1 }'
}

# copy_start: the copy in group /copy, reading big over and over and
# writing copy-out; copy_stop ends it
copy_start() {
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$1/tasks"; while :; do cat "$2/big" >/dev/null; done' \
		sh "$BLKIO/copy" $mnt &
	copy_reader=$!
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$1/tasks"
		while :; do dd if=/dev/zero of="$2/copy-out" bs=1M count=120 2>/dev/null; done' \
		sh "$BLKIO/copy" $mnt &
	copy_writer=$!
	sleep 3
}

copy_stop() {
	local children
	# held still, so that they start no new cat or dd while the running
	# ones are found (busybox has no pkill)
	kill -STOP $copy_reader $copy_writer
	children=$(proc_stats |
		awk -v a=$copy_reader -v b=$copy_writer '$4 == a || $4 == b { print $1 }')
	# shellcheck disable=SC2086
	kill $children $copy_reader $copy_writer 2>/dev/null
	kill -CONT $copy_reader $copy_writer 2>/dev/null
	wait $copy_reader $copy_writer 2>/dev/null
	rm -f $mnt/copy-out
	sync
}

: >$out.failed
for round in $(seq 1 "$rounds"); do
	for sched in none mq-deadline bfq cfq; do
		if ! set_scheduler $disk $sched; then
			echo "no scheduler $sched" >>$out.failed
			continue
		fi
		idle=$(cold_read)
		copy_start
		loaded=$(cold_read)
		copy_stop
		echo "# row latency $sched $round $idle $loaded"
	done
done
umount $mnt
for g in app copy; do
	blkio_group_remove $g
done
nullb_remove $disk
tap_none "every scheduler ran" $out.failed
