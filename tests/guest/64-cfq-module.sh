# cfq as a module (the debug kernel builds it so; issue 11): rmmod is
# refused while a disk uses cfq, and works when none does even though
# groups hold weights and weight_device entries; loading it again gives
# those groups the defaults a new group gets.  50 cycles of load, use
# (new random data written direct, read back and compared, in a weighted
# group), unload, while other disks keep other schedulers.  The reload's KUnit runs count once
# (qemu/verdict.sh).
. "$LAB_GUEST_LIB"
tap_plan 5

moddep=/lib/modules/$(uname -r)/modules.dep
{ [ -f "$moddep" ] && grep -q 'cfq\.ko' "$moddep"; } ||
	tap_skip_rest "cfq is built in"

disk=cfqmod
out=/tmp/cfqmod
cycles=${MODULE_CYCLES:-50}
vd=${LAB_VIRTIO_DISK#/dev/}
vd_sched=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/$vd/queue/scheduler)
nullb_create $disk size=64 blocksize=4096 memory_backed=1
set_scheduler "$vd" bfq
set_scheduler $disk mq-deadline
mkdir -p $BLKIO/modgrp
dev=$(cat /sys/block/$disk/dev)

# module_state: "loaded" or "absent"
module_state() {
	if grep -q '^cfq ' /proc/modules; then echo loaded; else echo absent; fi
}

# one load, use, unload; prints what went wrong, if anything
cycle() {
	modprobe cfq || { echo "modprobe failed"; return; }
	echo 300 >$BLKIO/modgrp/blkio.weight || echo "weight refused"
	set_scheduler $disk cfq || echo "cfq refused"
	# (the kernel takes a weight_device only for a disk cfq serves)
	echo "$dev 700" >$BLKIO/modgrp/blkio.weight_device || echo "weight_device refused"
	# new data written and read back in the group, compared (fio's start
	# alone takes 10 s on the debug kernel)
	dd if=/dev/urandom of=$out.pattern bs=4k count=16 2>/dev/null
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$1/tasks" &&
		dd if="$2" of="$3" bs=4k oflag=direct 2>/dev/null &&
		dd if="$3" bs=4k count=16 iflag=direct 2>/dev/null | cmp -s - "$2"' \
		sh $BLKIO/modgrp $out.pattern /dev/$disk || echo "data not read back as written"
	set_scheduler $disk mq-deadline
	rmmod cfq || echo "rmmod refused with no disk on cfq"
}

: >$out.fails
i=0
while [ $i -lt "$cycles" ]; do
	i=$((i + 1))
	cycle | sed "s/^/cycle $i: /" >>$out.fails
done
tap_diag "$cycles cycles of load, use, unload"
tap_none "every cycle loaded cfq, read back what it wrote through it, unloaded it" \
	$out.fails
tap_is "cfq unloaded after the cycles" "$(module_state)" absent

# in use: the refusal changes nothing
modprobe cfq
set_scheduler $disk cfq
rmmod cfq 2>$out.rmmod
tap_is "rmmod refused while $disk uses cfq ($(cat $out.rmmod))" "$(module_state)" loaded
set_scheduler $disk mq-deadline

# groups keep weights across the unload; the reload resets them
set_scheduler $disk cfq
echo 300 >$BLKIO/modgrp/blkio.weight
echo "$dev 700" >$BLKIO/modgrp/blkio.weight_device
set_scheduler $disk mq-deadline
rmmod cfq
modprobe cfq
mkdir $BLKIO/modnew
tap_is "after a reload the group's weight is a new group's" \
	"$(cat $BLKIO/modgrp/blkio.weight)" "$(cat $BLKIO/modnew/blkio.weight)"
tap_is "after a reload the group has no weight_device entry" \
	"$(cat $BLKIO/modgrp/blkio.weight_device)" ""
rmdir $BLKIO/modnew $BLKIO/modgrp
rmmod cfq

set_scheduler "$vd" "$vd_sched"
nullb_remove $disk
