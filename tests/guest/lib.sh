# Helpers for guest tests (busybox sh).  A test sources "$LAB_GUEST_LIB",
# calls tap_plan once, then one tap_* per check; output is TAP.
# shellcheck shell=sh

TAP_N=0
TAP_PLANNED=0
BLKIO=/sys/fs/cgroup/blkio
NULLB_CONFIGFS=/sys/kernel/config/nullb

tap_plan() {
	TAP_PLANNED=$1
	echo "1..$1"
}

tap_ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

tap_fail() {
	TAP_N=$((TAP_N + 1))
	echo "not ok $TAP_N - $*"
}

tap_skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

tap_diag() {
	echo "# $*"
}

# tap_check DESC CMD...: ok when CMD succeeds; its output becomes
# diagnostics when it fails.
tap_check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		[ -z "$out" ] || echo "$out" | sed 's/^/#   /'
	fi
}

# tap_is DESC GOT WANT
tap_is() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_fail "$1"
		tap_diag "  got:  '$2'"
		tap_diag "  want: '$3'"
	fi
}

# nullb_create NAME [ATTR=VALUE]...: a null_blk device /dev/NAME made
# through configfs (named after its configfs folder).  Attributes are
# null_blk's configfs files (size in MB, blocksize, memory_backed,
# completion_nsec, irqmode, hw_queue_depth, submit_queues, ...).
# rotational=0|1 is accepted too: null_blk has no such attribute, so it is
# written to the queue's sysfs file once the disk exists.
nullb_create() {
	local name=$1 kv rotational=
	shift
	mkdir "$NULLB_CONFIGFS/$name" || return 1
	for kv in "$@"; do
		case "$kv" in
		rotational=*)
			rotational=${kv#*=}
			continue
			;;
		esac
		echo "${kv#*=}" >"$NULLB_CONFIGFS/$name/${kv%%=*}" || {
			echo "nullb_create: $name: cannot set ${kv%%=*}" >&2
			return 1
		}
	done
	echo 1 >"$NULLB_CONFIGFS/$name/power" || return 1
	[ -b "/dev/$name" ] || {
		echo "nullb_create: /dev/$name did not appear" >&2
		return 1
	}
	[ -z "$rotational" ] ||
		echo "$rotational" >"/sys/block/$name/queue/rotational"
}

nullb_remove() {
	echo 0 >"$NULLB_CONFIGFS/$1/power" 2>/dev/null
	rmdir "$NULLB_CONFIGFS/$1"
}

# set_scheduler DEV SCHED: DEV is a name under /sys/block.
set_scheduler() {
	echo "$2" >"/sys/block/$1/queue/scheduler"
}

# blkio_group PATH: create (if needed) the blkio cgroup PATH, print its
# directory.
blkio_group() {
	mkdir -p "$BLKIO/$1" && echo "$BLKIO/$1"
}

# blkio_group_remove PATH: remove a leaf cgroup after moving its tasks to
# the root.
blkio_group_remove() {
	local pid
	for pid in $(cat "$BLKIO/$1/tasks" 2>/dev/null); do
		echo "$pid" >"$BLKIO/tasks" 2>/dev/null
	done
	rmdir "$BLKIO/$1"
}

# fio_job_bytes FILE JOBNAME: bytes read + written by one job of a fio
# run made with --output-format=terse (terse v3: field 3 is the job
# name, 6 read KiB, 47 write KiB).
fio_job_bytes() {
	awk -F';' -v job="$2" '$3 == job { printf "%d\n", ($6 + $47) * 1024 }' "$1"
}
