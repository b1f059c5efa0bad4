# Benchmark, not pass/fail: how close each scheduler comes to the shares
# a tree asks for (issue 12's matrix, item 1).  Three trees, each on the
# fairness disk (null_blk, 100 us a request, one at a time, rotational),
# one sequential reader a task (lib.sh's hier_fio, --exitall):
#
# - seed: the seed document's hierarchy, for cfq in its three modes
#   (flat; Grp1 and Grp3 hierarchical; all hierarchical);
# - deep4: four levels, group weights 10 to 1000, tasks at six BE levels;
# - ladder: eight levels, a task and the next level in each.
#
# Cases: cfq with the tree flat (use_hierarchy 0) and hierarchical; bfq,
# which nests every group, with its own weights (blkio.bfq.weight) mapped
# so that a group weighs against a task of its level as in cfq (cfq
# gives ioprio 4 a weight of 484, bfq 40: a cfq weight W is bfq weight
# W x 40 / 484, at least 1); mq-deadline and none, which have no policy,
# judged against the shares of the hierarchical tree.  cfq and bfq run in
# time mode (slice_idle as the kernel sets it) and IOPS mode (slice_idle
# 0); each case at the nr_requests the scheduler gets by default and at
# 128.  Every case runs BENCH_ROUNDS times (3), rounds outermost, so a
# drift spreads over every case.
#
# Each run prints, as TAP diagnostics, lines for tests/bench/report.sh:
#   row share TREE CASE MODE DEPTH NR ROUND KIND ENTITY EXPECTED MEASURED
#   row iops TREE CASE MODE DEPTH NR ROUND IOPS
# (shares in %; DEPTH "default" or "128", NR the nr_requests the disk had).
#
# Run: ./lab bench 30-fairness (BENCH_RUNTIME seconds a run, default 10;
# BENCH_ROUNDS; BENCH_SHORT=1 runs the seed tree only).
. "$LAB_GUEST_LIB"
tap_plan 3

tap_skip_unless_hier_cfq

disk=bf
out=/tmp/bf
spec=$out.spec
runtime=${BENCH_RUNTIME:-10}
rounds=${BENCH_ROUNDS:-3}
trees="seed deep4 ladder"
[ "${BENCH_SHORT:-0}" = 0 ] || trees=seed
tap_cfq_nullb $disk

# tree_spec TREE HIER: the tree as a spec, every use_hierarchy HIER
# (for the seed, HIER "mixed": Grp1 and Grp3 hierarchical, the rest flat)
tree_spec() {
	case "$1" in
	seed)
		if [ "$2" = mixed ]; then
			seed_spec 0 1 0 1
		else
			seed_spec "$2" "$2" "$2" "$2"
		fi
		;;
	deep4)
		cat <<SPEC
group / 1000 $2
group /A 1000 $2
group /A/B 100 $2
group /A/B/C 10 $2
group /A/B/C/D 500 $2
group /E 300 $2
group /E/F 700 $2
task r0 / be/4
task a0 /A be/0
task b4 /A/B be/4
task c7 /A/B/C be/7
task d2 /A/B/C/D be/2
task e6 /E be/6
task f3 /E/F be/3
SPEC
		;;
	ladder)
		awk -v hier="$2" 'BEGIN {
			print "group / 1000 " hier
			p = ""
			for (l = 1; l <= 8; l++) {
				p = p "/L" l
				print "group " p " 500 " hier
			}
			print "task t0 / -"
			p = ""
			for (l = 1; l <= 8; l++) {
				p = p "/L" l
				print "task t" l " " p " -"
			}
		}'
		;;
	esac
}

# bfq_spec SPEC: the spec with every group's weight mapped to bfq's
# (the root keeps its own: it has no weight to set)
bfq_spec() {
	awk '$1 == "group" && $2 != "/" {
			w = int($3 * 40 / 484 + 0.5)
			$3 = w < 1 ? 1 : w
		}
		{ print }' "$1"
}

# bfq_weights SPEC: every group's blkio.bfq.weight as SPEC (bfq_spec's)
# says; fails naming a refused write
bfq_weights() {
	local kind path weight rest got
	hier_spec_lines "$1" group | while read -r kind path weight rest; do
		[ "$path" = / ] && continue
		got=$(cg_write "$BLKIO$path/blkio.bfq.weight" "$weight")
		[ "$got" = ok ] || { echo "blkio.bfq.weight on $path: $got"; return 1; }
	done
}

# run_case TREE CASE MODE NR ROUND: one run, its rows printed.  CASE is
# cfq-flat, cfq-hier, cfq-mixed, bfq, mq-deadline or none; MODE time,
# iops or - (no idling to set); NR default or 128.
run_case() {
	local tree=$1 case=$2 mode=$3 nr=$4 round=$5 sched=$2 hier=1 model=cfq
	case $case in
	cfq-flat) sched=cfq hier=0 ;;
	cfq-mixed) sched=cfq hier=mixed ;;
	cfq-hier) sched=cfq ;;
	bfq) model=bfq ;;
	esac
	tree_spec "$tree" "$hier" >$spec
	set_scheduler $disk "$sched" || { echo "$case: no scheduler $sched" >>$out.failed; return; }
	if [ "$nr" = 128 ] && [ "$(cg_write /sys/block/$disk/queue/nr_requests 128)" != ok ]; then
		echo "$tree $case: nr_requests 128 refused" >>$out.notes
		return
	fi
	[ "$mode" != iops ] || cfq_tunable $disk slice_idle 0
	# bfq gets (and is judged by) the weights mapped to its scale
	if [ $case = bfq ]; then
		bfq_spec $spec >$spec.model
	else
		cp $spec $spec.model
	fi
	if ! hier_apply $spec 2>$out.apply ||
	   { [ $case = bfq ] && ! bfq_weights $spec.model >$out.apply; }; then
		echo "$tree $case: $(cat $out.apply)" >>$out.failed
	elif hier_fio $spec /dev/$disk "$runtime" $out 2>$out.fio; then
		local key="$tree $case $mode $nr $(cat /sys/block/$disk/queue/nr_requests) $round"
		echo "# row iops $key $(hier_fio_iops $out)"
		HIER_MODEL_SCHED=$model hier_model $spec.model shares $out.bytes |
			sed "s|^|# row share $key |"
	else
		echo "$tree $case $mode $nr: fio failed: $(head -c 200 $out.fio)" >>$out.failed
	fi
	hier_remove $spec
	set_scheduler $disk none
}

: >$out.failed
: >$out.notes
for round in $(seq 1 "$rounds"); do
	for tree in $trees; do
		cases="cfq-flat cfq-hier bfq"
		[ "$tree" != seed ] || cases="cfq-flat cfq-mixed cfq-hier bfq"
		for nr in default 128; do
			for case in $cases; do
				for mode in time iops; do
					run_case $tree $case $mode $nr $round
				done
			done
			run_case $tree mq-deadline - $nr $round
			run_case $tree none - $nr $round
		done
	done
done
[ ! -s $out.notes ] || sort -u $out.notes | sed 's/^/#   not run: /'
tap_none "every case ran" $out.failed
set_scheduler $disk cfq
tap_check "cfq back on $disk" grep -q '\[cfq\]' /sys/block/$disk/queue/scheduler
nullb_remove $disk
