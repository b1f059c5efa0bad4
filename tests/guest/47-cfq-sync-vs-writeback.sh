# Sync before writeback, at the kernel's defaults: a reader (direct,
# sequential, one request at a time) that competes with a task dirtying
# the page cache of the same disk keeps at least 80 % of the bytes it
# reads against an equal direct reader, under cfq, on the fairness
# null_blk and on the virtio disk.  Its 99th-percentile completion
# latency beside the writer is reported for cfq, bfq and mq-deadline, as
# is what it reads under each.
. "$LAB_GUEST_LIB"
tap_plan 5

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

runtime=10
out=/tmp/t47

# reader_vs DEV OTHER...: one fio run of the reader beside one other job
# (fio options OTHER, on the disk's second half); prints the reader's
# bytes and its 99th-percentile completion latency in us.
reader_vs() {
	local dev=$1 half
	shift
	half=$(($(cat "/sys/block/${dev#/dev/}/size") * 512 / 2))
	fio --output-format=terse --minimal --filename="$dev" --bs=4k \
		--time_based --ramp_time=2 --runtime=$runtime --exitall \
		--name=reader --direct=1 --ioengine=psync --rw=read --offset=0 \
		--size=$half --name=other --offset=$half --size=$half "$@" \
		>$out.terse 2>$out.err || sed 's/^/# fio: /' $out.err >&2
	awk -F';' '$3 == "reader" {
		p99 = "?"
		for (i = 18; i <= 37; i++)
			if ($i ~ /^99\.0+%=/) { p99 = $i; sub(/.*=/, "", p99) }
		printf "%d %s\n", ($6 + $47) * 1024, p99
	}' $out.terse
}

# disk_case NAME DEV: the reader against a direct reader, then against a
# buffered writer under cfq, bfq and mq-deadline; cfq is judged.
disk_case() {
	local name=$1 dev=$2 disk ref wb s
	disk=${dev#/dev/}
	set_scheduler "$disk" cfq
	ref=$(reader_vs "$dev" --direct=1 --ioengine=psync --rw=read)
	tap_diag "$name, cfq: reader beside a direct reader: ${ref% *} bytes, p99 ${ref#* } us"
	for s in cfq bfq mq-deadline; do
		set_scheduler "$disk" $s
		echo "$s $(reader_vs "$dev" --direct=0 --ioengine=psync --rw=write --bs=64k)" >$out.$s
		tap_diag "$name, $s: reader beside a buffered writer:" \
			"$(awk '{ print $2 }' $out.$s) bytes, p99 $(awk '{ print $3 }' $out.$s) us"
	done
	set_scheduler "$disk" cfq
	wb=$(awk '{ print $2 }' $out.cfq)
	tap_check_timing "$name: beside a buffered writer the reader keeps 80 % under cfq" \
		ratio_at_least "$wb" "${ref% *}" 0.8
}

disk=t47
tap_cfq_nullb $disk
disk_case "null_blk" /dev/$disk
nullb_remove $disk

tap_check "virtio disk /dev/vda" test -b /dev/vda
vda_sched=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/vda/queue/scheduler)
disk_case "virtio disk" /dev/vda
set_scheduler vda "$vda_sched"
tap_check "virtio disk back on its scheduler ($vda_sched)" \
	grep -q "\[$vda_sched\]" /sys/block/vda/queue/scheduler
