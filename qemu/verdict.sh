#!/usr/bin/env bash
# Judge one guest run:  qemu/verdict.sh LABEL OUTDIR
# (LABEL names the run in the report: its flavor, and its clock when that
# is not the flavor's own, e.g. normal-host).
# Reads OUTDIR/results.log (framed TAP, see tests/tap-summary.awk),
# OUTDIR/dmesg.log, OUTDIR/console.log and OUTDIR/expected-tests (the
# tests the guest was given, one a line; qemu/run.sh writes it); prints
# one FAIL line per failure and last "totals PASSED FAILED SKIPPED";
# exits non-zero on any failure.  Besides the tests' own checks it adds
# three: the guest reached the end of its run, every expected test
# started, and the kernel log holds no splat.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
label=${1:?label} out=${2:?outdir}

# The first line of every report a kernel bug, a lock-order problem, a
# memory error, a leak, a hang or a stall prints (after the printk time).
# KASAN's reports start "BUG: KASAN:"; die()'s start with the trap's name
# ("divide error: 0000 [#1] ..."); the lockup detectors' lines carry
# their pr_fmt ("watchdog: ", "NMI watchdog: "); lockdep says "INFO:
# trying to register non-static key" with no BUG or WARNING before it.
splat='^\[ *[0-9]+\.[0-9]+\] (BUG:|WARNING:|kernel BUG at|Oops|Kernel panic|general protection fault|Unable to handle|UBSAN:|DEBUG_LOCKS_WARN_ON|INFO: task .* blocked for more than|INFO: rcu|rcu: INFO:|list_(add|del) corruption|kmemleak: .*new suspected memory leak|divide error:|stack segment:|double fault:|watchdog: BUG: soft lockup|NMI watchdog: Watchdog detected hard LOCKUP|INFO: trying to register non-static key)'

# KUnit suites built into the kernel ran at boot and printed KTAP to the
# kernel log: each suite becomes one framed test, its cases its checks.
# A suite in a module runs at each load (64 loads cfq 50 times): its
# first run counts, a later one only when a case of it failed.
sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$out/dmesg.log" | awk '
	function flush() {
		if (suite != "" && (runs[suite] == 1 || failed))
			printf "=== test kunit-%s%s\n%s=== exit 0\n", suite,
				(runs[suite] > 1 ? " (run " runs[suite] ")" : ""), lines
		suite = lines = ""
		failed = 0
	}
	/^    # Subtest: / { flush(); suite = $3; runs[suite]++; next }
	suite != "" && /^    1\.\.[0-9]+/ { sub(/^    /, ""); lines = lines $0 "\n"; next }
	suite != "" && /^    (not )?ok [0-9]+ / {
		sub(/^    /, "")
		lines = lines $0 "\n"
		if (/^not ok/)
			failed = 1
		next
	}
	suite != "" && /^(not )?ok [0-9]+ / { flush() }
	END { flush() }' >"$out/kunit.log"

cat "$out/results.log" "$out/kunit.log" |
	awk -v label="$label/" -f "$top/tests/tap-summary.awk" >"$out/summary"
read -r _ passed failed skipped < <(tail -n 1 "$out/summary")
# A test's failures, then how busy the host was with other work while it
# ran (qemu/run.sh's OUT/host-load.log, absent from older runs), since
# that moves timed figures.
host_load=$out/host-load.log
[ -f "$host_load" ] || host_load=/dev/null
awk -v label="$label/" '
	FILENAME != "-" { load[$1] = $2; next }
	/^totals / { next }
	{ print }
	/^FAIL / {
		name = substr($2, length(label) + 1)
		sub(/:$/, "", name)
		if (name in load && !(name in told)) {
			told[name] = 1
			printf "    # host: other processes kept %s %% of its CPUs busy during this test\n", load[name]
		}
	}' "$host_load" - <"$out/summary"

check() {
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $label/$2"
	fi
}

if grep -q '^=== end$' "$out/results.log"; then
	check ok
else
	check fail "guest: did not finish its run (see $out/console.log):"
	tail -n 15 "$out/console.log" | sed 's/^/    /'
fi

# A test the guest was given but never started (the guest died, or was
# stopped, before reaching it) has no TAP of its own to fail.
if [ ! -f "$out/expected-tests" ]; then
	check fail "guest: no list of the tests it was given ($out/expected-tests)"
else
	not_run=0
	while read -r name; do
		grep -qxF "=== test $name" "$out/results.log" && continue
		not_run=$((not_run + 1))
		check fail "$name: did not run"
	done <"$out/expected-tests"
	[ "$not_run" -gt 0 ] || check ok
fi

splats=$(cat "$out/dmesg.log" "$out/console.log" 2>/dev/null | grep -aE "$splat" | sort -u)
leaks=$(sed -n '/^=== kmemleak$/,/^=== dmesg$/p' "$out/results.log" | grep -c 'unreferenced object')
if [ -z "$splats" ] && [ "$leaks" -eq 0 ]; then
	check ok
else
	check fail "kernel log: $(echo "$splats" | grep -c .) splat line(s), $leaks kmemleak report(s):"
	[ -z "$splats" ] || echo "$splats" | head -n 20 | sed 's/^/    /'
fi

echo "totals $passed $failed $skipped"
[ "$failed" -eq 0 ]
