# Helpers for guest tests (busybox sh).  A test sources "$LAB_GUEST_LIB",
# calls tap_plan once, then one tap_* per check; output is TAP.
# shellcheck shell=sh

TAP_N=0
TAP_PLANNED=0
BLKIO=/sys/fs/cgroup/blkio
NULLB_CONFIGFS=/sys/kernel/config/nullb

tap_plan() {
	TAP_PLANNED=$1
	echo "1..$1"
}

tap_ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

tap_fail() {
	TAP_N=$((TAP_N + 1))
	echo "not ok $TAP_N - $*"
}

tap_skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

tap_diag() {
	echo "# $*"
}

# tap_check DESC CMD...: ok when CMD succeeds; its output becomes
# diagnostics when it fails.  (The helpers' locals are named so that a
# test's own "out" stays visible to CMD.)
tap_check() {
	local desc=$1 output
	shift
	if output=$("$@" 2>&1); then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		[ -z "$output" ] || echo "$output" | sed 's/^/#   /'
	fi
}

# by_flavor NORMAL DEBUG: DEBUG on the debug kernel, NORMAL on the others:
# a size or a time for a test whose work costs the debug kernel (KASAN,
# lockdep, one emulated CPU) many times more.
by_flavor() {
	if [ "$LAB_FLAVOR" = debug ]; then
		echo "$2"
	else
		echo "$1"
	fi
}

# tap_none DESC FILE: ok when FILE, a list of what went wrong (one thing
# a line), is empty; its lines become diagnostics when it is not.
tap_none() {
	tap_check "$1" sh -c '! grep . "$1"' - "$2"
}

# tap_check_timing DESC CMD...: tap_check for a share or a figure that
# models CPU time against a 100 us device.  On the debug kernel (KASAN
# and lockdep on one emulated CPU) a request costs far more CPU than the
# device time it models, so a miss there is reported as a skip (CMD's
# output stays in the diagnostics) and the test still counts for its
# splats and its workload; the normal kernel judges the figure.
tap_check_timing() {
	local desc=$1 output
	shift
	if output=$("$@" 2>&1); then
		tap_ok "$desc"
	elif [ "$LAB_FLAVOR" = debug ]; then
		tap_skip "$desc" "missed on the debug kernel, where timing is not modelled"
	else
		tap_fail "$desc"
	fi
	[ -z "$output" ] || echo "$output" | sed '/^#/!s/^/#   /'
}

# ratio_at_least A B MIN: print A / B; succeed when A is at least MIN
# times B (and B is not 0).
ratio_at_least() {
	awk -v a="$1" -v b="$2" -v min="$3" 'BEGIN {
		printf "%s / %s = %.3f (at least %s wanted)\n", a, b, b ? a / b : 0, min
		exit !(b > 0 && a >= min * b) }'
}

# tap_is DESC GOT WANT
tap_is() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_fail "$1"
		tap_diag "  got:  '$2'"
		tap_diag "  want: '$3'"
	fi
}

# nullb_create NAME [ATTR=VALUE]...: a null_blk device /dev/NAME made
# through configfs (named after its configfs folder).  Attributes are
# null_blk's configfs files (size in MB, blocksize, memory_backed,
# completion_nsec, irqmode, hw_queue_depth, submit_queues, ...).
# rotational=0|1 is accepted too: null_blk has no such attribute, so it is
# written to the queue's sysfs file once the disk exists.
nullb_create() {
	local name=$1 kv rotational=
	shift
	mkdir "$NULLB_CONFIGFS/$name" || return 1
	for kv in "$@"; do
		case "$kv" in
		rotational=*)
			rotational=${kv#*=}
			continue
			;;
		esac
		echo "${kv#*=}" >"$NULLB_CONFIGFS/$name/${kv%%=*}" || {
			echo "nullb_create: $name: cannot set ${kv%%=*}" >&2
			return 1
		}
	done
	echo 1 >"$NULLB_CONFIGFS/$name/power" || return 1
	[ -b "/dev/$name" ] || {
		echo "nullb_create: /dev/$name did not appear" >&2
		return 1
	}
	[ -z "$rotational" ] ||
		echo "$rotational" >"/sys/block/$name/queue/rotational"
}

nullb_remove() {
	echo 0 >"$NULLB_CONFIGFS/$1/power" 2>/dev/null
	rmdir "$NULLB_CONFIGFS/$1"
}

# set_scheduler DEV SCHED: DEV is a name under /sys/block.
set_scheduler() {
	echo "$2" >"/sys/block/$1/queue/scheduler"
}

# blkio_group PATH: create (if needed) the blkio cgroup PATH, print its
# directory.
blkio_group() {
	mkdir -p "$BLKIO/$1" && echo "$BLKIO/$1"
}

# blkio_group_remove PATH: remove a leaf cgroup after moving its tasks to
# the root.
blkio_group_remove() {
	local pid
	for pid in $(cat "$BLKIO/$1/tasks" 2>/dev/null); do
		echo "$pid" >"$BLKIO/tasks" 2>/dev/null
	done
	rmdir "$BLKIO/$1"
}

# fio_job_bytes FILE JOBNAME: bytes read + written by one job of a fio
# run made with --output-format=terse (terse v3: field 3 is the job
# name, 6 read KiB, 47 write KiB).
fio_job_bytes() {
	awk -F';' -v job="$2" '$3 == job { printf "%d\n", ($6 + $47) * 1024 }' "$1"
}

# tap_skip_rest REASON: skip every check left in the plan and end the
# test (for a kernel that lacks what the whole test is about).
tap_skip_rest() {
	while [ "$TAP_N" -lt "$TAP_PLANNED" ]; do
		tap_skip "(not run)" "$1"
	done
	exit 0
}

# tap_skip_unless_hier_cfq: skip the rest of the test unless the kernel
# offers cfq with hierarchical groups (blkio.use_hierarchy)
tap_skip_unless_hier_cfq() {
	cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"
	[ -f "$BLKIO/blkio.use_hierarchy" ] || tap_skip_rest "no blkio.use_hierarchy"
}

