#!/usr/bin/env bash
# The share model the guest tests judge the kernel by (tests/guest/lib.sh,
# hier_model and hier_share_check) against DESIGN.md section 4's figures,
# worked out by hand here: at each level a busy entity gets weight / (sum
# of its busy siblings' weights) of its parent's share.  And the checks
# must fail where a measurement is off.  TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/guest/lib.sh
. "$top/tests/guest/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 9

# expect_shares DESC SPEC WANT: the model's "KIND NAME EXPECTED" lines.
expect_shares() {
	tap_is "$1" "$(hier_model "$2" shares | awk '{ printf "%s %s %s; ", $1, $2, $3 }')" "$3"
}

# The seed document's hierarchy, every task at the default prio (484),
# every group 500, the root 1000.
seed() {
	cat <<SPEC
group / 1000 $1
group /Grp1 500 $2
group /Grp2 500 $1
group /Grp1/Grp3 500 $2
task tsk1 / -
task tsk2 /Grp1 -
task tsk3 /Grp2 -
task tsk4 /Grp1/Grp3 -
SPEC
}

seed 0 0 >"$tmp/flat"
expect_shares "flat: Root 40 %, Grp1, Grp2 and Grp3 20 % each" "$tmp/flat" \
	"group / 40.00; group /Grp1 20.00; group /Grp2 20.00; group /Grp1/Grp3 20.00; task tsk1 40.00; task tsk2 20.00; task tsk3 20.00; task tsk4 20.00; "

# Root hierarchical: Grp1, Grp2 and tsk1 split the disk 500 : 500 : 484,
# so 33.69 %, 33.69 %, 32.61 %; Grp1 then Grp3 : tsk2 as 500 : 484 of
# its 33.69 %, so 17.12 % and 16.57 %.
seed 1 1 >"$tmp/root"
expect_shares "Root hierarchical: 500 : 500 : 484, then 500 : 484 in Grp1" "$tmp/root" \
	"group / 100.00; group /Grp1 33.69; group /Grp2 33.69; group /Grp1/Grp3 17.12; task tsk1 32.61; task tsk2 16.57; task tsk3 33.69; task tsk4 17.12; "

# bfq's shares (HIER_MODEL_SCHED=bfq, for the benchmarks): every group
# nested whatever use_hierarchy says, and ioprio 0-7 weighs 80-10.  At
# the root the be/0 reader (80) and /a (40) split 2 : 1; in /a the be/7
# reader (10) and /a/b (40) split its third 1 : 4.
cat >"$tmp/bfq" <<'SPEC'
group / 1000 0
group /a 40 0
group /a/b 40 0
task r / be/0
task x /a be/7
task y /a/b -
SPEC
HIER_MODEL_SCHED=bfq expect_shares "bfq: groups nested, ioprios weigh 80 to 10" "$tmp/bfq" \
	"group / 100.00; group /a 33.33; group /a/b 26.67; task r 66.67; task x 6.67; task y 26.67; "

# Classes within a group, as CFQ serves them: in /r an RT reader takes
# the group's half, the BE reader beside it nothing; in /h (hierarchical)
# the BE reader and the child group /h/c, which competes as BE, split
# 484 : 200 (35.38 and 14.62 %) and the IDLE reader gets nothing; /h/c's RT reader has all
# of /h/c.  The groups split the disk 500 : 500.
cat >"$tmp/classes" <<'SPEC'
group /r 500 0
group /h 500 1
group /h/c 200 1
task rt /r rt/4
task rb /r be/0
task hb /h -
task hi /h idle
task crt /h/c rt/7
SPEC
expect_shares "classes: RT before BE before IDLE within a group, a child group as BE" \
	"$tmp/classes" \
	"group /r 50.00; group /h 50.00; group /h/c 14.62; task rt 50.00; task rb 0.00; task hb 35.38; task hi 0.00; task crt 14.62; "

# Measured bytes: a group's share is that of the tasks below it; against
# equal bytes all but the root (100 %) are off.
printf 'tsk1 3261\ntsk2 1657\ntsk3 3369\ntsk4 1713\n' >"$tmp/bytes"
tap_check "bytes as the model says pass" hier_share_check "$tmp/root" "$tmp/bytes" 2
printf 'tsk1 2500\ntsk2 2500\ntsk3 2500\ntsk4 2500\n' >"$tmp/bytes"
if out=$(hier_share_check "$tmp/root" "$tmp/bytes" 2); then
	tap_fail "equal bytes against Root hierarchical fail"
else
	tap_is "equal bytes against Root hierarchical fail, flagging who is off" \
		"$(echo "$out" | grep -c 'off by more than 2')" 7
fi

# Measured disk times (--times): one line per group, its own queues'
# time; a group's share adds the groups scheduled below it, and tasks are
# not judged.
cat >"$tmp/xy" <<SPEC
group / 1000 0
group /X 500 1
group /X/Y 500 1
task t1 / -
task t2 /X -
task t3 /X/Y -
SPEC
printf '/ 667\n/X 164\n/X/Y 169\n' >"$tmp/times"
tap_is "disk times: groups alone, X's share holds X/Y's time" \
	"$(hier_share_check --times "$tmp/xy" "$tmp/times" 2 | awk '{ printf "%s %s %s; ", $3, $5, $8 }')" \
	"/ 66.70 66.67; /X 33.30 33.33; /X/Y 16.90 16.94; "
printf '/ 600\n/X 200\n/X/Y 200\n' >"$tmp/times"
if hier_share_check --times "$tmp/xy" "$tmp/times" 2 >/dev/null; then
	tap_fail "disk times of 60, 40 and 20 % against 66.67, 33.33 and 16.94 % fail"
else
	tap_ok "disk times of 60, 40 and 20 % against 66.67, 33.33 and 16.94 % fail"
fi
# A group that never used the disk has no line: it counts as none.
printf '/ 1000\n' >"$tmp/times"
if out=$(hier_share_check --times "$tmp/xy" "$tmp/times" 2); then
	tap_fail "a group with no time line measures 0 % and fails"
else
	tap_is "a group with no time line measures 0 % and fails" \
		"$(echo "$out" | awk '$3 == "/X/Y" { print $5 }')" "0.00"
fi
