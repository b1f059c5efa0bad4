#!/usr/bin/env bash
# The series is bisectable: after each patch, the block layer builds with
# W=1 and no warning in a file the series touches, with CFQ built in and
# as a module.  And the whole series builds in the kernel users run:
# block/ under Debian's own amd64 configuration (linux-config-6.1), with
# CFQ as a module beside BFQ and iocost, with the same check.  TAP, two
# checks per patch and one for Debian's configuration.
#
# Cheap by design: the patches are applied in a private clone of the
# lab's kernel tree (the lab's own tree and object folders are left
# alone), and only block/ is rebuilt, incrementally, in one object
# folder per variant kept in the cache: the normal kernel's config, the
# same with CONFIG_IOSCHED_CFQ=m, and Debian's.  A step that passed is
# recorded under a hash of everything its build read (this script, the
# kernel tarball, the compiler, the variant's config, the patches up to
# it), and a rerun with the same inputs reports that verdict instead of
# building again; a failure is never recorded.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/qemu/lab.conf"

src=$LAB_CACHE/series-build/linux
config=$LAB_CACHE/obj-normal/.config
debian_config=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz

"$top/qemu/kernel.sh" prepare >&2 || exit 1
bail() {
	echo "Bail out! $*"
	exit 1
}

mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel-patches/series")
echo "1..$((2 * ${#patches[@]} + 1))"
[ "${#patches[@]}" -gt 0 ] || bail "the series is empty"

[ -f "$config" ] || bail "no kernel config at $config (build the normal kernel first)"
[ -f "$debian_config" ] || bail "no Debian kernel config at $debian_config (apt-get install linux-config-6.1)"

git_s() {
	git -C "$src" -c user.name=lab -c user.email=lab@localhost \
		-c advice.detachedHead=false "$@"
}

builtin=$LAB_CACHE/series-build/obj
module=$LAB_CACHE/series-build/obj-m
debian=$LAB_CACHE/series-build/obj-debian
verdicts=$LAB_CACHE/series-build/verdicts
mkdir -p "$builtin" "$module" "$debian" "$verdicts"
cp "$config" "$builtin/.config.want"
cp "$config" "$module/.config.want"
"$LAB_KERNEL_SRC/scripts/config" --file "$module/.config.want" --module IOSCHED_CFQ
xz -dc "$debian_config" >"$debian/.config.want"
"$LAB_KERNEL_SRC/scripts/config" --file "$debian/.config.want" \
	--module IOSCHED_CFQ --enable CFQ_GROUP_IOSCHED
last=$((${#patches[@]} - 1))

# step_key I OBJ: the hash of what building patch I (from 0) in OBJ reads
step_key() {
	{
		cat "$0" "$2/.config.want"
		stat -c '%n %s %Y' "$LAB_KERNEL_TARBALL"
		gcc --version | head -n 1
		for p in "${patches[@]:0:$1 + 1}"; do
			cat "$top/kernel-patches/$p"
		done
	} | sha256sum | cut -d' ' -f1
}

# Every step's key, and whether all of them have a recorded verdict.
declare -A keys=()
all_known=1
for i in "${!patches[@]}"; do
	for obj in "$builtin" "$module"; do
		keys[$i,$obj]=$(step_key "$i" "$obj")
		[ -f "$verdicts/${keys[$i,$obj]}" ] || all_known=
	done
done
keys[$last,$debian]=$(step_key "$last" "$debian")
[ -f "$verdicts/${keys[$last,$debian]}" ] || all_known=

if [ -n "$all_known" ]; then
	n=0
	for i in "${!patches[@]}"; do
		for obj in "$builtin" "$module"; do
			echo "ok $((n += 1)) - $(cat "$verdicts/${keys[$i,$obj]}") (recorded)"
		done
	done
	echo "ok $((n += 1)) - $(cat "$verdicts/${keys[$last,$debian]}") (recorded)"
	exit 0
fi

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

# check_build N PATCH VARIANT OBJ LINE KEY: TAP line N for block/ built
# with W=1 in OBJ, whose .config.want is the variant's config; LINE
# (CFQ's setting) must survive olddefconfig.  A pass is recorded as KEY.
check_build() {
	local n=$1 p=$2 variant=$3 obj=$4 line=$5 key=$6 log warnings verdict
	local symbol=${line%%=*} has_symbol=
	if [ -f "$verdicts/$key" ]; then
		echo "ok $n - $(cat "$verdicts/$key") (recorded)"
		return
	fi
	# patches before CFQ's own have no CFQ to configure
	grep -qx "config ${symbol#CONFIG_}" "$src/block/Kconfig.iosched" && has_symbol=1
	# The variant's config afresh when it changed, or when a step before
	# CFQ's patch had olddefconfig drop the symbol; an unchanged config
	# keeps the build incremental.
	if ! cmp -s "$obj/.config.want" "$obj/.config.lab" ||
		{ [ -n "$has_symbol" ] && ! grep -qxF "$line" "$obj/.config"; }; then
		cp "$obj/.config.want" "$obj/.config.lab"
		cp "$obj/.config.want" "$obj/.config"
	fi
	log=$obj/build-$n.log
	if ! make -s -C "$src" O="$obj" olddefconfig >"$log" 2>&1 ||
		! make -s -C "$src" O="$obj" -j"$LAB_JOBS" W=1 block/ >>"$log" 2>&1; then
		echo "not ok $n - block/ builds with W=1 ($variant) after $p"
		tail -n 30 "$log" | sed 's/^/#   /'
		return
	fi
	if [ -n "$has_symbol" ] && ! grep -qxF "$line" "$obj/.config"; then
		echo "not ok $n - block/ builds with W=1 ($variant) after $p"
		echo "#   the config lost $line"
		return
	fi
	[ -n "$has_symbol" ] || variant="$variant; no CFQ in the tree yet"
	# warnings located in a file the series touches (the compiler's, with
	# a column, and kernel-doc's, without)
	warnings=$(grep -E '^[^ ]+:[0-9]+(:[0-9]+)?: warning:' "$log" |
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
		verdict="block/ builds with W=1 ($variant), no warning in the series' files, after $p"
		echo "ok $n - $verdict"
		echo "$verdict" >"$verdicts/$key"
	fi
}

n=0
for i in "${!patches[@]}"; do
	p=${patches[$i]}
	git_s checkout -q -f --detach "${commits[$i]}"
	check_build $((n += 1)) "$p" "cfq built in" "$builtin" CONFIG_IOSCHED_CFQ=y "${keys[$i,$builtin]}"
	check_build $((n += 1)) "$p" "cfq as a module" "$module" CONFIG_IOSCHED_CFQ=m "${keys[$i,$module]}"
done
check_build $((n += 1)) "${patches[$last]}" "Debian's amd64 config, cfq as a module" \
	"$debian" CONFIG_IOSCHED_CFQ=m "${keys[$last,$debian]}"
