# CFQ's notes in blktrace (Documentation/block/cfq-iosched.rst,
# "Tracing"): the seed document's tree (Grp1 and Grp3 hierarchical, so
# Grp3 is scheduled inside Grp1) with a reader in each group, traced
# while fio runs.  Every kind of note appears, every expiry gives a
# documented reason, and every charge of a queue is followed by the
# charges of the groups it is scheduled in, up to the pivot tree, with
# the same amount: the chain the hierarchy says, read from the kernel's
# own account.
#
# The trace is the kernel's blk tracer (ftrace), which formats the notes
# itself.  Debian 12's blkparse (blktrace 1.2.0) drops every note of a
# kernel with CONFIG_BLK_CGROUP, whose notes carry a cgroup flag that
# blktrace 1.3.0 learnt to read.
. "$LAB_GUEST_LIB"
tap_plan 6

tap_skip_unless_hier_cfq
[ -w $TRACING/current_tracer ] || tap_skip_rest "no ftrace in the kernel"

disk=bt27
trace=/tmp/bt27
tap_cfq_nullb $disk
seed_spec 0 1 0 1 >$trace.spec
hier_apply $trace.spec

cfq_notes_start $disk $trace.notes
hier_fio $trace.spec /dev/$disk 4 $trace || tap_diag "fio failed"
cfq_notes_stop $disk $trace.notes
tap_diag "$(wc -l <$trace.notes) notes of cfq"
tap_check "blktrace recorded cfq's notes" test -s $trace.notes

# Each kind of note in the documentation, by the text that starts it.
missing_notes() {
	local kind bad=0
	for kind in "set_active" "slice" "idle armed" "expired" "charged"; do
		grep -q "^cfq[0-9]*[SA][N ] [^ ]* $kind" $trace.notes || {
			echo "no queue note \"$kind\""
			bad=1
		}
	done
	grep -q '^cfq group [^ ]* charged' $trace.notes || {
		echo 'no group note "charged"'
		bad=1
	}
	return $bad
}
tap_check "every kind of note appears" missing_notes

# the reasons of the expiries, "COUNT REASON" a line
sed -n 's/.* expired (\(.*\)): .*/\1/p' $trace.notes | sort | uniq -c >$trace.why
tap_diag "expiries: $(awk '{ c = $1; $1 = ""; printf "%s%s %d", sep, $0, c; sep = "," }' $trace.why)"
tap_check "every expiry names a documented reason" awk '
	{ c = $1; $1 = ""; sub(/^ /, "") }
	!/^(slice used|empty|busy again|idle timer|preempted|async quantum|idle class|queue freed|exit)$/ {
		print "undocumented reason: " $0
		bad = 1
	}
	END { exit bad || !NR }' $trace.why

# The charges, "Q PATH AMOUNT" for a queue and "G PATH AMOUNT" for a
# group, in the order they were noted.
sed -n -e 's/^cfq[0-9]*[SA][N ] \([^ ]*\) charged \([0-9]*\):.*/Q \1 \2/p' \
	-e 's/^cfq group \([^ ]*\) charged \([0-9]*\):.*/G \1 \2/p' $trace.notes >$trace.charges
hier_spec_lines $trace.spec group | awk '{ print $2, $4 }' >$trace.hier
# Each queue charge must be followed by the charges of the groups it is
# scheduled in, with the same amount: its own group, then each parent
# that has use_hierarchy set and so schedules the child inside it.
chain_check() {
	awk -v hierfile=$trace.hier '
	BEGIN { while ((getline l <hierfile) > 0) { split(l, f, " "); hier[f[1]] = f[2] } }
	function parent(p) { sub(/\/[^\/]*$/, "", p); return p == "" ? "/" : p }
	function expect(p,   c) {
		c = p
		while (p != "/" && hier[parent(p)] == 1) {
			p = parent(p)
			c = c " " p
		}
		return c
	}
	function close_chain() {
		if (want == "")
			return
		if (got != want) {
			if (bad++ < 5)
				print "a queue of " qpath " charged " amount ": groups \"" got "\", expected \"" want "\""
		} else
			ok[want]++
		want = ""
	}
	$1 == "Q" {
		started = 1
		close_chain()
		qpath = $2
		amount = $3
		want = expect(qpath)
		got = ""
		next
	}
	$1 == "G" && started {	# (the trace may start inside a chain)
		if (want == "" || $3 != amount) {
			if (bad++ < 5)
				print "a group charge out of a chain: " $0
			next
		}
		got = got == "" ? $2 : got " " $2
	}
	END {
		close_chain()
		for (c in ok)
			print ok[c] " charges through: " c
		exit bad || length(ok) == 0
	}' $trace.charges
}
tap_diag "$(chain_check | tr '\n' ';')"
tap_check "every queue charge is followed by its groups' up to the pivot tree" chain_check
tap_check "the charges reach Grp3 through Grp1, which is hierarchical" \
	grep -q '^G /Grp1/Grp3 ' $trace.charges

hier_remove $trace.spec
nullb_remove $disk