# ---- writes the kernel may refuse ---------------------------------------

# cg_write FILE VALUE: write VALUE and a newline to FILE in one write(2);
# print "ok" or the error's name (EINVAL, EBUSY, ERANGE, ENODEV, E2BIG,
# ENOENT, EACCES), else the shell's message.  Always returns 0.
cg_write() {
	local err
	# echo, not printf: busybox's printf does not report a failed write
	if err=$( { echo "$2" >"$1"; } 2>&1); then
		echo ok
		return 0
	fi
	case "$err" in
	*"Invalid argument"*) echo EINVAL ;;
	*"Device or resource busy"*) echo EBUSY ;;
	*"Numerical result out of range"*) echo ERANGE ;;
	*"No such device"*) echo ENODEV ;;
	*"Argument list too long"*) echo E2BIG ;;
	*"No such file"* | *"nonexistent"*) echo ENOENT ;;
	*"Permission denied"*) echo EACCES ;;
	*) echo "$err" ;;
	esac
}

# tap_write DESC FILE VALUE WANT: one check that writing VALUE to FILE
# gives WANT ("ok" or an errno name as cg_write prints it); when WANT is
# an error, FILE must also read back exactly as before the write.
# TAP_WRITER names the command that writes (cg_write unless set: 67 sets
# one that writes as another user).
tap_write() {
	local before got after
	before=$(cat "$2" 2>&1)
	got=$(${TAP_WRITER:-cg_write} "$2" "$3")
	after=$(cat "$2" 2>&1)
	if [ "$got" != "$4" ]; then
		tap_fail "$1"
		tap_diag "  echo '$3' > $2: got $got, want $4"
	elif [ "$4" != ok ] && [ "$before" != "$after" ]; then
		tap_fail "$1"
		tap_diag "  refused write changed $2: before '$before', after '$after'"
	else
		tap_ok "$1"
	fi
}

# ---- CFQ on a null_blk disk -----------------------------------------------

# cfq_nullb NAME [ATTR=VALUE]...: the lab's fairness disk, a null_blk with
# a fixed 100 us completion, one request in the driver at a time and
# rotational, scheduled by cfq; ATTRs are added or override (nullb_create).
# nr_requests and the tunables stay as the kernel sets them.  Fails when
# cfq cannot be selected.
cfq_nullb() {
	local name=$1
	shift
	modprobe cfq 2>/dev/null
	nullb_create "$name" size=4096 blocksize=4096 irqmode=2 \
		completion_nsec=100000 hw_queue_depth=1 rotational=1 "$@" || return 1
	set_scheduler "$name" cfq 2>/dev/null
}

# cfq_memory_nullb NAME SIZE_MB [ATTR=VALUE]...: cfq_nullb's disk, but
# memory-backed (data written can be read back and verified), SIZE_MB
# large, 20 us a request and non-rotational, as null_blk comes; ATTRs are
# added or override.
cfq_memory_nullb() {
	local name=$1 size=$2
	shift 2
	cfq_nullb "$name" size="$size" memory_backed=1 completion_nsec=20000 \
		rotational=0 "$@"
}

# tap_cfq_nullb DISK [ATTR=VALUE]...: cfq_nullb, reported as one check.
tap_cfq_nullb() {
	cfq_nullb "$@"
	tap_check "cfq null_blk disk $1" test -b "/dev/$1"
}

