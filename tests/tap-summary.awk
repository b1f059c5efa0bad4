# Count the results of a lab log: test blocks framed by
#   === test NAME
#   (TAP: 1..N, ok/not ok lines, # diagnostics)
#   === exit STATUS
# Prints one line per failure (with the test's name), followed by up to
# twelve of the failed check's diagnostics indented by four spaces, and,
# last,
#   totals PASSED FAILED SKIPPED
# A test fails when it prints "not ok", when it prints no plan, when it
# plans no checks ("1..0": a test that checks nothing proves nothing),
# when it runs fewer or more checks than its plan, when it exits
# non-zero, or when it never reports its exit (the guest died).
# A test that skips all it is about either plans its checks and skips
# each (tests/guest/lib.sh's tap_skip_rest) or prints TAP's whole-test
# skip, "1..0 # SKIP reason", which counts as one skipped check.
# Run with -v label=PREFIX to prefix the names.

function finish_test(status) {
	if (name == "")
		return
	if (status == 143) {
		# Told apart from other statuses: the guest's /init runs each
		# test under timeout(1), whose SIGTERM is how a hang ends.
		failed++
		printf "FAIL %s%s: killed by SIGTERM (status 143), as the guest's per-test timeout ends a test that hangs\n", label, name
	} else if (status != 0 && status != "") {
		failed++
		printf "FAIL %s%s: exited with status %s\n", label, name, status
	} else if (status == "") {
		failed++
		printf "FAIL %s%s: never finished (the guest died or was stopped)\n", label, name
	} else if (plan == "") {
		failed++
		printf "FAIL %s%s: printed no plan (ran %d checks)\n", label, name, count
	} else if (plan == 0 && !skip_all) {
		failed++
		printf "FAIL %s%s: planned no checks (1..0; a test that skips all prints 1..0 # SKIP reason)\n", label, name
	} else if (plan != count) {
		failed++
		printf "FAIL %s%s: planned %d checks, ran %d\n", label, name, plan, count
	} else if (skip_all)
		skipped++
	name = ""
}

/^=== test / {
	finish_test("")
	diags = 0
	name = $3
	plan = ""
	skip_all = 0
	count = 0
	next
}
/^=== exit / {
	finish_test($3)
	next
}
/^=== / { next }
name == "" { next }
/^#/ {
	if (diags > 0) {
		diags--
		print "    " $0
	}
	next
}
{ diags = 0 }
/^1\.\.[0-9]+/ {
	plan = substr($1, 4) + 0
	skip_all = plan == 0 && tolower($0) ~ /^1\.\.0[ \t]*#[ \t]*skip/
	next
}
/^not ok/ {
	count++
	if ($0 ~ /# *TODO/)
		skipped++
	else {
		failed++
		printf "FAIL %s%s: %s\n", label, name, $0
		diags = 12
	}
	next
}
/^ok/ {
	count++
	if (tolower($0) ~ /# *skip/)
		skipped++
	else
		passed++
	next
}
END {
	finish_test("")
	printf "totals %d %d %d\n", passed, failed, skipped
}
