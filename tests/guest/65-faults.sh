# Faults (issue 11; the debug kernel has fault injection): failslab and
# fail_page_alloc fail the allocations of one task, which creates groups,
# gives them weights, weight_device entries and use_hierarchy, reads and
# writes in them, switches the disk to cfq and back and removes the
# groups, FAULT_ROUNDS times; fail_make_request then fails bios of a
# cfq disk under fio.  Every operation either works or reports its error
# and leaves things as they were (no half-made group, the old weight; a
# failed switch leaves the old scheduler or, as the block layer does when
# a scheduler cannot start, none, and the disk serves); a fio run beside
# the faulted task, itself spared, verifies all it wrote; nothing
# splats, and kmemleak (the run's verdict) finds nothing.
. "$LAB_GUEST_LIB"
tap_plan 7

faults=/sys/kernel/debug
[ -d $faults/failslab ] || tap_skip_rest "the kernel has no fault injection"
cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=flt
out=/tmp/faults
rounds=${FAULT_ROUNDS:-15}
cfq_memory_nullb $disk 128 hw_queue_depth=8
tap_check "cfq null_blk for the faults" grep -q '\[cfq\]' /sys/block/$disk/queue/scheduler
dev=$(cat /sys/block/$disk/dev)
splats_before=$(dmesg_splats)

# arm ATTR-DIR PROBABILITY: fail that share (%) of the allocations of
# tasks marked make-it-fail, without limit, quietly
arm() {
	echo "$2" >"$1/probability"
	echo 1 >"$1/interval"
	echo -1 >"$1/times"
	echo 0 >"$1/space"
	echo 0 >"$1/verbose"
	echo Y >"$1/task-filter"
	[ ! -f "$1/ignore-gfp-wait" ] || echo N >"$1/ignore-gfp-wait"
	[ ! -f "$1/ignore-gfp-highmem" ] || echo N >"$1/ignore-gfp-highmem"
	# fail_page_alloc spares single pages unless told
	[ ! -f "$1/min-order" ] || echo 0 >"$1/min-order"
}

