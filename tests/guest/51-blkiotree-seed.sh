# blkiotree show on the three trees of the seed documentation
# (blkio-controller.txt, "Hierarchical Cgroups"): one busy task tsk1 in
# the root, tsk2 in Grp1, all groups at weight 500, the root at 1000.
# The expected trees and shares are worked out by hand from DESIGN.md
# section 4; show --json must carry the same tree.  The flat tree needs no
# cfq policy files; the other two need blkio.use_hierarchy (skipped, with
# that reason, on a cfq with flat groups only).
. "$LAB_GUEST_LIB"
tap_plan 8

# cfq may be a module: its policy files appear once it is loaded
modprobe cfq 2>/dev/null
HIER=
[ -f "$BLKIO/blkio.weight" ] && [ -f "$BLKIO/blkio.use_hierarchy" ] && HIER=1
NOHIER="no blkio.use_hierarchy (cfq without hierarchical mode)"
others=$(cd "$BLKIO" && for d in */; do [ -d "$d" ] && echo "$d"; done)
[ -z "$others" ] || tap_diag "groups already below the root: $others (shares will differ)"

sleep 600 &
TSK1=$!
blkiotree create Grp1 && blkiotree exec Grp1 -- sleep 600 &
# wait until the exec'd sleep is in Grp1
for i in 1 2 3 4 5 6 7 8 9 10; do
	TSK2=$(cat "$BLKIO/Grp1/tasks" 2>/dev/null | head -n 1)
	[ -n "$TSK2" ] && break
	sleep 1
done
tap_diag "tsk1 is $TSK1, tsk2 is ${TSK2:-missing}"

# The tree part of "show -i" for the two tasks, blanks squeezed, each
# task's command and pid replaced by its name here (a forked shell may not
# have exec'd sleep yet).
tree() {
	blkiotree show -i --pid "$TSK1,$TSK2" | sed '/^$/,$d' | tr -s ' ' |
		sed -e 's/ *$//' -e "s/-[^ ]* task $TSK1 /-tsk1 task /" \
			-e "s/-[^ ]* task $TSK2 /-tsk2 task /"
}

# name and share of each entity, in tree order, from the table and the JSON
table_pairs() {
	blkiotree show -r -n --pid "$TSK1,$TSK2" | sed '/^$/,$d' |
		awk '{ for (i = 2; i <= NF; i++) if ($i ~ /%$/) s = $i; sub(/%$/, "", s); print $1, s }'
}
json_pairs() {
	blkiotree show --json --pid "$TSK1,$TSK2" | sed -n '/"tree"/,$p' |
		grep -o '"name": "[^"]*"\|"share": [0-9.]*' |
		sed 's/.*: //; s/"//g' | awk 'NR % 2 { n = $0; next } { print n, $0 }'
}

check_tree() { # description, expected tree
	local got
	got=$(tree)
	if [ "$got" = "$2" ]; then
		tap_ok "$1"
	else
		tap_fail "$1"
		echo "$got" | sed 's/^/#   got:  /'
		echo "$2" | sed 's/^/#   want: /'
	fi
	tap_is "$1: --json carries the same tree" "$(json_pairs)" "$(table_pairs)"
}

# 1. flat: all groups, the root included, on the pivot tree
blkiotree create Grp2 Grp1/Grp3
check_tree "flat tree" "NAME TYPE PID WEIGHT SHARE IOPRIO HIER
pivot pivot 100.00%
|-/ group 1000 40.00% 0
| \`-tsk1 task 484 40.00% be/4 (nice)
|-/Grp1 group 500 20.00% 0
| \`-tsk2 task 484 20.00% be/4 (nice)
|-/Grp2 group 500 20.00% 0
\`-/Grp1/Grp3 group 500 20.00% 0"

# 2. use_hierarchy=1 in the root: everything below the root
if [ -n "$HIER" ]; then
	blkiotree attach / "$TSK2"
	blkiotree delete -r Grp1 Grp2
	blkiotree set / use_hierarchy=1
	blkiotree create Grp1/Grp3 Grp2
	blkiotree attach Grp1 "$TSK2"
	check_tree "root use_hierarchy=1" "NAME TYPE PID WEIGHT SHARE IOPRIO HIER
pivot pivot 100.00%
\`-/ group 1000 100.00% 1
 |-/Grp1 group 500 33.69% 1
 | |-/Grp1/Grp3 group 500 17.12% 1
 | \`-tsk2 task 484 16.57% be/4 (nice)
 |-/Grp2 group 500 33.69% 1
 \`-tsk1 task 484 32.61% be/4 (nice)"
else
	tap_skip "root use_hierarchy=1" "$NOHIER"
	tap_skip "root use_hierarchy=1: --json carries the same tree" "$NOHIER"
fi

# 3. use_hierarchy=1 in Grp1 and Grp3
if [ -n "$HIER" ]; then
	blkiotree attach / "$TSK2"
	blkiotree delete -r Grp1 Grp2
	blkiotree set / use_hierarchy=0
	blkiotree create --hierarchy Grp1 Grp1/Grp3
	blkiotree create Grp2
	blkiotree attach Grp1 "$TSK2"
	check_tree "use_hierarchy=1 in Grp1 and Grp3" "NAME TYPE PID WEIGHT SHARE IOPRIO HIER
pivot pivot 100.00%
|-/ group 1000 50.00% 0
| \`-tsk1 task 484 50.00% be/4 (nice)
|-/Grp1 group 500 25.00% 1
| |-/Grp1/Grp3 group 500 12.70% 1
| \`-tsk2 task 484 12.30% be/4 (nice)
\`-/Grp2 group 500 25.00% 0"
else
	tap_skip "use_hierarchy=1 in Grp1 and Grp3" "$NOHIER"
	tap_skip "use_hierarchy=1 in Grp1 and Grp3: --json carries the same tree" "$NOHIER"
fi

# --- the flat tree from an apply file gives the same shares
kill "$TSK2"
blkiotree delete -r Grp1 Grp2
cat >/tmp/bt51.json <<'JSON'
{ "groups": [ { "name": "Grp1", "groups": [ { "name": "Grp3" } ] }, { "name": "Grp2" } ] }
JSON
blkiotree apply /tmp/bt51.json
tap_is "apply builds the seed tree" \
	"$(blkiotree show -r -n --pid "$TSK1" | awk '$2 == "group" { print $1, $4 }' | tr '\n' ' ')" \
	"/ 40.00% /Grp1 20.00% /Grp2 20.00% /Grp1/Grp3 20.00% "
blkiotree delete -r Grp1 Grp2
tap_check "the seed groups are gone" test ! -d "$BLKIO/Grp1" -a ! -d "$BLKIO/Grp2"
kill "$TSK1"
