# Changes under load (DESIGN.md sections 3, 4 and 6): a weight,
# weight_device or use_hierarchy change, a task moved to another cgroup,
# a cgroup removed, all while fio keeps the disk busy.
#
# Shares are measured in 12 s windows of one fio run (its status dump
# every second: bytes per job, all read at one instant), the window after
# a change starting at the first dump after it, so within one second:
# a change must have taken effect by then.  Expected shares come from
# the weights alone (lib.sh's hier_model).  In time mode CFQ divides
# disk time, so each window checks the groups' shares of it (blkio.time)
# and every group's and task's share of the bytes, both at the
# contract's 2 points plus 20 % relative.  Bytes follow time as far as
# the guest's speed holds from one slice to the next: on the guest's
# instruction clock it does (within 0.5 points, 2026-12-05), where on
# the wall clock it did not (W1's bytes 64.9-68.5 % where its disk time
# stayed at 66.1-67.4 %, and a 5-point bound).  Then the
# debugfs tree must hold no entity of a removed cgroup or of a finished
# task, fio's crc32c verification must find every block it wrote while
# weights, use_hierarchy and cgroups of its jobs change, and the kernel
# log must stay free of splats.
. "$LAB_GUEST_LIB"
tap_plan 27

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=h43
tolerance=2
splats=$(dmesg_splats)
cfq_nullb $disk
majmin=$(cat /sys/block/$disk/dev)
spec=/tmp/h43.spec
run=/tmp/h43.fio
pids=/tmp/h43.pids
dump=0

# window NAME: wait $window_s more status dumps of the run and check the
# shares between the dump reached so far and the last of them against
# $spec: those of the disk time since times_mark and those of the bytes.
# One second's share of the bytes of a 33 % group ranges from 27 to 39 %,
# so a window is 12 s long.  On the debug kernel fio's dumps come every
# 3-4 s (its status thread shares one emulated CPU with the jobs) and
# shares are not judged (tap_check_timing): 4 dumps do there.
if [ "$LAB_FLAVOR" = debug ]; then
	window_s=4
else
	window_s=12
fi
window() {
	local first=$dump
	dump=$((dump + window_s))
	fio_wait_dump $run $spec $dump || tap_diag "fio printed no status dump $dump"
	fio_window $run $spec $first $dump >/tmp/h43.window
	cfq_group_times $disk $spec >/tmp/h43.times
	counter_window /tmp/h43.times.mark /tmp/h43.times >/tmp/h43.time-window
	tap_diag "$1 (fio status dumps $first-$dump):"
	tap_check_timing "$1: groups' disk time within $tolerance points and $SHARE_RELATIVE %" \
		hier_share_check --times --relative $SHARE_RELATIVE $spec \
		/tmp/h43.time-window $tolerance
	tap_check_timing "$1: shares of bytes within $tolerance points and $SHARE_RELATIVE %" \
		hier_share_check --relative $SHARE_RELATIVE $spec /tmp/h43.window $tolerance
}

# times_mark: the groups' disk times now, where the next window starts.
times_mark() {
	cfq_group_times $disk $spec >/tmp/h43.times.mark
}

# tree_check DESC: the disk's scheduling tree under load (a few readings,
# lib.sh's cfq_tree_sample) is the one $spec describes.
tree_check() {
	hier_model $spec tree | sort >/tmp/h43.want
	cfq_tree_sample $disk $pids /tmp/h43.want 25 /tmp/h43.got
	if tree_compare /tmp/h43.want /tmp/h43.got; then
		tap_ok "$1"
	else
		tap_fail "$1"
		sed 's/^/#   raw: /' /tmp/h43.got.raw
	fi
}

# changed: a change was just made; the next window starts at the next
# status dump, less than one second later.
changed() {
	dump=$((dump + 1))
	fio_wait_dump $run $spec $dump
	times_mark
}

# start_run: hier_fio of $spec in the background, a status dump every
# second, until stop_run ends it; waits for its jobs and its second
# status dump (the warm-up).  The run is paced by dumps, not by a
# runtime, since the dumps come late on the debug kernel.
start_run() {
	rm -f $run.terse
	hier_fio $spec /dev/$disk 600 $run --ramp_time=0 --status-interval=1 2>/dev/null &
	fio_pid=$!
	fio_job_pids $spec $pids || tap_diag "fio's jobs not found: $(cat $pids)"
	dump=2
	fio_wait_dump $run $spec $dump
	times_mark
}

# stop_run: end the run (fio stops its jobs on SIGINT, which its main
# process, their parent, takes) and wait for it.
stop_run() {
	local main
	main=$(awk '{ print $4 }' "/proc/$(awk 'NR == 1 { print $2 }' $pids)/stat" 2>/dev/null)
	[ -z "$main" ] || kill -INT "$main"
	wait $fio_pid
}

