#!/usr/bin/env bash
# The series is bisectable: after each patch, the block layer builds with
# W=1 and no warning in a file the series touches, with CFQ built in and
# as a module.  TAP, two checks per patch.
#
# Cheap by design: the patches are applied in a private clone of the
# lab's kernel tree (the lab's own tree and object folders are left
# alone), and only block/ is rebuilt, incrementally, in one object
# folder per variant kept in the cache: the normal kernel's config, and
# the same with CONFIG_IOSCHED_CFQ=m.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/qemu/lab.conf"

src=$LAB_CACHE/series-build/linux
config=$LAB_CACHE/obj-normal/.config

"$top/qemu/kernel.sh" prepare >&2 || exit 1
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel-patches/series")
echo "1..$((2 * ${#patches[@]}))"
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

# check_build N PATCH VARIANT OBJ LINE: TAP line N for block/ built with
# W=1 in OBJ, whose .config.want is the variant's config; LINE (CFQ's
# setting) must survive olddefconfig.
check_build() {
	local n=$1 p=$2 variant=$3 obj=$4 line=$5 log warnings
	# an unchanged .config keeps the build incremental
	cmp -s "$obj/.config.want" "$obj/.config.lab" || {
		cp "$obj/.config.want" "$obj/.config.lab"
		cp "$obj/.config.want" "$obj/.config"
	}
	log=$obj/build-$n.log
	if ! make -s -C "$src" O="$obj" olddefconfig >"$log" 2>&1 ||
		! make -s -C "$src" O="$obj" -j"$LAB_JOBS" W=1 block/ >>"$log" 2>&1; then
		echo "not ok $n - block/ builds with W=1 ($variant) after $p"
		tail -n 30 "$log" | sed 's/^/#   /'
		return
	fi
	if ! grep -qxF "$line" "$obj/.config"; then
		echo "not ok $n - block/ builds with W=1 ($variant) after $p"
		echo "#   the config lost $line"
		return
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
		echo "not ok $n - no W=1 warning in the series' files ($variant) after $p"
		grep -F -e "${warnings%%$'\n'*}" "$log" | head -n 20 | sed 's/^/#   /'
	else
		echo "ok $n - block/ builds with W=1 ($variant), no warning in the series' files, after $p"
	fi
}

builtin=$LAB_CACHE/series-build/obj
module=$LAB_CACHE/series-build/obj-m
mkdir -p "$builtin" "$module"
cp "$config" "$builtin/.config.want"
cp "$config" "$module/.config.want"
"$src/scripts/config" --file "$module/.config.want" --module IOSCHED_CFQ
n=0
i=0
for p in "${patches[@]}"; do
	git_s checkout -q -f --detach "${commits[$i]}"
	i=$((i + 1))
	check_build $((n += 1)) "$p" "cfq built in" "$builtin" CONFIG_IOSCHED_CFQ=y
	check_build $((n += 1)) "$p" "cfq as a module" "$module" CONFIG_IOSCHED_CFQ=m
done
