# lab-clock: host
# lab-drive: throttling.iops-total=500
# 47's reader beside a buffered writer on the virtio disk, whose
# latency is the host's disk and page cache: on the guest's instruction
# clock a request that waits for the host takes no guest time or, when
# the guest idles, as long as the clock's jump to its next timer
# (2026-12-05: the reference reader beside a direct reader read 21 MB in
# 10 s, p99 40 ms, against 164 MB beside the writer), so its figures say
# nothing there.  The lab runs this test on the wall clock
# (LAB_CLOCK=host, the "normal-host" run of ./lab test), with the
# virtio disk limited by QEMU to 500 requests a second (the line above;
# by hand: LAB_CLOCK=host LAB_DRIVE_OPTS=throttling.iops-total=500).
#
# Why the limit: at the host page cache's speed the disk is not what the
# reader waits for.  2026-12-07, one vCPU, quiet host, every read's
# queue, dispatch and completion traced under cfq and mq-deadline in
# turn: the disk's part was the same (dispatch to completion p50 157
# and 159 us), no write was in flight when any read was dispatched, and
# what differed was CPU: queue to dispatch p50 115 against 60 us, a
# completion to the next read p50 401 against 205 us.  Under TCG a
# kernel path costs as much as that disk, so the reader's bytes followed
# the emulated CPU (0.16 to 1.80 of the reference in runs of one
# kernel).  At 2 ms a request, as a disk takes, a request's time is the
# disk's, and the check measures how cfq shares it between the reader
# and writeback: the reference reader beside an equal direct reader
# read 10.77 and 10.72 MB in two runs (half the disk, the other reader's
# slices its p99 of 104 ms), and 13.8 and 17.6 MB beside the writer,
# whose async queue weighs 40 % of the reader's (0025).
. "$LAB_GUEST_LIB"
tap_plan 3

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"
[ "$LAB_CLOCK" != icount ] ||
	tap_skip_rest "the virtio disk's time is the host's: judged on the wall clock"

tap_check "virtio disk $LAB_VIRTIO_DISK" test -b $LAB_VIRTIO_DISK
disk=${LAB_VIRTIO_DISK#/dev/}
sched=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/$disk/queue/scheduler)
writeback_case "virtio disk" $LAB_VIRTIO_DISK
set_scheduler $disk "$sched"
tap_check "virtio disk back on its scheduler ($sched)" \
	grep -q "\[$sched\]" /sys/block/$disk/queue/scheduler
