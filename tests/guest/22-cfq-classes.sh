# I/O priority classes under cfq, on a rotational null_blk that takes
# 100 us per request: RT before BE, IDLE only when the disk is otherwise
# idle, and BE level 0 over level 7.  Shares are bytes from one fio run.
. "$LAB_GUEST_LIB"
tap_plan 4

RUNTIME=${CFQ_TEST_RUNTIME:-8}

nullb_create cfqcls size=512 blocksize=4096 irqmode=2 completion_nsec=100000 \
	hw_queue_depth=1 rotational=1
set_scheduler cfqcls cfq
tap_check "rotational null_blk, 100 us per request, with cfq" \
	grep -q '\[cfq\]' /sys/block/cfqcls/queue/scheduler

# pair NAME OPTS_A OPTS_B: readers a and b started together; prints a's
# share of all bytes in per mille.
pair() {
	local out=/tmp/cfqcls.$1.terse
	fio --output-format=terse --minimal --filename=/dev/cfqcls --direct=1 \
		--ioengine=psync --rw=read --bs=4k --time_based --runtime="$RUNTIME" \
		--name=a --offset=0 $2 --name=b --offset=256m $3 \
		>"$out" 2>/tmp/cfqcls.$1.err || sed 's/^/# fio: /' /tmp/cfqcls.$1.err
	awk -F';' '{ b[$3] = ($6 + $47) } END {
		t = b["a"] + b["b"]; printf "%d\n", t ? b["a"] * 1000 / t : -1 }' "$out"
}

permille() {
	echo "$(($1 / 10)).$(($1 % 10)) %"
}

rt=$(pair rt "--prioclass=1 --prio=4" "--prioclass=2 --prio=4")
tap_diag "RT reader vs BE reader: RT share $(permille "$rt")"
tap_check_timing "RT reader gets >= 95 % against a BE reader" test "$rt" -ge 950

idle=$(pair idle "--prioclass=3" "--prioclass=2 --prio=4")
tap_diag "IDLE reader vs BE reader: IDLE share $(permille "$idle")"
tap_check_timing "IDLE reader gets <= 5 % against a BE reader" \
	test "$idle" -ge 0 -a "$idle" -le 50

be=$(pair be "--prioclass=2 --prio=0" "--prioclass=2 --prio=7")
tap_diag "BE level 0 vs BE level 7: level 0 share $(permille "$be")"
# slices 180 ms vs 40 ms: level 0 should get about 80 %
tap_check_timing "BE level 0 gets clearly more than level 7 (>= 65 %)" test "$be" -ge 650

nullb_remove cfqcls
