# blkiotree attach --thread moves one thread, not its process (CFQ's
# queues are per thread), and exec --ioprio starts a command at the
# I/O priority given, as ionice would, inside its group.
. "$LAB_GUEST_LIB"
tap_plan 6

group=t54
blkiotree create $group || tap_skip_rest "blkiotree create failed"

# fio with --thread runs its job as a second thread of one process (the
# null engine does no I/O; ten a second keep it from spinning)
fio --name=t54 --thread --ioengine=null --size=1g --rate_iops=10 \
	--time_based --runtime=60 >/dev/null 2>&1 &
fio_pid=$!
tid=
for i in 1 2 3 4 5 6 7 8 9 10; do
	tid=$(ls /proc/$fio_pid/task 2>/dev/null | grep -vx "$fio_pid" | tail -n 1)
	[ -n "$tid" ] && break
	sleep 1
done
tap_check "fio runs a second thread ($fio_pid/${tid:-none})" test -n "$tid"

blkio_of() {
	sed -n 's/^[0-9]*:blkio:\(.*\)/\1/p' "$1"
}
tap_check "attach --thread $tid $group (option after the group)" \
	blkiotree attach $group --thread "$tid"
tap_is "the thread is in /$group" "$(blkio_of /proc/$fio_pid/task/$tid/cgroup)" "/$group"
tap_is "its process's main thread stays in /" "$(blkio_of /proc/$fio_pid/task/$fio_pid/cgroup)" "/"
kill $fio_pid 2>/dev/null
wait $fio_pid 2>/dev/null

blkiotree exec --ioprio be:1 $group -- sleep 60 &
sleeper=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(blkio_of /proc/$sleeper/cgroup)" = "/$group" ] && break
	sleep 1
done
tap_is "exec --ioprio be:1: ionice reads the class and level" \
	"$(ionice -p $sleeper)" "best-effort: prio 1"
tap_is "and the command runs in /$group" "$(blkio_of /proc/$sleeper/cgroup)" "/$group"
kill $sleeper 2>/dev/null
wait $sleeper 2>/dev/null
blkio_group_remove $group
