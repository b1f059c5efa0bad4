# Teardown under I/O (issue 11): a cfq null_blk with readers and writers
# busy in a flat group, a hierarchical group and its child is powered
# off and removed through configfs, TEARDOWNS times over; then the
# virtio disk, on cfq with the same load, is removed from its PCI slot
# (sysfs "remove": the driver's remove path, as an unplug runs it) and
# brought back by a rescan.  The I/O must fail cleanly: every task ends
# (none left waiting on a request cfq stranded), the writers' errors
# reach them, and the kernel log gains no splat (the run's verdict
# checks the whole log too; the hung-task detector would name a task
# stuck for 60 s).
. "$LAB_GUEST_LIB"
tap_plan 7

tap_skip_unless_hier_cfq

out=/tmp/teardown
# each takes fio's start (10 s on the debug kernel) and a wait for the
# tasks to end
teardowns=${TEARDOWNS:-$(by_flavor 5 3)}
mkdir $BLKIO/td-flat $BLKIO/td-h
echo 1 >$BLKIO/td-h/blkio.use_hierarchy
mkdir $BLKIO/td-h/x
echo 200 >$BLKIO/td-flat/blkio.weight
echo 800 >$BLKIO/td-h/x/blkio.weight
splats_before=$(dmesg_splats)

# in_group GROUP CMD...: run CMD in GROUP, in the background
in_group() {
	local group=$1
	shift
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$1/tasks" && shift && exec "$@"' sh "$BLKIO/$group" "$@" &
}

# load DISK: readers and writers on DISK in the three groups; prints
# their pids (call it with its output redirected, not in $(...), so that
# they stay this shell's children)
load() {
	local disk=$1
	in_group td-flat fio --output-format=terse --minimal --filename=/dev/$disk \
		--name=w --direct=1 --ioengine=libaio --iodepth=8 --rw=randwrite --bs=4k \
		--size=32m --time_based --runtime=60 >$out.$disk.w 2>&1
	echo $!
	in_group td-h/x fio --output-format=terse --minimal --filename=/dev/$disk \
		--name=r --direct=1 --ioengine=psync --rw=randread --bs=4k --offset=32m \
		--size=32m --time_based --runtime=60 >$out.$disk.r 2>&1
	echo $!
	# shellcheck disable=SC2016
	# (dd would make a file where the node was: the loop checks first)
	in_group td-h sh -c 'while [ -b "$1" ] && dd if=/dev/zero of="$1" bs=64k seek=1024 \
		count=256 oflag=direct 2>/dev/null; do :; done; exit 1' sh /dev/$disk
	echo $!
}

# busy DISK: wait until fio's two jobs hold DISK open (they take seconds
# to start on the debug kernel; a teardown before that would test
# nothing)
busy() {
	local i
	for i in $(seq 1 120); do
		[ "$(ls -l /proc/[0-9]*/fd 2>/dev/null | grep -c " -> /dev/$1\$")" -lt 2 ] || return 0
		sleep 0.5
	done
	echo "the load never opened /dev/$1"
}

# ended PIDS...: wait until the tasks have ended, each with an error;
# prints what went wrong (the detector names a stuck task after 60 s;
# 90 s leave it time to)
ended() {
	local pid i left
	for i in $(seq 1 90); do
		left=
		for pid in "$@"; do
			[ -d /proc/$pid ] && left="$left $pid"
		done
		[ -n "$left" ] || break
		sleep 1
	done
	for pid in $left; do
		echo "task $pid ($(cat /proc/$pid/comm 2>/dev/null)) still runs: $(head -n 3 /proc/$pid/stack 2>/dev/null | tr '\n' ' ')"
		kill -9 $pid
	done
	for pid in "$@"; do
		wait $pid && echo "task $pid ended without an error"
	done
}

# one null_blk torn down under I/O; prints what went wrong, if anything
teardown_once() {
	local disk=$1 pids
	nullb_create $disk size=128 blocksize=4096 memory_backed=1 irqmode=2 \
		completion_nsec=50000 hw_queue_depth=8 || { echo "no disk"; return; }
	set_scheduler $disk cfq || echo "cfq refused"
	load $disk >$out.pids
	pids=$(cat $out.pids)
	busy $disk
	sleep 1
	echo 0 >"$NULLB_CONFIGFS/$disk/power" || echo "power off refused"
	rmdir "$NULLB_CONFIGFS/$disk" || echo "configfs folder not removed"
	# shellcheck disable=SC2086
	ended $pids
	[ ! -e /dev/$disk ] || echo "/dev/$disk still exists"
}

: >$out.fails
for n in $(seq 1 "$teardowns"); do
	teardown_once td$n | sed "s/^/disk td$n: /" >>$out.fails
done
tap_diag "$teardowns disks torn down under I/O from 3 groups"
tap_none "every task ended with an error and every disk went away" $out.fails
tap_check "the writers saw I/O errors" sh -c "grep -l 'error' $out.td*.w | grep -q ."
tap_diag "the first writer's first error: $(grep -m 1 error $out.td1.w)"

# the virtio disk: removed from its slot under the same load, rescanned
vd=${LAB_VIRTIO_DISK#/dev/}
slot=$(readlink -f /sys/block/$vd/device/..)
set_scheduler $vd cfq
load $vd >$out.pids
pids=$(cat $out.pids)
busy $vd >$out.vd.fails
sleep 1
echo 1 >"$slot/remove"
# shellcheck disable=SC2086
ended $pids >>$out.vd.fails
echo 1 >/sys/bus/pci/rescan
for i in $(seq 1 30); do
	[ -b $LAB_VIRTIO_DISK ] && break
	sleep 1
done
tap_none "the virtio disk removed under I/O: every task ended with an error" \
	$out.vd.fails
tap_check "the virtio disk back after a rescan, readable" \
	dd if=$LAB_VIRTIO_DISK of=/dev/null bs=4k count=16 iflag=direct
tap_is "no splat in the kernel log" "$(dmesg_splats)" "$splats_before"

rmdir $BLKIO/td-h/x $BLKIO/td-h $BLKIO/td-flat
tap_check "the groups are gone" sh -c "[ ! -d $BLKIO/td-flat ] && [ ! -d $BLKIO/td-h ]"
tap_check "cfq still offered for new disks" cfq_available
