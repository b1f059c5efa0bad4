#!/usr/bin/env bash
# Boot the guest once and collect what it reports.
#
#   qemu/run.sh [options]
#     --flavor F       kernel flavor (normal, debug); default normal
#     --mode M         test (default), demo or shell
#     --tests A,B      guest tests to run (names without .sh); default all
#                      of the tests folder's [0-9]*.sh, in name order
#     --tests-dir DIR  folder of guest tests; default tests/guest
#     --destdir DIR    `make install DESTDIR=` tree to put in the guest
#     --out DIR        where logs land; default $LAB_OUT/FLAVOR
#     --append PARAMS  more kernel parameters (a test's "# lab-boot:"
#                      line); default $LAB_APPEND
#     --drive-opts O   more -drive options of the virtio disk (a test's
#                      "# lab-drive:" line); default $LAB_DRIVE_OPTS
#     --label NAME     the results' label in the summary; default FLAVOR,
#                      or FLAVOR-CLOCK on another clock than the flavor's
#     --scratch NAME   the virtio disk's file, $LAB_CACHE/scratch-NAME.img;
#                      default FLAVOR (QEMU locks it: a guest that runs
#                      beside another of its flavor needs a name of its own)
#
# In test mode it writes OUT/expected-tests (the tests the guest is
# given), OUT/console.log (everything the guest printed), OUT/results.log
# (the tests' TAP, framed per test, then the kernel log), OUT/dmesg.log,
# and prints a count of the results (see
# tests/tap-summary.awk) including one check that the kernel log has no
# BUG/WARNING/lockdep/KASAN/hung-task report.  Exit status 0 only when
# everything passed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lab.conf"

flavor=normal mode=test tests= tests_dir=$top/tests/guest destdir= out=
append=${LAB_APPEND:-} drive_opts=${LAB_DRIVE_OPTS:-} label= scratch_name=
while [ $# -gt 0 ]; do
	case "$1" in
	--flavor) flavor=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--tests) tests=$2; shift 2 ;;
	--tests-dir) tests_dir=$2; shift 2 ;;
	--destdir) destdir=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--drive-opts) drive_opts=$2; shift 2 ;;
	--label) label=$2; shift 2 ;;
	--scratch) scratch_name=$2; shift 2 ;;
	*) lab_die "run.sh: unknown option $1" ;;
	esac
done
out=${out:-$LAB_OUT/$flavor}

# The knobs of the benchmarks and of the tests' long forms (whole
# numbers) reach the guest's environment through the kernel command line
# as lab.NAME=VALUE, which qemu/guest-init exports.
guest_knobs=
for knob in BENCH_ROUNDS BENCH_RUNTIME BENCH_SHORT HOSTILE_WRITES HOSTILE_SEED CHURN_ROUNDS \
	TEARDOWNS MODULE_CYCLES FAULT_ROUNDS SCALE_GROUPS SCALE_SECONDS; do
	value=${!knob:-}
	[ -n "$value" ] || continue
	[[ $value =~ ^[0-9]+$ ]] || lab_die "$knob must be a whole number, not '$value'"
	guest_knobs="$guest_knobs lab.$knob=$value"
done
# The guest runs exactly the list it is given, and qemu/verdict.sh fails
# every test of it that did not run: one list, made here.
if [ -z "$tests" ]; then
	tests=$(guest_test_names "$tests_dir") || lab_die "no guest tests folder $tests_dir"
fi
mkdir -p "$out"
rm -f "$out"/{console,results,dmesg}.log "$out/expected-tests"

kernel=$("$here/kernel.sh" image "$flavor")
[ -f "$kernel" ] || lab_die "no $flavor kernel at $kernel (qemu/kernel.sh build $flavor)"
"$here/image.sh" "$flavor" "$out/initramfs.cpio" "$destdir" "$tests_dir"

# A sparse scratch file behind the guest's virtio disk (/dev/vda), one
# per flavor so that the normal and debug guests can run side by side.
scratch=$LAB_CACHE/scratch-${scratch_name:-$flavor}.img
[ -f "$scratch" ] || truncate -s 1G "$scratch"

