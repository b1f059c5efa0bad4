#!/usr/bin/env bash
# The series is bisectable: after each patch, the block layer builds with
# W=1 and no warning in a file the series touches.  TAP, one check per
# patch.
#
# Cheap by design: the patches are applied in a private clone of the
# lab's kernel tree (the lab's own tree and object folders are left
# alone), and only block/ is rebuilt, incrementally, in one object
# folder kept in the cache, with the normal kernel's config.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/qemu/lab.conf"

src=$LAB_CACHE/series-build/linux
obj=$LAB_CACHE/series-build/obj
config=$LAB_CACHE/obj-normal/.config

"$top/qemu/kernel.sh" prepare >&2 || exit 1
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel-patches/series")
echo "1..${#patches[@]}"
[ "${#patches[@]}" -gt 0 ] || exit 0

bail() {
	echo "Bail out! $*"
	exit 1
}

[ -f "$config" ] || bail "no kernel config at $config (build the normal kernel first)"

git_s() {
	git -C "$src" -c user.name=lab -c user.email=lab@localhost \
		-c advice.detachedHead=false "$@"
}

if [ ! -d "$src/.git" ]; then
	mkdir -p "$(dirname "$src")"
	git -c advice.detachedHead=false clone -q --shared "$LAB_KERNEL_SRC" "$src" >&2 || bail "cannot clone $LAB_KERNEL_SRC"
fi
git_s am --abort >/dev/null 2>&1
git_s checkout -q -f --detach pristine || bail "no pristine tag in $src"

# One commit per patch, so that each step is a checkout away.
commits=()
for p in "${patches[@]}"; do
	git_s am -q --keep-cr "$top/kernel-patches/$p" >&2 ||
		bail "patch $p does not apply"
	commits+=("$(git_s rev-parse HEAD)")
done
touched=$(git_s diff --name-only pristine HEAD -- '*.c' '*.h' | tr '\n' ' ')

mkdir -p "$obj"
n=0
for p in "${patches[@]}"; do
	c=${commits[$n]}
	n=$((n + 1))
	git_s checkout -q -f --detach "$c"
	# an unchanged .config keeps the build incremental
	cmp -s "$config" "$obj/.config.lab" || {
		cp "$config" "$obj/.config.lab"
		cp "$config" "$obj/.config"
	}
	log=$obj/build-$n.log
	if ! make -s -C "$src" O="$obj" olddefconfig >"$log" 2>&1 ||
		! make -s -C "$src" O="$obj" -j"$LAB_JOBS" W=1 block/ >>"$log" 2>&1; then
		echo "not ok $n - block/ builds with W=1 after $p"
		tail -n 30 "$log" | sed 's/^/#   /'
		continue
	fi
	# warnings located in a file the series touches
	warnings=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$log" |
		while IFS=: read -r file _; do
			for t in $touched; do
				case "$file" in
				*"$t") echo "$file" ;;
				esac
			done
		done)
	if [ -n "$warnings" ]; then
		echo "not ok $n - no W=1 warning in the series' files after $p"
		grep -F -e "${warnings%%$'\n'*}" "$log" | head -n 20 | sed 's/^/#   /'
	else
		echo "ok $n - block/ builds with W=1, no warning in the series' files, after $p"
	fi
done
