#!/usr/bin/env bash
# Build the guest kernel: the package's 6.1 tree plus kernel-patches/.
#
#   qemu/kernel.sh prepare            unpack the tarball into a git tree (once)
#   qemu/kernel.sh apply [DIR [N]]    reset the tree, apply DIR/series (first N)
#   qemu/kernel.sh build FLAVOR       configure and build bzImage (+ modules)
#   qemu/kernel.sh image FLAVOR       print the path of FLAVOR's bzImage
#   qemu/kernel.sh export FIRST       write the tree's commits from patch
#                                     FIRST on back into kernel-patches/
#
# The source tree lives in the lab cache as a git repository whose first
# commit (tag "pristine") is the package's tree.  Applying resets only the
# files that differ, so object folders (one per flavor, O=) stay valid and
# rebuilds are incremental; a build whose inputs hash the same as the
# last successful one is skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lab.conf"

git_k() {
	git -C "$LAB_KERNEL_SRC" -c user.name=lab -c user.email=lab@localhost \
		-c advice.detachedHead=false "$@"
}

prepare() {
	[ -f "$LAB_KERNEL_SRC/.git/lab-pristine" ] && return 0
	[ -r "$LAB_KERNEL_TARBALL" ] ||
		lab_die "no kernel tarball at $LAB_KERNEL_TARBALL (apt-get install linux-source-6.1)"
	lab_log "unpacking $LAB_KERNEL_TARBALL into $LAB_KERNEL_SRC"
	local tmp=$LAB_CACHE/linux.unpack
	rm -rf "$tmp" "$LAB_KERNEL_SRC"
	mkdir -p "$tmp"
	tar -xJf "$LAB_KERNEL_TARBALL" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q
	git -C "$tmp" -c user.name=lab -c user.email=lab@localhost \
		add -A -f
	git -C "$tmp" -c user.name=lab -c user.email=lab@localhost \
		commit -q -m "linux-source-6.1 as packaged by Debian"
	git -C "$tmp" tag pristine
	date >"$tmp/.git/lab-pristine"
	mv "$tmp" "$LAB_KERNEL_SRC"
}

# The patch files named by a series file, in order, comments dropped.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

# Hash of everything a series contributes: its list and every patch.
series_hash() {
	local dir=$1 upto=$2
	{
		echo "upto=$upto"
		series_patches "$dir" | head -n "$upto" | while read -r p; do
			echo "== $p"
			cat "$dir/$p"
		done
	} | sha256sum | cut -d' ' -f1
}

apply() {
	local dir=${1:-$top/kernel-patches} upto=${2:-1000000}
	[ -f "$dir/series" ] || lab_die "no series file in $dir"
	prepare
	local want stamp=$LAB_KERNEL_SRC/.git/lab-applied
	want=$(series_hash "$dir" "$upto")
	if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		return 0
	fi
	rm -f "$stamp"
	git_k am --abort >/dev/null 2>&1 || true
	git_k checkout -q -f --detach pristine
	git_k clean -q -fdx
	local p n=0
	for p in $(series_patches "$dir" | head -n "$upto"); do
		n=$((n + 1))
		[ -f "$dir/$p" ] || lab_die "series names $p, which is not in $dir"
		if ! git_k am -q --keep-cr "$dir/$p" >"$LAB_CACHE/am.log" 2>&1; then
			cat "$LAB_CACHE/am.log" >&2
			git_k am --abort >/dev/null 2>&1 || true
			lab_die "patch $n of the series, $p, does not apply"
		fi
	done
	echo "$want" >"$stamp"
	lab_log "applied $n patch(es) from $dir/series"
}

