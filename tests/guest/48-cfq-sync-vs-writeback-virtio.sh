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
