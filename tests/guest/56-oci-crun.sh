# The real clients of blkio.weight (issue 14): an OCI runtime from Debian,
# crun, runs containers whose config.json sets linux.resources.blockIO,
# and fio makes groups with its cgroup= and cgroup_weight= options.
#
# crun runs with its cgroupfs manager (the guest has no systemd) and
# --no-pivot (the guest's root is an initramfs, which pivot_root cannot
# leave).  Every container's root is one folder holding the guest's
# busybox, which is busybox-static's (qemu/image.sh); config.json is
# written below, cgroupsPath under the blkio hierarchy (/oci56/NAME, as
# docker's /docker/ID), the fairness null_blk passed in as a device node.
# The container's own process is the reader: busybox dd, direct 4 KiB
# reads of its own 2 GiB of the disk, as a containerised workload does
# its I/O; fio inside the container would need fio's libraries in its
# root, and fio outside it would measure fio, not the container.
#
# A weight out of range must fail the container with the kernel's
# ERANGE.  Two containers at weights 100 and 900 must get 10 % and 90 %
# of the disk within 2 points and 20 % (DESIGN.md section 6), once with
# blockIO.weight (docker --blkio-weight) and once with weights the other
# way round and a weightDevice for the disk that overrides them (docker
# --blkio-weight-device; crun also writes "MAJ:MIN 0", no leaf weight, to
# blkio.leaf_weight_device, which the kernel accepts for that).  A
# container's bytes are what its reader's read() calls returned over one
# window while both read (rchar, /proc/PID/io: the kernel's task
# accounting, not CFQ's); share = its bytes / both's, judged once.
# blkiotree show must list both groups with their weight for the disk
# and expected share, and blkiotree top, whose one interval is the
# window, their measured shares.  Then fio's cgroup_weight= makes two groups at 100 and 900 on
# its own, measured the same way from fio's bytes (hier_fio).
. "$LAB_GUEST_LIB"
tap_plan 16

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=oci56
out=/tmp/oci56
window=15
tolerance=2
rm -rf $out
mkdir -p $out/rootfs/bin
cp /bin/busybox $out/rootfs/bin/busybox
tap_cfq_nullb $disk
devno=$(cat /sys/block/$disk/dev)
major=${devno%:*}
minor=${devno#*:}

# Both pairs of containers: their effective weights on the disk.
cat >$out/oci.spec <<'SPEC'
group /oci56 500 0
group /oci56/a 100 0
group /oci56/b 900 0
task a /oci56/a -
task b /oci56/b -
SPEC

oci() {
	crun --root=$out/state --cgroup-manager=cgroupfs "$@"
}

# oci_bundle NAME WEIGHT DEVICE_WEIGHT FIRST_BLOCK: the bundle $out/NAME,
# whose process reads the disk from FIRST_BLOCK (4 KiB blocks) in cgroup
# /oci56/NAME with blockIO.weight WEIGHT and, unless DEVICE_WEIGHT is
# "-", a weightDevice for the disk.
oci_bundle() {
	local wd=
	[ "$3" = - ] ||
		wd=", \"weightDevice\": [{\"major\": $major, \"minor\": $minor, \"weight\": $3}]"
	mkdir -p $out/$1
	cat >$out/$1/config.json <<CONFIG
{
	"ociVersion": "1.0.0",
	"process": {
		"user": {"uid": 0, "gid": 0},
		"args": ["/bin/busybox", "dd", "if=/dev/$disk", "of=/dev/null", "bs=4k",
			"iflag=direct", "skip=$4", "count=524288"],
		"env": ["PATH=/bin"],
		"cwd": "/"
	},
	"root": {"path": "$out/rootfs"},
	"hostname": "$1",
	"mounts": [
		{"destination": "/proc", "type": "proc", "source": "proc"},
		{"destination": "/dev", "type": "tmpfs", "source": "tmpfs",
			"options": ["nosuid", "mode=755"]}
	],
	"linux": {
		"cgroupsPath": "/oci56/$1",
		"namespaces": [{"type": "pid"}, {"type": "ipc"}, {"type": "uts"},
			{"type": "mount"}, {"type": "network"}],
		"devices": [{"path": "/dev/$disk", "type": "b", "major": $major,
			"minor": $minor, "fileMode": 432, "uid": 0, "gid": 0}],
		"resources": {"blockIO": {"weight": $2$wd}}
	}
}
CONFIG
}

# oci_start NAME: run container oci56-NAME from its bundle, detached;
# crun's messages go to $out/NAME.log.
oci_start() {
	oci run --detach --no-pivot --bundle=$out/$1 oci56-$1 >$out/$1.log 2>&1 </dev/null
}

# oci_pid NAME: the host pid of the container's process, as crun reports it.
oci_pid() {
	oci state oci56-$1 2>/dev/null | sed -n 's/^ *"pid": *\([0-9]*\).*/\1/p'
}

oci_delete() {
	oci delete --force oci56-$1 >>$out/$1.log 2>&1
}

# rchar PID: the bytes PID's read() calls have returned so far (0 when
# PID is gone).
rchar() {
	cat /proc/$1/io 2>/dev/null | awk '$1 == "rchar:" { n = $2 } END { print n + 0 }'
}

# reader NAME: the pid of container NAME's reader ($out/pids).
reader() {
	awk -v c="$1" '$1 == c { print $2 }' $out/pids
}

# running PID: PID is a live process (not a zombie).
running() {
	[ -e "/proc/$1/stat" ] && [ "$(awk '{ print $3 }' "/proc/$1/stat")" != Z ]
}

# oci_files NAME WEIGHT DEVICE_WEIGHT: the container's cgroup holds its
# process and the weights of its config.json; prints what it found.
oci_files() {
	local g=$BLKIO/oci56/$1 pid want_wd=
	pid=$(reader $1)
	[ "$3" = - ] || want_wd="$devno $3"
	echo "container $1: pid ${pid:-none}; cgroup tasks: $(cat $g/tasks 2>&1 | tr '\n' ' ');" \
		"blkio.weight $(cat $g/blkio.weight 2>&1); blkio.weight_device '$(cat $g/blkio.weight_device 2>&1)'"
	[ -n "$pid" ] && grep -qx "$pid" $g/tasks && [ "$(cat $g/blkio.weight)" = "$2" ] &&
		[ "$(cat $g/blkio.weight_device)" = "$want_wd" ]
}

# oci_check CASE NAME WEIGHT DEVICE_WEIGHT: oci_files as one check, what
# it found as diagnostics.
oci_check() {
	local found desc="$1: container $2's cgroup has its process and blockIO"
	if found=$(oci_files "$2" "$3" "$4"); then
		tap_ok "$desc"
	else
		tap_fail "$desc"
	fi
	tap_diag "  $found"
}

# entities JSON: "KIND NAME WEIGHT SHARE" for the containers' groups and
# readers (by name, from $out/pids) in blkiotree's JSON.
entities() {
	{
		json_entity_values "$1" group weight | sed 's/^/gw /'
		json_entity_values "$1" group share | sed 's/^/gs /'
		json_entity_values "$1" task weight | sed 's/^/tw /'
		json_entity_values "$1" task share | sed 's/^/ts /'
	} | awk -v pids=$out/pids 'FILENAME == pids { name[$2] = $1; next }
		$1 ~ /^g/ && $2 ~ /^\/oci56\/[ab]$/ { id = "group " $2 }
		$1 ~ /^t/ && ($2 in name) { id = "task " name[$2] }
		id == "" { next }
		!(id in seen) { seen[id] = 1; order[++n] = id }
		$1 ~ /w$/ { w[id] = $3 }
		$1 ~ /s$/ { s[id] = $3 }
		{ id = "" }
		END { for (i = 1; i <= n; i++) print order[i], w[order[i]], s[order[i]] }' \
		$out/pids - | sort
}

# The same from the spec: the weights on the disk, the model's shares.
hier_model $out/oci.spec shares | awk -v spec=$out/oci.spec '
	FILENAME == spec { if ($1 == "group") w["group " $2] = $3; else w["task " $2] = 484; next }
	{ print $1, $2, w[$1 " " $2], $3 }' $out/oci.spec - | sort >$out/want

# top_figures JSON: "NAME TIME BYTES" per container group, "NAME - BYTES"
# per reader: top's measured shares.
top_figures() {
	json_entity_values "$1" group time_share >$out/top.time
	json_entity_values "$1" group bytes_share >$out/top.gbytes
	json_entity_values "$1" task bytes_share >$out/top.tbytes
	awk -v pids=$out/pids 'FILENAME == pids { name[$2] = $1; next }
		FILENAME ~ /time$/ { t[$1] = $2; next }
		FILENAME ~ /gbytes$/ { if ($1 ~ /^\/oci56\/[ab]$/) { b[$1] = $2; order[++n] = $1 }; next }
		$1 in name { b[name[$1]] = $2; t[name[$1]] = "-"; order[++n] = name[$1] }
		END { for (i = 1; i <= n; i++) print order[i], t[order[i]], b[order[i]] }' \
		$out/pids $out/top.time $out/top.gbytes $out/top.tbytes
}

# all_measured TOP: top_figures has both groups and both readers, each
# with its measured shares.
all_measured() {
	awk '$3 ~ /^[0-9.]+$/ && ($2 == "-" || $2 ~ /^[0-9.]+$/) { n++ } END { exit n != 4 }' "$1"
}

# oci_leftovers NAME...: remove the cgroups crun left of containers it
# could not start (crun 1.8.1 leaves them), saying so.
oci_leftovers() {
	local c
	for c in "$@"; do
		[ -d $BLKIO/oci56/$c ] || continue
		tap_diag "  crun left the cgroup /oci56/$c of a container it did not start"
		rmdir $BLKIO/oci56/$c
	done
}

# oci_pair CASE WEIGHT_A DEVICE_WEIGHT_A WEIGHT_B DEVICE_WEIGHT_B: six
# checks on containers a and b run with these configs.
oci_pair() {
	local name=$1 c
	local show_desc="$1: show lists both containers' groups and readers with their weights on the disk and expected shares"
	local top_desc="$1: top lists both containers' groups and readers with measured shares"
	local share_desc="$1: shares within $tolerance points and $SHARE_RELATIVE %"
	local delete_desc="$1: crun delete removes the containers' cgroups"
	oci_bundle a "$2" "$3" 0
	oci_bundle b "$4" "$5" 524288
	oci_start a
	oci_start b
	echo "a $(oci_pid a)" >$out/pids
	echo "b $(oci_pid b)" >>$out/pids
	tap_diag "$name:"
	for c in a b; do
		[ -s $out/$c.log ] && sed "s/^/#   crun $c: /" $out/$c.log
	done
	oci_check "$name" a "$2" "$3"
	oci_check "$name" b "$4" "$5"
	# the readers under way
	sleep 2
	blkiotree show --json --busy --device "$devno" --pid "$(pid_list $out/pids)" \
		>$out/show.json 2>$out/show.err
	entities $out/show.json >$out/show
	tap_diag "  show --json: $(tr '\n' ';' <$out/show)"
	sed 's/^/#   show: /' $out/show.err
	tap_check "$show_desc" tree_compare $out/want $out/show
	for c in a b; do
		rchar "$(reader $c)" >$out/$c.before
	done
	blkiotree top --json --device "$devno" --interval $window --iterations 1 oci56 \
		>$out/top.json 2>$out/top.err
	: >$out/bytes
	for c in a b; do
		echo "$c $(($(rchar "$(reader $c)") - $(cat $out/$c.before)))" >>$out/bytes
	done
	sed 's/^/#   top: /' $out/top.err
	top_figures $out/top.json >$out/top
	tap_diag "  top --json (time, bytes): $(tr '\n' ';' <$out/top)"
	tap_check "$top_desc" all_measured $out/top
	tap_diag "  readers' bytes over the ${window} s: $(tr '\n' ' ' <$out/bytes)"
	if ! running "$(reader a)" || ! running "$(reader b)"; then
		tap_fail "$share_desc (a reader ended early)"
	else
		tap_check_timing "$share_desc" \
			hier_share_check --relative "$SHARE_RELATIVE" $out/oci.spec $out/bytes $tolerance
	fi
	oci_delete a
	oci_delete b
	tap_check "$delete_desc" sh -c "[ ! -d $BLKIO/oci56/a ] && [ ! -d $BLKIO/oci56/b ]"
	oci_leftovers a b
}

# A weight out of range comes back from the kernel as crun's error, and
# no container is left.
oci_bundle c 5 - 0
oci_start c
status=$?
left=$(oci list 2>&1 | grep -c oci56-c)
sed 's/^/#   crun c: /' $out/c.log
tap_check "crun refuses blockIO.weight 5 with the kernel's ERANGE, no container left" \
	sh -c "[ $status -ne 0 ] && [ $left -eq 0 ] &&
		grep -q 'blkio.weight.*Numerical result out of range' $out/c.log"
[ "$left" -eq 0 ] || oci_delete c
oci_leftovers c

oci_pair "blockIO.weight 100 and 900" 100 - 900 -
oci_pair "weight 900 and 100, weightDevice 100 and 900" 900 100 100 900
rmdir $BLKIO/oci56

# fio alone makes its groups and writes their weights.
cat >$out/fio.spec <<'SPEC'
group /fio56a 100 0
group /fio56b 900 0
task fa /fio56a -
task fb /fio56b -
SPEC
hier_fio $out/fio.spec /dev/$disk $window $out/fio
fio_rc=$?
tap_diag "fio: $(hier_fio_iops $out/fio) IOPS in all over $(cat $out/fio.seconds) s; bytes $(tr '\n' ' ' <$out/fio.bytes)"
tap_is "fio's cgroup_weight= gave /fio56a and /fio56b weights 100 and 900" \
	"$(cat $BLKIO/fio56a/blkio.weight $BLKIO/fio56b/blkio.weight 2>&1 | tr '\n' ' ')" "100 900 "
if [ "$fio_rc" -ne 0 ]; then
	tap_fail "fio cgroup_weight= 100 and 900: shares within $tolerance points and $SHARE_RELATIVE % (fio failed)"
else
	tap_check_timing "fio cgroup_weight= 100 and 900: shares within $tolerance points and $SHARE_RELATIVE %" \
		hier_share_check --relative "$SHARE_RELATIVE" $out/fio.spec $out/fio.bytes $tolerance
fi
hier_remove $out/fio.spec
nullb_remove $disk
