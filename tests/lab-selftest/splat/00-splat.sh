# Lab self-test: a passing test, but a line shaped like a real kernel
# splat lands in the kernel log.
echo "1..1"
echo "WARNING: CPU: 0 PID: 1 at block/lab-selftest.c:1 lab_selftest+0x0/0x10" >/dev/kmsg
echo "ok 1 - the lab's own checks pass"
