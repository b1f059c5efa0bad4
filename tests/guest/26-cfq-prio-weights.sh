# A queue's share of its group follows its I/O priority: eight BE
# readers at prio 0..7 in one group share the disk as the weight table
# 1000 868 740 612 484 356 228 100 (DESIGN.md section 4), within 2
# percentage points and 20 % of each share, in time mode (default
# slice_idle) and in IOPS mode (slice_idle 0).  One fio run per mode
# (lib.sh's hier_share_case), jobs started together, 15 s measured while
# every job runs, on the lab's fairness null_blk (100 us per
# request, one at a time, rotational).  Expected shares come from
# lib.sh's hier_model (the weights alone), never from the kernel.
. "$LAB_GUEST_LIB"
tap_plan 3

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=prio26
tolerance=2
runtime=15
spec=/tmp/prio26.spec
tap_cfq_nullb $disk

echo "group /P 500 0" >$spec
for p in 0 1 2 3 4 5 6 7; do
	echo "task p$p /P be/$p" >>$spec
done

readers_case() {
	hier_share_case "eight BE readers at prio 0-7 ($mode mode)" $spec $disk $runtime $tolerance
}
cfq_each_mode $disk readers_case
nullb_remove $disk
