# CFQ keeps a disk that queues many requests busy, at the kernel's
# defaults: its IOPS as a ratio to mq-deadline's, measured side by side
# in this run (none and bfq are reported beside them).
#
# - a zero-latency non-rotational null_blk of driver depth 64, two fio
#   jobs (io_uring, random 4 KiB reads, 16 in flight each) in one group,
#   flat and two levels down a hierarchical tree: cfq at least 0.9 of
#   mq-deadline;
# - a non-rotational null_blk that takes 1 ms a request and serves many
#   at once, 8 sync readers one request each: idling for one of them
#   would leave the others' requests waiting; cfq at least 0.95 of
#   mq-deadline.
#
# Every scheduler runs ROUNDS times, interleaved, so that a drift of the
# host's speed touches them all alike; the ratio is of the means.
#
# Known gap (issue 10, docs/STATUS.md): under TCG both disks are bound by
# the guest's CPU, not by the device (none gets 1.2-2.5 times
# mq-deadline's IOPS), and CFQ's bookkeeping per request costs more than
# mq-deadline's.  Since 0019 (one clock read per hold of the lock) cfq
# flat reached 0.93-0.94 and hierarchical 0.84-0.94 of mq-deadline at
# zero latency, 0.91-0.95 on the 1 ms disk (2026-12-05, one run each);
# a 3 s round moves by 20 % on a quiet host, so three rounds do not
# settle a 0.9 bound.  The three ratio checks report a miss as a TAP
# TODO until that is closed.
. "$LAB_GUEST_LIB"
tap_plan 5

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

rounds=3
# the debug kernel judges no figure here, only runs the workloads
[ "$LAB_FLAVOR" != debug ] || rounds=1
cpu_gap="issue 10: CFQ's CPU cost per request on a CPU-bound guest"
runtime=5
t46=/tmp/t46
spec_flat=/tmp/t46.flat
spec_hier=/tmp/t46.hier
spec_root=/tmp/t46.root

cat >$spec_flat <<SPEC
group /F 500 0
task f1 /F -
task f2 /F -
SPEC
cat >$spec_hier <<SPEC
group /H 500 1
group /H/a 500 1
task h1 /H/a -
task h2 /H/a -
SPEC
: >$spec_root
for t in 1 2 3 4 5 6 7 8; do
	echo "task r$t / -" >>$spec_root
done

# measure DISK LABEL SCHED SPEC FIO_OPTION...: one run of SPEC's jobs on
# DISK under SCHED; "LABEL IOPS" is appended to $t46.iops.
measure() {
	local disk=$1 label=$2 sched=$3 spec=$4 iops=0
	shift 4
	if set_scheduler "$disk" "$sched" && hier_apply "$spec" &&
		hier_fio "$spec" "/dev/$disk" $runtime $t46.run --ramp_time=1 "$@"; then
		iops=$(hier_fio_iops $t46.run)
	fi
	hier_remove "$spec"
	echo "$label $iops" >>$t46.iops
}

# mean LABEL: the mean IOPS of LABEL's runs so far.
mean() {
	awk -v l="$1" '$1 == l { s += $2; n++ } END { printf "%d\n", n ? s / n : 0 }' $t46.iops
}

# report LABEL...: the mean IOPS of each label and its ratio to the
# first one's, as diagnostics.
report() {
	local base=$(mean "$1") l m
	for l in "$@"; do
		m=$(mean "$l")
		tap_diag "$(awk -v l="$l" -v m="$m" -v b="$base" -v first="$1" 'BEGIN {
			printf "  %-12s %8d IOPS  %5.3f of %s", l, m, b ? m / b : 0, first }')"
	done
}

# mean_ratio_at_least LABEL BASE MIN: LABEL's mean IOPS is at least MIN
# times BASE's.
mean_ratio_at_least() {
	ratio_at_least "$(mean "$1")" "$(mean "$2")" "$3"
}

tap_diag "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
disk=t46z
nullb_create $disk size=1024 blocksize=4096 irqmode=0 hw_queue_depth=64
tap_check "zero-latency non-rotational null_blk, depth 64" \
	grep -qx 0 /sys/block/$disk/queue/rotational
: >$t46.iops
uring="--ioengine=io_uring --iodepth=16 --rw=randread"
for r in $(seq 1 $rounds); do
	measure $disk mq-deadline mq-deadline $spec_flat $uring
	measure $disk cfq-flat cfq $spec_flat $uring
	measure $disk cfq-hier cfq $spec_hier $uring
	measure $disk bfq bfq $spec_flat $uring
	measure $disk none none $spec_flat $uring
done
tap_diag "zero latency, 2 jobs x 16 in flight, mean of $rounds runs:"
report mq-deadline cfq-flat cfq-hier bfq none
tap_check_todo "$cpu_gap" "zero latency: cfq flat at least 0.9 of mq-deadline" \
	mean_ratio_at_least cfq-flat mq-deadline 0.9
tap_check_todo "$cpu_gap" "zero latency: cfq hierarchical at least 0.9 of mq-deadline" \
	mean_ratio_at_least cfq-hier mq-deadline 0.9
nullb_remove $disk

disk=t46m
nullb_create $disk size=1024 blocksize=4096 irqmode=2 completion_nsec=1000000 \
	hw_queue_depth=64
tap_check "1 ms non-rotational null_blk, depth 64" \
	grep -qx 0 /sys/block/$disk/queue/rotational
: >$t46.iops
for r in $(seq 1 $rounds); do
	measure $disk mq-deadline mq-deadline $spec_root
	measure $disk cfq cfq $spec_root
	measure $disk bfq bfq $spec_root
	measure $disk none none $spec_root
done
tap_diag "1 ms a request, 8 sync readers, mean of $rounds runs:"
report mq-deadline cfq bfq none
tap_check_todo "$cpu_gap" "1 ms disk: cfq at least 0.95 of mq-deadline" \
	mean_ratio_at_least cfq mq-deadline 0.95
nullb_remove $disk