# cfq_available: cfq is a scheduler this kernel offers (after loading
# the module, if it is one): some disk lists it.
cfq_available() {
	local f
	modprobe cfq 2>/dev/null
	for f in /sys/block/*/queue/scheduler; do
		grep -qw cfq "$f" 2>/dev/null && return 0
	done
	return 1
}

# cfq_tunable DISK NAME [VALUE]: read or write one of cfq's tunables.
cfq_tunable() {
	if [ $# -eq 3 ]; then
		echo "$3" >"/sys/block/$1/queue/iosched/$2"
	else
		cat "/sys/block/$1/queue/iosched/$2"
	fi
}

# ---- tree specs: blkio hierarchies with busy tasks -----------------------
#
# A tree spec is a text file, one entity a line ('#' starts a comment),
# parents before their children:
#   group PATH WEIGHT USE_HIERARCHY  a blkio cgroup; PATH "/" is the root
#                                    (1000 0 when it has no line)
#   task NAME PATH PRIO              one busy reader in cgroup PATH; PRIO
#                                    "-" (no ionice: nice 0, so be/4),
#                                    be/N or rt/N (N 0..7), or idle
# A child of a group with USE_HIERARCHY 1 must say 1 too (it inherits it).
# Example, the seed document's hierarchy
# with the root hierarchical and a reader in every group:
#   group / 1000 1
#   group /Grp1 500 1
#   group /Grp2 500 1
#   group /Grp1/Grp3 500 1
#   task tsk1 / -
#   task tsk2 /Grp1 -
#   task tsk3 /Grp2 -
#   task tsk4 /Grp1/Grp3 -

# The model of DESIGN.md section 4, in awk, computed from the spec alone
# (never from what the kernel reports).  A group's entity sits under its
# parent group when the parent cgroup has use_hierarchy 1, else under the
# pivot, the root always under the pivot; a task's queue sits in its
# cgroup's group.  At each level a busy entity gets weight / (sum of its
# busy siblings' weights) of its parent's share; a task's weight comes
# from its ioprio level (1000 868 740 612 484 356 228 100; idle as level
# 7).  Classes count within a group, as CFQ serves them: while a queue of
# a higher class is busy there (RT, then BE, then IDLE) the others get
# nothing; a child group competes in its parent as BE.
#   mode=shares  "KIND NAME EXPECTED% MEASURED%" per busy entity, spec
#                order (MEASURED "-" without a bytes file; a group's is
#                the bytes of the tasks scheduled below it)
#   mode=times   the same for the busy groups alone, MEASURED from a file
#                of "PATH MS", each group's own disk time (cfq_group_times):
#                a group's is the time of the groups scheduled at or below it
#   mode=tree    the scheduling tree as one line per entity: the path of
#                labels from the pivot, "pivot > group:/Grp1 > queue:tsk2";
#                every group of the spec and the root, busy or not (the
#                debugfs tree lists every group that did I/O on the disk),
#                and every task's queue
HIER_MODEL_AWK='
function cgparent(p,  q) {
	q = p
	sub(/\/[^\/]*$/, "", q)
	return q == "" ? "/" : q
}
# cfq maps ioprio 0-7 to 1000-100; bfq (sched=bfq) to 80-10
function prio_weight(prio,  pw) {
	if (prio == "-")
		prio = "be/4"
	if (prio == "idle")
		prio = "be/7"
	if (prio !~ /^(be|rt)\/[0-7]$/)
		die("bad prio " prio)
	if (sched == "bfq")
		return (8 - substr(prio, 4)) * 10
	split("1000 868 740 612 484 356 228 100", pw, " ")
	return pw[substr(prio, 4) + 1] + 0
}
# the order in which a group serves its classes: 0 RT, 1 BE, 2 IDLE
function prio_class(prio) {
	return prio ~ /^rt\// ? 0 : prio == "idle" ? 2 : 1
}
function die(msg) {
	print "hier model: " msg > "/dev/stderr"
	bad = 1
	exit 1
}
function share(e) {
	if (e == "pivot")
		return 1
	if (e in SH)
		return SH[e]
	SH[e] = 0
	if (CLASS[e] == SERVED[PARENT[e]])
		SH[e] = share(PARENT[e]) * W[e] / SUM[PARENT[e]]
	return SH[e]
}
function label(e) {
	return e == "pivot" ? "pivot" : (substr(e, 1, 2) == "g:" ? "group:" substr(e, 3) : "queue:" substr(e, 3))
}
function chain(e) {
	return e == "pivot" ? "pivot" : chain(PARENT[e]) " > " label(e)
}
FILENAME == measured_file { MEASURED[$1] = $2; TOTAL += $2; next }
{ sub(/#.*/, "") }
NF == 0 { next }
$1 == "group" && NF == 4 {
	if ($2 in HIER)
		die("group " $2 " twice")
	HIER[$2] = $4
	ORDER[++n] = "g:" $2
	W["g:" $2] = $3 + 0
	CLASS["g:" $2] = 1
	next
}
$1 == "task" && NF == 4 {
	ORDER[++n] = "t:" $2
	W["t:" $2] = prio_weight($4)
	CLASS["t:" $2] = prio_class($4)
	CG["t:" $2] = $3
	next
}
{ die("bad line: " $0) }
END {
	if (bad)
		exit 1
	if (!("/" in HIER)) {
		HIER["/"] = 0
		ORDER[++n] = "g:/"
		W["g:/"] = 1000
		CLASS["g:/"] = 1
	}
	for (i = 1; i <= n; i++) {
		e = ORDER[i]
		if (e in CG) {
			if (!(CG[e] in HIER))
				die("task " e " in unknown group " CG[e])
			PARENT[e] = "g:" CG[e]
		} else if (e == "g:/") {
			PARENT[e] = "pivot"
		} else {
			p = cgparent(substr(e, 3))
			if (!(p in HIER))
				die("group " substr(e, 3) " before its parent")
			if (HIER[p] == 1 && HIER[substr(e, 3)] != 1)
				die("group " substr(e, 3) " must inherit use_hierarchy 1")
			# bfq nests every group in its parent
			PARENT[e] = HIER[p] == 1 || sched == "bfq" ? "g:" p : "pivot"
		}
	}
	for (i = 1; i <= n; i++) {
		if (!(ORDER[i] in CG))
			continue
		for (e = ORDER[i]; e != "pivot"; e = PARENT[e])
			BUSY[e] = 1
	}
	for (e in BUSY)
		if (!(PARENT[e] in SERVED) || CLASS[e] < SERVED[PARENT[e]])
			SERVED[PARENT[e]] = CLASS[e]
	for (e in BUSY)
		if (CLASS[e] == SERVED[PARENT[e]])
			SUM[PARENT[e]] += W[e]
	for (i = 1; i <= n; i++) {
		e = ORDER[i]
		if (mode == "tree") {
			print chain(e)
			continue
		}
		if (!(e in BUSY) || (mode == "times" && (e in CG)))
			continue
		m = "-"
		if (measured_file != "") {
			got = 0
			for (j = 1; j <= n; j++) {
				t = ORDER[j]
				# shares count the bytes of tasks, times the own times of groups
				if ((t in CG) == (mode == "times"))
					continue
				for (a = t; a != "pivot" && a != e; a = PARENT[a])
					;
				if (a == e)
					got += MEASURED[substr(t, 3)]
			}
			m = TOTAL > 0 ? sprintf("%.2f", 100 * got / TOTAL) : "nan"
		}
		printf "%s %s %.2f %s\n", (e in CG) ? "task" : "group",
			substr(e, 3), 100 * share(e), m
	}
	if (mode == "tree")
		print "pivot"
}'

# hier_model SPEC shares|times|tree [MEASURED_FILE]: run the model
# (above); MEASURED_FILE holds the tasks' bytes (shares) or the groups'
# disk times (times).  With HIER_MODEL_SCHED=bfq, the shares bfq is
# asked for: every group nested, and bfq's own weights of the ioprios.
hier_model() {
	if [ -n "${3:-}" ]; then
		awk -v mode="$2" -v measured_file="$3" -v sched="${HIER_MODEL_SCHED:-cfq}" \
			"$HIER_MODEL_AWK" "$3" "$1"
	else
		awk -v mode="$2" -v measured_file= -v sched="${HIER_MODEL_SCHED:-cfq}" \
			"$HIER_MODEL_AWK" "$1"
	fi
}

# hier_spec_lines SPEC KIND: the spec's lines of one kind, comments cut.
hier_spec_lines() {
	sed -e 's/#.*//' "$1" | awk -v kind="$2" '$1 == kind'
}

