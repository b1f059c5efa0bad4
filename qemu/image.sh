#!/usr/bin/env bash
# Build the guest's initramfs for one kernel flavor:
#
#   qemu/image.sh FLAVOR OUTPUT [DESTDIR [TESTS]]
#
# writes the initramfs to OUTPUT.  DESTDIR is a `make install DESTDIR=`
# tree to add (blkiotree); TESTS the folder of guest tests (default
# tests/guest).
#
# The initramfs is three uncompressed cpio archives laid end to end (the
# kernel unpacks each in turn; uncompressed because gunzip of ~90 MB is
# slow under TCG):
#   base.cpio      busybox, fio, mandoc, crun and their shared libraries
#                  (rebuilt only when this script or those host binaries
#                  change)
#   lab.cpio       /init, the guest tests, and DESTDIR (blkiotree as
#                  installed by `make install DESTDIR=...`), with the
#                  libraries its binaries need
#   modules.cpio   the flavor's kernel modules, if any
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lab.conf"

flavor=${1:?usage: qemu/image.sh FLAVOR OUTPUT [DESTDIR [TESTS]]}
output=${2:?usage: qemu/image.sh FLAVOR OUTPUT [DESTDIR [TESTS]]}
destdir=${3:-}
tests=${4:-$top/tests/guest}
imgdir=$LAB_CACHE/image
mkdir -p "$imgdir"
# The parts are built in shared folders: one image at a time, also when
# the normal and debug guests start together.
exec 9>"$imgdir/lock"
flock 9

# Copy into ROOT the shared libraries an ELF binary needs, as ldd
# resolves them on the host (the guest borrows the host's Debian
# binaries), except those already in HAVE (the base image).
copy_libs() {
	local root=$1 bin=$2 have=${3:-$1} lib
	# ldd fails on a static binary: nothing to copy then.
	{ ldd "$bin" 2>/dev/null || true; } | { grep -oE '/[^ ]+' || true; } | while read -r lib; do
		[ -e "$root$lib" ] || [ -e "$have$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

pack() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc --owner 0:0) >"$2.tmp"
	mv "$2.tmp" "$2"
}

# /bin/busybox is busybox-static's: linked statically, so a guest test can
# copy it alone into a container's root (crun, the OCI runtime, runs the
# containers of 56-oci-crun).
base_binaries="/bin/busybox /usr/bin/fio /usr/bin/mandoc /usr/bin/crun"

build_base() {
	local want root=$imgdir/base.root bin
	# shellcheck disable=SC2086
	want=$( (cat "$0"; ls -lL $base_binaries) | sha256sum | cut -d' ' -f1)
	[ -f "$imgdir/base.cpio" ] && [ "$(cat "$imgdir/base.stamp" 2>/dev/null)" = "$want" ] &&
		return 0
	lab_log "building the guest base image (busybox, fio, mandoc, crun)"
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,root,run}
	for bin in $base_binaries; do
		mkdir -p "$root$(dirname "$bin")"
		cp -L "$bin" "$root$bin"
		copy_libs "$root" "$bin"
	done
	# busybox applets, except where a real binary is installed
	local applet
	for applet in $(/bin/busybox --list-full); do
		[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
	done
	# `man blkiotree` in the guest: mandoc is man(1) when called by the
	# name Debian gives it, mman.
	ln -sf mandoc "$root/usr/bin/mman"
	printf '#!/bin/sh\nexec mman "$@"\n' >"$root/usr/bin/man"
	chmod +x "$root/usr/bin/man"
	echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
	echo "root:x:0:" >"$root/etc/group"
	pack "$root" "$imgdir/base.cpio"
	echo "$want" >"$imgdir/base.stamp"
}

build_lab() {
	local root=$imgdir/lab.root bin
	rm -rf "$root"
	mkdir -p "$root/lab/tests"
	cp "$here/guest-init" "$root/init"
	cp "$top/tests/guest/lib.sh" "$root/lab/tests/"
	cp -r "$tests/." "$root/lab/tests/"
	cp "$here/demo.sh" "$root/lab/"
	if [ -n "$destdir" ] && [ -d "$destdir" ]; then
		cp -a "$destdir/." "$root/"
		for bin in $(find "$destdir" -type f -perm -u+x); do
			copy_libs "$root" "$bin" "$imgdir/base.root"
		done
		# man's index, so that man(1) and apropos find the pages at once
		[ ! -d "$root/usr/share/man" ] || makewhatis "$root/usr/share/man"
	fi
	pack "$root" "$imgdir/lab.cpio"
}

build_modules() {
	local mods
	mods=$("$here/kernel.sh" objdir "$flavor")/modroot
	local root=$imgdir/modules-$flavor.root
	rm -rf "$root"
	mkdir -p "$root"
	[ -d "$mods/lib/modules" ] && cp -a "$mods/lib" "$root/"
	pack "$root" "$imgdir/modules-$flavor.cpio"
}

build_base
build_lab
build_modules
cat "$imgdir/base.cpio" "$imgdir/lab.cpio" "$imgdir/modules-$flavor.cpio" >"$output"
