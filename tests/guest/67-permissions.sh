# Permissions (issue 11): an unprivileged user can change no blkio file
# and no cfq tunable (EACCES, and the file reads as before); a group
# delegated to that user as systemd delegates one (the directory, tasks
# and cgroup.procs chowned) lets it make child groups, write their
# weights and move its own tasks into them, and nothing else: not the
# delegated group's own weight, not a sibling's, not the root's.
# blkiotree run by that user refuses with exit 3 and says why.
. "$LAB_GUEST_LIB"
tap_plan 17

tap_skip_unless_hier_cfq

user=labuser
uid=1000
grep -q "^$user:" /etc/passwd ||
	echo "$user:x:$uid:$uid:lab user:/tmp:/bin/sh" >>/etc/passwd
grep -q "^$user:" /etc/group || echo "$user:x:$uid:" >>/etc/group

# as_user CMD: run the sh command CMD as the unprivileged user
as_user() {
	su -s /bin/sh $user -c "$1"
}

# user_write FILE VALUE: cg_write, as the unprivileged user
user_write() {
	# shellcheck disable=SC2016
	su -s /bin/sh $user -c '. "$LAB_GUEST_LIB"; cg_write "$0" "$1"' "$1" "$2"
}

disk=perm
cfq_nullb $disk size=64
tap_check "cfq null_blk disk $disk" grep -q '\[cfq\]' /sys/block/$disk/queue/scheduler
dev=$(cat /sys/block/$disk/dev)
mkdir $BLKIO/other $BLKIO/deleg
echo 300 >$BLKIO/other/blkio.weight
tap_is "the user is not root" "$(as_user 'id -u')" $uid

TAP_WRITER=user_write
tap_write "user: the root's weight refused" $BLKIO/blkio.weight 200 EACCES
tap_write "user: the root's use_hierarchy refused" $BLKIO/blkio.use_hierarchy 1 EACCES
tap_write "user: a group's weight refused" $BLKIO/other/blkio.weight 900 EACCES
tap_write "user: a group's weight_device refused" $BLKIO/other/blkio.weight_device "$dev 900" EACCES
tap_write "user: a cfq tunable refused" /sys/block/$disk/queue/iosched/slice_idle 0 EACCES
tap_write "user: the disk's scheduler refused" /sys/block/$disk/queue/scheduler none EACCES
as_user "mkdir $BLKIO/mine" 2>/dev/null
tap_check "user: no group made in the root" test ! -d $BLKIO/mine

# delegation, as systemd does it
chown $user $BLKIO/deleg $BLKIO/deleg/tasks $BLKIO/deleg/cgroup.procs
as_user "mkdir $BLKIO/deleg/child"
tap_check "delegated: the user makes a child group" test -d $BLKIO/deleg/child
tap_write "delegated: the child's weight written" $BLKIO/deleg/child/blkio.weight 800 ok
tap_write "delegated: the child's weight_device written" \
	$BLKIO/deleg/child/blkio.weight_device "$dev 700" ok
tap_write "delegated: the delegated group's own weight refused" $BLKIO/deleg/blkio.weight 900 EACCES
tap_write "delegated: a sibling's weight still refused" $BLKIO/other/blkio.weight 900 EACCES
unset TAP_WRITER
# shellcheck disable=SC2016
as_user 'sh -c '\''echo $$ >"$1/tasks" && cat /proc/self/cgroup'\'' sh '"$BLKIO/deleg/child" >/tmp/perm.cgroup 2>&1
tap_check "delegated: the user moves its own task into the child" \
	grep -q 'blkio:/deleg/child$' /tmp/perm.cgroup

# blkiotree as the user
as_user "blkiotree set other weight=900" >/tmp/perm.bt 2>&1
tap_is "blkiotree as the user: exit 3" "$?" 3
tap_check "blkiotree as the user: says why ($(head -n 1 /tmp/perm.bt))" \
	grep -qi 'permission' /tmp/perm.bt

rmdir $BLKIO/deleg/child $BLKIO/deleg $BLKIO/other
nullb_remove $disk
