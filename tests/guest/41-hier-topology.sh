# CFQ's scheduling tree in debugfs (docs/debugfs-tree.md) has the shape
# of the seed document's three trees (seeds/007, DESIGN.md section 4)
# while a reader is busy in every group: the groups where use_hierarchy
# puts them, each task's queue under its own cgroup's group, and nothing
# else.  The seed draws tsk1 in Root and tsk2 in Grp1; tsk3 in Grp2 and
# tsk4 in Grp3 make every group busy.  The expected tree comes from the
# spec (lib.sh's hier_model), never from the kernel.
#
#   flat            pivot: Root(tsk1) Grp1(tsk2) Grp2(tsk3) Grp3(tsk4)
#   Root hier.      pivot: Root: Grp1(Grp3(tsk4) tsk2) Grp2(tsk3) tsk1
#   Grp1+Grp3 hier. pivot: Root(tsk1) Grp1(Grp3(tsk4) tsk2) Grp2(tsk3)
#
# For the last, Grp1 gets use_hierarchy=1 before Grp3 exists, and Grp3
# inherits it; the root stays 0.
. "$LAB_GUEST_LIB"
tap_plan 11

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=h41
tap_cfq_nullb $disk
tap_check "$disk has the scheduling tree in debugfs" test -r "$(cfq_tree_file $disk)"

spec=/tmp/h41.spec
# run_case NAME ROOT GRP1 GRP2 GRP3: use_hierarchy of each group
run_case() {
	local name=$1
	cat >$spec <<SPEC
group / 1000 $2
group /Grp1 500 $3
group /Grp2 500 $4
group /Grp1/Grp3 500 $5
task tsk1 / -
task tsk2 /Grp1 -
task tsk3 /Grp2 -
task tsk4 /Grp1/Grp3 -
SPEC
	if hier_apply $spec 2>/tmp/h41.apply; then
		tap_ok "$name: cgroups made"
	else
		tap_fail "$name: cgroups made"
		sed 's/^/#   /' /tmp/h41.apply
	fi
	hier_start_tasks $spec /dev/$disk /tmp/h41.pids
	sleep 2
	hier_model $spec tree | sort >/tmp/h41.want
	cfq_tree_sample $disk /tmp/h41.pids /tmp/h41.want 25 /tmp/h41.got
	if tree_compare /tmp/h41.want /tmp/h41.got; then
		tap_ok "$name: the tree is the seed document's"
	else
		tap_fail "$name: the tree is the seed document's"
		tap_diag "  tasks: $(tr '\n' ' ' </tmp/h41.pids)"
		sed 's/^/#   raw: /' /tmp/h41.got.raw
	fi
	hier_stop_tasks /tmp/h41.pids
	# The readers are gone: no queue may stay behind.
	sleep 1
	cfq_tree_keys $disk /tmp/h41.pids >/tmp/h41.after 2>&1
	if grep -q 'queue:' /tmp/h41.after || ! grep -qx pivot /tmp/h41.after; then
		tap_fail "$name: no queue left once the readers stopped"
		sed 's/^/#   /' /tmp/h41.after
	else
		tap_ok "$name: no queue left once the readers stopped"
	fi
	hier_remove $spec
}

run_case "all flat" 0 0 0 0
run_case "Root use_hierarchy=1" 1 1 1 1
run_case "Grp1 and Grp3 use_hierarchy=1" 0 1 0 1

nullb_remove $disk
