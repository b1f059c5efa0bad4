#!/usr/bin/env bash
# Every patch of the series, and every patch waiting in pending/, passes
# the kernel's checkpatch.pl --strict with no error, warning or check.
# TAP, one check per patch.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/qemu/lab.conf"

"$top/qemu/kernel.sh" prepare >&2 || exit 1
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel-patches/series"
	cd "$top/kernel-patches" && ls pending/*.patch 2>/dev/null)
echo "1..${#patches[@]}"
n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	# FILE_PATH_CHANGES asks for a MAINTAINERS change with every new
	# file; the CFQ patch's entry has "F: block/cfq-*", a glob checkpatch
	# does not look at, and it covers every file the series adds.
	if out=$(cd "$LAB_KERNEL_SRC" && perl scripts/checkpatch.pl --strict --no-tree \
		--ignore FILE_PATH_CHANGES \
		--show-types --terse "$top/kernel-patches/$p" 2>&1); then
		echo "ok $n - checkpatch --strict: $p"
	else
		echo "not ok $n - checkpatch --strict: $p"
		echo "$out" | sed 's/^/#   /'
	fi
done
