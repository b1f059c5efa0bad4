#!/usr/bin/env bash
# Fuzz blkiotree's three parsers of outside text with libFuzzer: apply's
# JSON description, CFQ's debugfs scheduling tree and the scheduler line
# of /sys/block (tests/fuzz).  The targets are built with clang, ASan and
# UBSan in a temporary folder; each runs FUZZ_SECONDS (default 20) from
# its seed corpus and dictionary.  TAP, one check per target: no crash,
# no sanitizer report, no leak, no input slower than 10 s, and the
# figures (runs, coverage) in the check's name.
#
# The long form (docs/DEVELOPING.md): FUZZ_SECONDS=1800 tests/host/fuzz.sh
# A crash leaves its input in FUZZ_KEEP (default: nowhere): fix the bug,
# add a unit test and put the input in tests/fuzz/corpus/TARGET/.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${FUZZ_SECONDS:-20}
targets=(spec schedtree scheduler)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "1..${#targets[@]}"
bail() {
	echo "Bail out! $*"
	exit 1
}

command -v clang >/dev/null || bail "no clang (scripts/install-deps installs it)"
if [ ! -x "$top/configure" ]; then
	(cd "$top" && autoreconf -fi) >"$work/autoreconf.log" 2>&1 ||
		bail "autoreconf failed: $(tail -n 3 "$work/autoreconf.log")"
fi
(cd "$work" && "$top/configure" -q CC=clang --enable-fuzzing \
	--enable-sanitizers && make -s -j2 "${targets[@]/#/tests/fuzz/fuzz-}") \
	>"$work/build.log" 2>&1 ||
	bail "building the fuzz targets failed: $(tail -n 5 "$work/build.log")"

n=0
for t in "${targets[@]}"; do
	n=$((n + 1))
	mkdir -p "$work/corpus-$t" "$work/crash-$t"
	# new inputs go to the first folder: the seeds stay as they are
	"$work/tests/fuzz/fuzz-$t" -max_total_time="$seconds" -timeout=10 \
		-print_final_stats=1 -dict="$top/tests/fuzz/$t.dict" \
		-artifact_prefix="$work/crash-$t/" \
		"$work/corpus-$t" "$top/tests/fuzz/corpus/$t" \
		>"$work/$t.log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
	cov=$(sed -n 's/.*DONE *cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p' "$work/$t.log")
	if [ "$status" -eq 0 ] && [ -n "$runs" ]; then
		echo "ok $n - fuzz-$t: ${runs} runs in ${seconds} s, coverage ${cov:-?}, no crash"
		continue
	fi
	echo "not ok $n - fuzz-$t: exit status $status after ${runs:-?} runs"
	grep -E 'ERROR|SUMMARY|runtime error|does not hold|Test unit written' \
		"$work/$t.log" | head -n 12 | sed 's/^/#   /'
	# the input goes with the work folder: print it, so that a CI log
	# alone can replay it (base64 -d >IN; tests/fuzz/fuzz-TARGET IN)
	for f in "$work/crash-$t/"*; do
		[ -f "$f" ] && echo "#   input $(basename "$f"), base64: $(head -c 4096 "$f" | base64 -w0)"
	done
	if [ -n "${FUZZ_KEEP:-}" ]; then
		mkdir -p "$FUZZ_KEEP"
		cp "$work/crash-$t/"* "$FUZZ_KEEP/" 2>/dev/null &&
			echo "#   input kept in $FUZZ_KEEP"
	fi
done
