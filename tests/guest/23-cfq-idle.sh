# Idling: on a rotational null_blk (100 us per request), a sequential
# reader that thinks 200 us between requests competes with a greedy
# reader (random reads, 8 in flight: its queue never runs dry, and no
# merges).  With slice_idle=8 cfq waits for the thinker and it keeps a
# fair part of the disk; with slice_idle=0 it loses its turn after every
# request.  Shares are bytes from one fio run each.
. "$LAB_GUEST_LIB"
tap_plan 3

RUNTIME=${CFQ_TEST_RUNTIME:-8}
IOSCHED=/sys/block/cfqidle/queue/iosched

nullb_create cfqidle size=512 blocksize=4096 irqmode=2 completion_nsec=100000 \
	hw_queue_depth=1 rotational=1
set_scheduler cfqidle cfq
tap_check "rotational null_blk, 100 us per request, with cfq" \
	grep -q '\[cfq\]' /sys/block/cfqidle/queue/scheduler

# thinker_share: per mille of the bytes the thinking reader got.
thinker_share() {
	local out=/tmp/cfqidle.$1.terse
	fio --output-format=terse --minimal --filename=/dev/cfqidle --direct=1 \
		--bs=4k --time_based --runtime="$RUNTIME" \
		--name=thinker --ioengine=psync --rw=read --offset=0 --thinktime=200 \
		--name=greedy --ioengine=libaio --iodepth=8 --rw=randread \
		--offset=256m --size=256m \
		>"$out" 2>/tmp/cfqidle.$1.err || sed 's/^/# fio: /' /tmp/cfqidle.$1.err
	awk -F';' '{ b[$3] = ($6 + $47) } END {
		t = b["thinker"] + b["greedy"]
		printf "%d\n", t ? b["thinker"] * 1000 / t : -1 }' "$out"
}

echo 8 >$IOSCHED/slice_idle
with=$(thinker_share idle8)
echo 0 >$IOSCHED/slice_idle
without=$(thinker_share idle0)
echo 8 >$IOSCHED/slice_idle
tap_diag "thinking reader's share: $((with / 10)).$((with % 10)) % with slice_idle=8, $((without / 10)).$((without % 10)) % with slice_idle=0"

tap_check_timing "with slice_idle=8 the thinking reader gets >= 20 %" test "$with" -ge 200
tap_check_timing "with slice_idle=0 it gets under half of that" \
	test "$without" -ge 0 -a $((without * 2)) -lt "$with"

nullb_remove cfqidle
