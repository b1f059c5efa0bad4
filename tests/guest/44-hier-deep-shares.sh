# Shares under full contention in a depth-4 hierarchy with weights from
# 10 to 1000 and tasks at mixed BE priorities match DESIGN.md section 4
# within 2 percentage points and 20 % of each share, in time mode and in
# IOPS mode, on the fairness null_blk (100 us per request, one at a time,
# rotational).  Expected shares come from the weights alone (lib.sh's
# hier_model), never from the kernel.  In IOPS mode the weight-10 group's
# two readers (levels 1 and 6) each wait for their one request, so CFQ
# must wait (group_idle) for the one whose turn it still is, or they take
# turns and split the group evenly instead of 868 : 228.
. "$LAB_GUEST_LIB"
tap_plan 3

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=h44
tolerance=2
runtime=15
tap_cfq_nullb $disk

# Depth 4 below the root (A/B/C/D and A/B/C/E, hierarchical from A on)
# beside a flat group F on the pivot.
spec=/tmp/h44.spec
cat >$spec <<SPEC
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

deep_case() {
	hier_share_case "depth-4 hierarchy, weights 10-1000, mixed prios ($mode mode)" \
		$spec $disk $runtime $tolerance
}
cfq_each_mode $disk deep_case
nullb_remove $disk
