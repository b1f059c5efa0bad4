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
# Four fio readers, one in each cgroup, read a null_blk disk that costs
# 100 us a request (one at a time, rotational) under cfq, in the seed
# document's three cases: all flat, Root hierarchical, Grp1 and Grp3
# hierarchical.  For each case it prints the tree as blkiotree draws it
# and as CFQ's debugfs file shows it while the readers run, then each
# task's and group's share measured while all ran, beside the share
# DESIGN.md section 4 expects from the weights.
. /lab/tests/lib.sh

disk=demo
spec=/tmp/demo.spec
runtime=10

if ! cfq_nullb $disk; then
	echo "demo: this kernel offers no cfq scheduler" >&2
	exit 1
fi
echo "demo: /sys/block/$disk/queue/scheduler: $(cat /sys/block/$disk/queue/scheduler)"

# show_trees: the running tree, by blkiotree (the four readers busy) and
# by CFQ itself.
show_trees() {
	local tree
	tree=$(cfq_tree_file $disk)
	if fio_job_pids $spec /tmp/demo.pids; then
		blkiotree show --busy --device "$(cat /sys/block/$disk/dev)" \
			--pid "$(pid_list /tmp/demo.pids)"
	else
		echo "demo: fio's readers not found"
	fi
	if [ -r "$tree" ]; then
		echo
		echo "CFQ's own view, $tree:"
		sed 's/^/  /' "$tree"
	fi
}

# show_shares: measured against expected, one line per task and group.
show_shares() {
	hier_model $spec shares /tmp/demo.bytes | awk '
		BEGIN { printf "  %-5s %-11s %9s %9s\n", "", "", "measured", "expected" }
		{ printf "  %-5s %-11s %8s%% %8.1f%%\n", $1, $2, $4, $3 }'
}

for case in "all flat:0 0 0 0" "Root hierarchical:1 1 1 1" \
	"Grp1 and Grp3 hierarchical:0 1 0 1"; do
	# shellcheck disable=SC2086
	seed_spec ${case#*:} >$spec
	echo
	echo "=== ${case%%:*}"
	hier_apply $spec || exit 1
	hier_fio $spec /dev/$disk $runtime /tmp/demo --rw=randread &
	fio_pid=$!
	sleep 5
	show_trees
	if wait $fio_pid; then
		echo
		echo "Shares of the disk over $(cat /tmp/demo.seconds) s:"
		show_shares
	else
		echo "demo: fio failed"
	fi
	hier_remove $spec
done
nullb_remove $disk