pid_of() {
	awk -v n="$1" '$1 == n { print $2 }' $pids
}

# -- weight and weight_device ------------------------------------------
cat >$spec <<SPEC
group /W1 500 0
group /W2 500 0
task w1 /W1 -
task w2 /W2 -
SPEC
tap_check "cgroups W1 and W2 made" hier_apply $spec
start_run
window "W1 500, W2 500"

echo 1000 >$BLKIO/W1/blkio.weight
sed -i 's|^group /W1 500|group /W1 1000|' $spec
changed
window "after W1's weight became 1000"

echo "$majmin 100" >$BLKIO/W2/blkio.weight_device
sed -i 's|^group /W2 500|group /W2 100|' $spec
changed
window "after W2's weight_device became 100"

echo "$majmin 0" >$BLKIO/W2/blkio.weight_device
sed -i 's|^group /W2 100|group /W2 500|' $spec
changed
window "after W2's weight_device was removed"
stop_run
hier_remove $spec

# -- use_hierarchy, moves and removal -----------------------------------
# t1 in the root, t2 and t3 in X; then X turns hierarchical and t3 moves
# to a new X/Y (under X: far from the flat 50/25/25); then back: Y
# removed, X flat, t3 in a new flat X/Y; then X/Y and X removed.
cat >$spec <<SPEC
group / 1000 0
group /X 500 0
task t1 / -
task t2 /X -
task t3 /X -
SPEC
tap_check "cgroup X made" hier_apply $spec
start_run
window "t1 in the root, t2 and t3 in flat X"

err=
r=$(cg_write $BLKIO/X/blkio.use_hierarchy 1); [ "$r" = ok ] || err="$err use_hierarchy=1: $r;"
mkdir $BLKIO/X/Y || err="$err mkdir X/Y;"
r=$(cg_write $BLKIO/X/Y/blkio.weight 500); [ "$r" = ok ] || err="$err Y weight: $r;"
r=$(cg_write $BLKIO/X/Y/tasks "$(pid_of t3)"); [ "$r" = ok ] || err="$err move t3: $r;"
tap_is "under load: X use_hierarchy=1, X/Y made, t3 moved into it" "$err" ""
cat >$spec <<SPEC
group / 1000 0
group /X 500 1
group /X/Y 500 1
task t1 / -
task t2 /X -
task t3 /X/Y -
SPEC
changed
window "after: X hierarchical, t3 in X/Y"

err=
r=$(cg_write $BLKIO/X/tasks "$(pid_of t3)"); [ "$r" = ok ] || err="$err move t3 back: $r;"
rmdir $BLKIO/X/Y || err="$err rmdir X/Y;"
r=$(cg_write $BLKIO/X/blkio.use_hierarchy 0); [ "$r" = ok ] || err="$err use_hierarchy=0: $r;"
mkdir $BLKIO/X/Y || err="$err mkdir X/Y again;"
r=$(cg_write $BLKIO/X/Y/tasks "$(pid_of t3)"); [ "$r" = ok ] || err="$err move t3 again: $r;"
tap_is "under load: t3 back in X, X/Y removed, X flat, t3 in a new X/Y" "$err" ""
cat >$spec <<SPEC
group / 1000 0
group /X 500 0
group /X/Y 500 0
task t1 / -
task t2 /X -
task t3 /X/Y -
SPEC
changed
window "after: X flat again, t3 in a new flat X/Y"

# The tree now: the new Y on the pivot, nothing left of the old one.
tree_check "the tree holds the new X/Y only, on the pivot"

err=
for t in t2 t3; do
	r=$(cg_write $BLKIO/tasks "$(pid_of $t)"); [ "$r" = ok ] || err="$err move $t: $r;"
done
rmdir $BLKIO/X/Y || err="$err rmdir X/Y;"
rmdir $BLKIO/X || err="$err rmdir X;"
tap_is "under load: t2 and t3 moved to the root, X/Y and X removed" "$err" ""
sleep 1
cat >$spec <<SPEC
task t1 / -
task t2 / -
task t3 / -
SPEC
tree_check "1 s after: no group of a removed cgroup, all queues in the root"
tap_diag "fio still running at the last tree reading: $(kill -0 $fio_pid 2>/dev/null && echo yes || echo no)"
stop_run
sleep 1
echo "group / 1000 0" >$spec
hier_model $spec tree | sort >/tmp/h43.want
cfq_tree_keys $disk $pids 2>&1 | sort >/tmp/h43.got
if tree_compare /tmp/h43.want /tmp/h43.got; then
	tap_ok "fio done: the tree is the pivot and the root group only"
