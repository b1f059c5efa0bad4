#!/bin/sh
# The command line before any cgroup is touched: help, version, and bad
# input refused with one line on stderr and exit status 2.  The host may
# have a real blkio hierarchy mounted, so no command line here may reach
# it: each one is refused or answered before blkiotree opens the hierarchy,
# and the ones that test where options may go name the invalid group
# a/.. so that even a parser that took an option for a group would stop.
set -u
# options anywhere among the operands is GNU getopt's default order
unset POSIXLY_CORRECT
n=0
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# $run_as: empty, or a command that runs blkiotree as another user
run_as=
run() { $run_as "$BLKIOTREE" "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
expect() { # description, status, stderr-part, command...
	desc=$1 status=$2 part=$3; shift 3
	run "$@"
	rc=$(cat "$tmp/rc") lines=$(wc -l <"$tmp/err")
	n=$((n + 1))
	if [ -z "$part" ]; then
		[ "$lines" -eq 0 ]
	else
		[ "$lines" -eq 1 ] && grep -qF -- "$part" "$tmp/err"
	fi
	if [ $? -eq 0 ] && [ "$rc" = "$status" ]; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		echo "# status $rc (want $status), stderr:"; sed 's/^/#   /' "$tmp/err"
		fails=$((fails + 1))
	fi
}
expect_help() { # description, command words...
	desc=$1; shift
	expect "$desc" 0 "" "$@"
	grep -q "^ blkiotree $1 " "$tmp/out" &&
		echo "ok $((n += 1)) - $desc: $1's usage" ||
		{ echo "not ok $((n += 1)) - $desc: $1's usage"; fails=$((fails + 1)); }
}

expect "--help" 0 "" --help
grep -q '^Usage:' "$tmp/out" && echo "ok $((n += 1)) - --help prints usage" ||
	{ echo "not ok $((n += 1)) - --help prints usage"; fails=$((fails + 1)); }
expect "--version" 0 "" --version
grep -q '^blkiotree from hcfq ' "$tmp/out" && echo "ok $((n += 1)) - version line" ||
	{ echo "not ok $((n += 1)) - version line"; fails=$((fails + 1)); }
for cmd in create set get show top delete attach exec apply export; do
	expect "$cmd --help" 0 "" "$cmd" --help
done
expect "no command" 2 "blkiotree: no command given" 
expect "unknown command" 2 "blkiotree: unknown command 'frob'" frob
expect "unknown option" 2 "blkiotree: unrecognized option '--frob' (try 'blkiotree --help')" --frob
expect "unknown short option" 2 "blkiotree: invalid option -- 'x' (try 'blkiotree --help')" -x
expect "unknown command option" 2 "blkiotree: show: unrecognized option '--frob' (try 'blkiotree show --help')" show --frob
expect "missing option argument" 2 "blkiotree: create: option requires an argument -- 'w'" create -w
expect "missing long option argument" 2 "blkiotree: create: option '--weight' requires an argument" create --weight
expect "argument to a flag" 2 "blkiotree: delete: option '--recursive' doesn't allow an argument" delete --recursive=yes a/..
expect "ambiguous abbreviation" 2 "blkiotree: create: option '--h' is ambiguous; possibilities: '--hierarchy' '--help'" create --h a/..
expect "the bad option of a cluster" 2 "blkiotree: create: invalid option -- 'x'" create -xH g
expect "the bad option ending a cluster" 2 "blkiotree: create: invalid option -- 'x'" create -Hx g

# Options before, between and after the operands, as util-linux reads them.
expect "main options stop at the command" 2 "blkiotree: show: invalid option -- 'V'" show -V
expect "no main option after the command" 2 "blkiotree: unknown command 'frob'" frob --help
expect_help "create: options after a group" create a/.. -w 100 -H --help
expect "create: bad option after a group" 2 "blkiotree: create: invalid option -- 'x'" create a/.. -x
expect "create: missing argument after a group" 2 "blkiotree: create: option requires an argument -- 'w'" create g a/.. -w
expect "create: -- ends the options" 2 "blkiotree: create: a/..: " create -- a/.. -x
expect_help "set: options after the values" set a/.. weight=5 --help
expect "set: bad option after the values" 2 "blkiotree: set: invalid option -- 'x'" set a/.. weight=5 -x
expect_help "get: options after the keys" get a/.. weight --help
expect "get: bad option after the keys" 2 "blkiotree: get: invalid option -- 'x'" get a/.. weight -x
expect_help "show: options after the group" show a/.. -J -r -n -i -b -d 8:0 -p 1 --help
expect "show: --json after the group is no second group" 2 "blkiotree: show: a/..: " show a/.. --json
expect "show: option argument after the group" 2 "blkiotree: show: --device sda: expected MAJ:MIN" show a/.. -d sda
expect_help "show: output options after the group" show a/.. -o NAME,PARENT -l -P --output=+PARENT --help
expect "show: -o's columns after the group are no second group" 2 "blkiotree: show: a/..: " show a/.. -o NAME,SHARE -l
expect "show: --output=+COLUMNS after the group" 2 "blkiotree: show: a/..: " show a/.. --output=+PARENT -P
expect "show: an unknown column after the group" 2 "blkiotree: show: unknown column: foo (try 'blkiotree show --help')" show a/.. -o NAME,foo
expect_help "delete: options after the groups" delete a/.. -r --help
expect "delete: -r after a group is no group" 2 "blkiotree: delete: invalid option -- 'x'" delete a/.. -r -x
expect_help "attach: options after the pids" attach a/.. 1 --help
expect "attach: bad option after the pids" 2 "blkiotree: attach: unrecognized option '--pid'" attach a/.. 1 --pid
expect_help "attach: --thread after the tids" attach a/.. 1 --thread --help
expect "attach: -t after a tid is no tid" 2 "blkiotree: attach: invalid option -- 'x'" attach a/.. 1 -t -x
expect_help "apply: options after the file" apply a -n -v --prune --help
expect "apply: --prune takes no argument" 2 "blkiotree: apply: option '--prune' doesn't allow an argument" apply --prune=yes a
expect "apply: --prune has no short form" 2 "blkiotree: apply: invalid option -- 'P'" apply -P a
expect_help "exec: options before the group" exec -h a/.. true
expect "exec: bad option before the group" 2 "blkiotree: exec: invalid option -- 'x'" exec -x a/.. true
expect "exec: the command's options are its own" 2 "blkiotree: exec: a/..: " exec a/.. --help
expect "exec: -- before the command" 2 "blkiotree: exec: a/..: " exec a/.. -- -x
expect_help "exec: --ioprio before the group" exec --ioprio be:7 -h a/.. true
expect "exec: --ioprio is read before the group is" 2 "blkiotree: exec: a/..: " exec --ioprio rt:0 a/.. true
expect "exec: --ioprio after the group is the command's" 2 "blkiotree: exec: a/..: " exec a/.. --ioprio idle:9 true
expect "exec: --ioprio without value" 2 "blkiotree: exec: option '--ioprio' requires an argument" exec --ioprio
expect "exec: --ioprio unknown class" 2 "blkiotree: exec: --ioprio fast: CLASS is rt, be, idle or none (or 1, 2, 3, 0) (try 'blkiotree exec --help')" exec --ioprio fast a/.. true
expect "exec: --ioprio level out of range" 2 "blkiotree: exec: --ioprio be:8: LEVEL is 0-7" exec --ioprio be:8 a/.. true
expect "exec: --ioprio=idle:LEVEL" 2 "blkiotree: exec: --ioprio idle:3: a LEVEL is only for rt and be" exec --ioprio=idle:3 a/.. true
expect "create without group" 2 "blkiotree: create: no group given" create
expect "create .." 2 "blkiotree: create: a/../b:" create a/../b
expect "set without =" 2 "blkiotree: set: weight: expected KEY=VALUE" set g weight
expect "set unknown key" 2 "blkiotree: set: wieght=5: unknown key (weight, use_hierarchy, weight_device)" set g wieght=5
expect "set without value" 2 "blkiotree: set: need a group" set g
expect "get unknown key" 2 "blkiotree: get: wieght: unknown key (weight, use_hierarchy, weight_device) (try 'blkiotree get --help')" get g weight wieght
[ ! -s "$tmp/out" ] && echo "ok $((n += 1)) - get unknown key prints no value" ||
	{ echo "not ok $((n += 1)) - get unknown key prints no value"; fails=$((fails + 1)); }
expect "get KEY=VALUE is no key" 2 "blkiotree: get: weight=5: unknown key" get g weight=5
expect "get without key" 2 "blkiotree: get: need a group and at least one KEY" get g
expect "get .." 2 "blkiotree: get: a/..: " get a/.. weight
expect "export two groups" 2 "blkiotree: export: only one group can be exported" export a b
expect "export .." 2 "blkiotree: export: a/..: " export a/..
expect_help "export: options after the group" export a/.. --help
expect "export: bad option after the group" 2 "blkiotree: export: invalid option -- 'x'" export a/.. -x
expect "show two groups" 2 "blkiotree: show: only one group" show a b
expect "show --device name" 2 "blkiotree: show: --device sda: expected MAJ:MIN" show --device sda
expect "show --pid junk" 2 "blkiotree: show: --pid 1,x" show --pid 1,x
expect "show: unknown column" 2 "blkiotree: show: unknown column: foo (try 'blkiotree show --help')" show -o foo
[ ! -s "$tmp/out" ] && echo "ok $((n += 1)) - show: an unknown column prints no tree" ||
	{ echo "not ok $((n += 1)) - show: an unknown column prints no tree"; fails=$((fails + 1)); }
expect "show: top's column" 2 "blkiotree: show: unknown column: TIME" show -o NAME,TIME
expect "show: unknown column after +" 2 "blkiotree: show: unknown column: foo" show --output=+foo
expect "show: empty column list" 2 "blkiotree: show: --output: no column given" show -o ''
expect "show: + alone" 2 "blkiotree: show: --output: no column given" show -o +
expect "show: empty column name" 2 "blkiotree: show: --output NAME,,SHARE: empty column name" show -o NAME,,SHARE
expect "show: duplicate column" 2 "blkiotree: show: duplicate column: NAME" show -o NAME,name
expect "show: + a default column" 2 "blkiotree: show: duplicate column: SHARE (the default set has it)" show -o +SHARE
expect "show -o without value" 2 "blkiotree: show: option requires an argument -- 'o'" show -o
expect "show: --json with --pairs" 2 "blkiotree: show: mutually exclusive arguments: --json --pairs --raw" show --json -P
expect "show: --pairs with --raw" 2 "blkiotree: show: mutually exclusive arguments: --json --pairs --raw" show a/.. -r -P
expect "show: --json with --list" 2 "blkiotree: show: mutually exclusive arguments: --json --list" show -l -J
expect_help "top: options after the group" top a/.. -d 8:0 -i 0.5 -n 3 -b -J -r --help
expect "top: --json after the group is no second group" 2 "blkiotree: top: a/..: " top a/.. --json
expect "top two groups" 2 "blkiotree: top: only one group" top a b
expect "top: control file name" 2 "blkiotree: top: a/cgroup.procs: component" top a/cgroup.procs
expect "top --device name" 2 "blkiotree: top: --device sda: expected MAJ:MIN" top --device sda
expect "top --interval 0" 2 "blkiotree: top: --interval 0: expected SECONDS greater than 0, up to 86400, with at most 3 decimals (try 'blkiotree top --help')" top --interval 0
expect "top -i abc" 2 "blkiotree: top: --interval abc: expected SECONDS" top -i abc
expect "top -i -1" 2 "blkiotree: top: --interval -1: expected SECONDS" top -i -1
expect "top --interval=0.0001" 2 "blkiotree: top: --interval 0.0001: expected SECONDS" top --interval=0.0001
expect "top: bad interval after the group" 2 "blkiotree: top: --interval 0: expected SECONDS" top a/.. -i 0
expect "top -i without value" 2 "blkiotree: top: option requires an argument -- 'i'" top -i
expect "top --iterations 0" 2 "blkiotree: top: --iterations 0: expected a COUNT of 1 or more (try 'blkiotree top --help')" top --iterations 0
expect "top -n abc" 2 "blkiotree: top: --iterations abc: expected a COUNT" top -n abc
expect "top -n -1" 2 "blkiotree: top: --iterations -1: expected a COUNT" top -n -1
expect "top: --batch takes no argument" 2 "blkiotree: top: option '--batch' doesn't allow an argument" top --batch=yes
expect "attach bad pid" 2 "blkiotree: attach: 12x: not a process ID" attach g 12x
expect "attach --thread bad tid" 2 "blkiotree: attach: 12x: not a thread ID" attach g 12x --thread
expect "attach --thread without tid" 2 "blkiotree: attach: need a group and at least one TID" attach -t g
expect "exec without command" 2 "blkiotree: exec: no command given" exec g --
expect "apply two files" 2 "blkiotree: apply: expected one FILE" apply a b
expect "apply missing file" 2 "blkiotree: apply $tmp/none: No such file" apply "$tmp/none"
printf '{ "groups": [ { "name": "a", "wieght": 5 } ] }' >"$tmp/typo.json"
expect "apply misspelt key" 2 "unknown key \"wieght\"" apply "$tmp/typo.json"
expect "apply: -n after the file" 2 "unknown key \"wieght\"" apply "$tmp/typo.json" -n -v
expect "apply --prune reads the file first" 2 "unknown key \"wieght\"" apply "$tmp/typo.json" --prune -n
printf '{ "groups": [ ' >"$tmp/cut.json"
expect "apply truncated file" 2 "ends too early" apply "$tmp/cut.json"

# Group names are checked by one rule set before anything is opened, so
# every name below is refused with status 2 and never reaches the host.
nl='
'
expect "create: newline in a name, escaped" 2 "blkiotree: create: a/b\\nc: component \"b\\nc\" has a control character (try" create "a/b${nl}c"
expect "create: tab in a name, escaped" 2 "component \"a\\tb\" has a control character" create "$(printf 'a\tb')"
expect "create: \\x01 in a name, escaped" 2 "component \"\\x01\" has a control character" create "$(printf 'g/\001')"
expect "create: empty component" 2 "blkiotree: create: a//b: empty component" create a//b
expect "create: empty name" 2 "blkiotree: create: : empty component" create ""
expect "create: . component" 2 "component \".\": \".\" and \"..\" are not group names" create ./a
expect "create: component longer than NAME_MAX" 2 "is longer than NAME_MAX (255 bytes)" create "a/$(printf '%0256d' 0)"
expect "create: blkio.* control file" 2 "blkiotree: create: a/blkio.weight: component \"blkio.weight\" is the name of a cgroup control file" create a/blkio.weight
expect "create: cgroup.* control file" 2 "component \"cgroup.procs\" is the name of a cgroup control file" create cgroup.procs/x
expect "create: tasks" 2 "component \"tasks\" is the name of a cgroup control file" create g tasks
expect "create: notify_on_release" 2 "component \"notify_on_release\" is the name" create notify_on_release
expect "create: release_agent" 2 "component \"release_agent\" is the name" create release_agent
expect "set: control file name" 2 "blkiotree: set: tasks: component \"tasks\" is the name" set tasks weight=500
expect "get: control file name" 2 "blkiotree: get: blkio.weight: component" get blkio.weight weight
expect "show: control file name" 2 "blkiotree: show: a/cgroup.procs: component" show a/cgroup.procs
expect "delete: a bad name after a good one" 2 "blkiotree: delete: release_agent: component" delete g release_agent
expect "attach: control file name" 2 "blkiotree: attach: tasks: component" attach tasks 1
expect "exec: control file name" 2 "blkiotree: exec: tasks: component" exec tasks true
expect "export: newline in a name" 2 "blkiotree: export: a\\n: component \"a\\n\" has a control" export "a${nl}"
printf '{ "groups": [ { "name": "tasks" } ] }' >"$tmp/tasks.json"
expect "apply: control file name" 2 "groups[0]: \"name\": component \"tasks\" is the name of a cgroup control file" apply "$tmp/tasks.json"
printf '{ "weight": 500, "weight": 100 }' >"$tmp/twice.json"
expect "apply: a key twice" 2 "line 1, column 18: key \"weight\" appears twice in one object" apply "$tmp/twice.json"
{ printf '{}'; head -c 1048575 /dev/zero | tr '\0' ' '; } >"$tmp/big.json"
expect "apply: larger than 1 MiB" 2 "blkiotree: apply $tmp/big.json: the description is larger than 1 MiB" apply "$tmp/big.json"
# Without the privilege the rt class takes, exec is refused in words
# before it opens the hierarchy; root checks it as nobody.
[ "$(id -u)" -eq 0 ] && run_as="setpriv --reuid=65534 --regid=65534 --clear-groups"
if $run_as test -x "$BLKIOTREE" 2>/dev/null; then
	expect "exec --ioprio rt without the privilege: EPERM in words" 3 "blkiotree: exec: cannot set the I/O priority rt:0: permission denied; only root (CAP_SYS_ADMIN or CAP_SYS_NICE) may use the rt class (EPERM)" exec --ioprio rt:0 g true
else
	echo "ok $((n += 1)) # SKIP exec --ioprio rt without the privilege: no user to run $BLKIOTREE as"
fi
run_as=
printf '{ "weight": 500 }' | { "$BLKIOTREE" apply -n --frob - 2>"$tmp/err"; echo $? >"$tmp/rc"; }
[ "$(cat "$tmp/rc")" = 2 ] && echo "ok $((n += 1)) - apply option error before reading stdin" ||
	{ echo "not ok $((n += 1)) - apply option error before reading stdin"; fails=$((fails + 1)); }
echo "1..$n"
[ "$fails" -eq 0 ]