# Nested KVM hangs on some hosts: use it only when a short probe boot
# reaches the guest's init and back; the verdict is kept until the host
# reboots.
accel() {
	case "${LAB_ACCEL:-auto}" in
	tcg | kvm) echo "$LAB_ACCEL"; return ;;
	esac
	local verdict=$LAB_CACHE/accel.$(cat /proc/sys/kernel/random/boot_id)
	# one probe per host boot, also when two guests start at once
	exec 8>"$LAB_CACHE/accel.lock"
	flock 8
	if [ ! -f "$verdict" ]; then
		echo tcg >"$verdict"
		if [ -w /dev/kvm ]; then
			timeout -k 5 30 qemu-system-x86_64 -accel kvm -m 512 -display none \
				-no-reboot -kernel "$kernel" -initrd "$out/initramfs.cpio" \
				-serial null -serial file:"$out/kvm-probe.log" \
				-append "console=ttyS0 panic=-1 lab.mode=probe" \
				</dev/null >/dev/null 2>&1 || true
			grep -q '^lab-probe-ok' "$out/kvm-probe.log" 2>/dev/null && echo kvm >"$verdict"
		fi
	fi
	flock -u 8
	cat "$verdict"
}

# The guest's clock.  Under TCG a guest's time is the host's: its CPU is
# whatever the host spares, so every figure that weighs CPU work against
# a modelled device (shares on the 100 us null_blk, IOPS) moves with the
# host's speed and load.  With instruction counting (-icount) the
# guest's clock advances by 2^shift ns per instruction it executes and,
# with sleep=off, jumps to the next timer when the guest idles: the
# guest sees a 250 MIPS CPU on any host, however busy, and a test's
# figures repeat from run to run and from host to host.  QEMU 7.2 hangs
# bringing up a second vCPU under -icount, so such a guest has one.
# The normal kernel's tests and benchmarks run on it ("icount"); the
# debug kernel judges no timing (tap_check_timing) and an interactive
# shell wants the wall clock, so they keep the host's ("host").
default_clock=host
[ "$flavor" != normal ] || [ "$mode" != test ] || default_clock=icount
clock=${LAB_CLOCK:-$default_clock}
# results on another clock than the flavor's own are told apart
if [ -z "$label" ]; then
	label=$flavor
	[ "$clock" = "$default_clock" ] || label=$flavor-$clock
fi
case "$clock" in
icount) clock_opts=(-smp 1 -icount shift=2,sleep=off) ;;
host) clock_opts=(-smp "${LAB_GUEST_CPUS:-2}") ;;
*) lab_die "LAB_CLOCK must be icount or host, not '$clock'" ;;
esac

machine=(-accel "$(accel)" -m "${LAB_GUEST_MEM:-2048}" "${clock_opts[@]}"
	-no-reboot -display none -kernel "$kernel" -initrd "$out/initramfs.cpio"
	-drive file="$scratch",if=virtio,format=raw,cache=writeback${drive_opts:+,$drive_opts})
cmdline="console=ttyS0 panic=-1 loglevel=5 lab.flavor=$flavor lab.mode=$mode"
cmdline="$cmdline lab.clock=$clock"
cmdline="$cmdline lab.test_timeout=${LAB_TEST_TIMEOUT:-900}"
# Under TCG every vCPU's TSC comes from the one host clock, but the
# kernel's boot-time sync check sees the vCPUs' TSCs apart and falls back
# to the HPET, whose every read is an emulated MMIO access: a clock read
# then costs the guest microseconds instead of nanoseconds, and code that
# reads the clock per request (CFQ, BFQ) looks slower than on any real
# machine.  Keep the TSC, as the hardware the guest models would.
cmdline="$cmdline tsc=reliable"
# Under TCG the debug kernel's ACPI interpreter (lockdep + KASAN on every
# AML step) runs into AML loop timeouts and the virtio disk gets no
# interrupt; without ACPI the guest boots from the BIOS's MP table, which
# lists one CPU.  Lockdep and KASAN check just as well on one CPU.
[ "$flavor" != debug ] || cmdline="$cmdline acpi=off"
[ -z "$tests" ] || cmdline="$cmdline lab.tests=$tests"
cmdline="$cmdline$guest_knobs${append:+ $append}"

case "$mode" in
shell | demo)
	exec qemu-system-x86_64 "${machine[@]}" -serial mon:stdio -serial null \
		-append "$cmdline"
	;;
test) tr ',' '\n' <<<"$tests" | grep . >"$out/expected-tests" || true ;;
*) lab_die "run.sh: unknown mode $mode" ;;
esac

