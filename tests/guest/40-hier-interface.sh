# blkio.use_hierarchy and blkio.weight / weight_device follow DESIGN.md
# section 3: each accepted write is read back, each refused one must give
# the contract's errno and leave the file reading as before.
#
# use_hierarchy (as memcg's): 0 or 1 only, else EINVAL; the value it has
# is a successful no-op; a change needs a childless cgroup, else EBUSY; a
# child of a use_hierarchy=1 parent inherits 1 and a change is EINVAL (that
# rule first, as memcg orders them); the root starts at 0 and switches
# while childless.  weight: 10-1000 (ERANGE outside), a non-number EINVAL,
# default 500, root 1000; weight_device "MAJ:MIN W", "MAJ:MIN 0" removes,
# ENODEV for a device that does not exist.  leaf_weight_device (what
# runc and crun write beside weight_device): "MAJ:MIN 0" only, with
# weight_device's device checks, any leaf weight EINVAL; reads empty.
. "$LAB_GUEST_LIB"
tap_plan 58

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

uh=blkio.use_hierarchy
# This test owns the root's use_hierarchy: it needs the root childless.
leftover=$(cd "$BLKIO" && for d in *; do [ -d "$d" ] && echo "$d"; done)
[ -z "$leftover" ] || tap_diag "root has child cgroups before the test: $leftover"

# -- use_hierarchy -------------------------------------------------------
tap_check "root has blkio.use_hierarchy" test -f "$BLKIO/$uh"
tap_is "the root starts at 0 (flat)" "$(cat "$BLKIO/$uh" 2>&1)" 0

a=$(blkio_group h40a)
tap_is "a child of a flat root reads 0" "$(cat "$a/$uh" 2>&1)" 0
tap_write "'2' is refused with EINVAL" "$a/$uh" 2 EINVAL
tap_write "'-1' is refused with EINVAL" "$a/$uh" -1 EINVAL
tap_write "'10' is refused with EINVAL" "$a/$uh" 10 EINVAL
tap_write "'yes' is refused with EINVAL" "$a/$uh" yes EINVAL
tap_write "writing the value it has (0) succeeds" "$a/$uh" 0 ok
tap_is "... and changes nothing" "$(cat "$a/$uh" 2>&1)" 0
tap_write "a childless cgroup switches to 1" "$a/$uh" 1 ok
tap_is "... and reads 1" "$(cat "$a/$uh" 2>&1)" 1
tap_write "writing 1 again succeeds" "$a/$uh" 1 ok

c=$(blkio_group h40a/c)
tap_is "a child of a use_hierarchy=1 parent inherits 1" "$(cat "$c/$uh" 2>&1)" 1
tap_write "that child refuses 0 with EINVAL" "$c/$uh" 0 EINVAL
tap_write "that child accepts 1 (the value it has)" "$c/$uh" 1 ok
tap_write "'2' on that child is EINVAL" "$c/$uh" 2 EINVAL
tap_write "the parent, with a child, refuses 0 with EBUSY" "$a/$uh" 0 EBUSY
tap_write "the parent, with a child, accepts 1 (the value it has)" "$a/$uh" 1 ok
d=$(blkio_group h40a/c/d)
tap_is "a grandchild inherits 1 through its parent" "$(cat "$d/$uh" 2>&1)" 1
tap_write "a child with a child and a use_hierarchy=1 parent refuses 0 with EINVAL" \
	"$c/$uh" 0 EINVAL

b=$(blkio_group h40b)
bc=$(blkio_group h40b/c)
tap_is "a child of a flat cgroup reads 0" "$(cat "$bc/$uh" 2>&1)" 0
tap_write "a flat cgroup with a child refuses 1 with EBUSY" "$b/$uh" 1 EBUSY
tap_write "... and accepts 0 (the value it has)" "$b/$uh" 0 ok
tap_write "the childless child of a flat parent switches to 1" "$bc/$uh" 1 ok
bcd=$(blkio_group h40b/c/d)
tap_is "its new child inherits 1 while the parent stays 0" \
	"$(cat "$b/$uh" 2>&1) $(cat "$bc/$uh" 2>&1) $(cat "$bcd/$uh" 2>&1)" "0 1 1"
tap_write "the root, with children, refuses 1 with EBUSY" "$BLKIO/$uh" 1 EBUSY
tap_write "the root, with children, accepts 0 (the value it has)" "$BLKIO/$uh" 0 ok

