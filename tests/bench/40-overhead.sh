# Benchmark, not pass/fail: what each scheduler costs (issue 12's matrix,
# item 2).  A zero-latency non-rotational null_blk (completion in the
# submitting context, depth 64), so the guest's CPU is all there is to
# measure; fio reads at random (io_uring, 4 KiB, direct) from the first
# group while every other busy group has a reader of its own (busybox
# dd, one request at a time).  Schedulers: none, mq-deadline, bfq, and
# cfq with the groups flat and nested (the root's use_hierarchy 0 or 1),
# at the tunables the kernel gives them.
#
# - fio's shapes, one busy group: 1 and 2 jobs at depth 1 and 16;
# - busy groups, fio at 2 jobs of depth 16: 10, 100 and 1000 groups, each
#   a chain of depth 1 or 4 (BENCH_SHORT=1: 10 only).
#
# A run's figures come from the disk's and the CPUs' own counters over
# it: IOPS (reads completed, /sys/block/DISK/stat) and the guest CPU's
# busy time per request (/proc/stat), each as the report shows it, a
# ratio to none's and to mq-deadline's.  Every case runs BENCH_ROUNDS
# times (3), the schedulers taking turns within each round.  Rows for
# tests/bench/report.sh:
#   row overhead SCHED GROUPS DEPTH JOBS IODEPTH ROUND IOPS CPU_US_PER_REQUEST
#
# Run: ./lab bench 40-overhead (BENCH_RUNTIME seconds a run, default 5).
disk=ov
out=/tmp/ov
spec=$out.spec
size_mb=65536
runtime=${BENCH_RUNTIME:-5}
rounds=${BENCH_ROUNDS:-3}
scales="10 100 1000"
[ "${BENCH_SHORT:-0}" = 0 ] || scales=10

# counters: "SECONDS READS BUSY_TICKS" now: the guest's uptime, the
# disk's completed reads and the CPUs' busy time in USER_HZ ticks
counters() {
	awk -v disk="/sys/block/$disk/stat" 'FILENAME == "/proc/uptime" { t = $1; next }
		FILENAME == disk { r = $1; next }
		$1 == "cpu" { b = $2 + $3 + $4 + $7 + $8 + $9 }
		END { print t, r, b }' /proc/uptime "/sys/block/$disk/stat" /proc/stat
}

# "$0 hook start|end", fio's exec_prerun and exec_postrun: the first job
# to start takes the counters and continues the readers, the first to end
# stops them and takes the counters again.  So the counters cover fio's
# run with every group busy, and fio's own start and exit, which busy
# readers would starve of CPU, happen without them.  It runs before the
# guest library is read, to start as fast as it can, so it sends the
# signals itself rather than through hier_signal_tasks.
if [ "${1:-}" = hook ]; then
	mkdir "$out.$2" 2>/dev/null || exit 0
	case $2 in
	start)
		counters >$out.before
		# shellcheck disable=SC2046
		[ ! -s $out.pids ] || kill -CONT $(awk '{ print $2 }' $out.pids)
		;;
	end)
		# shellcheck disable=SC2046
		[ ! -s $out.pids ] || kill -STOP $(awk '{ print $2 }' $out.pids)
		counters >$out.after
		;;
	esac
	exit 0
fi

. "$LAB_GUEST_LIB"
tap_plan 2
tap_skip_unless_hier_cfq
cfq_nullb $disk size=$size_mb irqmode=0 completion_nsec=0 hw_queue_depth=64 rotational=0
tap_check "zero-latency null_blk $disk" test -b /dev/$disk

# make_spec GROUPS DEPTH HIER: GROUPS chains /oI/l2/.../lDEPTH of weight
# 500, a task at the end of each (o1's is fio's); the root's
# use_hierarchy is HIER
make_spec() {
	awk -v n="$1" -v depth="$2" -v hier="$3" 'BEGIN {
		print "group / 1000 " hier
		for (i = 1; i <= n; i++) {
			p = "/o" i
			print "group " p " 500 " hier
			for (d = 2; d <= depth; d++) {
				p = p "/l" d
				print "group " p " 500 " hier
			}
			print "task r" i " " p " -"
		}
	}'
}

