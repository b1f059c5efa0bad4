# Lab self-test: a passing test, but lines shaped like real kernel splats
# land in the kernel log, each in the form the kernel prints it: one of
# every kind qemu/verdict.sh must report (SPLATS), and lines it must not
# take for one (NOT_SPLATS).  tests/host/lab-selftest.sh reads both lists
# from here.
kmsg() {
	while read -r line; do
		echo "$line" >/dev/kmsg
	done
}
echo "1..1"
kmsg <<'SPLATS'
WARNING: CPU: 0 PID: 1 at block/lab-selftest.c:1 lab_selftest+0x0/0x10
BUG: KASAN: slab-out-of-bounds in lab_selftest+0x0/0x10
kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
divide error: 0000 [#1] PREEMPT SMP
stack segment: 0000 [#1] PREEMPT SMP
double fault: 0000 [#1] PREEMPT SMP
watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [lab-selftest:1]
NMI watchdog: Watchdog detected hard LOCKUP on cpu 0
INFO: trying to register non-static key.
SPLATS
# A user program's fault, which the kernel logs but is no kernel bug.
kmsg <<'NOT_SPLATS'
traps: lab-selftest[1] trap divide error ip:401000 sp:7ffc0000 error:0 in lab-selftest[401000+1000]
NOT_SPLATS
echo "ok 1 - the lab's own checks pass"
