# lab-boot: null_blk.requeue=1,2,0,-1
# Requeues and several hardware queues (issue 11).  null_blk's requeue
# fault hands 2 % of the requests its driver gets back to the block
# layer, one in two as BLK_STS_RESOURCE (the request waits on its
# hardware queue's dispatch list and is issued again) and the other
# through blk_mq_requeue_request (cfq gets it back as a request already
# in flight and serves it first).  The fault is a module parameter,
# read once for every null_blk device, so ./lab test boots this test on
# its own with the line above, on the wall clock, whose two vCPUs feed
# two of each disk's four hardware queues; booted without it, the test
# skips.  Under it, with submit_queues=4:
# - the seed hierarchy, Root use_hierarchy=1, on the fairness disk
#   (lib.sh's cfq_nullb), in time and in IOPS mode: every share within
#   2 points and 20 %, as 42 checks it without requeues;
# - writers in a flat group and in a hierarchical parent and child,
#   verifying crc32c on a memory-backed disk: nothing lost;
# - the block layer did requeue (block_rq_requeue events), and the
#   kernel logged no splat.
. "$LAB_GUEST_LIB"
tap_plan 7

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"
[ -n "$(cat /sys/module/null_blk/parameters/requeue 2>/dev/null)" ] ||
	tap_skip_rest "null_blk.requeue is not set at boot (./lab test boots this test with it)"

tap_diag "null_blk.requeue=$(cat /sys/module/null_blk/parameters/requeue), $(nproc) CPUs"
splats=$(dmesg_splats)
requeue_event=$TRACING/events/block/block_rq_requeue
echo 0 >$TRACING/tracing_on
: >$TRACING/trace
echo 1 >$requeue_event/enable
echo 1 >$TRACING/tracing_on

disk=rq68
tap_cfq_nullb $disk submit_queues=4
# blk-mq keeps the hardware queues that CPUs map to: two or more of four
hctxs=$(ls -d /sys/block/$disk/mq/[0-9]* | wc -l)
tap_diag "the fairness disk has $hctxs hardware queues"
tap_check "the fairness disk has several hardware queues" test "$hctxs" -ge 2
spec=/tmp/rq68.spec
seed_spec 1 1 1 1 >$spec
seed_case() {
	hier_share_case "seed hierarchy, Root use_hierarchy=1 ($mode mode)" $spec $disk 15 2
}
cfq_each_mode $disk seed_case
nullb_remove $disk

mem=rqmem68
out=/tmp/rq68
cfq_memory_nullb $mem 64 hw_queue_depth=4 submit_queues=4
fio_verify_groups $out $mem rq
sleep 10
fio_verify_stop $out $FIO_VERIFY_PID
fio_verify_groups_remove rq
nullb_remove $mem

echo 0 >$TRACING/tracing_on
echo 0 >$requeue_event/enable
# the events kept and those the ring buffer overwrote
requeues=$(awk '/^(entries|overrun):/ { n += $2 } END { print n + 0 }' \
	$TRACING/per_cpu/cpu*/stats)
tap_diag "block_rq_requeue events: $requeues"
tap_check "the block layer requeued requests" test "$requeues" -gt 0
tap_is "no new BUG/WARNING/lockdep/KASAN report in the kernel log" "$(dmesg_splats)" "$splats"