# tree_up GROUPS DEPTH HIER: make_spec's tree made, a reader started in
# every group but fio's, whose group goes to fio_group.  Each reader's
# region (the disk shared out: it has no memory behind it) outlasts the
# tree's runs.  The readers never wait for the disk, so they run only
# while fio does (the hook above): with 999 of them busy the script's own
# commands between runs would get a thousandth of the CPU.
tree_up() {
	make_spec "$@" >$spec
	if ! hier_apply $spec 2>$out.apply; then
		echo "$1 x $2, use_hierarchy $3: $(cat $out.apply)" >>$out.failed
		hier_remove $spec
		return 1
	fi
	hier_spec_lines $spec task | sed 1d >$spec.readers
	hier_start_tasks $spec.readers /dev/$disk $out.pids $((size_mb * 256 / $1)) stopped
	fio_group=$(hier_spec_lines $spec task | awk 'NR == 1 { print substr($3, 2) }')
}

# tree_down: the readers stopped and the tree removed
tree_down() {
	hier_stop_tasks $out.pids
	hier_remove $spec
	set_scheduler $disk none
}

# run_case SCHED FIO_GROUP GROUPS DEPTH JOBS IODEPTH ROUND: one fio run in
# FIO_GROUP under SCHED, its row printed
run_case() {
	local key="$1 $3 $4 $5 $6 $7" kernel_sched=${1%-flat}
	kernel_sched=${kernel_sched%-hier}
	set_scheduler $disk "$kernel_sched" || { echo "no scheduler $kernel_sched" >>$out.failed; return; }
	rm -rf $out.start $out.end $out.before $out.after
	# (in /tmp: fio writes what each hook printed to JOB.prerun.txt there)
	if (cd /tmp && fio --output-format=terse --minimal --filename=/dev/$disk --direct=1 \
		--ioengine=io_uring --iodepth="$6" --numjobs="$5" \
		--rw=randread --bs=4k --size=$((size_mb / $3))m --time_based \
		--runtime="$runtime" --cgroup="$2" --cgroup_nodelete=1 \
		--exec_prerun="sh $0 hook start" --exec_postrun="sh $0 hook end" \
		--name=ov >$out.terse 2>$out.err); then
		[ -s $out.after ] || echo "$key: fio's hooks took no counters" >>$out.failed
		cat $out.before $out.after | paste -sd' ' | awk -v key="$key" '{
			reads = $5 - $2
			if (reads > 0)
				printf "# row overhead %s %d %.1f\n", key, reads / ($4 - $1),
					($6 - $3) * 10000 / reads
		}'
	else
		echo "$key: fio failed: $(head -c 200 $out.err)" >>$out.failed
	fi
	# the readers still run if fio failed or ended without its end hook
	[ -d $out.end ] || hier_signal_tasks STOP $out.pids
}

# run_tree GROUPS DEPTH HIER SCHEDS SHAPES: one tree, its readers kept
# (stopped between runs) for every round of the schedulers SCHEDS and
# fio's SHAPES ("JOBS:IODEPTH")
run_tree() {
	local groups=$1 depth=$2 fio_group round sched shape
	tree_up "$groups" "$depth" "$3" || return
	for round in $(seq 1 "$rounds"); do
		for sched in $4; do
			for shape in $5; do
				run_case "$sched" "$fio_group" "$groups" "$depth" \
					"${shape%:*}" "${shape#*:}" "$round"
			done
		done
	done
	tree_down
}

# The schedulers interleave within each round.  Building a tree of 1000
# groups and starting its readers takes minutes of the guest's time, so
# a tree serves every scheduler it can: the flat one all but cfq-hier
# (none, mq-deadline and bfq do not read use_hierarchy).
: >$out.failed
for groups_depth in 1:1 $(for g in $scales; do echo "$g:1 $g:4"; done); do
	groups=${groups_depth%:*} depth=${groups_depth#*:} shapes=2:16
	[ "$groups" != 1 ] || shapes="1:1 1:16 2:1 2:16"
	run_tree "$groups" "$depth" 0 "none mq-deadline bfq cfq-flat" "$shapes"
	run_tree "$groups" "$depth" 1 cfq-hier "$shapes"
done
tap_none "every case ran" $out.failed
nullb_remove $disk
