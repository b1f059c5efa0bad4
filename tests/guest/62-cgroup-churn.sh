# Cgroup churn under I/O (issue 11): while fio writes and verifies in
# steady groups (one flat, one hierarchical with a child) on a cfq
# null_blk, a loop creates chains of groups four deep (flat and
# hierarchical in turn), gives them weights and weight_device entries,
# reads from the deepest and removes the chain; a reader moves among the
# steady groups and the root every few ms; and the steady groups'
# weight, weight_device and use_hierarchy change under the load.
# Afterwards every fio run verified, and cfq's debugfs tree holds no
# group of a removed cgroup: what it lists exists, and nothing is left
# marked online=0.
. "$LAB_GUEST_LIB"
tap_plan 6

tap_skip_unless_hier_cfq

disk=churn
out=/tmp/churn
# each round forks some thirty commands: seconds on the debug kernel
rounds=${CHURN_ROUNDS:-$(by_flavor 100 30)}
cfq_memory_nullb $disk 256 hw_queue_depth=4
tap_check "cfq null_blk for the churn" grep -q '\[cfq\]' /sys/block/$disk/queue/scheduler
dev=$(cat /sys/block/$disk/dev)

fio_verify_groups $out $disk st

# the mover's reader: direct reads from the disk's last 64 MiB, over and
# over, in whichever group the mover put it
sh -c "while :; do dd if=/dev/$disk of=/dev/null bs=4k count=64 skip=49152 \
	iflag=direct 2>/dev/null; done" &
reader=$!
# shellcheck disable=SC2016
sh -c 'n=0; while [ ! -f "$2.stop" ]; do
	for g in st-flat st-h st-h/leaf ""; do
		echo "$1" >"$3/$g/tasks" && n=$((n + 1))
		sleep 0.005
	done
done; echo $n >"$2.moves"' sh $reader $out $BLKIO &
mover=$!

# a chain of four groups below $1, hierarchical when $2 is 1; prints the
# deepest's path
make_chain() {
	local path=$1 hier=$2 level
	for level in 1 2 3 4; do
		mkdir "$BLKIO/$path" || return 1
		[ "$hier" = 0 ] || [ $level = 4 ] || echo 1 >"$BLKIO/$path/blkio.use_hierarchy"
		echo $((100 * level + 50)) >"$BLKIO/$path/blkio.weight"
		[ $level != 2 ] || echo "$dev $((200 * level))" >"$BLKIO/$path/blkio.weight_device"
		[ $level = 4 ] || path=$path/l$((level + 1))
	done
	echo "$path"
}

# remove the chain whose deepest group is $1, deepest first
remove_chain() {
	local path=$1
	while [ -n "$path" ] && [ "$path" != . ]; do
		rmdir "$BLKIO/$path" || return 1
		path=$(dirname "$path")
	done
}

: >$out.churn-fails
created=0
for i in $(seq 1 "$rounds"); do
	deepest=$(make_chain c$i $((i % 2))) || echo "round $i: chain not made" >>$out.churn-fails
	created=$((created + 4))
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$1/tasks" && exec dd if="$2" of=/dev/null bs=4k count=16 \
		iflag=direct 2>/dev/null' sh "$BLKIO/$deepest" /dev/$disk ||
		echo "round $i: read in $deepest failed" >>$out.churn-fails
	remove_chain "$deepest" || echo "round $i: chain not removed" >>$out.churn-fails
	# the steady groups change under the load
	echo $((10 + (i * 37) % 991)) >$BLKIO/st-flat/blkio.weight
	if [ $((i % 2)) = 1 ]; then
		echo "$dev $((10 + (i * 53) % 991))" >$BLKIO/st-h/leaf/blkio.weight_device
	else
		echo "$dev 0" >$BLKIO/st-h/leaf/blkio.weight_device
	fi
	echo $((i % 2)) >$BLKIO/st-flat/blkio.use_hierarchy
done
touch $out.stop
wait $mover
kill $reader
wait $reader 2>/dev/null
tap_diag "$rounds rounds: $created groups made and removed, the reader moved $(cat $out.moves) times"
tap_none "every chain was made, read from and removed" $out.churn-fails
fio_verify_stop $out $FIO_VERIFY_PID

# the removed groups' requests have drained by now
sleep 1
tree=$(cfq_tree_file $disk)
cp "$tree" $out.tree
tap_check "cfq's tree lists no group of a removed cgroup" sh -c "! grep online=0 $out.tree"
sed -n 's/^ *group path=\([^ ]*\).*/\1/p' $out.tree >$out.groups
tap_check "every group in cfq's tree is a live cgroup" awk -v blkio=$BLKIO '
	{ if (system("test -d \"" blkio $1 "\"") != 0) { print "stale group " $1; bad = 1 } }
	END { exit bad || NR == 0 }' $out.groups
tap_diag "groups in cfq's tree afterwards: $(tr '\n' ' ' <$out.groups)"

fio_verify_groups_remove st
nullb_remove $disk
tap_check "the steady groups and the disk are gone" \
	sh -c "[ ! -d $BLKIO/st-flat ] && [ ! -d $BLKIO/st-h ] && [ ! -e /dev/$disk ]"
