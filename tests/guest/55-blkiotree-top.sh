# blkiotree top's measured shares against fio's own figures (issue 14,
# acceptance 2): the seed document's tree (Grp1 and Grp3 hierarchical)
# with one reader per group on the fairness null_blk under cfq; while
# fio runs, "blkiotree top --json -n 1" measures one interval in the
# middle of the run.  Each task's share of the bytes in top's interval
# must be within 2 points of its share of the bytes fio reports for the
# whole run (the tree is steady, so both measure the same split), and
# each group's share of the disk time in top must be within 2 points of
# its expected share, which cfq divides by in time mode.
. "$LAB_GUEST_LIB"
tap_plan 7

tap_skip_unless_hier_cfq

disk=bt55
tolerance=2
interval=8
out=/tmp/bt55
tap_cfq_nullb $disk
dev=$(cat /sys/block/$disk/dev)
seed_spec 0 1 0 1 >$out.spec

hier_apply $out.spec
# top (loading the tree, the interval, reloading it) must end while every
# job still runs, however long it takes: fio runs until it has
hier_fio_open $out.spec /dev/$disk $out --rw=randread
fio_job_pids $out.spec $out.pids || tap_diag "fio's jobs not found: $(cat $out.pids)"
# past fio's 2 s ramp
sleep 4
top_start=$(date +%s)
blkiotree top --json --device "$dev" --interval $interval --iterations 1 \
	>$out.json 2>$out.err
top_rc=$?
top_seconds=$(($(date +%s) - top_start))
jobs_left=$(awk '$2 != "" { print $2 }' $out.pids | while read -r pid; do
	[ -d /proc/$pid ] && echo "$pid"
done | wc -l)
hier_fio_close $out
fio_rc=$?
tap_is "top --json -n 1 exits 0" "$top_rc" 0
[ -s $out.err ] && sed 's/^/# top: /' $out.err
tap_is "fio ran" "$fio_rc" 0
tap_is "every job still ran when top ended" "$jobs_left" "$(wc -l <$out.pids)"
tap_diag "top took $top_seconds s for its $interval s interval"
tap_diag "fio's bytes: $(tr '\n' ' ' <$out.bytes)"

# "NAME TOP-SHARE FIO-SHARE" per job
json_task_values $out.json bytes_share >$out.top
awk -v pids=$out.pids -v top=$out.top '
	FILENAME == pids { pid[$1] = $2; order[++n] = $1; next }
	FILENAME == top { share[$1] = $2; next }
	{ bytes[$1] = $2; total += $2 }
	END {
		for (i = 1; i <= n; i++) {
			name = order[i]
			printf "%s %s %.2f\n", name, (pid[name] in share) ? share[pid[name]] : "-",
				total ? 100 * bytes[name] / total : 0
		}
	}' $out.pids $out.top $out.bytes >$out.tasks
tap_check "top lists every job with a measured share" \
	awk '$2 == "-" { bad = 1; print "#   " $1 ": no measured share in top --json" } END { exit bad }' $out.tasks

# within TOL: "NAME A B" lines, A within TOL points of B
within_points() {
	awk -v tol=$tolerance -v what="$2" '{
		d = $2 - $3
		if (d < 0)
			d = -d
		flag = ($2 == "-" || d > tol) ? "  <-- off by more than " tol : ""
		if (flag != "")
			bad = 1
		printf "#   %-8s %s %6s %%  %s %6.2f %%%s\n", $1, "top", $2, what, $3, flag
	} END { exit bad || NR == 0 }' "$1"
}
tap_check_timing "every task's share of the bytes in top within $tolerance points of fio's" \
	within_points $out.tasks fio

# groups: top's time_share against the model's expected share
grep -o '"type": *"[a-z]*"\|"name": *"[^"]*"\|"time_share": *[0-9.]*' $out.json |
	awk -F': *' '{ gsub(/"/, "", $1); gsub(/"/, "", $2) }
		$1 == "type" { type = $2; next }
		$1 == "name" { name = $2; next }
		type == "group" { print name, $2 }' >$out.gtime
hier_model $out.spec shares | awk '$1 == "group" { print $2, $3 }' >$out.gmodel
awk 'FILENAME == ARGV[1] { t[$1] = $2; next } { print $1, ($1 in t) ? t[$1] : "-", $2 }' \
	$out.gtime $out.gmodel >$out.groups
tap_check_timing "every group's share of disk time in top within $tolerance points of its expected share" \
	within_points $out.groups expected
hier_remove $out.spec
nullb_remove $disk
