# The blkio files of cfq's policy: blkio.weight and blkio.weight_device
# (ranges, errors, nothing changed by a refused write), the per-device
# statistics against what fio did, and the iosched tunables' checks.
. "$LAB_GUEST_LIB"
tap_plan 24

nullb_create cfqst size=256 blocksize=4096 irqmode=2 completion_nsec=20000 &&
	set_scheduler cfqst cfq
tap_check "null_blk with cfq" grep -q '\[cfq\]' /sys/block/cfqst/queue/scheduler
devno=$(cat /sys/block/cfqst/dev)
g=$(blkio_group cfq-st)

# write_err FILE VALUE: the shell's message when the write fails, else "ok"
write_err() {
	if msg=$( (echo "$2" >"$1") 2>&1); then
		echo ok
	else
		echo "$msg"
	fi
}

tap_is "root blkio.weight is 1000" "$(cat $BLKIO/blkio.weight)" 1000
tap_is "a new cgroup's blkio.weight is 500" "$(cat $g/blkio.weight)" 500
tap_check "weight 10 accepted" sh -c "echo 10 >$g/blkio.weight"
tap_check "weight 1000 accepted" sh -c "echo 1000 >$g/blkio.weight"
echo 700 >$g/blkio.weight
case $(write_err $g/blkio.weight 9) in
*"out of range"*) tap_ok "weight 9 refused with ERANGE" ;;
*) tap_fail "weight 9 refused with ERANGE" ;;
esac
case $(write_err $g/blkio.weight 1001) in
*"out of range"*) tap_ok "weight 1001 refused with ERANGE" ;;
*) tap_fail "weight 1001 refused with ERANGE" ;;
esac
case $(write_err $g/blkio.weight heavy) in
*"Invalid argument"*) tap_ok "weight 'heavy' refused with EINVAL" ;;
*) tap_fail "weight 'heavy' refused with EINVAL" ;;
esac
tap_is "refused writes left the weight at 700" "$(cat $g/blkio.weight)" 700

tap_check "weight_device $devno 300 accepted" sh -c "echo '$devno 300' >$g/blkio.weight_device"
tap_is "weight_device shows it" "$(cat $g/blkio.weight_device)" "$devno 300"
case $(write_err $g/blkio.weight_device "$devno 5") in
*"out of range"*) tap_ok "weight_device 5 refused with ERANGE" ;;
*) tap_fail "weight_device 5 refused with ERANGE" ;;
esac
case $(write_err $g/blkio.weight_device "250:999 300") in
*"No such device"*) tap_ok "weight_device of a missing device refused with ENODEV" ;;
*) tap_fail "weight_device of a missing device refused with ENODEV" ;;
esac
tap_check "weight_device $devno 0 removes it" sh -c "echo '$devno 0' >$g/blkio.weight_device && test -z \"\$(cat $g/blkio.weight_device)\""

# Statistics: two readers and a writer in two cgroups, known sizes.
out=/tmp/cfqst.terse
fio --output-format=terse --minimal --filename=/dev/cfqst --direct=1 \
	--ioengine=libaio --iodepth=4 --cgroup_nodelete=1 \
	--name=r1 --cgroup=cfq-st --rw=randread --bs=4k --size=16m --offset=0 \
	--name=w1 --cgroup=cfq-st --rw=write --bs=64k --size=24m --offset=64m \
	--name=r2 --cgroup=cfq-st2 --rw=read --bs=16k --size=20m --offset=128m \
	>"$out" 2>/tmp/cfqst.err || sed 's/^/# fio: /' /tmp/cfqst.err

# stat_total GROUP FILE: the device's Total line of an rwstat file
stat_total() {
	awk -v d="$devno" '$1 == d && $2 == "Total" { print $3 }' "$BLKIO/$1/$2"
}
# close A B: within 1 % of B
close() {
	[ -n "$1" ] && [ $(($1 > $2 ? $1 - $2 : $2 - $1)) -le $(($2 / 100)) ]
}

fio1=$(($(fio_job_bytes $out r1) + $(fio_job_bytes $out w1)))
fio2=$(fio_job_bytes $out r2)
k1=$(stat_total cfq-st blkio.io_service_bytes)
k2=$(stat_total cfq-st2 blkio.io_service_bytes)
tap_diag "cfq-st: fio $fio1 bytes, io_service_bytes $k1; cfq-st2: fio $fio2, io_service_bytes $k2"
tap_check "io_service_bytes of cfq-st within 1 % of fio" close "$k1" "$fio1"
tap_check "io_service_bytes of cfq-st2 within 1 % of fio" close "$k2" "$fio2"
reads=$(awk -v d="$devno" '$1 == d && $2 == "Read" { print $3 }' $g/blkio.io_service_bytes)
tap_check "Read bytes of cfq-st within 1 % of fio's reads" close "$reads" "$(fio_job_bytes $out r1)"

sectors=$(awk -v d="$devno" '$1 == d { print $2 }' $g/blkio.sectors)
tap_is "blkio.sectors is io_service_bytes / 512" "$sectors" $((k1 / 512))
serviced=$(stat_total cfq-st blkio.io_serviced)
tap_diag "cfq-st: io_serviced $serviced, time $(awk -v d="$devno" '$1 == d { print $2 }' $g/blkio.time) ms"
tap_check "io_serviced counts requests (between bytes/64k and bytes/4k)" \
	test "${serviced:-0}" -ge $((k1 / 65536)) -a "${serviced:-0}" -le $((k1 / 4096))
rec=$(awk -v d="$devno" '$1 == d && $2 == "Total" { print $3 }' $BLKIO/blkio.io_service_bytes_recursive)
tap_check "root's io_service_bytes_recursive includes both cgroups" \
	test "${rec:-0}" -ge $((k1 + k2))

# Tunables: names of old CFQ, ms, bad values refused and nothing changed.
io=/sys/block/cfqst/queue/iosched
missing=
for t in slice_sync slice_async slice_async_rq slice_idle group_idle quantum \
	fifo_expire_sync fifo_expire_async target_latency low_latency \
	back_seek_max back_seek_penalty; do
	[ -f $io/$t ] || missing="$missing $t"
done
tap_is "all of old CFQ's tunables are there" "$missing" ""
tap_is "slice_sync is 100 ms, slice_idle 8 ms" "$(cat $io/slice_sync) $(cat $io/slice_idle)" "100 8"
bad=
for w in "quantum 0" "quantum x" "low_latency 2" "slice_sync 0" "slice_idle -1" "back_seek_penalty 0"; do
	case $(write_err $io/${w% *} ${w#* }) in
	*"Invalid argument"*) ;;
	*) bad="$bad '$w'" ;;
	esac
done
tap_is "bad tunable values refused with EINVAL" "$bad" ""
tap_is "and nothing changed" "$(cat $io/quantum) $(cat $io/low_latency) $(cat $io/slice_sync) $(cat $io/slice_idle) $(cat $io/back_seek_penalty)" "8 1 100 8 2"

rmdir $g "$BLKIO/cfq-st2" 2>/dev/null
nullb_remove cfqst