# Host load.  On the wall clock the guest's sense of time is the host's
# CPU: a host busy with other work slows the guest's submitters against
# its modelled devices and moves every share a test measures.  While the
# guest runs, the CPU time that processes other than QEMU take is
# summed per guest test (OUT/host-load.log: "TEST PERCENT" of all the
# host's CPUs), and qemu/verdict.sh shows it beside a failed test.

# current_test: the guest test running now ("boot" before the first).
current_test() {
	local name
	name=$(grep -a '^=== test ' "$out/results.log" 2>/dev/null | tail -n 1) || true
	name=${name#=== test }
	# the guest's tty ends its lines with CR LF (stripped after the run)
	name=${name%$'\r'}
	echo "${name:-boot}"
}

lab_log "booting the $flavor guest ($(accel), $clock clock); console: $out/console.log"
start=$SECONDS
qemu-system-x86_64 "${machine[@]}" -serial file:"$out/console.log" \
	-serial file:"$out/results.log" -append "$cmdline" </dev/null &
qemu=$!
declare -A other_ticks=() all_ticks=()
cpus=$(nproc)
last_busy=$(host_busy_ticks) last_qemu=0 last_uptime=$(cut -d' ' -f1 /proc/uptime)
# A guest that never reaches its init, or never finishes, is stopped.
# The whole run's limit is well above the debug guest's 35 minutes with
# the normal guest beside it (a hung test ends after its own timeout).
boot_limit=${LAB_BOOT_TIMEOUT:-300} run_limit=${LAB_GUEST_TIMEOUT:-4800}
while kill -0 $qemu 2>/dev/null; do
	elapsed=$((SECONDS - start))
	if [ $elapsed -gt "$run_limit" ] ||
		{ [ $elapsed -gt "$boot_limit" ] && ! grep -q '^=== lab' "$out/results.log"; }; then
		lab_log "stopping the $flavor guest after $elapsed s"
		kill $qemu
		break
	fi
	sleep 2
	busy=$(host_busy_ticks)
	# QEMU's last moments are not told apart from other work
	qemu_now=$(process_ticks $qemu) || break
	[ "$qemu_now" -ge "$last_qemu" ] || break
	uptime=$(cut -d' ' -f1 /proc/uptime)
	test_now=$(current_test)
	# ticks are 1/100 s (USER_HZ); /proc/uptime has two decimals
	other_ticks[$test_now]=$((${other_ticks[$test_now]:-0} +
		busy - last_busy - (qemu_now - last_qemu)))
	all_ticks[$test_now]=$((${all_ticks[$test_now]:-0} +
		(10#${uptime/./} - 10#${last_uptime/./}) * cpus))
	last_busy=$busy last_qemu=$qemu_now last_uptime=$uptime
done
wait $qemu || lab_log "qemu exited with status $?"
lab_log "the $flavor guest ran for $((SECONDS - start)) s"
# What each test took on the host's clock ("TEST SECONDS", slowest
# first): where a run's time goes, whichever clock the guest kept.
for t in "${!all_ticks[@]}"; do
	echo "$t $((all_ticks[$t] / cpus / 100))"
done | sort -k2,2nr >"$out/test-times.log"
# On the instruction clock the host's load moves no figure: no report.
[ "$clock" = host ] || all_ticks=()
rm -f "$out/host-load.log"
other_sum=0 all_sum=0
for t in "${!all_ticks[@]}"; do
	other=${other_ticks[$t]} all=${all_ticks[$t]}
	[ "$other" -gt 0 ] || other=0
	other_sum=$((other_sum + other)) all_sum=$((all_sum + all))
	if [ "$all" -gt 0 ]; then
		echo "$t $((100 * other / all))" >>"$out/host-load.log"
	fi
done
[ "$all_sum" -eq 0 ] ||
	lab_log "other processes kept $((100 * other_sum / all_sum)) % of the host's $cpus CPUs busy meanwhile (per test: $out/host-load.log)"

# The guest's tty turned each newline into CR LF.
sed -i 's/\r$//' "$out/results.log" "$out/console.log"
sed -n '/^=== dmesg$/,/^=== end$/p' "$out/results.log" >"$out/dmesg.log"
exec "$here/verdict.sh" "$label" "$out"
