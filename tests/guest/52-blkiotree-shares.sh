# blkiotree show's expected shares against the shares fio measures on
# the same running tree (issue acceptance 4): within 2 percentage points
# for every job.  One fio run per tree whose jobs start together (fio's
# cgroup= and cgroup_weight=, direct psync 4 KiB random reads, one reader
# per cgroup) on a rotational null_blk with 100 us per request, one
# request at a time, under cfq.  While it runs, "blkiotree show --json
# --busy --device MAJ:MIN --pid JOBS" gives each job's expected share (the
# job pids come from the cgroups' tasks files); measured share = a job's
# bytes / all jobs' bytes while every job ran (lib.sh's hier_fio).  The
# same expected shares are also checked against lib.sh's model (awk, from
# the spec alone), so that a wrong model in blkiotree and a scheduler
# missing its target are told apart.  A third tree mixes the RT, BE and
# IDLE classes.  When the kernel has CFQ's debugfs scheduling tree, show
# must also find it agreeing with its model for the running tree.  The
# flat tree needs blkio.weight; the other two blkio.use_hierarchy too.
. "$LAB_GUEST_LIB"
tap_plan 13

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"
[ -f "$BLKIO/blkio.weight" ] || tap_skip_rest "no blkio.weight (no cfq policy)"

disk=bt52
# fio's measured time: show, however long it takes, ends before fio does
runtime=${BT52_RUNTIME:-12}
tolerance=2
cfq_nullb $disk size=1024
dev=$(cat /sys/block/$disk/dev 2>/dev/null)
tap_check "cfq null_blk disk $disk ($dev)" grep -q '\[cfq\]' /sys/block/$disk/queue/scheduler

# Flat: a nested cgroup still sits on the pivot tree, beside its parent.
cat >/tmp/bt52-flat.spec <<'SPEC'
group /bt52a 100 0
group /bt52a/x 300 0
group /bt52b 200 0
task ja /bt52a -
task jx /bt52a/x -
task jb /bt52b -
SPEC

# Hierarchical: /bt52h holds a reader of its own beside two child groups,
# /bt52f stays flat on the pivot tree.
cat >/tmp/bt52-hier.spec <<'SPEC'
group /bt52h 500 1
group /bt52h/a 200 1
group /bt52h/b 600 1
group /bt52f 500 0
task h /bt52h -
task ha /bt52h/a -
task hb /bt52h/b -
task f /bt52f -
SPEC

# Classes (issue 14): CFQ serves RT before BE before IDLE within a
# group, and a child group competes in its parent as BE.  /bt52r's RT
# reader takes the group's half and the BE reader beside it nothing;
# in /bt52c the BE reader and the child group /bt52c/k split 484 : 200
# and the IDLE reader gets nothing; /bt52c/k's RT reader has all of it.
cat >/tmp/bt52-classes.spec <<'SPEC'
group /bt52r 500 0
group /bt52c 500 1
group /bt52c/k 200 1
task rt /bt52r rt/4
task rb /bt52r be/0
task cb /bt52c -
task ci /bt52c idle
task krt /bt52c/k rt/7
SPEC

# dead_pids JOBS: the pids of JOBS ("NAME PID" lines) that no longer run.
dead_pids() {
	local name pid
	while read -r name pid; do
		kill -0 "$pid" 2>/dev/null || printf '%s ' "$pid"
	done <"$1"
}

# compare JOBS SHARES BYTES FIELD TOL: per job "name measured expected"
# as diagnostics; succeed when every job's expected share is there and
# within TOL points of its measured share.  FIELD "model" compares show's
# share with the model's (JOBS' third column) instead.
compare() {
	awk -v tol="$5" -v field="$4" -v pids="$1" -v shares="$2" '
		FILENAME == pids { pid[$1] = $2; model[$1] = $3; order[++n] = $1; next }
		FILENAME == shares { expected[$1] = $2; next }
		{ bytes[$1] = $2; total += $2 }
		END {
			for (i = 1; i <= n; i++) {
				name = order[i]
				if (!(pid[name] in expected)) {
					printf "#   %-4s pid %s: not in show --json\n", name, pid[name]
					bad = 1
					continue
				}
				e = expected[pid[name]]
				if (field == "model")
					m = model[name]
				else
					m = total ? 100 * bytes[name] / total : -100
				d = m - e
				if (d < 0)
					d = -d
				flag = d > tol ? "  <-- off by more than " tol : ""
				if (flag != "")
					bad = 1
				printf "#   %-4s pid %-5s %s %6.2f %%  show --json %6.2f %%%s\n",
					name, pid[name], field == "model" ? "model   " : "measured", m, e, flag
			}
			exit bad || !n
		}' "$1" "$2" "$3"
}

