# Shares under full contention match DESIGN.md section 4 within 2
# percentage points, for every task and every busy group, in time mode
# (default slice_idle) and in IOPS mode (slice_idle 0), on a null_blk with
# a fixed 100 us per request, one request at a time, rotational.  (Eight
# BE readers at prio 0..7 in one group: tests/guest/26-cfq-prio-weights.)
#
# Each case is one fio run whose jobs start together (fio's cgroup=,
# cgroup_weight=, prioclass=/prio=), 15 s measured after a 2 s ramp;
# share = a job's bytes / all jobs' bytes, a group's = the bytes of the
# tasks scheduled below it.  Expected shares come from the weights alone
# (lib.sh's hier_model, awk), never from the kernel.
. "$LAB_GUEST_LIB"
tap_plan 9

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=h42
tolerance=2
runtime=15
cfq_nullb $disk
tap_check "cfq null_blk disk $disk" test -b /dev/$disk

# The seed document's hierarchy, a reader in every group, default prio.
seed_spec() {
	cat <<SPEC
group / 1000 $1
group /Grp1 500 $2
group /Grp2 500 $3
group /Grp1/Grp3 500 $4
task tsk1 / -
task tsk2 /Grp1 -
task tsk3 /Grp2 -
task tsk4 /Grp1/Grp3 -
SPEC
}

# Depth 4 below the root (A/B/C/D and A/B/C/E, hierarchical from A on)
# beside a flat group F on the pivot; weights 10 to 1000, mixed BE prios.
deep_spec() {
	cat <<SPEC
group / 1000 0
group /F 250 0
group /A 800 1
group /A/B 100 1
group /A/B/C 1000 1
group /A/B/C/D 10 1
group /A/B/C/E 30 1
task f1 /F be/2
task a1 /A be/7
task b1 /A/B be/0
task d1 /A/B/C/D be/1
task d2 /A/B/C/D be/6
task e1 /A/B/C/E -
SPEC
}

spec=/tmp/h42.spec
# run_case NAME: the spec in $spec, one fio run, one check.
run_case() {
	local name="$1 ($mode mode)" out=/tmp/h42.out total
	tap_diag "$name:"
	if ! hier_apply $spec 2>/tmp/h42.apply; then
		tap_fail "$name: shares within $tolerance points"
		sed 's/^/#   /' /tmp/h42.apply
		hier_remove $spec
		return
	fi
	if ! hier_fio $spec /dev/$disk $runtime $out; then
		tap_fail "$name: shares within $tolerance points (fio failed)"
		hier_remove $spec
		return
	fi
	total=$(awk '{ s += $2 } END { printf "%d", s / 4096 / '$runtime' }' $out.bytes)
	tap_diag "  $total IOPS in all"
	if hier_share_check $spec $out.bytes $tolerance; then
		tap_ok "$name: shares within $tolerance points"
	else
		tap_fail "$name: shares within $tolerance points"
	fi
	hier_remove $spec
}

slice_idle=$(cfq_tunable $disk slice_idle)
tap_diag "cfq tunables: $(cd /sys/block/$disk/queue/iosched && grep . * | tr '\n' ' ')"
for mode in time iops; do
	if [ $mode = iops ]; then
		cfq_tunable $disk slice_idle 0
	else
		cfq_tunable $disk slice_idle "$slice_idle"
	fi
	seed_spec 0 0 0 0 >$spec
	run_case "seed hierarchy, all flat"
	seed_spec 1 1 1 1 >$spec
	run_case "seed hierarchy, Root use_hierarchy=1"
	seed_spec 0 1 0 1 >$spec
	run_case "seed hierarchy, Grp1 and Grp3 use_hierarchy=1"
	deep_spec >$spec
	run_case "depth-4 hierarchy, weights 10-1000, mixed prios"
done
cfq_tunable $disk slice_idle "$slice_idle"
nullb_remove $disk