# hier_apply SPEC: make the spec's cgroups, in spec order: create, then
# set use_hierarchy (before any child exists; written only when it
# differs from what the group has, a missing file counting as 0, so a
# flat spec needs no use_hierarchy support) and the weight.  Fails,
# naming the write, at the first refusal.
hier_apply() {
	local kind path weight hier dir cur got
	hier_spec_lines "$1" group | while read -r kind path weight hier; do
		dir=$BLKIO${path%/}
		[ "$path" = / ] || mkdir -p "$dir" || return 1
		cur=$(cat "$dir/blkio.use_hierarchy" 2>/dev/null || echo 0)
		if [ "$cur" != "$hier" ]; then
			got=$(cg_write "$dir/blkio.use_hierarchy" "$hier")
			[ "$got" = ok ] || {
				echo "hier_apply: use_hierarchy=$hier on $path: $got" >&2
				return 1
			}
		fi
		if [ "$(cat "$dir/blkio.weight")" != "$weight" ]; then
			got=$(cg_write "$dir/blkio.weight" "$weight")
			[ "$got" = ok ] || {
				echo "hier_apply: weight=$weight on $path: $got" >&2
				return 1
			}
		fi
	done
}

# hier_remove SPEC: move the spec's cgroups' tasks to the root, remove the
# cgroups (children first) and set the root back to flat.
hier_remove() {
	local kind path rest
	hier_spec_lines "$1" group | awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' |
		while read -r kind path rest; do
			[ "$path" = / ] || blkio_group_remove "${path#/}" 2>/dev/null
		done
	[ ! -f "$BLKIO/blkio.use_hierarchy" ] || echo 0 >"$BLKIO/blkio.use_hierarchy" 2>/dev/null
	true
}

# seed_spec ROOT GRP1 GRP2 GRP3: the seed document's example hierarchy
# (Grp1 and Grp2 under the root, Grp3 under Grp1, a reader of default
# prio in each) as a tree spec, with these use_hierarchy values.
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