# The way to change the series: commit on top of (or rebase) the applied
# tree in the cache, then export from the first patch that changed.  The
# patches before FIRST and their lines in the series stay; those from
# FIRST on are written anew from the tree's commits above patch FIRST-1.
# A patch whose text is unchanged but for its commit id keeps its file.
export_patches() {
	local first=${1:?first patch number} dir=$top/kernel-patches base new f
	[ -f "$LAB_KERNEL_SRC/.git/lab-pristine" ] || lab_die "no kernel tree in $LAB_KERNEL_SRC"
	base=pristine
	[ "$first" -eq 1 ] ||
		base=$(git_k rev-list --reverse pristine..HEAD | sed -n "$((first - 1))p")
	[ -n "$base" ] || lab_die "the tree has fewer than $((first - 1)) commits above pristine"
	new=$(mktemp -d)
	git_k format-patch -q -N --start-number "$first" -o "$new" "$base..HEAD"
	for f in $(series_patches "$dir" | tail -n +"$first"); do
		[ -f "$new/$f" ] && diff -q <(sed 1d "$dir/$f") <(sed 1d "$new/$f") >/dev/null &&
			cp -p "$dir/$f" "$new/$f"
		rm -f "$dir/$f"
	done
	awk -v keep=$((first - 1)) '/^[[:space:]]*(#|$)/ { print; next } ++n <= keep' \
		"$dir/series" >"$new/series"
	(cd "$new" && ls ./*.patch | sed 's|^\./||') >>"$new/series"
	mv "$new/series" "$dir/series"
	mv "$new"/*.patch "$dir/"
	rmdir "$new"
	lab_log "exported $(git_k rev-list --count "$base..HEAD") patch(es) from $first on into $dir"
}

objdir() {
	echo "$LAB_CACHE/obj-$1"
}

fragments() {
	echo "$here/config/base.config"
	[ "$1" = normal ] || echo "$here/config/$1.config"
}

# Fail when a fragment asked for a value that olddefconfig did not keep
# (a missing dependency, a misspelt symbol): the guest would silently
# lack what the tests need.  A later fragment overrides an earlier one,
# as in merge_config.sh, so each symbol is checked against its last line.
check_config() {
	local config=$1 frag line sym bad
	shift
	bad=$(awk '/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
	     /^# CONFIG_[A-Za-z0-9_]+ is not set$/ { sym = $2 }
	     sym != "" { if (!(sym in last)) order[n++] = sym
			 last[sym] = FILENAME ": " $0; sym = "" }
	     END { for (i = 0; i < n; i++) print last[order[i]] }' "$@" |
	while IFS= read -r line; do
		frag=${line%%: *}
		line=${line#*: }
		case "$line" in
		CONFIG_*)
			grep -qxF "$line" "$config" && continue
			lab_log "config: $frag asks $line, built config has: $(grep -E "^(# )?${line%%=*}[= ]" "$config" || echo unset)"
			;;
		*)
			sym=${line#\# }
			sym=${sym%% *}
			grep -q "^$sym=" "$config" || continue
			lab_log "config: $frag disables $sym, built config has it set"
			;;
		esac
		echo bad
	done)
	[ -z "$bad" ]
}

configure() {
	local flavor=$1 o
	o=$(objdir "$flavor")
	mkdir -p "$o"
	local new=$o/.config.lab
	make -s -C "$LAB_KERNEL_SRC" O="$o" KCONFIG_CONFIG=.config.lab tinyconfig >/dev/null
	# shellcheck disable=SC2046
	(cd "$o" && KCONFIG_CONFIG=.config.lab \
		"$LAB_KERNEL_SRC/scripts/kconfig/merge_config.sh" -m -O "$o" \
		"$new" $(fragments "$flavor") >/dev/null)
	make -s -C "$LAB_KERNEL_SRC" O="$o" KCONFIG_CONFIG=.config.lab olddefconfig >/dev/null
	# shellcheck disable=SC2046
	check_config "$new" $(fragments "$flavor") ||
		lab_die "the $flavor kernel config lacks options the lab needs (above)"
	# Keep .config untouched when nothing changed, so make does no work.
	if cmp -s "$new" "$o/.config"; then
		rm -f "$new"
	else
		mv "$new" "$o/.config"
	fi
}

build() {
	local flavor=${1:?flavor}
	[ -f "$here/config/base.config" ] || lab_die "no qemu/config/base.config"
	[ "$flavor" = normal ] || [ -f "$here/config/$flavor.config" ] ||
		lab_die "unknown kernel flavor '$flavor' (no qemu/config/$flavor.config)"
	apply
	local o want
	o=$(objdir "$flavor")
	want=$({
		cat "$LAB_KERNEL_SRC/.git/lab-applied"
		# shellcheck disable=SC2046
		cat "$0" $(fragments "$flavor")
	} | sha256sum | cut -d' ' -f1)
	if [ -f "$o/arch/x86/boot/bzImage" ] && [ "$(cat "$o/lab-stamp" 2>/dev/null)" = "$want" ]; then
		lab_log "$flavor kernel is up to date, build skipped"
		return 0
	fi
	rm -f "$o/lab-stamp"
	configure "$flavor"
	lab_log "building the $flavor kernel in $o"
	local start=$SECONDS
	make -s -C "$LAB_KERNEL_SRC" O="$o" -j"$LAB_JOBS" bzImage
	rm -rf "$o/modroot"
	if grep -q '^CONFIG_MODULES=y' "$o/.config"; then
		make -s -C "$LAB_KERNEL_SRC" O="$o" -j"$LAB_JOBS" modules
		make -s -C "$LAB_KERNEL_SRC" O="$o" INSTALL_MOD_PATH="$o/modroot" \
			INSTALL_MOD_STRIP=1 modules_install >/dev/null
	fi
	echo "$want" >"$o/lab-stamp"
	lab_log "$flavor kernel built in $((SECONDS - start)) s"
}

image() {
	echo "$(objdir "${1:?flavor}")/arch/x86/boot/bzImage"
}

cmd=${1:-}
shift || true
case "$cmd" in
prepare | apply | build | export)
	# One writer of the source tree and object folders at a time.
	mkdir -p "$LAB_CACHE"
	exec 9>"$LAB_CACHE/kernel.lock"
	flock 9
	[ "$cmd" != export ] || cmd=export_patches
	"$cmd" "$@"
	;;
image | objdir) "$cmd" "$@" ;;
*) lab_die "usage: qemu/kernel.sh prepare|apply [DIR [N]]|build FLAVOR|image FLAVOR|objdir FLAVOR|export FIRST" ;;
esac
