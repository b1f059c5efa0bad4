# Switching schedulers under load, with a hierarchy (issue 11): 200
# switches among cfq, none, mq-deadline and bfq while fio writes and
# verifies from flat groups and from a hierarchical tree three levels
# deep, and a reader that thinks 2 ms between reads keeps cfq idling for
# it (slice_idle is 8 ms), so that switches away from cfq begin with its
# idle timer armed; cfq's notes in the blk tracer, with a mark at each
# switch, say how many did.
. "$LAB_GUEST_LIB"
tap_plan 5

tap_skip_unless_hier_cfq
[ -w $TRACING/current_tracer ] || tap_skip_rest "no ftrace in the kernel"

disk=cfqsw
out=/tmp/cfqsw
switches=200
nullb_create $disk size=64 blocksize=4096 memory_backed=1 irqmode=2 \
	completion_nsec=20000 hw_queue_depth=16 submit_queues=2
tap_check "null_blk for switching" test -b /dev/$disk

# flat: sw-a and sw-b in the root; hierarchical: sw-h/c/d, each level
# with use_hierarchy set before its child exists
for g in sw-a sw-b sw-h sw-h/c sw-h/c/d; do
	mkdir "$BLKIO/$g"
	case $g in sw-h | sw-h/c) echo 1 >"$BLKIO/$g/blkio.use_hierarchy" ;; esac
done
echo 200 >$BLKIO/sw-a/blkio.weight
echo 800 >$BLKIO/sw-b/blkio.weight
echo 300 >$BLKIO/sw-h/c/blkio.weight
echo 700 >$BLKIO/sw-h/c/d/blkio.weight

cfq_notes_start $disk $out.notes
set_scheduler $disk cfq
# the thinking reader, in sw-b for the whole run
fio --output-format=terse --minimal --filename=/dev/$disk --name=think \
	--cgroup=sw-b --cgroup_nodelete=1 --offset=32m --size=8m --direct=1 \
	--ioengine=psync --rw=read --bs=4k --thinktime=2000 --time_based \
	--runtime=3600 >$out.think 2>&1 &
think=$!
# fio writes and verifies in the other groups
fio_verify_loop $out --filename=/dev/$disk --direct=1 --size=8m --cgroup_nodelete=1 \
	--name=a --cgroup=sw-a --offset=0 --ioengine=libaio --rw=randrw \
	--bs=4k --iodepth=8 --verify=crc32c --verify_fatal=1 \
	--name=c --cgroup=sw-h/c --offset=8m --ioengine=libaio \
	--rw=randwrite --bs=16k --iodepth=2 --verify=crc32c --verify_fatal=1 \
	--name=d --cgroup=sw-h/c/d --offset=16m --ioengine=psync \
	--rw=write --bs=4k --verify=crc32c --verify_fatal=1 \
	--name=h --cgroup=sw-h --offset=24m --ioengine=psync --rw=write \
	--bs=64k --verify=crc32c --verify_fatal=1 &
loop_pid=$!
sleep 2

switch_fail=0
i=0
while [ $i -lt $switches ]; do
	for sched in cfq none mq-deadline bfq; do
		i=$((i + 1))
		cfq_notes_mark "switch $i to $sched"
		if ! set_scheduler $disk $sched 2>$out.switch.err; then
			switch_fail=$((switch_fail + 1))
			tap_diag "switch $i to $sched: $(cat $out.switch.err)"
		fi
		# cfq gets time to arm its timer; the others see some I/O too
		case $sched in
		cfq) sleep 0.3 ;;
		*) [ $((i % 8)) -ne 0 ] || sleep 0.2 ;;
		esac
	done
done
tap_is "$switches switches among cfq, none, mq-deadline, bfq: none refused" "$switch_fail" 0

set_scheduler $disk cfq
fio_verify_stop $out $loop_pid
kill $think
wait $think
cfq_notes_stop $disk $out.notes

# "ARMED AWAY": the switches away from cfq, and those that began with a
# queue's idle timer armed (that queue's last idle note "idle armed").
# The switch waits for the disk's requests, so the timer may fire before
# cfq exits; both ways of leaving are the point.
awk '/^mark switch/ {
		if (on_cfq) {
			away++
			for (q in armed)
				if (armed[q]) { pending++; break }
		}
		on_cfq = ($NF == "cfq")
		delete armed
		next
	}
	$1 != "cfq" { q = $1; sub(/N$/, "", q) }
	/ idle armed:/ { armed[q] = 1 }
	/ idle timer fired/ || / expired / { armed[q] = 0 }
	END { print pending + 0, away + 0 }' $out.notes >$out.away
read -r pending away <$out.away
tap_diag "$(grep -vc '^mark' $out.notes) notes of cfq; $away switches away from cfq, $pending of them begun with an idle timer armed"
# (a timing figure: on the debug kernel the reader's think time, KASAN's
# CPU included, outgrows slice_idle, and cfq rightly stops idling for it)
tap_check_timing "some switches away from cfq began with its idle timer armed" \
	test "$pending" -gt 0

for g in sw-h/c/d sw-h/c sw-h sw-b sw-a; do
	rmdir "$BLKIO/$g"
done
nullb_remove $disk
tap_check "the groups and the disk are gone" \
	sh -c "[ ! -d $BLKIO/sw-a ] && [ ! -d $BLKIO/sw-h ] && [ ! -e /dev/$disk ]"