else
	tap_fail "fio done: the tree is the pivot and the root group only"
fi
nullb_remove $disk

# -- nothing lost -----------------------------------------------------------
# fio writes and verifies (crc32c) from three cgroups, L1, L2 and L2/L3
# (hierarchical), while weights, weight_device and L1's use_hierarchy
# change every 0.2 s and its jobs move between cgroups.
vdisk=h43v
cfq_nullb $vdisk size=256 memory_backed=1
vmajmin=$(cat /sys/block/$vdisk/dev)
cat >$spec <<SPEC
group /L1 500 0
group /L2 500 1
group /L2/L3 500 1
SPEC
tap_check "cgroups L1, L2 (hierarchical) and L2/L3 made" hier_apply $spec
stop=/tmp/h43.stop
changes=/tmp/h43.changes
rm -f $stop
: >$changes
# move_job ROUND PID GROUP: move a job to GROUP; a job that has ended
# meanwhile (gone, or a zombie that fio has not reaped yet) cannot be
# moved, and that is no failure.
move_job() {
	local r state
	r=$(cg_write "$BLKIO/$3/tasks" "$2")
	[ "$r" = ok ] && return
	state=$(awk '{ print $3 }' "/proc/$2/stat" 2>/dev/null)
	case "$state" in
	'' | Z | X) ;;
	*) echo "$1 move $2 to $3: $r" >>$changes ;;
	esac
}

change_loop() {
	local n=0 w r pid
	while [ ! -f $stop ]; do
		n=$((n + 1))
		w=$((10 + (n * 337) % 991))
		for f in L1/blkio.weight "L2/blkio.weight" "L2/L3/blkio.weight"; do
			r=$(cg_write $BLKIO/$f $w); [ "$r" = ok ] || echo "$n $f=$w: $r" >>$changes
		done
		if [ $((n % 2)) -eq 0 ]; then
			r=$(cg_write $BLKIO/L1/blkio.weight_device "$vmajmin $((w / 2 + 10))")
		else
			r=$(cg_write $BLKIO/L1/blkio.weight_device "$vmajmin 0")
		fi
		[ "$r" = ok ] || echo "$n weight_device: $r" >>$changes
		r=$(cg_write $BLKIO/L1/blkio.use_hierarchy $((n % 2)))
		[ "$r" = ok ] || echo "$n L1 use_hierarchy=$((n % 2)): $r" >>$changes
		# move a job of L1 to L2/L3 and one of L2/L3 back to L1
		for pid in $(cat $BLKIO/L1/tasks); do
			move_job $n $pid L2/L3
			break
		done
		for pid in $(cat $BLKIO/L2/L3/tasks); do
			move_job $n $pid L1
			break
		done
		sleep 0.2
	done
	echo $n >/tmp/h43.rounds
}
change_loop &
loop=$!
fio --output-format=terse --minimal --filename=/dev/$vdisk --direct=1 \
	--ioengine=libaio --iodepth=4 --rw=randwrite --bsrange=4k-16k --size=8m \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --cgroup_nodelete=1 \
	--name=v1 --cgroup=L1 --offset=0 \
	--name=v2 --cgroup=L2 --offset=8m \
	--name=v3 --cgroup=L2/L3 --offset=16m \
	>/tmp/h43.terse 2>/tmp/h43.err
rc=$?
touch $stop
wait $loop
tap_diag "fio exit $rc; $(cat /tmp/h43.rounds) rounds of changes"
[ -s /tmp/h43.err ] && sed 's/^/# fio: /' /tmp/h43.err
tap_is "fio wrote and verified from 3 cgroups: no error" \
	"$rc $(awk -F';' 'NF > 50 && $5 == 0 { n++ } END { print n + 0 }' /tmp/h43.terse)" "0 3"
# terse v3: field 47 is the KiB a job wrote, 6 the KiB it read (verify)
tap_is "every job wrote and read back all its 8 MiB" \
	"$(awk -F';' 'NF > 50 { printf "%s:%d/%d ", $3, $47, $6 }' /tmp/h43.terse)" \
	"v1:8192/8192 v2:8192/8192 v3:8192/8192 "
if [ -s $changes ]; then
	tap_fail "every change under load was accepted"
	head -20 $changes | sed 's/^/#   /'
else
	tap_ok "every change under load was accepted"
fi
for pid in $(cat $BLKIO/L1/tasks $BLKIO/L2/tasks $BLKIO/L2/L3/tasks 2>/dev/null); do
	echo $pid >$BLKIO/tasks
done
hier_remove $spec
nullb_remove $vdisk

tap_is "no new BUG/WARNING/lockdep/KASAN report in the kernel log" "$(dmesg_splats)" "$splats"
