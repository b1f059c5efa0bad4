#!/bin/bash
# bash completion (completion/blkiotree): commands, each command's options
# (the same as its --help lists), groups, keys, devices and show's columns
# (the same as its --help lists).  The blkio mount and the device list are
# replaced by a directory and a list made here, so no cgroup hierarchy is
# read.
set -u
n=0
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$SRCDIR/completion/blkiotree"
mkdir -p "$tmp/blkio/grp1/grp3" "$tmp/blkio/grp2"
_blkiotree_blkio_mount() { echo "$tmp/blkio"; }
_blkiotree_devices() { printf '8:0\n8:16\n'; }

# words one a line -> sorted, on one line
sorted() { sort | tr '\n' ' ' | sed 's/ $//'; }

# Complete LINE with the cursor at its end, as readline with its default
# word breaks (which replaces only the text after a "=" or ":"); prints
# the candidates, sorted, on one line.
COMP_WORDBREAKS=$' \t\n"\'@><=;|&(:'
complete_line() {
	COMP_LINE=$1 COMP_POINT=${#1}
	_blkiotree
	printf '%s\n' "${COMPREPLY[@]}" | sorted
}
expect() { # description, line, wanted candidates (sorted)
	got=$(complete_line "$2")
	n=$((n + 1))
	if [ "$got" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "#  got: '$got'"; echo "# want: '$3'"
		fails=$((fails + 1))
	fi
}

expect "commands" "blkiotree " "apply attach create delete exec export get set show top"
expect "a command by its start" "blkiotree de" "delete"
expect "main options" "blkiotree -" "--help --version"
expect "create options" "blkiotree create -" "--help --hierarchy --weight"
expect "options after a group" "blkiotree show grp1 --j" "--json"
# every command offers the long options its --help lists, and no other
for cmd in create set get show top delete attach exec apply export; do
	help=$("$BLKIOTREE" "$cmd" --help | sed -n '/^Options:/,$p' |
		grep -o -- '--[a-z][a-z-]*' | sort -u | sorted)
	expect "$cmd options are those of --help" "blkiotree $cmd -" "$help"
done
expect "groups" "blkiotree set " "/ grp1 grp1/grp3 grp2"
expect "groups by their start" "blkiotree delete -r grp1" "grp1 grp1/grp3"
expect "a group for exec after its options" "blkiotree exec --ioprio be:4 grp2" "grp2"
expect "no option after exec's group" "blkiotree exec grp1 --io" ""
expect "keys for get" "blkiotree get grp1 weight " "use_hierarchy weight weight_device"
expect "keys for set" "blkiotree set grp1 w" "weight= weight_device="
expect "use_hierarchy values" "blkiotree set grp1 use_hierarchy=" "0 1"
expect "weight_device devices" "blkiotree set grp1 weight_device=" "8:0: 8:16:"
expect "weight_device minors" "blkiotree set grp1 weight_device=8:" "0: 16:"
expect "devices for --device" "blkiotree show --device " "8:0 8:16"
expect "devices after MAJ:" "blkiotree show -d 8:1" "16"
expect "an option's argument is no group" "blkiotree show -d 8:0 g" "grp1 grp1/grp3 grp2"
expect "no group for a weight" "blkiotree create --weight g" ""
help_columns=$("$BLKIOTREE" show --help |
	sed -n '/^Available output columns:/,/^$/{ /^ /p; }' | awk '{ print $1 }' | sorted)
expect "show's columns are those of --help" "blkiotree show -o " "$help_columns"
expect "a column by its start" "blkiotree show --output P" "PARENT PID"
expect "a column after others" "blkiotree show -o NAME,S" "NAME,SHARE"
expect "no column twice, after +" "blkiotree show -o +PARENT,NAME,P" "+PARENT,NAME,PID"
expect "groups after -o's columns" "blkiotree show -o NAME,SHARE grp2" "grp2"
expect "devices for top --device" "blkiotree top -d " "8:0 8:16"
expect "no group for an interval" "blkiotree top -i g" ""
expect "groups after top's count" "blkiotree top -n 3 grp2" "grp2"
expect "groups after a weight" "blkiotree create --weight 100 grp1/" "grp1/grp3"
expect "ioprio classes" "blkiotree exec --ioprio b" "be be:0 be:1 be:2 be:3 be:4 be:5 be:6 be:7"
expect "ioprio levels" "blkiotree exec --ioprio rt:" "0 1 2 3 4 5 6 7"
expect "this shell's PID for attach" "blkiotree attach grp1 $$" \
	"$(cd /proc && compgen -G "$$*" | sorted)"
echo "1..$n"
[ "$fails" -eq 0 ]
