# Switching schedulers under load: 100 switches among cfq, none,
# mq-deadline and bfq while fio writes and verifies from 3 cgroups that
# fio creates and removes around each run; then, when cfq is a module,
# 20 load/unload cycles while other devices use other schedulers.
. "$LAB_GUEST_LIB"
tap_plan 5

nullb_create cfqsw size=64 blocksize=4096 memory_backed=1 irqmode=2 \
	completion_nsec=20000 hw_queue_depth=16 submit_queues=2
tap_check "null_blk for switching" test -b /dev/cfqsw

stop=/tmp/cfqsw.stop
fails=/tmp/cfqsw.fails
rm -f "$stop" "$fails"

# fio runs back to back until told to stop; each run verifies what it
# wrote and removes the cgroups it made.
fio_loop() {
	local n=0
	while [ ! -f "$stop" ]; do
		n=$((n + 1))
		fio --output-format=terse --minimal --filename=/dev/cfqsw \
			--direct=1 --ioengine=libaio --size=8m --verify=crc32c \
			--verify_fatal=1 \
			--name=a --cgroup=cfq-sw-a --offset=0 --rw=randrw --bs=4k --iodepth=8 \
			--name=b --cgroup=cfq-sw-b --offset=8m --rw=randwrite --bs=16k --iodepth=2 \
			--name=c --cgroup=cfq-sw-c --offset=16m --rw=write --bs=4k --iodepth=1 \
			>/tmp/cfqsw.$n.terse 2>/tmp/cfqsw.$n.err ||
			echo "run $n: exit $?: $(head -c 300 /tmp/cfqsw.$n.err)" >>"$fails"
		awk -F';' -v n=$n '$5 != 0 { print "run " n ": job " $3 " error " $5 }' \
			/tmp/cfqsw.$n.terse >>"$fails"
	done
	echo $n >/tmp/cfqsw.runs
}

fio_loop &
loop_pid=$!
sleep 2

switch_fail=0
i=0
for round in $(seq 1 25); do
	for sched in cfq none mq-deadline bfq; do
		i=$((i + 1))
		if ! set_scheduler cfqsw $sched 2>/tmp/cfqsw.switch.err; then
			switch_fail=$((switch_fail + 1))
			tap_diag "switch $i to $sched: $(cat /tmp/cfqsw.switch.err)"
		fi
		# let some I/O through under each scheduler
		[ $((i % 4)) -eq 1 ] && sleep 1
	done
done
tap_is "100 switches among cfq, none, mq-deadline, bfq: none refused" "$switch_fail" 0

set_scheduler cfqsw cfq
touch "$stop"
wait $loop_pid
tap_diag "fio runs during the switches: $(cat /tmp/cfqsw.runs 2>/dev/null)"
if [ -s "$fails" ]; then
	tap_fail "fio verified every run without error"
	sed 's/^/#   /' "$fails"
else
	tap_ok "fio verified every run without error"
fi
nullb_remove cfqsw

# Module cycles, when the kernel has cfq as a module.
if [ -f "/lib/modules/$(uname -r)/modules.dep" ] &&
	grep -q 'cfq.ko' "/lib/modules/$(uname -r)/modules.dep"; then
	nullb_create cfqmod size=64 blocksize=4096 memory_backed=1
	vd=${LAB_VIRTIO_DISK#/dev/}
	set_scheduler "$vd" bfq
	set_scheduler cfqmod mq-deadline
	mod_fail=0
	for i in $(seq 1 20); do
		if ! modprobe cfq; then
			mod_fail=$((mod_fail + 1))
			continue
		fi
		set_scheduler cfqmod cfq || mod_fail=$((mod_fail + 1))
		dd if=/dev/cfqmod of=/dev/null bs=64k count=64 iflag=direct 2>/dev/null
		set_scheduler cfqmod mq-deadline
		rmmod cfq || mod_fail=$((mod_fail + 1))
	done
	tap_is "20 load/use/unload cycles of the cfq module" "$mod_fail" 0
	tap_check "cfq module unloaded at the end" sh -c '! grep -q "^cfq " /proc/modules'
	set_scheduler "$vd" mq-deadline
	nullb_remove cfqmod
else
	tap_skip "20 load/use/unload cycles of the cfq module" "cfq is built in"
	tap_skip "cfq module unloaded at the end" "cfq is built in"
fi