# diag_check DESC CMD...: like tap_check, but CMD's output (diagnostics)
# is printed whether it passes or not.
diag_check() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] && tap_ok "$desc" || tap_fail "$desc"
	[ -z "$out" ] || echo "$out"
}

# measure_with_show SPEC OUT RUNTIME KTREE: one fio run of SPEC's tree
# for RUNTIME seconds after its ramp, or until "blkiotree show --json",
# run a few seconds into it, has ended if that is later (OUT.json,
# OUT.show-err; OUT.late lists the jobs that ended before show did,
# OUT.timing says so and how long show took; OUT.ktree is a copy of
# CFQ's debugfs tree KTREE just before show).  Returns fio's status.
measure_with_show() {
	local spec=$1 out=$2 ktree=$4 fio_started show_started left
	fio_started=$(date +%s)
	hier_fio_open "$spec" /dev/$disk "$out" --rw=randread
	fio_job_pids "$spec" "$out.pids"
	# a few seconds into the run, after the warm-up: the tree is running
	sleep 4
	[ -f "$ktree" ] && cat "$ktree" >"$out.ktree" 2>&1
	show_started=$(date +%s)
	blkiotree show --json --busy --device "$dev" --pid "$(pid_list "$out.pids")" \
		>"$out.json" 2>"$out.show-err"
	dead_pids "$out.pids" >"$out.late"
	echo "show took $(($(date +%s) - show_started)) s; jobs ended before it did: $(cat "$out.late")" \
		>"$out.timing"
	# fio's 2 s ramp, then RUNTIME s of measurement
	left=$((fio_started + 2 + $3 - $(date +%s)))
	[ "$left" -le 0 ] || sleep "$left"
	hier_fio_close "$out"
}

# run_tree NAME SPEC: three checks on one running tree.
run_tree() {
	local name=$1 spec=$2 out=/tmp/bt52.$1 fio_rc ktree
	if ! hier_apply "$spec" 2>"$out.apply"; then
		sed 's/^/# /' "$out.apply"
		tap_fail "$name: show --json lists every job (tree not built)"
		tap_fail "$name: measured shares within $tolerance points of show's"
		tap_fail "$name: show's shares are the model's"
		tap_fail "$name: the kernel's debugfs tree agrees with show's"
		hier_remove "$spec"
		return
	fi
	ktree=$(cfq_tree_file $disk)
	measure_with_show "$spec" "$out" "$runtime" "$ktree"
	fio_rc=$?
	json_task_values "$out.json" share >"$out.shares"
	hier_model "$spec" shares | awk '$1 == "task" { print $2, $3 }' >"$out.model"
	awk -v m="$out.model" 'FILENAME == m { e[$1] = $2; next } { print $1, $2, e[$1] }' \
		"$out.model" "$out.pids" >"$out.jobs"
	tap_diag "$name: job pids $(tr '\n' ' ' <"$out.pids"); $(cat "$out.timing")"
	[ -s "$out.show-err" ] && sed 's/^/# show: /' "$out.show-err"
	tap_check "$name: show --json lists every job" \
		sh -c "[ \$(wc -l <'$out.shares') -ge \$(wc -l <'$out.jobs') ] &&
			grep -q '\"weights_effective\": *true' '$out.json' ||
			{ cat '$out.timing'; exit 1; }"
	if [ "$fio_rc" -ne 0 ]; then
		tap_fail "$name: measured shares within $tolerance points of show's (fio failed)"
	else
		tap_check_timing "$name: measured shares within $tolerance points of show's" \
			compare "$out.jobs" "$out.shares" "$out.bytes" measured $tolerance
	fi
	diag_check "$name: show's shares are the model's" \
		compare "$out.jobs" "$out.shares" "$out.bytes" model 0.01
	if [ -f "$ktree" ]; then
		tap_check "$name: the kernel's debugfs tree agrees with show's" \
			sh -c "grep -q '\"agrees\": *true' '$out.json' || { cat '$out.ktree'; exit 1; }"
	else
		tap_skip "$name: the kernel's debugfs tree agrees with show's" \
			"no $ktree (CFQ's debugfs tree, not in this kernel)"
	fi
	hier_remove "$spec"
}

run_tree flat /tmp/bt52-flat.spec
if [ -f "$BLKIO/blkio.use_hierarchy" ]; then
	run_tree hierarchical /tmp/bt52-hier.spec
	run_tree classes /tmp/bt52-classes.spec
else
	for tree in hierarchical classes; do
		for c in "show --json lists every job" "measured shares within $tolerance points of show's" \
			"show's shares are the model's" "the kernel's debugfs tree agrees with show's"; do
			tap_skip "$tree: $c" "no blkio.use_hierarchy (cfq without hierarchical mode)"
		done
	done
fi
nullb_remove $disk
