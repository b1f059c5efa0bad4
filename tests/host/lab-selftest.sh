#!/usr/bin/env bash
# The lab catches what it must catch: a patch that does not apply; a
# guest test that says "not ok", prints no plan, plans no checks, runs
# fewer checks than it planned, exits non-zero or hangs; a guest that
# dies before every test ran; a kernel splat of each kind in the guest's
# log and a kmemleak report; and a benchmark knob that is not a number.
# Each check runs the lab's own scripts on deliberately broken input and
# expects them to fail, naming the cause; and what must pass (a
# whole-test skip, a user program's trap in the log) passes.  TAP, the
# plan last: the number of checks follows the splat list of
# tests/lab-selftest/splat.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/qemu/lab.conf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# result ok|fail DESC [LOG]: the next TAP line; a failure shows LOG.
result() {
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || sed 's/^/#   /' "$3"
	fi
}

# A broken patch appended to the real series.
mkdir "$tmp/series"
cp "$top"/kernel-patches/series "$top"/kernel-patches/*.patch "$tmp/series/"
cat >"$tmp/series/9999-selftest-broken.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Lab Selftest <lab@localhost>
Subject: [PATCH] selftest: a patch whose context is not in the tree

---
 Makefile | 1 +
 1 file changed, 1 insertion(+)

diff --git a/Makefile b/Makefile
--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,4 @@
 this line is not in the kernel's Makefile
+neither is this one
 nor this one
 and not this one
PATCH
echo "9999-selftest-broken.patch" >>"$tmp/series/series"
if "$top/qemu/kernel.sh" apply "$tmp/series" >"$tmp/apply.log" 2>&1; then
	result fail "a patch that does not apply stops the build"
elif grep -q "9999-selftest-broken.patch.*does not apply" "$tmp/apply.log"; then
	result ok "a patch that does not apply stops the build, naming it"
else
	result fail "a patch that does not apply stops the build, naming it" "$tmp/apply.log"
fi
# Leave the tree as the real series wants it.
"$top/qemu/kernel.sh" apply >/dev/null 2>&1

# Runs of the lab's scripts that must fail.  The guest runs boot the
# first flavor's kernel with each test stopped after 10 s (none needs
# more but the one that hangs), so that the hang costs seconds, not the
# real runs' 900.
flavor=${LAB_FLAVORS%% *}

# must_fail NAME CMD...: run CMD; what it printed lands in $tmp/NAME.log,
# and a last line there says so if it passed.
must_fail() {
	local name=$1
	shift
	if "$@" >"$tmp/$name.log" 2>&1; then
		echo "lab-selftest: this run passed" >>"$tmp/$name.log"
	fi
}

# guest_run NAME DIR [run.sh option...]: must_fail for one guest run of
# the tests in DIR; its results land in $LAB_OUT/selftest-NAME.
guest_run() {
	local name=$1 dir=$2
	shift 2
	must_fail "$name" env LAB_GUEST_TIMEOUT=300 LAB_TEST_TIMEOUT=10 \
		"$top/qemu/run.sh" --flavor "$flavor" --tests-dir "$dir" \
		--out "$LAB_OUT/selftest-$name" "$@"
}

# failed NAME: the run NAME failed.
failed() {
	! grep -q '^lab-selftest: this run passed$' "$tmp/$1.log"
}

# run_says NAME DESC LINE: the run NAME failed, printing a line that
# starts with LINE.
run_says() {
	if failed "$1" && awk -v want="$3" 'index($0, want) == 1 { found = 1 }
		END { exit !found }' "$tmp/$1.log"; then
		result ok "$2"
	else
		result fail "$2 ($3)" "$tmp/$1.log"
	fi
}

# run_lacks NAME DESC PATTERN: no line the run NAME printed matches the
# extended regular expression PATTERN.
run_lacks() {
	if grep -qE -- "$3" "$tmp/$1.log"; then
		result fail "$2" "$tmp/$1.log"
	else
		result ok "$2"
	fi
}

# run_fails_only NAME DESC COUNT: the run NAME printed COUNT FAIL lines.
run_fails_only() {
	if [ "$(grep -c '^FAIL ' "$tmp/$1.log")" -eq "$3" ]; then
		result ok "$2"
	else
		result fail "$2 ($3 FAIL lines)" "$tmp/$1.log"
	fi
}

# One boot for the failures of single tests: each FAIL line names its
# test, and the tests' numbers order them as the list below.
guest_run tap "$top/tests/lab-selftest/tap"
run_says tap "a guest test printing 'not ok' fails the run" \
	"FAIL $flavor/00-notok: not ok 2"
run_says tap "a guest test printing no plan fails the run" \
	"FAIL $flavor/10-no-plan: printed no plan"
run_says tap "a guest test planning no checks (1..0) fails the run" \
	"FAIL $flavor/20-empty-plan: planned no checks"
run_says tap "a guest test running fewer checks than it planned fails the run" \
	"FAIL $flavor/30-plan-mismatch: planned 3 checks, ran 2"
run_says tap "a guest test exiting non-zero fails the run" \
	"FAIL $flavor/40-exit-status: exited with status 3"
run_says tap "a guest test that hangs is stopped, and fails the run" \
	"FAIL $flavor/50-hang: killed by SIGTERM"
run_lacks tap "whole-test skips (1..0 # SKIP, tap_skip_rest) pass" "^FAIL $flavor/6"
run_fails_only tap "nothing else fails that run: the guest goes on after the hang and finishes" 6

# A guest that dies in a test of the selection: that test never ends,
# the one after it never starts, and the test outside the selection is
# no concern of the run.
guest_run died "$top/tests/lab-selftest/died" --tests 10-dies,20-never
run_says died "a guest that dies mid-run fails it" "FAIL $flavor/guest: did not finish"
run_says died "the test the guest died in fails the run" \
	"FAIL $flavor/10-dies: never finished"
run_says died "a selected test that did not run fails the run" \
	"FAIL $flavor/20-never: did not run"
run_lacks died "a test outside the selection is neither run nor expected" "00-unselected"

# A passing test that writes a line of every kind of kernel splat to the
# kernel log: the verdict fails the run on the kernel log alone and lists
# every such line (indented, after the printk time), but not the lines
# that are no splat.
guest_run splat "$top/tests/lab-selftest/splat"
run_says splat "a kernel splat in dmesg fails the run" "FAIL $flavor/kernel log: "
run_fails_only splat "only the kernel log fails the splat run (its test passed)" 1
# splat_lines TAG: the lines of the splat test's here-document TAG.
splat_lines() {
	awk -v tag="$1" '$0 == tag { on = 0 } on { print } $0 ~ "<<.?" tag ".?$" { on = 1 }' \
		"$top/tests/lab-selftest/splat/00-splat.sh"
}
# listed LINE: the splat run's verdict listed LINE as a splat.
listed() {
	awk -v want="$1" 'sub(/^    \[ *[0-9]+\.[0-9]+\] /, "") && $0 == want { found = 1 }
		END { exit !found }' "$tmp/splat.log"
}
while read -r line; do
	if failed splat && listed "$line"; then
		result ok "the kernel log's splat is reported: $line"
	else
		result fail "the kernel log's splat is reported: $line" "$tmp/splat.log"
	fi
done < <(splat_lines SPLATS)
while read -r line; do
	if listed "$line"; then
		result fail "no splat: $line" "$tmp/splat.log"
	else
		result ok "no splat: $line"
	fi
done < <(splat_lines NOT_SPLATS)

# The verdict alone, on the logs of a guest that finished: kmemleak's
# report in results.log's kmemleak section (only the debug kernel has
# one), and a test the guest was given but never started.
mkdir "$tmp/verdict"
cat >"$tmp/verdict/results.log" <<'LOG'
=== lab 6.1.0 flavor=selftest
=== test 00-pass
1..1
ok 1 - a passing check
=== exit 0
=== kmemleak
unreferenced object 0xffff888003a1c000 (size 64):
  comm "lab-selftest", pid 1, jiffies 4294667296 (age 8.120s)
=== dmesg
[    0.000000] Linux version 6.1.0
=== end
LOG
echo "[    0.000000] Linux version 6.1.0" >"$tmp/verdict/dmesg.log"
: >"$tmp/verdict/console.log"
printf '00-pass\n10-missing\n' >"$tmp/verdict/expected-tests"
must_fail verdict "$top/qemu/verdict.sh" "$flavor" "$tmp/verdict"
run_says verdict "a kmemleak report fails the run" \
	"FAIL $flavor/kernel log: 0 splat line(s), 1 kmemleak report(s)"
run_says verdict "an expected test the guest never started fails the run" \
	"FAIL $flavor/10-missing: did not run"
run_fails_only verdict "nothing else fails the verdict's run" 2

# A knob the guest could not use stops the run before the boot.
must_fail knob env BENCH_RUNTIME=ten "$top/qemu/run.sh" --flavor "$flavor" --out "$tmp/knob"
run_says knob "BENCH_RUNTIME=ten is refused, naming the knob" \
	"lab: BENCH_RUNTIME must be a whole number, not 'ten'"

echo "1..$n"
