# blkiotree on the real blkio hierarchy: every command, every refusal with
# its message and exit status, and proof that a refused command changed
# nothing.  Three kernels are told apart: no cfq policy (no blkio.weight),
# cfq with flat groups only (blkio.weight, no blkio.use_hierarchy) and
# hierarchical cfq.  Where a kernel lacks a file, blkiotree must refuse
# what needs it (exit 4, naming the file) and do everything else.
. "$LAB_GUEST_LIB"
tap_plan 60

T=bt50			# every group of this test lives below /bt50
OUT=/tmp/bt50.out ERR=/tmp/bt50.err
# cfq may be a module: its policy files appear once it is loaded
modprobe cfq 2>/dev/null
CFQ= HIER=
[ -f "$BLKIO/blkio.weight" ] && CFQ=1
[ -n "$CFQ" ] && [ -f "$BLKIO/blkio.use_hierarchy" ] && HIER=1
tap_diag "blkio.weight: ${CFQ:-absent}, blkio.use_hierarchy: ${HIER:-absent}"

bt() { blkiotree "$@" >"$OUT" 2>"$ERR"; RC=$?; }

# The groups below /bt50 with their policy values and tasks: what a
# refused command must leave as it was.  Three processes, whatever the
# tree's size: a process start costs a tenth of a second on the debug
# kernel, and this runs twice per refusal.
state() {
	(cd "$BLKIO" && find "$T" -type d -print -o \( -name tasks -o \
		-name blkio.weight -o -name blkio.use_hierarchy -o \
		-name blkio.weight_device \) -exec grep -H '' {} + 2>/dev/null | sort)
}