for g in h40a/c/d h40a/c h40a h40b/c/d h40b/c h40b; do
	rmdir "$BLKIO/$g"
done
if [ -z "$leftover" ]; then
	tap_write "the childless root switches to 1" "$BLKIO/$uh" 1 ok
	r=$(blkio_group h40r)
	tap_is "a new child of the root inherits 1" "$(cat "$r/$uh" 2>&1)" 1
	tap_write "the root, with a child, refuses 0 with EBUSY" "$BLKIO/$uh" 0 EBUSY
	rmdir "$r"
	tap_write "the childless root switches back to 0" "$BLKIO/$uh" 0 ok
	tap_is "... and reads 0" "$(cat "$BLKIO/$uh" 2>&1)" 0
else
	for t in "the childless root switches to 1" "a new child of the root inherits 1" \
		"the root, with a child, refuses 0 with EBUSY" \
		"the childless root switches back to 0" "... and reads 0"; do
		tap_fail "$t (the root has other children: $leftover)"
	done
fi

# -- weight ----------------------------------------------------------------
tap_is "the root's weight is 1000" "$(cat "$BLKIO/blkio.weight" 2>&1)" 1000
w=$(blkio_group h40w)
tap_is "a new cgroup's weight is 500" "$(cat "$w/blkio.weight" 2>&1)" 500
tap_write "weight 10 (the minimum) is accepted" "$w/blkio.weight" 10 ok
tap_is "... and reads 10" "$(cat "$w/blkio.weight" 2>&1)" 10
tap_write "weight 1000 (the maximum) is accepted" "$w/blkio.weight" 1000 ok
tap_write "weight 250 is accepted" "$w/blkio.weight" 250 ok
tap_is "... and reads 250" "$(cat "$w/blkio.weight" 2>&1)" 250
tap_write "weight 9 is refused with ERANGE" "$w/blkio.weight" 9 ERANGE
tap_write "weight 0 is refused with ERANGE" "$w/blkio.weight" 0 ERANGE
tap_write "weight 1001 is refused with ERANGE" "$w/blkio.weight" 1001 ERANGE
tap_write "weight 'abc' is refused with EINVAL" "$w/blkio.weight" abc EINVAL
tap_write "weight '-5' is refused with EINVAL" "$w/blkio.weight" -5 EINVAL

# -- weight_device ---------------------------------------------------------
wd=$w/blkio.weight_device
if cfq_nullb h40disk size=64; then
	dev=$(cat /sys/block/h40disk/dev)
else
	dev=0:0
	tap_diag "no cfq null_blk disk: the weight_device checks fail"
fi
# A device number that no disk has: the null_blk major, a free minor.
nodev=${dev%:*}:$((${dev#*:} + 200))
[ ! -e "/sys/dev/block/$nodev" ] || tap_diag "$nodev exists after all"
tap_write "weight_device '$dev 300' is accepted" "$wd" "$dev 300" ok
tap_check "... and reads '$dev 300'" grep -qx "$dev 300" "$wd"
tap_write "weight_device '$dev 5' is refused with ERANGE" "$wd" "$dev 5" ERANGE
tap_write "weight_device '$dev 1001' is refused with ERANGE" "$wd" "$dev 1001" ERANGE
tap_write "weight_device '$dev abc' is refused with EINVAL" "$wd" "$dev abc" EINVAL
tap_write "weight_device for a missing device is refused with ENODEV" "$wd" "$nodev 300" ENODEV
tap_is "weight_device left blkio.weight alone" "$(cat "$w/blkio.weight" 2>&1)" 250
tap_write "weight_device '$dev 0' is accepted" "$wd" "$dev 0" ok
tap_check "... and removes the device's line" sh -c "! grep -q '^$dev ' '$wd'"

# -- leaf_weight_device ----------------------------------------------------
lwd=$w/blkio.leaf_weight_device
tap_write "leaf_weight_device '$dev 0' is accepted" "$lwd" "$dev 0" ok
tap_write "leaf_weight_device '$dev 500' is refused with EINVAL" "$lwd" "$dev 500" EINVAL
tap_write "leaf_weight_device '$dev abc' is refused with EINVAL" "$lwd" "$dev abc" EINVAL
tap_write "leaf_weight_device for a missing device is refused with ENODEV" \
	"$lwd" "$nodev 0" ENODEV
tap_is "leaf_weight_device reads empty" "$(cat "$lwd" 2>&1)" ""

rmdir "$w"
nullb_remove h40disk
