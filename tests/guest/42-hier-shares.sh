# Shares under full contention match DESIGN.md section 4 within 2
# percentage points and 20 % of each share, for every task and every
# busy group of the seed document's hierarchy in its three modes, in time
# mode (default slice_idle) and in IOPS mode (slice_idle 0), on a null_blk
# with a fixed 100 us per request, one request at a time, rotational.
# (Eight BE readers at prio 0..7 in one group: 26-cfq-prio-weights; a
# depth-4 hierarchy: 44-hier-deep-shares.)
#
# Each case is one fio run (lib.sh's hier_share_case) whose jobs start
# together (fio's cgroup=, cgroup_weight=, prioclass=/prio=), 15 s
# measured while every job runs; share = a job's bytes / all jobs' bytes,
# a group's = the bytes of the tasks scheduled below it.  Expected shares
# come from the weights alone (lib.sh's hier_model, awk), never from the
# kernel.
. "$LAB_GUEST_LIB"
tap_plan 7

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=h42
tolerance=2
# the debug kernel judges no share (tap_check_timing): its runs are short
runtime=$(by_flavor 15 5)
tap_cfq_nullb $disk

spec=/tmp/h42.spec
tap_diag "cfq tunables: $(cd /sys/block/$disk/queue/iosched && grep . * | tr '\n' ' ')"
seed_cases() {
	seed_spec 0 0 0 0 >$spec
	hier_share_case "seed hierarchy, all flat ($mode mode)" $spec $disk $runtime $tolerance
	seed_spec 1 1 1 1 >$spec
	hier_share_case "seed hierarchy, Root use_hierarchy=1 ($mode mode)" $spec $disk $runtime $tolerance
	seed_spec 0 1 0 1 >$spec
	hier_share_case "seed hierarchy, Grp1 and Grp3 use_hierarchy=1 ($mode mode)" $spec $disk $runtime $tolerance
}
cfq_each_mode $disk seed_cases
nullb_remove $disk
