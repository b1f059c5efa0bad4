# The lab itself: blkio v1 is mounted, a null_blk device is made through
# configfs, and fio drives it for 5 s from two blkio cgroups at once.
. "$LAB_GUEST_LIB"
tap_plan 5

tap_check "blkio cgroup v1 is mounted" grep -q " $BLKIO cgroup .*blkio" /proc/mounts

if nullb_create smoke size=256 blocksize=4096 irqmode=2 completion_nsec=50000 \
	hw_queue_depth=4; then
	tap_ok "null_blk device /dev/smoke made through configfs"
else
	tap_fail "null_blk device /dev/smoke made through configfs"
fi

sched=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/smoke/queue/scheduler 2>/dev/null)
tap_diag "scheduler of smoke: ${sched:-none} (of: $(cat /sys/block/smoke/queue/scheduler 2>/dev/null))"

out=/tmp/smoke.terse
fio --output-format=terse --minimal --filename=/dev/smoke --direct=1 \
	--ioengine=psync --rw=randread --bs=4k --time_based --runtime=5 \
	--cgroup_nodelete=1 --name=left --cgroup=smoke-left --name=right --cgroup=smoke-right \
	>"$out" 2>/tmp/smoke.err
tap_is "fio ran from two cgroups" "$?" 0
[ -s /tmp/smoke.err ] && sed 's/^/# fio: /' /tmp/smoke.err

if [ -d "$BLKIO/smoke-left" ] && [ -d "$BLKIO/smoke-right" ]; then
	tap_ok "fio made the cgroups smoke-left and smoke-right"
else
	tap_fail "fio made the cgroups smoke-left and smoke-right"
fi
left=$(fio_job_bytes "$out" left)
right=$(fio_job_bytes "$out" right)
if [ "${left:-0}" -gt 0 ] && [ "${right:-0}" -gt 0 ]; then
	tap_ok "both cgroups did I/O (left $((left / 4096)), right $((right / 4096)) I/Os)"
else
	tap_fail "both cgroups did I/O (left ${left:-0}, right ${right:-0} bytes)"
fi

for job in left right; do
	rmdir "$BLKIO/smoke-$job" 2>/dev/null
done
nullb_remove smoke