# faulted SCRIPT ARG...: run the sh SCRIPT (ARG... its $1...) as a task
# whose allocations fail at the armed rate; its children inherit that.
# A step still running after 120 s is a hang: its kernel stack goes to
# OUT.hung, and it is killed so that the test goes on to report it.
faulted() {
	local script=$1 pid watchdog rc
	shift
	sh -c "echo 1 >/proc/self/make-it-fail && $script" sh "$@" 2>/dev/null &
	pid=$!
	# shellcheck disable=SC2016
	sh -c 'sleep 120 & trap "kill $!; exit 0" TERM; wait $!
		[ -d /proc/$1 ] || exit 0
		echo "a step hung: $2: $(tr "\n" " " </proc/$1/stack)" >>"$3"
		for t in /proc/$1/task/*; do tr "\n" " " <$t/stack; echo; done >>"$3"
		kill -9 $1' sh $pid "$script" $out.hung &
	watchdog=$!
	wait $pid
	rc=$?
	kill $watchdog 2>/dev/null
	wait $watchdog 2>/dev/null
	return $rc
}

# step OUTCOME: count a step that worked (0) or reported an error
step() {
	if [ "$1" = 0 ]; then oks=$((oks + 1)); else errors=$((errors + 1)); fi
}

# The faulted task's work, checked from this (spared) shell: every step
# works or reports an error and leaves the state as before; each broken
# promise is a line of output.
faulted_rounds() {
	local i g w sched before rc
	for i in $(seq 1 "$rounds"); do
		g=$BLKIO/flt$i
		faulted 'mkdir "$1"' $g
		rc=$?
		step $rc
		if [ $rc != 0 ]; then
			[ ! -d $g ] || { echo "round $i: a failed mkdir left $g"; rmdir $g; }
			continue
		fi
		w=$(cat $g/blkio.weight)
		faulted 'echo "$2" >"$1"' $g/blkio.weight $((100 + i))
		rc=$?
		step $rc
		[ $rc = 0 ] || [ "$(cat $g/blkio.weight)" = "$w" ] ||
			echo "round $i: a failed weight write changed it"
		if ! faulted 'echo "$2" >"$1"' $g/blkio.weight_device "$dev $((200 + i))"; then
			step 1
			! grep -q "^$dev $((200 + i))" $g/blkio.weight_device ||
				echo "round $i: a failed weight_device write took effect"
		else
			step 0
		fi
		faulted 'echo 1 >"$1"' $g/blkio.use_hierarchy
		step $?
		faulted 'mkdir "$1"' $g/sub
		step $?
		# I/O from inside the group (the child, where it exists)
		[ ! -d $g/sub ] || g=$g/sub
		faulted 'echo 0 >"$1/tasks" && exec dd if="$2" of=/dev/null bs=4k count=32 skip="$3" iflag=direct' \
			$g /dev/$disk $((i * 32))
		step $?
		faulted 'echo 0 >"$1/tasks" && exec dd if=/dev/zero of="$2" bs=4k count=32 seek="$3" oflag=direct' \
			$g /dev/$disk $((8192 + i * 32))
		step $?
		for sched in mq-deadline cfq; do
			before=$(cat /sys/block/$disk/queue/scheduler)
			if faulted 'echo "$2" >"$1"' /sys/block/$disk/queue/scheduler $sched; then
				step 0
			else
				step 1
				# the block layer falls back to none when the new
				# scheduler cannot start (elevator_switch, with a
				# warning); either way the disk must still serve
				case "$(cat /sys/block/$disk/queue/scheduler)" in
				"$before") ;;
				*"[none]"*) fallbacks=$((fallbacks + 1)) ;;
				*) echo "round $i: a failed switch to $sched left $(cat /sys/block/$disk/queue/scheduler)" ;;
				esac
				dd if=/dev/$disk of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null ||
					echo "round $i: after a failed switch to $sched the disk does not read"
			fi
		done
		[ ! -d $BLKIO/flt$i/sub ] || rmdir $BLKIO/flt$i/sub
		rmdir $BLKIO/flt$i || echo "round $i: flt$i not removed"
	done
}

fio_verify_loop $out --filename=/dev/$disk --direct=1 --size=16m --offset=64m \
	--verify=crc32c --verify_fatal=1 --name=spared --ioengine=libaio \
	--rw=randrw --bs=4k --iodepth=4 &
fio_pid=$!

for attr in failslab fail_page_alloc; do
	oks=0 errors=0 fallbacks=0
	# 1 %: making a group takes some hundred allocations
	arm $faults/$attr 1
	: >$out.hung
	faulted_rounds >$out.$attr 2>&1
	cat $out.hung >>$out.$attr
	echo 0 >$faults/$attr/probability
	tap_diag "$attr at 1 %: $oks steps worked, $errors reported an error ($fallbacks failed switches fell back to none)"
	tap_none "$attr: every failed step reported and changed nothing" $out.$attr
done
set_scheduler $disk cfq
fio_verify_stop $out $fio_pid

# fail_make_request: bios of the disk fail at submission, under cfq
arm $faults/fail_make_request 5
echo N >$faults/fail_make_request/task-filter
echo 1 >/sys/block/$disk/make-it-fail
mkdir $BLKIO/fltio
# shellcheck disable=SC2016
sh -c 'echo $$ >"$1/tasks" && exec fio --output-format=terse --minimal \
	--filename="$2" --direct=1 --ioengine=libaio --iodepth=8 --rw=randrw \
	--bs=4k --size=8m --continue_on_error=io --name=failing' \
	sh $BLKIO/fltio /dev/$disk >$out.mr 2>&1
echo 0 >/sys/block/$disk/make-it-fail
echo 0 >$faults/fail_make_request/probability
tap_diag "fail_make_request at 5 %: fio's errors $(awk -F';' '$3 == "failing" { print $5 }' $out.mr)"
tap_check "fail_make_request: the failed I/O reached fio as errors" \
	awk -F';' '$3 == "failing" && $5 != 0 { found = 1 } END { exit !found }' $out.mr
rmdir $BLKIO/fltio

tap_is "no splat in the kernel log" "$(dmesg_splats)" "$splats_before"
nullb_remove $disk
tap_check "the disk is gone" test ! -e /dev/$disk