# refused DESC STATUS TEXT CMD...: exit STATUS, one line on stderr
# holding TEXT, and the groups below /bt50 unchanged.
refused() {
	local desc=$1 want=$2 text=$3 before after
	shift 3
	before=$(state)
	bt "$@"
	after=$(state)
	if [ "$RC" = "$want" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	   grep -qF -- "$text" "$ERR" && [ "$before" = "$after" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		tap_diag "status $RC (want $want); stderr: $(cat "$ERR")"
		[ "$before" = "$after" ] || tap_diag "state changed: $before -> $after"
	fi
}

# works DESC CMD...: exit 0 and nothing on stderr
works() {
	local desc=$1
	shift
	bt "$@"
	if [ "$RC" = 0 ] && [ ! -s "$ERR" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		tap_diag "status $RC; stderr: $(cat "$ERR")"
	fi
}

# cfq_only DESC: print a skip and return 1 when blkio.weight is absent
cfq_only() {
	[ -n "$CFQ" ] && return 0
	tap_skip "$1" "cfq policy files absent (no blkio.weight)"
	return 1
}

# hier_only DESC: likewise for blkio.use_hierarchy
hier_only() {
	[ -n "$HIER" ] && return 0
	tap_skip "$1" "no blkio.use_hierarchy (cfq without hierarchical mode)"
	return 1
}

nullb_create bt50null size=64 blocksize=4096 irqmode=0 >/dev/null 2>&1
DEV=$(cat /sys/block/bt50null/dev 2>/dev/null)
tap_diag "device bt50null is ${DEV:-missing}, scheduler: $(cat /sys/block/bt50null/queue/scheduler 2>/dev/null)"

# --- help, version, man pages
works "blkiotree --version" --version
# man(1) here is mandoc's, which makes headings bold by overstriking, so
# look for the plain title line; show what it said when it is missing
man_renders() { # page, its title
	local out
	out=$(man "$1" 2>&1)
	echo "$out" | grep -q "$2" && return 0
	echo "man is $(command -v man); it printed:"
	echo "$out" | head -n 5
	return 1
}
tap_check "man blkiotree renders in the guest" man_renders blkiotree "^BLKIOTREE(8) "
tap_check "man blkiotree-apply renders in the guest" man_renders blkiotree-apply "^BLKIOTREE-APPLY(8) "

# --- create
works "create $T/a $T/b/c (with parents)" create $T/a $T/b/c
tap_check "the groups exist" test -d "$BLKIO/$T/a" -a -d "$BLKIO/$T/b/c"
refused "create an existing group: EEXIST" 3 "create /$T/a: group already exists (EEXIST)" create $T/a
refused "create a/.. is a usage error" 2 "blkiotree: create: $T/..:" create $T/..
if [ -n "$CFQ" ]; then
	refused "create --weight 5: ERANGE, nothing created" 3 "weight 5 is out of range 10-1000 (ERANGE)" \
		create --weight 5 $T/w
else
	refused "create --weight without cfq files: exit 4, nothing created" 4 "no cfq policy files" \
		create --weight 500 $T/w
fi
tap_check "the refused group was not created" test ! -d "$BLKIO/$T/w"

# --- set
if [ -n "$CFQ" ]; then
	works "set weight=800" set $T/a weight=800
	tap_is "blkio.weight now 800" "$(cat "$BLKIO/$T/a/blkio.weight")" 800
else
	refused "set without cfq files: exit 4" 4 "no cfq policy files (blkio.weight) in $BLKIO" \
		set $T/a weight=500
	tap_skip "blkio.weight now 800" "cfq policy files absent"
fi
cfq_only "set weight=5: ERANGE" &&
	refused "set weight=5: ERANGE" 3 "set /$T/a weight=5: weight 5 is out of range 10-1000 (ERANGE)" set $T/a weight=5
cfq_only "set weight=1001: ERANGE" &&
	refused "set weight=1001: ERANGE" 3 "(ERANGE)" set $T/a weight=1001
cfq_only "set weight=abc: EINVAL" &&
	refused "set weight=abc: EINVAL" 3 "weight \"abc\" is not a number (EINVAL)" set $T/a weight=abc
cfq_only "set use_hierarchy=2: EINVAL" &&
	refused "set use_hierarchy=2: EINVAL" 3 "use_hierarchy must be 0 or 1 (EINVAL)" set $T/a use_hierarchy=2
hier_only "set use_hierarchy with a child: EBUSY naming it" &&
	refused "set use_hierarchy with a child: EBUSY naming it" 3 "it has /$T/b/c (EBUSY)" set $T/b use_hierarchy=1
if [ -n "$HIER" ]; then
	refused "weight and a bad use_hierarchy: nothing half-applied" 3 "(EBUSY)" \
		set $T/b weight=300 use_hierarchy=1
elif cfq_only "weight and use_hierarchy=1 without hierarchical mode: exit 4, nothing half-applied"; then
	refused "weight and use_hierarchy=1 without hierarchical mode: exit 4, nothing half-applied" 4 \
		"no blkio.use_hierarchy in $BLKIO" set $T/b weight=300 use_hierarchy=1
fi
cfq_only "weight_device of a missing device: ENODEV" &&
	refused "weight_device of a missing device: ENODEV" 3 "no block device 250:250 (ENODEV)" \
		set $T/a weight_device=250:250:300
# the kernel has no cfq group on a disk another scheduler runs (EOPNOTSUPP)
set_scheduler bt50null none 2>/dev/null
if cfq_only "weight_device on bt50null under none: exit 4 naming the scheduler"; then
	if [ -n "$DEV" ]; then
		refused "weight_device on bt50null under none: exit 4 naming the scheduler" 4 \
			"bt50null ($DEV) is scheduled by none, not cfq" set $T/a weight_device=$DEV:300
	else
		tap_skip "weight_device on bt50null under none: exit 4 naming the scheduler" "no null_blk device"
	fi
fi
set_scheduler bt50null cfq 2>/dev/null
if cfq_only "weight_device on bt50null under cfq"; then
	if [ -n "$DEV" ] && grep -q '\[cfq\]' /sys/block/bt50null/queue/scheduler; then
		works "weight_device on bt50null under cfq" set $T/a weight_device=$DEV:300
		tap_is "blkio.weight_device has it" "$(cat "$BLKIO/$T/a/blkio.weight_device")" "$DEV 300"
	else
		tap_skip "weight_device on bt50null under cfq" "no null_blk device under cfq"
		tap_skip "blkio.weight_device has it" "no null_blk device under cfq"
	fi
else
	tap_skip "blkio.weight_device has it" "cfq policy files absent (no blkio.weight)"
fi
if [ -n "$HIER" ]; then
	blkiotree create --hierarchy $T/h && blkiotree create $T/h/k
	tap_is "create --hierarchy, then a child inherits use_hierarchy=1" \
		"$(cat "$BLKIO/$T/h/blkio.use_hierarchy") $(cat "$BLKIO/$T/h/k/blkio.use_hierarchy")" "1 1"
elif cfq_only "create --hierarchy without hierarchical mode: exit 4, nothing created"; then
	refused "create --hierarchy without hierarchical mode: exit 4, nothing created" 4 \
		"no blkio.use_hierarchy in $BLKIO" create --hierarchy $T/h
fi
hier_only "use_hierarchy=0 under a hierarchical parent: EINVAL naming it" &&
	refused "use_hierarchy=0 under a hierarchical parent: EINVAL naming it" 3 "parent /$T/h has use_hierarchy=1" \
		set $T/h/k use_hierarchy=0
refused "set on a missing group: ENOENT" 3 "set /$T/nope weight=500: no such group (ENOENT)" set $T/nope weight=500
refused "set with an unknown key: usage" 2 "unknown key" set $T/a wieght=500

# --- attach and exec
sleep 600 &
P1=$!
works "attach a process" attach $T/a $P1
tap_check "the process is in /$T/a" grep -qx "$P1" "$BLKIO/$T/a/tasks"
refused "attach to a missing group: ENOENT" 3 "no such group (ENOENT)" attach $T/nope $P1
refused "attach a missing process: ESRCH" 3 "no such process 999999 (ESRCH)" attach $T/b 999999
refused "attach a good and a missing process: nothing moved" 3 "(ESRCH)" attach $T/b $P1 999999
# a process of several threads (fio's job threads) moves whole, whichever
# of its thread IDs is given
fio --name=bt50threads --thread --numjobs=2 --ioengine=null --size=1g \
	--time_based --runtime=120 >/dev/null 2>&1 &
P2=$!
for i in $(seq 1 50); do
	[ "$(ls /proc/$P2/task 2>/dev/null | wc -l)" -ge 3 ] && break
	sleep 0.1
done
THREADS=$(ls /proc/$P2/task 2>/dev/null | sort -n | tr '\n' ' ')
LAST=$(ls /proc/$P2/task 2>/dev/null | sort -n | tail -n 1)
tap_diag "fio $P2 has threads $THREADS"
# moved_all STATUS GROUP TID...: attach exited 0 and every thread, at
# least three, is in GROUP's tasks file
moved_all() {
	local g=$2 t
	[ "$1" = 0 ] || { echo "attach exited $1: $(cat "$ERR")"; return 1; }
	shift 2
	[ $# -ge 3 ] || { echo "only $# threads: $*"; return 1; }
	for t in "$@"; do
		grep -qx "$t" "$BLKIO/$g/tasks" || { echo "thread $t is not in /$g"; return 1; }
	done
}
bt attach $T/b "$P2"
# shellcheck disable=SC2086
tap_check "attach a process moves all its threads" moved_all "$RC" $T/b $THREADS
bt attach $T/b/c "$LAST"
# shellcheck disable=SC2086
tap_check "attach by a non-leader thread ID moves the whole process" moved_all "$RC" $T/b/c $THREADS
kill "$P2" 2>/dev/null
wait "$P2" 2>/dev/null

bt exec $T/b/c -- cat /proc/self/cgroup
tap_is "exec runs the command in the group" "$(grep blkio "$OUT" | cut -d: -f3)" "/$T/b/c"
bt exec $T/b/c -- /no/such/command
tap_is "exec of a missing command: 127" "$RC $(wc -l <"$ERR")" "127 1"
refused "exec in a missing group: ENOENT" 3 "no such group" exec $T/nope -- true

# --- show
bt show -i
tap_is "show exits 0" "$RC" 0
tap_check "show lists /$T/b/c" grep -q -- "/$T/b/c " "$OUT"
tap_check "show lists the attached process under /$T/a" \
	sh -c "grep -A1 -- '-/$T/a ' '$OUT' | grep -q ' task *$P1 '"
if [ -n "$DEV" ]; then
	tap_check "show prints bt50null's scheduler" grep -q "^bt50null  *$DEV  *[a-z-]" "$OUT"
	if [ -z "$CFQ" ] || ! grep -q '\[cfq\]' /sys/block/bt50null/queue/scheduler; then
		tap_check "show warns, naming bt50null" grep -q "blkiotree: warning: bt50null: weights have no effect" "$ERR"
	else
		tap_check "show does not warn for bt50null under cfq" sh -c "! grep -q bt50null '$ERR'"
	fi
	bt show --device "$DEV" -n -r $T
	tap_is "show --device $DEV $T: one device, the groups below /$T" \
		"$(grep -cE '^[a-z0-9]+ [0-9]+:[0-9]+ ' "$OUT") $(grep -c "^/$T" "$OUT")" \
		"1 $(find "$BLKIO/$T" -type d | wc -l | tr -d ' ')"
else
	for i in 1 2 3; do tap_skip "show and bt50null" "no null_blk device"; done
fi
refused "show a missing group: ENOENT" 3 "show /$T/nope: no such group (ENOENT)" show $T/nope
refused "show a missing device: ENODEV" 3 "no block device 250:250 (ENODEV)" show --device 250:250

# --- delete
refused "delete a group with children: EBUSY naming them" 3 "group has child groups (/$T/b/c); use -r" delete $T/b
refused "delete a missing group: ENOENT" 3 "no such group (ENOENT)" delete $T/nope
refused "delete the root group: EPERM" 3 "the root group cannot be deleted (EPERM)" delete /
works "delete a group with a task" delete $T/a
tap_check "its task moved to the parent" grep -qx "$P1" "$BLKIO/$T/tasks"
works "delete -r" delete -r $T/b
tap_check "the subtree is gone" test ! -d "$BLKIO/$T/b"
kill $P1

# --- apply
cat >/tmp/bt50-groups.json <<JSON
{ "groups": [ { "name": "$T", "groups": [
	{ "name": "x", "groups": [ { "name": "y" } ] }, { "name": "z" } ] } ] }
JSON
works "apply creates the described groups" apply /tmp/bt50-groups.json
tap_check "they exist" test -d "$BLKIO/$T/x/y" -a -d "$BLKIO/$T/z"
bt apply --dry-run /tmp/bt50-groups.json
tap_is "apply a second time has nothing to do" "$RC:$(cat "$OUT")" "0:"
printf '{ "groups": [ { "name": "%s", "groups": [ { "name": "new" }, { "name": "bad", "wieght": 5 } ] } ] }' $T \
	>/tmp/bt50-bad.json
refused "apply of a malformed spec: exit 2, nothing created" 2 "unknown key \"wieght\"" apply /tmp/bt50-bad.json
printf '{ "groups": [ { "name": "%s", "groups": [ { "name": "new" }, { "name": "x", "use_hierarchy": 1 } ] } ] }' $T \
	>/tmp/bt50-busy.json
if [ -n "$HIER" ]; then
	refused "apply needing use_hierarchy on a parent: EBUSY, nothing created" 3 "it has /$T/x/y (EBUSY)" \
		apply /tmp/bt50-busy.json
elif [ -n "$CFQ" ]; then
	refused "apply of use_hierarchy without hierarchical mode: exit 4, nothing created" 4 \
		"no blkio.use_hierarchy in $BLKIO" apply /tmp/bt50-busy.json
else
	printf '{ "groups": [ { "name": "%s", "groups": [ { "name": "new" }, { "name": "x", "weight": 300 } ] } ] }' $T \
		>/tmp/bt50-busy.json
	refused "apply with values and no cfq files: exit 4, nothing created" 4 "no cfq policy files" \
		apply /tmp/bt50-busy.json
fi

# 100 groups: 10 parents with 9 children each (with weights when cfq is
# here, hierarchical parents when it has use_hierarchy)
{
	printf '{ "groups": [ { "name": "%s100", "groups": [' $T
	for i in 0 1 2 3 4 5 6 7 8 9; do
		[ $i = 0 ] || printf ','
		printf '{ "name": "p%s"%s%s, "groups": [' $i "${HIER:+, \"use_hierarchy\": 1}" "${CFQ:+, \"weight\": 200}"
		for j in 1 2 3 4 5 6 7 8 9; do
			[ $j = 1 ] || printf ','
			printf '{ "name": "c%s"%s }' $j "${CFQ:+, \"weight\": $((100 * j))}"
		done
		printf '] }'
	done
	printf '] } ] }\n'
} >/tmp/bt50-100.json
t0=$(cut -d' ' -f1 /proc/uptime)
bt apply /tmp/bt50-100.json
t1=$(cut -d' ' -f1 /proc/uptime)
tap_is "apply of a 100-group tree" "$RC:$(find "$BLKIO/${T}100" -type d | wc -l | tr -d ' ')" "0:101"
tap_diag "apply of 100 groups took $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s (uptime clock, 10 ms)"
bt apply --dry-run /tmp/bt50-100.json
tap_is "the 100-group apply a second time has nothing to do" "$RC:$(cat "$OUT")" "0:"
works "delete -r the 100 groups" delete -r ${T}100

# --- no blkio hierarchy
blkiotree delete -r $T
umount "$BLKIO"
refused "no blkio hierarchy mounted: exit 4" 4 "no blkio cgroup hierarchy is mounted" show
mount -t cgroup -o blkio blkio "$BLKIO"
tap_check "blkio mounted again" grep -q " $BLKIO cgroup " /proc/mounts

nullb_remove bt50null
