# CFQ keeps data intact: fio writes and verifies (crc32c) from 4
# processes in 3 blkio cgroups, on a memory-backed null_blk and on the
# virtio disk, with cfq as their scheduler.
. "$LAB_GUEST_LIB"
tap_plan 6

# verify_run NAME DEV: 4 jobs in 3 cgroups, each on its own region of
# $mib MiB (verification needs one writer per block), mixing random and
# sequential I/O, sizes that merge, and a queue depth above quantum.
# The debug kernel writes a third as much: it checks the same paths
# under KASAN and lockdep, at a tenth of the speed.
mib=$(by_flavor 24 8)
verify_run() {
	local name=$1 dev=$2 out=/tmp/$1.terse
	fio --output-format=terse --minimal --filename="$dev" --direct=1 \
		--ioengine=libaio --size=${mib}m --verify=crc32c --verify_fatal=1 \
		--do_verify=1 --cgroup_nodelete=1 \
		--name=a1 --cgroup=cfq-data-a --offset=0 --rw=randrw --bs=4k --iodepth=16 \
		--name=a2 --cgroup=cfq-data-a --offset=${mib}m --rw=write --bs=16k --iodepth=4 \
		--name=b --cgroup=cfq-data-b --offset=$((2 * mib))m --rw=randrw --bsrange=4k-64k --iodepth=8 \
		--name=c --cgroup=cfq-data-c --offset=$((3 * mib))m --rw=randwrite --bs=8k --iodepth=1 \
		>"$out" 2>/tmp/$name.err
	local rc=$?
	[ -s /tmp/$name.err ] && sed 's/^/# fio: /' /tmp/$name.err
	# terse v3: field 5 is the job's error number
	local errs
	errs=$(awk -F';' '$5 != 0 { n++ } END { print n + 0 }' "$out")
	local jobs
	jobs=$(awk -F';' 'NF > 50 { n++ } END { print n + 0 }' "$out")
	tap_diag "$name: fio exit $rc, $jobs jobs reported, $errs with errors"
	[ "$rc" -eq 0 ] && [ "$jobs" -eq 4 ] && [ "$errs" -eq 0 ]
}

if nullb_create cfqdata size=128 blocksize=4096 memory_backed=1 irqmode=2 \
	completion_nsec=20000 hw_queue_depth=32 submit_queues=2; then
	tap_ok "memory-backed null_blk with 2 hardware queues"
else
	tap_fail "memory-backed null_blk with 2 hardware queues"
fi

if set_scheduler cfqdata cfq; then
	tap_ok "cfq selected on null_blk"
else
	tap_fail "cfq selected on null_blk"
fi
if verify_run nullb /dev/cfqdata; then
	tap_ok "fio verify=crc32c on null_blk: no error"
else
	tap_fail "fio verify=crc32c on null_blk: no error"
fi

vd=${LAB_VIRTIO_DISK#/dev/}
tap_check "cfq selected on $vd" set_scheduler "$vd" cfq
if verify_run virtio "$LAB_VIRTIO_DISK"; then
	tap_ok "fio verify=crc32c on $vd: no error"
else
	tap_fail "fio verify=crc32c on $vd: no error"
fi

for g in a b c; do
	rmdir "$BLKIO/cfq-data-$g" 2>/dev/null
done
tap_check "cgroups removed after the I/O" test ! -d "$BLKIO/cfq-data-a"
set_scheduler "$vd" mq-deadline
nullb_remove cfqdata
