# Benchmark, not pass/fail: the cost of hierarchical scheduling.  IOPS of
# cfq with the root's use_hierarchy=1 (every group nested) against flat
# (use_hierarchy=0), measured side by side in one guest run, for 1, 10 and
# 100 busy groups, each a chain of depth 1 or 4 with one reader at its
# end.  The disk is a zero-latency null_blk (completion in the submitting
# context), so the scheduler's own work is what is measured; slice_idle
# and group_idle are 0, as idling would only measure the idle timer.
# The runs of a case go flat, hierarchical, hierarchical, flat, so that a
# drift of the busy host's speed cancels out of the ratio.
#
# Run: ./lab bench 20-hier-iops (BENCH_RUNTIME: seconds a run, 5).
. "$LAB_GUEST_LIB"
tap_plan 2

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=hb
runtime=${BENCH_RUNTIME:-5}
cfq_nullb $disk size=8192 irqmode=0 completion_nsec=0 hw_queue_depth=64 rotational=0
cfq_tunable $disk slice_idle 0
cfq_tunable $disk group_idle 0
spec=/tmp/hb.spec

# make_spec GROUPS DEPTH HIER: GROUPS chains /gI/l2/.../lDEPTH of weight
# 500, one reader at the end of each; the root's use_hierarchy is HIER.
make_spec() {
	awk -v n="$1" -v depth="$2" -v hier="$3" 'BEGIN {
		print "group / 1000 " hier
		for (i = 1; i <= n; i++) {
			p = "/g" i
			print "group " p " 500 " hier
			for (d = 2; d <= depth; d++) {
				p = p "/l" d
				print "group " p " 500 " hier
			}
			print "task r" i " " p " be/4"
		}
	}'
}

# iops GROUPS DEPTH HIER: IOPS of one run, or "n/a" when the hierarchy
# cannot be made or fio fails (noted in $failed).
iops() {
	make_spec "$@" >$spec
	if ! hier_apply $spec 2>/tmp/hb.apply; then
		echo "$1 groups, depth $2, use_hierarchy $3: $(cat /tmp/hb.apply)" >>/tmp/hb.notes
		echo n/a
		hier_remove $spec
		return
	fi
	if hier_fio $spec /dev/$disk "$runtime" /tmp/hb 2>/tmp/hb.fio; then
		hier_fio_iops /tmp/hb
	else
		echo "fio failed: $1 groups, depth $2, use_hierarchy $3" >>/tmp/hb.failed
		echo n/a
	fi
	hier_remove $spec
}

# mean A B: of two IOPS numbers, "n/a" unless both are numbers
mean() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/) printf "%d\n", (a + b) / 2; else print "n/a" }'
}

rm -f /tmp/hb.failed /tmp/hb.notes
table=/tmp/hb.table
printf '%-7s %-6s %10s %10s %8s\n' groups depth flat hier hier/flat >$table
for n in 1 10 100; do
	for depth in 1 4; do
		f1=$(iops $n $depth 0)
		h1=$(iops $n $depth 1)
		h2=$(iops $n $depth 1)
		f2=$(iops $n $depth 0)
		flat=$(mean "$f1" "$f2")
		hier=$(mean "$h1" "$h2")
		ratio=$(awk -v f="$flat" -v h="$hier" 'BEGIN {
			if (f + 0 > 0 && h + 0 > 0) printf "%.3f", h / f; else print "n/a" }')
		printf '%-7s %-6s %10s %10s %8s\n' $n $depth "$flat" "$hier" "$ratio" >>$table
	done
done
tap_diag "cfq IOPS, flat vs hierarchical (mean of 2 runs of $runtime s each, $(nproc) CPUs, $(uname -r)):"
sed 's/^/#   /' $table
[ ! -s /tmp/hb.notes ] || sort -u /tmp/hb.notes | sed 's/^/#   not run: /'
if [ -s /tmp/hb.failed ]; then
	tap_fail "every fio run finished"
	sed 's/^/#   /' /tmp/hb.failed
else
	tap_ok "every fio run finished"
fi
tap_check "a hierarchical number for every case" sh -c "! awk 'NR > 1 && \$4 == \"n/a\"' $table | grep -q ."
nullb_remove $disk
