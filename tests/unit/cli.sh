#!/bin/sh
# The command line before any cgroup is touched: help, version, and bad
# input refused with one line on stderr and exit status 2.
set -u
n=0
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { "$BLKIOTREE" "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
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

expect "--help" 0 "" --help
grep -q '^Usage:' "$tmp/out" && echo "ok $((n += 1)) - --help prints usage" ||
	{ echo "not ok $((n += 1)) - --help prints usage"; fails=$((fails + 1)); }
expect "--version" 0 "" --version
grep -q '^blkiotree from hcfq ' "$tmp/out" && echo "ok $((n += 1)) - version line" ||
	{ echo "not ok $((n += 1)) - version line"; fails=$((fails + 1)); }
for cmd in create set show delete attach exec apply; do
	expect "$cmd --help" 0 "" "$cmd" --help
done
expect "no command" 2 "blkiotree: no command given" 
expect "unknown command" 2 "blkiotree: unknown command 'frob'" frob
expect "unknown option" 2 "blkiotree: invalid option" --frob
expect "unknown command option" 2 "blkiotree: show: invalid option" show --frob
expect "missing option argument" 2 "blkiotree: create: invalid option or missing argument for -w" create -w
expect "create without group" 2 "blkiotree: create: no group given" create
expect "create .." 2 "blkiotree: create: a/../b:" create a/../b
expect "set without =" 2 "blkiotree: set: weight: expected KEY=VALUE" set g weight
expect "set unknown key" 2 "blkiotree: set: wieght=5: unknown key" set g wieght=5
expect "set without value" 2 "blkiotree: set: need a group" set g
expect "show two groups" 2 "blkiotree: show: only one group" show a b
expect "show --device name" 2 "blkiotree: show: --device sda: expected MAJ:MIN" show --device sda
expect "show --pid junk" 2 "blkiotree: show: --pid 1,x" show --pid 1,x
expect "attach bad pid" 2 "blkiotree: attach: 12x: not a process ID" attach g 12x
expect "exec without command" 2 "blkiotree: exec: no command given" exec g --
expect "apply two files" 2 "blkiotree: apply: expected one FILE" apply a b
expect "apply missing file" 2 "blkiotree: apply $tmp/none: No such file" apply "$tmp/none"
printf '{ "groups": [ { "name": "a", "wieght": 5 } ] }' >"$tmp/typo.json"
expect "apply misspelt key" 2 "unknown key \"wieght\"" apply "$tmp/typo.json"
printf '{ "groups": [ ' >"$tmp/cut.json"
expect "apply truncated file" 2 "ends too early" apply "$tmp/cut.json"
printf '{ "weight": 500 }' | { "$BLKIOTREE" apply -n --frob - 2>"$tmp/err"; echo $? >"$tmp/rc"; }
[ "$(cat "$tmp/rc")" = 2 ] && echo "ok $((n += 1)) - apply option error before reading stdin" ||
	{ echo "not ok $((n += 1)) - apply option error before reading stdin"; fails=$((fails + 1)); }
echo "1..$n"
[ "$fails" -eq 0 ]
