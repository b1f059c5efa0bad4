# Count the results of a lab log: test blocks framed by
#   === test NAME
#   (TAP: 1..N, ok/not ok lines, # diagnostics)
#   === exit STATUS
# Prints one line per failure (with the test's name), followed by up to
# twelve of the failed check's diagnostics indented by four spaces, and,
# last,
#   totals PASSED FAILED SKIPPED
# A test fails when it prints "not ok", when it runs fewer or more
# checks than its plan, when it exits non-zero, or when it never
# reports its exit (it hung or the guest died).
# Run with -v label=PREFIX to prefix the names.

function finish_test(status) {
	if (name == "")
		return
	if (status != 0 && status != "") {
		failed++
		printf "FAIL %s%s: exited with status %s\n", label, name, status
	} else if (status == "") {
		failed++
		printf "FAIL %s%s: never finished (hung, or the guest died)\n", label, name
	} else if (plan != "" && plan != count) {
		failed++
		printf "FAIL %s%s: planned %d checks, ran %d\n", label, name, plan, count
	} else if (plan == "" && count == 0) {
		failed++
		printf "FAIL %s%s: printed no TAP result\n", label, name
	}
	name = ""
}

/^=== test / {
	finish_test("")
	diags = 0
	name = $3
	plan = ""
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
