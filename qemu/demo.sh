# The demo (./lab demo): the seed document's example hierarchy doing real
# I/O in the guest.
#
#                Root
#              /  |   \
#           Grp1 Grp2  tsk1
#           /  \    \
#        Grp3  tsk2  tsk3
#          |
#        tsk4
#
# Four fio readers start together on a null_blk disk that costs 100 us a
# request (queue depth 1, rotational), one in each cgroup; their shares
# of the bytes read are printed beside the scheduling tree, as blkiotree
# draws it and, when the kernel has it, as CFQ's debugfs file shows it.
. /lab/tests/lib.sh

disk=demo
nullb_create $disk size=1024 blocksize=4096 irqmode=2 completion_nsec=100000 \
	hw_queue_depth=1 rotational=1 || exit 1

if grep -qw cfq /sys/block/$disk/queue/scheduler; then
	sched=cfq
	modes="flat hierarchical"
else
	sched=bfq
	modes=bfq
	echo "demo: this kernel has no cfq scheduler yet: running the hierarchy on bfq"
fi
set_scheduler $disk $sched
# The scheduler's request pool (twice the queue depth by default: 2) would
# hold two readers' requests and leave the other two waiting for a tag,
# out of the scheduler's sight; room for all lets the weights decide.
echo 128 >/sys/block/$disk/queue/nr_requests
echo "demo: /sys/block/$disk/queue/scheduler: $(cat /sys/block/$disk/queue/scheduler)"

make_groups() {
	for g in Grp1 Grp2 Grp1/Grp3; do
		blkio_group $g >/dev/null
	done
}

remove_groups() {
	for g in Grp1/Grp3 Grp2 Grp1; do
		rmdir "$BLKIO/$g"
	done
}

run_readers() {
	fio --output-format=terse --minimal --filename=/dev/$disk --direct=1 \
		--ioengine=psync --rw=randread --bs=4k --time_based --runtime=10 \
		--cgroup_nodelete=1 \
		--name=tsk1 \
		--name=tsk2 --cgroup=Grp1 \
		--name=tsk3 --cgroup=Grp2 \
		--name=tsk4 --cgroup=Grp1/Grp3 >/tmp/demo.terse
	awk -F';' '{ bytes[$3] = ($6 + $47) * 1024; total += bytes[$3] }
		END {
			printf "  %-6s %-10s %12s %8s\n", "task", "cgroup", "bytes", "share"
			split("tsk1:/ tsk2:Grp1 tsk3:Grp2 tsk4:Grp1/Grp3", order, " ")
			for (i = 1; i <= 4; i++) {
				split(order[i], f, ":")
				printf "  %-6s %-10s %12d %7.1f%%\n", f[1], f[2], bytes[f[1]],
					100 * bytes[f[1]] / total
			}
		}' /tmp/demo.terse
}

for mode in $modes; do
	echo
	case $mode in
	flat) ;;
	hierarchical) echo 1 >"$BLKIO/blkio.use_hierarchy" ;;
	esac
	echo "=== $sched, $mode: measured shares over 10 s"
	make_groups
	run_readers &
	sleep 5
	if command -v blkiotree >/dev/null; then
		blkiotree show --device "$(cat /sys/block/$disk/dev)"
	fi
	tree=/sys/kernel/debug/block/$disk/sched/tree
	if [ -r "$tree" ]; then
		echo "CFQ's own view, $tree:"
		sed 's/^/  /' "$tree"
	fi
	wait
	remove_groups
	[ "$mode" != hierarchical ] || echo 0 >"$BLKIO/blkio.use_hierarchy"
done
nullb_remove $disk
