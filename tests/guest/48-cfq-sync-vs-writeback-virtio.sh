# lab-clock: host
# 47's reader beside a buffered writer on the virtio disk, whose
# latency is the host's disk and page cache: on the guest's instruction
# clock a request that waits for the host takes no guest time or, when
# the guest idles, as long as the clock's jump to its next timer
# (2026-12-05: the reference reader beside a direct reader read 21 MB in
# 10 s, p99 40 ms, against 164 MB beside the writer), so its figures say
# nothing there.  The lab runs this test on the wall clock too
# (LAB_CLOCK=host, the "normal-host" run of ./lab test), where it is
# judged.
#
# Known gap (issue 10, docs/STATUS.md): there cfq gives the reader less
# than bfq and mq-deadline do.  2026-12-05, wall clock: 0.16 and 0.65
# with two vCPUs (a virtio disk of two hardware queues, the host 28-46 %
# busy), 0.77 with one, where mq-deadline's reader beside the writer read
# 1.8 times cfq's reference; earlier runs read 0.99 and 1.49.  Likely
# mechanism: before a sync queue's turn cfq drains the async requests in
# flight, and on this disk a write waits for the host's page cache and
# disk, so each drain costs milliseconds that mq-deadline, dispatching
# the read beside the writes, does not pay.  The check reports a miss
# as a TAP TODO until that is closed.
. "$LAB_GUEST_LIB"
tap_plan 3

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"
[ "$LAB_CLOCK" != icount ] ||
	tap_skip_rest "the virtio disk's time is the host's: judged on the wall clock"

tap_check "virtio disk $LAB_VIRTIO_DISK" test -b $LAB_VIRTIO_DISK
disk=${LAB_VIRTIO_DISK#/dev/}
sched=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/$disk/queue/scheduler)
writeback_case "virtio disk" $LAB_VIRTIO_DISK \
	"issue 10: cfq drains the host's slow writes before each read"
set_scheduler $disk "$sched"
tap_check "virtio disk back on its scheduler ($sched)" \
	grep -q "\[$sched\]" /sys/block/$disk/queue/scheduler
