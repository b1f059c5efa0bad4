# Hostile writes to CFQ's cgroup files and tunables (issue 11):
# thousands of random writes - random bytes, overlong lines, huge,
# negative and partial numbers, bad MAJ:MIN, missing and extra fields, a
# weight_device for a removed disk - to blkio.weight, blkio.weight_device,
# blkio.leaf_weight_device and blkio.use_hierarchy of a flat leaf, a
# hierarchical parent with a child, and that child (DESIGN.md section
# 3's rules), and to every file in the disk's queue/iosched.  Each write
# must be accepted or refused with EINVAL, ERANGE, ENODEV, EBUSY or
# E2BIG (a cgroup file's write longer than a page, refused by kernfs
# before CFQ sees it); a refused write must leave the file as it was; an
# accepted one must leave a value the rules allow (weights 10-1000,
# use_hierarchy 0 or 1, one "MAJ:MIN WEIGHT" line per existing device,
# no leaf weight, each tunable within the range cfq-iosched.rst gives).
# Then every tunable at its bound, where two times multiply past 64 bits
# (slice_idle x slice_sync), while two readers take turns: the disk must
# still serve.  The inputs come from a seeded generator whose seed is
# printed, so that a failure can be replayed: HOSTILE_SEED=N ./lab guest
# 60-hostile-writes.  Each write costs the guest a few forks, so ./lab
# test makes 1000 (300 on the debug kernel); the long form is
#   HOSTILE_WRITES=10000 ./lab guest [--flavor debug] 60-hostile-writes
. "$LAB_GUEST_LIB"
tap_plan 7

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

# the debug kernel forks ten times slower: fewer writes, same mix
writes=${HOSTILE_WRITES:-$(by_flavor 1000 300)}
seed=${HOSTILE_SEED:-$(date +%s)}
splats=$(dmesg_splats)
disk=hw60
cfq_nullb $disk
dev=$(cat /sys/block/$disk/dev)
nullb_create gone60 size=16
gone=$(cat /sys/block/gone60/dev)
nullb_remove gone60

flat=$BLKIO/F60 hier=$BLKIO/H60 child=$BLKIO/H60/c
mkdir $flat $hier && echo 1 >$hier/blkio.use_hierarchy && mkdir $child
tap_check "cgroups F60 (flat), H60 (hierarchical) and H60/c made" \
	grep -qx 1 $child/blkio.use_hierarchy
files="$flat/blkio.weight $flat/blkio.weight_device $flat/blkio.use_hierarchy
$flat/blkio.leaf_weight_device
$hier/blkio.weight_device $hier/blkio.use_hierarchy
$child/blkio.weight $child/blkio.use_hierarchy
$(ls -d /sys/block/$disk/queue/iosched/*)"
set -- $files
nfiles=$#

# The inputs, one a line: "FILE-NUMBER VALUE", VALUE with every byte
# outside printable ASCII, the space and the backslash as a \0NNN escape
# (printf %b turns it back; a NUL cannot be in a shell word, so none).
awk -v n=$writes -v seed=$seed -v nfiles=$nfiles -v dev=$dev -v gone=$gone '
function enc(s,   out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\n")
			c = "\\0012"
		else if (c == " ")
			c = "\\0040"
		out = out c
	}
	return out
}
function pick(list,   a, k) {
	k = split(list, a, "|")
	return a[int(rand() * k) + 1]
}
function number() {
	return pick("0|1|9|10|500|1000|1001|-1|-10|+500|00500| 500|500 |0x1f4|5e2|1.5|" \
		"1024|1025|10000|10001|4294967295|" \
		"4294967296|4294967306|18446744073709551616|99999999999999999999|" \
		"-9223372036854775808|2147483648|12abc|abc|-|+||00|01|1 1")
}
# bytes LEN: LEN random bytes but NUL, already escaped
function bytes(len,   s, i, b) {
	s = ""
	for (i = 0; i < len; i++) {
		b = int(rand() * 255) + 1
		if (b > 32 && b < 127 && b != 92)
			s = s sprintf("%c", b)
		else
			s = s sprintf("\\0%03o", b)
	}
	return s
}
function long_line(len,   s) {
	s = ""
	while (length(s) < len)
		s = s "1234567890"
	return s
}
function majmin() {
	return pick(dev "|" dev "|" gone "|0:0|8:|:0|" dev ":1|999999:0|" \
		"4294967296:0|a:b|-1:0|" dev "0|:|" dev " ")
}
BEGIN {
	srand(seed)
	for (i = 0; i < n; i++) {
		f = int(rand() * nfiles) + 1
		r = rand()
		if (r < 0.35)
			v = number()
		else if (r < 0.6)
			v = majmin() " " number()
		else if (r < 0.7)
			v = majmin() " " number() " " number()
		else if (r < 0.75)
			v = majmin()
		else if (r < 0.9) {
			print f, bytes(int(rand() * 40) + 1)
			continue
		} else if (r < 0.95)
			v = long_line(int(rand() * 8192) + 4000)
		else
			v = number() "\n" number()
		print f, enc(v)
	}
}' >/tmp/h60.inputs
tap_diag "$writes writes, seed $seed, a disk $dev and a removed one $gone"

# tunable_range NAME: the least and the greatest value of cfq's tunable
# NAME (Documentation/block/cfq-iosched.rst): times in ms up to 10 s,
# the two factors up to 1024.
tunable_range() {
	case "$1" in
	slice_idle | group_idle) echo 0 10000 ;;
	slice_sync | slice_async | fifo_expire_sync | fifo_expire_async | \
		target_latency) echo 1 10000 ;;
	slice_async_rq | back_seek_penalty) echo 1 1024 ;;
	low_latency) echo 0 1 ;;
	quantum) echo 1 4294967295 ;;
	back_seek_max) echo 0 4294967295 ;;
	*) echo "no range known for the tunable $1" >&2; return 1 ;;
	esac
}

# valid FILE: FILE's content is one the rules allow.
valid() {
	case "$1" in
	*/queue/iosched/*)
		# shellcheck disable=SC2046
		set -- "$1" $(tunable_range "${1##*/}") || return 1
		awk -v min="$2" -v max="$3" \
			'!(NR == 1 && $0 ~ /^[0-9]+$/ && $0 >= min && $0 <= max) { exit 1 }' "$1"
		;;
	*/blkio.weight) awk '!(NR == 1 && $0 ~ /^[0-9]+$/ && $0 >= 10 && $0 <= 1000) { exit 1 }' "$1" ;;
	*/blkio.use_hierarchy) grep -qx '[01]' "$1" ;;
	*/blkio.leaf_weight_device) ! grep -q . "$1" ;;
	*/blkio.weight_device)
		awk -v dev=$dev '!($1 == dev && $2 ~ /^[0-9]+$/ && $2 >= 10 && $2 <= 1000 && NF == 2) \
			{ exit 1 }' "$1" ;;
	esac
}

