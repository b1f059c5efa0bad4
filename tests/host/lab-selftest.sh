#!/usr/bin/env bash
# The lab catches what it must catch: a patch that does not apply, a
# guest test that says "not ok", a kernel splat in the guest's log, and a
# benchmark knob that is not a number.
# Each check runs the lab's own scripts on deliberately broken input and
# expects them to fail, naming the cause.  TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/qemu/lab.conf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..5"

# 1. A broken patch appended to the real series.
mkdir "$tmp/series"
cp "$top"/kernel-patches/* "$tmp/series/"
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
	echo "not ok 1 - a patch that does not apply stops the build"
else
	if grep -q "9999-selftest-broken.patch.*does not apply" "$tmp/apply.log"; then
		echo "ok 1 - a patch that does not apply stops the build, naming it"
	else
		echo "not ok 1 - the failure names the broken patch"
		sed 's/^/#   /' "$tmp/apply.log"
	fi
fi
# Leave the tree as the real series wants it.
"$top/qemu/kernel.sh" apply >/dev/null 2>&1

# 2-4. Guest runs that must fail.  They boot the first flavor's kernel.
flavor=${LAB_FLAVORS%% *}
guest_must_fail() {
	local n=$1 what=$2 dir=$3 expect=$4
	if LAB_GUEST_TIMEOUT=300 "$top/qemu/run.sh" --flavor "$flavor" --tests-dir "$dir" \
		--out "$LAB_OUT/selftest-$(basename "$dir")" >"$tmp/run.log" 2>&1; then
		echo "not ok $n - $what fails the run"
		sed 's/^/#   /' "$tmp/run.log"
	elif grep -q "did not finish" "$tmp/run.log"; then
		echo "not ok $n - $what fails the run, and the guest finishes"
		sed 's/^/#   /' "$tmp/run.log"
	elif grep -q "$expect" "$tmp/run.log"; then
		echo "ok $n - $what fails the run"
	else
		echo "not ok $n - $what fails the run, saying why ($expect)"
		sed 's/^/#   /' "$tmp/run.log"
	fi
}
guest_must_fail 2 "a guest test printing 'not ok'" \
	"$top/tests/lab-selftest/notok" "FAIL $flavor/00-notok: not ok 2"
guest_must_fail 3 "a kernel splat in dmesg" \
	"$top/tests/lab-selftest/splat" "FAIL $flavor/kernel log: "
if grep -q "ok 1 - the lab's own checks pass" "$LAB_OUT/selftest-splat/results.log"; then
	echo "ok 4 - the splat run's own test passed: only the kernel log failed it"
else
	echo "not ok 4 - the splat run's own test passed: only the kernel log failed it"
fi

# 5. A knob the guest could not use stops the run before the boot.
if BENCH_RUNTIME=ten "$top/qemu/run.sh" --flavor "$flavor" --out "$tmp/knob" >"$tmp/knob.log" 2>&1; then
	echo "not ok 5 - BENCH_RUNTIME=ten is refused"
elif grep -q "BENCH_RUNTIME must be a whole number, not 'ten'" "$tmp/knob.log"; then
	echo "ok 5 - BENCH_RUNTIME=ten is refused, naming the knob"
else
	echo "not ok 5 - BENCH_RUNTIME=ten is refused, naming the knob"
	sed 's/^/#   /' "$tmp/knob.log"
fi