# hier_fio SPEC DEV RUNTIME OUT [FIO_OPTION...]: one fio run with a job per
# task of the spec: job NAME in cgroup PATH (fio's cgroup=, with
# cgroup_weight= when fio's range 100-1000 allows it), at the task's
# ioprio (prioclass=, prio=), reading DEV sequentially with direct 4 KiB
# reads from its own 64 MiB region for RUNTIME seconds after a 2 s ramp.
# fio forks its jobs one after the other and times each from its own
# start: the first job to end ends them all (exitall), or the last ones
# would read alone for a while, worth several points of a small share.
# FIO_OPTIONs are added to every job and override those (--ramp_time=0
# --status-interval=1 for windows: fio_window).  Writes OUT.terse (fio's
# output), OUT.err, OUT.bytes ("NAME BYTES" per job, from fio's final
# report) and OUT.seconds (the longest job's measured time); fails when
# fio fails or a job reports an error.
hier_fio() {
	local spec=$1 dev=$2 runtime=$3 out=$4 jobs
	shift 4
	jobs=$(awk '
		FNR == NR { sub(/#.*/, ""); if ($1 == "group") w[$2] = $3; next }
		{ sub(/#.*/, "") }
		$1 == "task" {
			s = "--name=" $2 " --offset=" (64 * i++) "m"
			if ($3 != "/") {
				s = s " --cgroup=" substr($3, 2)
				if (w[$3] >= 100 && w[$3] <= 1000)
					s = s " --cgroup_weight=" w[$3]
			}
			if ($4 ~ /^be\//)
				s = s " --prioclass=2 --prio=" substr($4, 4)
			else if ($4 ~ /^rt\//)
				s = s " --prioclass=1 --prio=" substr($4, 4)
			else if ($4 == "idle")
				s = s " --prioclass=3"
			print s
		}' "$spec" "$spec")
	# shellcheck disable=SC2086
	fio --output-format=terse --minimal --filename="$dev" --direct=1 \
		--ioengine=psync --rw=read --bs=4k --size=64m --time_based \
		--ramp_time=2 --runtime="$runtime" --exitall --cgroup_nodelete=1 \
		"$@" $jobs >"$out.terse" 2>"$out.err"
	local rc=$?
	# the last line of each job: with --status-interval, the final one
	awk -F';' 'NF > 50 {
			if (!($3 in b))
				order[++n] = $3
			b[$3] = ($6 + $47) * 1024
			ms[$3] = $9
			if ($5 != 0)
				bad = 1
		}
		END {
			for (i = 1; i <= n; i++) {
				printf "%s %d\n", order[i], b[order[i]]
				if (ms[order[i]] > longest)
					longest = ms[order[i]]
			}
			printf "%.3f\n", longest / 1000 >seconds
			exit bad
		}' seconds="$out.seconds" "$out.terse" >"$out.bytes" || rc=1
	[ "$rc" -eq 0 ] || sed 's/^/# fio: /' "$out.err" "$out.terse" | head -20 >&2
	return $rc
}

# hier_fio_open SPEC DEV OUT [FIO_OPTION...]: hier_fio in the background
# with no end of its own (its runtime an hour, a ceiling only): the jobs
# run until hier_fio_close OUT, however long what is measured beside them
# takes (blkiotree top beside four readers on the debug kernel and a
# busy host took more than 56 s, CI 2026-12-06).  fio ends its jobs when
# its trigger file OUT.stop appears, and then saves their verify state
# in its working directory, so it runs in OUT.d.
hier_fio_open() {
	local spec=$1 dev=$2 out=$3
	shift 3
	rm -rf "$out.stop" "$out.d" && mkdir "$out.d" || return
	(cd "$out.d" && hier_fio "$spec" "$dev" 3600 "$out" --trigger-file="$out.stop" "$@") &
	echo $! >"$out.fio"
}

# hier_fio_close OUT: end the jobs of hier_fio_open OUT; returns
# hier_fio's status.
hier_fio_close() {
	touch "$1.stop"
	wait "$(cat "$1.fio")"
}

# hier_fio_iops OUT: the IOPS of all jobs of the hier_fio run that wrote
# OUT.bytes and OUT.seconds.
hier_fio_iops() {
	awk -v t="$(cat "$1.seconds")" '{ s += $2 } END { printf "%d\n", s / 4096 / t }' "$1.bytes"
}

# hier_share_check [--times] [--relative PCT] SPEC BYTES_FILE TOLERANCE:
# print, as TAP diagnostics, every busy entity's measured and expected
# share (the model above); succeed when all are within TOLERANCE
# percentage points and, with --relative, those expected at 1 % or more
# also within PCT % of their expected share (DESIGN.md section 6).  With
# --times the file holds the groups' disk times (cfq_group_times) and the
# busy groups' shares of the disk time are checked.
hier_share_check() {
	local mode=shares rel=
	while :; do
		case "$1" in
		--times) mode=times ;;
		--relative)
			rel=$2
			shift
			;;
		*) break ;;
		esac
		shift
	done
	hier_model "$1" $mode "$2" | awk -v tol="$3" -v rel="$rel" '
		{
			d = $4 - $3
			if (d < 0)
				d = -d
			flag = ""
			if ($4 == "nan" || d > tol)
				flag = "  <-- off by more than " tol
			else if (rel != "" && $3 >= 1 && d > $3 * rel / 100)
				flag = "  <-- off by more than " rel " % of it"
			if (flag != "")
				bad = 1
			printf "#   %-5s %-14s measured %6s %%  expected %6.2f %%%s\n", $1, $2, $4, $3, flag
		}
		END { exit bad || NR == 0 }'
}

# cfq_each_mode DISK CMD...: run CMD in time mode (the disk's slice_idle)
# and then in IOPS mode (slice_idle 0), with $mode set to "time" or
# "iops"; slice_idle is put back afterwards.
cfq_each_mode() {
	local disk=$1 slice_idle
	shift
	slice_idle=$(cfq_tunable "$disk" slice_idle)
	for mode in time iops; do
		[ $mode = time ] || cfq_tunable "$disk" slice_idle 0
		"$@"
	done
	cfq_tunable "$disk" slice_idle "$slice_idle"
}

# hier_share_case NAME SPEC DISK RUNTIME TOLERANCE: build the spec's
# cgroups, run its tasks as one fio run on /dev/DISK for RUNTIME seconds,
# and report one check: every busy entity's share within TOLERANCE points
# of the model's and, where the model gives 1 % or more, within
# SHARE_RELATIVE % of it (hier_share_check; a miss on the debug kernel is
# a skip, see tap_check_timing).  One measurement decides.  The cgroups
# are removed afterwards.
SHARE_RELATIVE=20
hier_share_case() {
	local name=$1 spec=$2 disk=$3 runtime=$4 tol=$5 out=/tmp/share-case
	local desc="$name: shares within $tol points and $SHARE_RELATIVE %"
	tap_diag "$name:"
	if ! hier_apply "$spec" 2>"$out.apply"; then
		tap_fail "$desc"
		sed 's/^/#   /' "$out.apply"
	elif ! hier_fio "$spec" "/dev/$disk" "$runtime" "$out"; then
		tap_fail "$desc (fio failed)"
	else
		tap_diag "  $(hier_fio_iops "$out") IOPS in all over $(cat "$out.seconds") s"
		tap_check_timing "$desc" \
			hier_share_check --relative "$SHARE_RELATIVE" "$spec" "$out.bytes" "$tol"
	fi
	hier_remove "$spec"
}

# hier_start_tasks SPEC DEV PIDS [BLOCKS [stopped]]: start one busy reader
# per task of the spec (busybox dd, direct 4 KiB reads, each from its own
# region of DEV, BLOCKS 4 KiB blocks long, 65536 (256 MiB) unless given),
# already in its cgroup and at its ioprio when its first I/O is issued;
# PIDS gets "NAME PID" lines.  With "stopped", each reader stops itself
# (SIGSTOP) before its first I/O, for hier_signal_tasks to start them all
# at once.  Stop them with hier_stop_tasks.
hier_start_tasks() {
	local kind name path prio i=0 cls blocks=${4:-65536}
	: >"$3"
	hier_spec_lines "$1" task >"$3.spec"
	while read -r kind name path prio; do
		case "$prio" in
		be/*) cls="ionice -c 2 -n ${prio#be/}" ;;
		rt/*) cls="ionice -c 1 -n ${prio#rt/}" ;;
		*) cls= ;;
		esac
		# shellcheck disable=SC2016
		sh -c 'echo $$ >"$1/tasks" || exit 1
			[ "$2" != stopped ] || kill -STOP $$
			shift 2 && exec "$@"' sh "$BLKIO${path%/}" "${5:-}" \
			$cls dd if="$2" of=/dev/null bs=4k iflag=direct \
			skip=$((i * blocks)) count="$blocks" 2>/dev/null &
		echo "$name $!" >>"$3"
		i=$((i + 1))
	done <"$3.spec"
	rm -f "$3.spec"
	[ "${5:-}" = stopped ] && [ -s "$3" ] || return 0
	# every reader stopped (or ended: one whose cgroup went is a zombie),
	# so that a SIGCONT reaches them all
	while awk '$3 != "T" && $3 != "Z" { running = 1 } END { exit !running }' \
		$(awk '{ print "/proc/" $2 "/stat" }' "$3") 2>/dev/null; do
		sleep 0.1
	done
}

# hier_signal_tasks SIGNAL PIDS: send SIGNAL (STOP, CONT) to every reader
# hier_start_tasks started, in one kill
hier_signal_tasks() {
	[ -s "$2" ] || return 0
	# shellcheck disable=SC2046
	kill -"$1" $(awk '{ print $2 }' "$2") 2>/dev/null
}

# hier_stop_tasks PIDS: stop the readers hier_start_tasks started, stopped
# (SIGSTOP) ones too.
hier_stop_tasks() {
	local name pid
	while read -r name pid; do
		kill "$pid" 2>/dev/null
	done <"$1"
	hier_signal_tasks CONT "$1"
	while read -r name pid; do
		wait "$pid" 2>/dev/null
	done <"$1"
}

# proc_stats: every process's /proc/PID/stat line ("PID (COMM) STATE
# PPID ..."), all read by one cat: a command per process would take
# seconds on the debug kernel, and cat goes on past a process that ended
# after the glob, where busybox awk, given the files, stops at it and
# prints nothing.  (A debug guest beside a busy host found none of 52's
# five running fio jobs in 30 s, 2026-12-07; that race is the likely
# cause.)
proc_stats() {
	cat /proc/[0-9]*/stat 2>/dev/null
}

# fio_job_pids SPEC PIDS: "NAME PID" per job of the one fio run going on
# (started with hier_fio), by spec order: fio forks its jobs in that order,
# so the Nth smallest pid of a fio process whose parent is fio is the Nth
# task.  Waits up to 30 s (by the clock, however slow the kernel) for all
# jobs to exist.
fio_job_pids() {
	local want deadline
	want=$(hier_spec_lines "$1" task | wc -l)
	deadline=$(($(date +%s) + 30))
	while :; do
		# "PID (COMM) STATE PPID ..."; fio's comm has no blank
		proc_stats | awk '$2 == "(fio)" { parent[$1] = $4 }
			END { for (p in parent) if (parent[p] in parent) print p }' |
			sort -n >"$2.pids"
		[ "$(wc -l <"$2.pids")" -ge "$want" ] && break
		[ "$(date +%s)" -lt "$deadline" ] || break
		sleep 0.1
	done
	hier_spec_lines "$1" task >"$2.tasks"
	awk -v pids="$2.pids" 'FILENAME == pids { pid[FNR] = $1; next }
		{ print $2, pid[FNR] }' "$2.pids" "$2.tasks" >"$2"
	rm -f "$2.pids" "$2.tasks"
	[ "$(wc -l <"$2")" -eq "$want" ] && ! grep -q ' $' "$2"
}

# json_entity_values JSON TYPE KEY: "ID VALUE" per entity of TYPE (task
# or group) of blkiotree show's or top's --json whose numeric KEY
# (weight, share, bytes_share, ...) has a value (top's null, no data, is
# left out); ID is a task's pid, a group's name (its path).  The
# entities are what follows "tree" (the devices before it have names
# too); an entity's keys come together, each once, in whatever order: a
# "type" or "name" seen twice starts the next entity.
json_entity_values() {
	grep -o "\"tree\":\|\"type\": *\"[a-z]*\"\|\"name\": *\"[^\"]*\"\|\"pid\": *[0-9]*\|\"$3\": *[0-9.]*" "$1" |
		awk -F': *' -v want="$2" -v key="\"$3\"" '
			function flush() {
				if (f["type"] == want && value != "")
					print (want == "task" ? pid : f["name"]), value
				delete f
				pid = value = ""
			}
			$1 == "\"tree\"" { in_tree = 1; next }
			!in_tree { next }
			$1 == "\"type\"" || $1 == "\"name\"" {
				k = $1
				gsub(/"/, "", k)
				if (k in f)
					flush()
				f[k] = $2
				gsub(/"/, "", f[k])
				next
			}
			$1 == "\"pid\"" { pid = $2; next }
			$1 == key { value = $2 }
			END { flush() }'
}

# json_task_values JSON KEY: "PID VALUE" per task (json_entity_values).
json_task_values() {
	json_entity_values "$1" task "$2"
}

# pid_list JOBS: the pids of JOBS ("NAME PID" lines) comma-separated, as
# blkiotree show --pid takes them.
pid_list() {
	awk '{ printf "%s%s", (NR > 1 ? "," : ""), $2 }' "$1"
}

# fio_wait_dump OUT SPEC K: wait (up to 60 s) until the hier_fio run
# writing OUT.terse, started with --status-interval=1, has printed its Kth
# status dump (one terse line per job, bytes counted since the start).
fio_wait_dump() {
	local jobs i
	jobs=$(hier_spec_lines "$2" task | wc -l)
	for i in $(seq 1 600); do
		[ "$(awk -F';' 'NF > 50' "$1.terse" 2>/dev/null | wc -l)" -ge $(($3 * jobs)) ] &&
			return 0
		sleep 0.1
	done
	return 1
}

# fio_window OUT SPEC FIRST LAST: "NAME BYTES" each job moved between
# status dumps FIRST and LAST (fio reads its counters at the same instant
# for all jobs, so the windows of all jobs line up).
fio_window() {
	local jobs
	jobs=$(hier_spec_lines "$2" task | wc -l)
	awk -F';' -v jobs="$jobs" -v first="$3" -v last="$4" '
		NF > 50 {
			dump = int(n++ / jobs) + 1
			if (dump == first)
				b[$3] = ($6 + $47) * 1024
			if (dump == last) {
				order[++k] = $3
				e[$3] = ($6 + $47) * 1024
			}
		}
		END { for (i = 1; i <= k; i++) printf "%s %d\n", order[i], e[order[i]] - b[order[i]] }' \
		"$1.terse"
}

# cfq_group_times DISK SPEC: "PATH MS" for the root and every group of
# SPEC: the disk time its own queues have used on DISK so far (blkio.time,
# milliseconds), which is what CFQ divides by weight in time mode.  A
# group that has not used the disk has no line.
cfq_group_times() {
	local majmin path
	majmin=$(cat "/sys/block/$1/dev")
	{ echo /; hier_spec_lines "$2" group | awk '{ print $2 }'; } | sort -u |
		while read -r path; do
			awk -v d="$majmin" -v p="$path" '$1 == d { print p, $2 }' \
				"$BLKIO${path%/}/blkio.time"
		done
}

# counter_window BEFORE AFTER: "KEY N" per line of AFTER, N less what
# BEFORE holds for KEY (nothing: 0).
counter_window() {
	awk 'FILENAME == ARGV[1] { b[$1] = $2; next } { print $1, $2 - b[$1] }' "$1" "$2"
}

# ---- CFQ's scheduling tree in debugfs (docs/debugfs-tree.md) ----------

# cfq_tree_file DISK
cfq_tree_file() {
	echo "/sys/kernel/debug/block/$1/sched/tree"
}

# cfq_tree_keys DISK PIDS: the disk's scheduling tree now, one line per
# entity holding its path of labels from the pivot as hier_model's tree
# mode prints it: "group:PATH" per group ("group:PATH (removed cgroup)"
# for one marked online=0), "queue:NAME" per sync queue of a task in PIDS
# ("queue:pid=N" for other pids, "queue:async" for pid 0).
# A line that breaks the format becomes "BAD LINE n: ...".
cfq_tree_keys() {
	awk -v pids="$2" 'FILENAME == pids { name[$2] = $1; next }
	{
		match($0, /^ */)
		depth = RLENGTH / 2
		kind = $1
		f["path"] = f["pid"] = f["online"] = ""
		for (i = 2; i <= NF; i++) {
			k = $i
			sub(/=.*/, "", k)
			v = substr($i, length(k) + 2)
			f[k] = v
		}
		if (RLENGTH % 2 || depth > last + 1 || (depth == 0) != (kind == "pivot") ||
		    (kind == "pivot" && FNR != 1) ||
		    (kind != "pivot" && kind != "group" && kind != "queue") ||
		    (kind == "group" && f["path"] == "") || (kind == "queue" && f["pid"] == "")) {
			print "BAD LINE " FNR ": " $0
			next
		}
		if (kind == "pivot")
			l = "pivot"
		else if (kind == "group")
			l = "group:" f["path"] (f["online"] == "0" ? " (removed cgroup)" : "")
		else if (f["pid"] == 0)
			l = "queue:async"
		else
			l = "queue:" ((f["pid"] in name) ? name[f["pid"]] : "pid=" f["pid"])
		lab[depth] = l
		key = lab[0]
		for (i = 1; i <= depth; i++)
			key = key " > " lab[i]
		print key
		last = depth
	}' "$2" "$(cfq_tree_file "$1")"
}

# cfq_tree_sample DISK PIDS WANT N OUT: the union of readings of the
# tree, 0.2 s apart, sorted, into OUT; one raw reading is kept in
# OUT.raw.  A busy queue leaves the tree while its task thinks between
# requests, and on a loaded host a task may not run for a second, so
# after five readings they go on until the readings are the sorted list
# WANT (tree_compare), or N readings.  What was seen and is not wanted
# stays in OUT.
cfq_tree_sample() {
	local i
	: >"$5.all"
	cat "$(cfq_tree_file "$1")" >"$5.raw" 2>&1
	for i in $(seq 1 "$4"); do
		cfq_tree_keys "$1" "$2" >>"$5.all" 2>&1
		sort -u "$5.all" >"$5"
		[ "$i" -ge 5 ] && tree_compare "$3" "$5" >/dev/null && break
		sleep 0.2
	done
	rm -f "$5.all"
}

# tree_compare WANT GOT: succeed when the two sorted key lists are the
# same; else print the differences as TAP diagnostics.
tree_compare() {
	awk -v want="$1" 'FILENAME == want { w[$0] = 1; next }
		{ g[$0] = 1 }
		END {
			for (k in w)
				if (!(k in g)) {
					print "#   missing:    " k
					bad = 1
				}
			for (k in g)
				if (!(k in w)) {
					print "#   unexpected: " k
					bad = 1
				}
			exit bad
		}' "$1" "$2"
}

# ---- data that must survive ---------------------------------------------

# fio_verify_loop OUT FIO-OPTION...: run fio (terse output) with these
# options back to back until the file OUT.stop exists; each run must
# verify what it wrote (the options ask for --verify).  Every failed run
# or job gets a line in OUT.fails; OUT.runs ends with the number of runs.
# Start it in the background; fio_verify_stop ends it.
fio_verify_loop() {
	local out=$1 n=0
	shift
	rm -f "$out.stop"
	: >"$out.fails"
	while [ ! -f "$out.stop" ]; do
		n=$((n + 1))
		fio --output-format=terse --minimal "$@" >"$out.terse" 2>"$out.err" ||
			echo "run $n: exit $?: $(head -c 300 "$out.err")" >>"$out.fails"
		awk -F';' -v n=$n '$5 != 0 { print "run " n ": job " $3 " error " $5 }' \
			"$out.terse" >>"$out.fails"
	done
	echo $n >"$out.runs"
}

# fio_verify_groups OUT DISK PREFIX: make the groups PREFIX-flat,
# PREFIX-h (use_hierarchy 1) and its child PREFIX-h/leaf, and start
# fio_verify_loop OUT in the background writing and verifying crc32c on
# /dev/DISK from the three (libaio random read-write at depth 4, psync
# random 8 KiB writes, psync sequential writes; 16 MiB each, from offset
# 0); FIO_VERIFY_PID gets its pid, for fio_verify_stop.  Remove the
# groups with fio_verify_groups_remove PREFIX.
fio_verify_groups() {
	local out=$1 disk=$2 prefix=$3
	mkdir "$BLKIO/$prefix-flat" "$BLKIO/$prefix-h"
	echo 1 >"$BLKIO/$prefix-h/blkio.use_hierarchy"
	mkdir "$BLKIO/$prefix-h/leaf"
	fio_verify_loop "$out" --filename="/dev/$disk" --direct=1 --size=16m \
		--cgroup_nodelete=1 --verify=crc32c --verify_fatal=1 \
		--name=flat --cgroup="$prefix-flat" --offset=0 --ioengine=libaio \
		--rw=randrw --bs=4k --iodepth=4 \
		--name=h --cgroup="$prefix-h" --offset=16m --ioengine=psync \
		--rw=randwrite --bs=8k \
		--name=leaf --cgroup="$prefix-h/leaf" --offset=32m --ioengine=psync \
		--rw=write --bs=4k &
	FIO_VERIFY_PID=$!
}

fio_verify_groups_remove() {
	rmdir "$BLKIO/$1-h/leaf" "$BLKIO/$1-h" "$BLKIO/$1-flat"
}

# fio_verify_stop OUT PID: stop the loop PID started as fio_verify_loop
# OUT and report, as one check, that every run verified.
fio_verify_stop() {
	touch "$1.stop"
	wait "$2"
	tap_diag "fio runs: $(cat "$1.runs" 2>/dev/null)"
	tap_none "fio verified every run without error" "$1.fails"
}

# ---- the kernel's blk tracer (ftrace) ----------------------------------

TRACING=/sys/kernel/debug/tracing

# cfq_notes_start DISK OUT: record the notes cfq leaves in the blk tracer
# for DISK (Documentation/block/cfq-iosched.rst, "Tracing") until
# cfq_notes_stop; OUT then holds them, one a line, from "cfq" on, and in
# their place what cfq_notes_mark wrote, as "mark TEXT".  The tracer's
# pipe is read as the notes come, so a long run loses none.
cfq_notes_start() {
	echo 0 >$TRACING/tracing_on
	echo blk >$TRACING/current_tracer
	: >$TRACING/trace
	echo 1 >"/sys/block/$1/trace/enable"
	echo notify >"/sys/block/$1/trace/act_mask"
	echo 1 >$TRACING/tracing_on
	cat $TRACING/trace_pipe >"$2.raw" &
	CFQ_NOTES_PIPE=$!
}

# cfq_notes_stop DISK OUT
cfq_notes_stop() {
	local size=-1
	echo 0 >$TRACING/tracing_on
	# the pipe's reader drains what is left, then waits for more
	while [ "$(wc -c <"$2.raw")" -ne "$size" ]; do
		size=$(wc -c <"$2.raw")
		sleep 0.5
	done
	kill $CFQ_NOTES_PIPE 2>/dev/null
	wait $CFQ_NOTES_PIPE 2>/dev/null
	echo 0 >"/sys/block/$1/trace/enable"
	echo nop >$TRACING/current_tracer
	sed -n -e 's/.* m   N cfq/cfq/p' -e 's/.*tracing_mark_write: /mark /p' "$2.raw" >"$2"
	rm -f "$2.raw"
}

# cfq_notes_mark TEXT: a line among the notes, where the kernel is now
cfq_notes_mark() {
	echo "$*" >$TRACING/trace_marker
}

# dmesg_splats: how many kernel log lines report a bug, by the patterns
# of qemu/verdict.sh (which fails the whole run on any of them).
dmesg_splats() {
	dmesg | grep -cE '(BUG:|WARNING:|kernel BUG at|Oops|Kernel panic|general protection fault|Unable to handle|UBSAN:|DEBUG_LOCKS_WARN_ON|INFO: task .* blocked for more than|INFO: rcu|rcu: INFO:|list_(add|del) corruption|kmemleak: .*new suspected memory leak)'
}

# Sync before writeback (47, 48): a reader (direct, sequential, one
# request at a time) beside a task dirtying the page cache of the same
# disk keeps at least 80 % of the bytes it reads beside an equal direct
# reader, under cfq, in runs of WRITEBACK_RUNTIME seconds.
WRITEBACK_RUNTIME=10
wb_out=/tmp/writeback

# writeback_reader_vs DEV OTHER...: one fio run of the reader beside one
# other job (fio options OTHER, on the disk's second half); prints the
# reader's bytes and its 99th-percentile completion latency in us.  With
# two CPUs or more the reader has the first to itself and the other job
# the rest: under TCG the guest's CPU, not its disk, is what runs short,
# and a reader that waits for a CPU the writer's page-cache copies hold
# measures the emulator, not the I/O scheduler (docs/STATUS.md, 48).
writeback_reader_vs() {
	local dev=$1 half reader_cpus= other_cpus=
	shift
	half=$(($(cat "/sys/block/${dev#/dev/}/size") * 512 / 2))
	if [ "$(nproc)" -ge 2 ]; then
		reader_cpus=--cpus_allowed=0
		other_cpus=--cpus_allowed=1-$(($(nproc) - 1))
	fi
	fio --output-format=terse --minimal --filename="$dev" --bs=4k \
		--time_based --ramp_time=2 --runtime=$WRITEBACK_RUNTIME --exitall \
		--name=reader --direct=1 --ioengine=psync --rw=read --offset=0 \
		--size=$half $reader_cpus \
		--name=other --offset=$half --size=$half $other_cpus "$@" \
		>$wb_out.terse 2>$wb_out.err || sed 's/^/# fio: /' $wb_out.err >&2
	awk -F';' '$3 == "reader" {
		p99 = "?"
		for (i = 18; i <= 37; i++)
			if ($i ~ /^99\.0+%=/) { p99 = $i; sub(/.*=/, "", p99) }
		printf "%d %s\n", ($6 + $47) * 1024, p99
	}' $wb_out.terse
}

# writeback_case NAME DEV: the reader against a direct reader, then
# against a buffered writer under cfq, bfq and mq-deadline; cfq is
# judged, the others' figures reported.
writeback_case() {
	local name=$1 dev=$2 disk ref wb s
	disk=${dev#/dev/}
	set_scheduler "$disk" cfq
	ref=$(writeback_reader_vs "$dev" --direct=1 --ioengine=psync --rw=read)
	tap_diag "$name, cfq: reader beside a direct reader: ${ref% *} bytes, p99 ${ref#* } us"
	for s in cfq bfq mq-deadline; do
		set_scheduler "$disk" $s
		echo "$s $(writeback_reader_vs "$dev" --direct=0 --ioengine=psync \
			--rw=write --bs=64k)" >$wb_out.$s
		tap_diag "$name, $s: reader beside a buffered writer:" \
			"$(awk '{ print $2 }' $wb_out.$s) bytes, p99 $(awk '{ print $3 }' $wb_out.$s) us"
	done
	set_scheduler "$disk" cfq
	wb=$(awk '{ print $2 }' $wb_out.cfq)
	tap_check_timing "$name: beside a buffered writer the reader keeps 80 % under cfq" \
		ratio_at_least "$wb" "${ref% *}" 0.8
}
