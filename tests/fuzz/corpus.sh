#!/bin/sh
# Every input of tests/fuzz/corpus through its fuzz target, once: the
# seeds, and each input a fuzzing run found a bug with, kept there so
# that the bug stays fixed.  make check runs this in the normal and the
# sanitizer builds.  The corpus's folders are named after the targets.
# TAP, one check per input.
set -u
n=0
fails=0
for dir in "$SRCDIR"/tests/fuzz/corpus/*/; do
	target=$(basename "$dir")
	for input in "$dir"*; do
		n=$((n + 1))
		if out=$("$FUZZDIR/fuzz-$target" "$input" 2>&1); then
			echo "ok $n - fuzz-$target: $(basename "$input")"
		else
			echo "not ok $n - fuzz-$target: $(basename "$input")"
			echo "$out" | tail -n 20 | sed 's/^/#   /'
			fails=$((fails + 1))
		fi
	done
done
echo "1..$n"
[ "$fails" -eq 0 ]