: >/tmp/h60.results
bad_errno=0 changed=0 invalid=0
while read -r f enc; do
	eval "file=\${$f}"
	value=$(printf '%b' "$enc")
	before=$(cat "$file")
	got=$(cg_write "$file" "$value")
	after=$(cat "$file")
	echo "$got" >>/tmp/h60.results
	case "$got" in
	ok)
		valid "$file" || {
			invalid=$((invalid + 1))
			[ $invalid -gt 3 ] || tap_diag "  accepted '$enc' into $file, which now reads '$after'"
		}
		;;
	EINVAL | ERANGE | ENODEV | EBUSY | E2BIG)
		[ "$before" = "$after" ] || {
			changed=$((changed + 1))
			[ $changed -gt 3 ] || tap_diag "  refused '$enc' ($got) changed $file: '$before' -> '$after'"
		}
		;;
	*)
		bad_errno=$((bad_errno + 1))
		[ $bad_errno -gt 3 ] || tap_diag "  '$enc' to $file: $got"
		;;
	esac
done </tmp/h60.inputs
tap_diag "results: $(sort /tmp/h60.results | uniq -c | awk '{ printf "%s %s, ", $2, $1 }')"
tap_is "every write was accepted or refused with EINVAL, ERANGE, ENODEV, EBUSY or E2BIG" \
	"$bad_errno" 0
tap_is "every refused write left its file as it was" "$changed" 0
tap_is "every accepted write left a value the rules allow" "$invalid" 0
tap_is "all $writes writes were made" "$(wc -l </tmp/h60.results)" "$writes"

# Every tunable at its greatest value, low_latency on and target_latency
# at its least, so that a slice is shrunk and slice_idle x slice is
# taken in ns (3.6e20, past 64 bits); two direct readers, each a sync
# queue of its own, must both finish.
iosched=/sys/block/$disk/queue/iosched
for file in $iosched/*; do
	set -- $(tunable_range "${file##*/}")
	echo "$2" >"$file"
done
echo 1 >$iosched/target_latency
tap_diag "tunables at their bounds: $(grep . $iosched/* | sed 's|.*/||' | paste -sd' ' -)"
dd if=/dev/$disk of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null &
first=$!
dd if=/dev/$disk of=/dev/null bs=64k count=16 skip=4096 iflag=direct 2>/dev/null
second=$?
wait $first
tap_is "two readers finish with every tunable at its bound" "$? $second" "0 0"

rmdir $child $hier $flat
nullb_remove $disk
tap_is "no new BUG/WARNING/lockdep/KASAN report in the kernel log" "$(dmesg_splats)" "$splats"
