# Where the CPU goes per request, scheduler by scheduler: the ftrace
# function profiler over one fio run each of mq-deadline, cfq flat and
# cfq hierarchical on the zero-latency null_blk of test 46 (two io_uring
# jobs at depth 16).  Not part of the suite: it needs the prof kernel.
#
#   ./lab kernel prof
#   qemu/run.sh --flavor prof --tests-dir tests/profile --out out/prof
#   grep '^PROF' out/prof/results.log
#
# Each PROF line: scheduler, function, calls per request, microseconds
# per request (the profiler's own cost included, so compare schedulers,
# not absolute figures).  Plain runs first, interleaved, give the IOPS
# without the profiler.
. "$LAB_GUEST_LIB"
tap_plan 2

tracing=/sys/kernel/debug/tracing
runtime=3
disk=tprof
flat=/tmp/tprof.flat
hier=/tmp/tprof.hier
run=/tmp/tprof.run
printf 'group /F 500 0\ntask f1 /F -\ntask f2 /F -\n' >$flat
printf 'group /H 500 1\ngroup /H/a 500 1\ntask h1 /H/a -\ntask h2 /H/a -\n' >$hier
cases="deadline:mq-deadline:$flat cfq-flat:cfq:$flat cfq-hier:cfq:$hier"

# run LABEL SCHED SPEC: one fio run, prints "LABEL IOPS".
run() {
	set_scheduler $disk "$2"
	hier_apply "$3"
	hier_fio "$3" /dev/$disk $runtime $run --ioengine=io_uring --iodepth=16 \
		--rw=randread --ramp_time=1
	echo "$1 $(hier_fio_iops $run)"
	hier_remove "$3"
}

# profile LABEL: the profiler's table of the last run, per request.
profile() {
	cat $tracing/trace_stat/function* |
		awk '$1 != "Function" && $1 !~ /^-/ && NF >= 3 {
			calls[$1] += $2; us[$1] += $3 }
		END { n = calls["null_queue_rq"]
			for (f in calls) if (n) printf "%s %.2f %.2f\n", f, calls[f] / n, us[f] / n }' |
		sort -k3 -g -r | head -60 | sed "s/^/PROF $1 /"
}

nullb_create $disk size=1024 blocksize=4096 irqmode=0 hw_queue_depth=64
tap_check "the function profiler is there" test -f $tracing/function_profile_enabled

for round in 1 2 3; do
	for c in $cases; do
		IFS=: read -r label sched spec <<-CASE
		$c
		CASE
		tap_diag "round $round: $(run "$label" "$sched" "$spec") IOPS"
	done
done

echo > $tracing/set_ftrace_filter
for f in 'cfq_*' 'dd_*' 'blk_mq_*' '__blk_mq_*' 'ktime_get*' 'ioc_*' 'blkg_*' \
	'_raw_spin_lock*' 'elv_*' 'null_*'; do
	echo "$f" >>$tracing/set_ftrace_filter
done
for c in $cases; do
	IFS=: read -r label sched spec <<-CASE
	$c
	CASE
	echo 1 >$tracing/function_profile_enabled
	tap_diag "profiled: $(run "$label" "$sched" "$spec") IOPS"
	echo 0 >$tracing/function_profile_enabled
	profile "$label"
done
echo > $tracing/set_ftrace_filter
nullb_remove $disk
tap_ok "profiled three schedulers"
