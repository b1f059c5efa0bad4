# The EXAMPLES of blkiotree's man pages, replayed from the pages as
# installed in the guest (man -w): the page of every command, and
# blkiotree(8), must have an example that runs here verbatim and prints
# what the page shows.
#
# Which examples run (blkiotree(8) tells the reader the same): in a
# page's EXAMPLES section, a .nf/.fi block whose first line starts with
# "$ " is a transcript of a root shell.  Each "$ " line is a command; the
# lines after it, up to the next "$ " line, are all that it prints,
# standard error included.  Other blocks (a command alone, a file, an
# output without its command) are illustrations and are not run.
#
# Each transcript is replayed on its own, its commands verbatim in one
# sh, from an empty working directory, on what the pages say they were
# made on: the disk vda (254:0) under cfq and no group in the blkio
# hierarchy.  The replay must print the block's text, read as roff reads
# it (the escapes \- \(aq \(dq \(ga \e \&; any other fails the block),
# line for line; blanks at line ends do not count, as a page cannot hold
# them.  Then the groups it made are deleted and the root group's values
# and the disks' schedulers put back.  One check per transcript, and one
# per page that it has one.
# shellcheck shell=sh source=tests/guest/lib.sh
. "$LAB_GUEST_LIB"

work=/tmp/t57
rm -rf $work
mkdir -p $work/blocks

# man_transcripts PAGE_FILE PREFIX: write each transcript of the page's
# EXAMPLES, as plain text, to PREFIX.1, PREFIX.2, ...; print their count.
# Fails, naming the line, on roff the replay cannot read as text.
man_transcripts() {
	awk -v prefix="$2" '
		function text(s, where) {
			if (s ~ /^[.\047]/)
				return cannot(where, s)
			gsub(/\\-/, "-", s)
			gsub(/\\\(aq/, "\047", s)
			gsub(/\\\(dq/, "\"", s)
			gsub(/\\\(ga/, "`", s)
			gsub(/\\&/, "", s)
			if (s ~ /\\[^e]/ || s ~ /\\$/)
				return cannot(where, s)
			gsub(/\\e/, "\\", s)
			return s
		}
		function cannot(where, s) {
			print FILENAME ":" where ": cannot replay: " s | "cat >&2"
			bad = 1
			return s
		}
		/^\.SH / { examples = $0 == ".SH EXAMPLES"; next }
		!examples { next }
		$0 == ".nf" { n = 0; block = 1; next }
		$0 == ".fi" {
			if (block && n && line[1] ~ /^\$ /) {
				file = prefix "." ++count
				for (i = 1; i <= n; i++)
					print text(line[i], FNR - n - 1 + i) >file
				close(file)
			}
			block = 0
			next
		}
		block { line[++n] = $0 }
		END { print count + 0; exit bad }' "$1"
}

# The commands, as blkiotree --help lists them, and their pages.
commands=$(blkiotree --help | sed -n '/^Commands:/,/^$/s/^ \([a-z][a-z]*\) .*/\1/p')
pages=blkiotree
for c in $commands; do
	pages="$pages blkiotree-$c"
done

: >$work/transcripts
: >$work/counts
for page in $pages; do
	file=$(man -w "$page" 2>&1) &&
		count=$(man_transcripts "$file" "$work/blocks/$page" 2>"$work/$page.err") ||
		count=0
	echo "$page $count $file" >>$work/counts
	i=1
	while [ "$i" -le "$count" ]; do
		echo "$page $i" >>$work/transcripts
		i=$((i + 1))
	done
done
tap_plan $(($(wc -l <$work/counts) + $(wc -l <$work/transcripts)))

while read -r page count file; do
	if [ "$count" -gt 0 ] && [ ! -s "$work/$page.err" ]; then
		tap_ok "$page(8) has $count example(s) to replay"
	else
		tap_fail "$page(8) has an example to replay"
		tap_diag "  man -w $page: $file"
		sed 's/^/#   /' "$work/$page.err"
	fi
done <$work/counts

if ! cfq_available; then
	rm -rf $work
	tap_skip_rest "the kernel offers no cfq scheduler"
fi
disk=${LAB_VIRTIO_DISK#/dev/}
disk_scheduler=$(sed 's/.*\[\(.*\)\].*/\1/' "/sys/block/$disk/queue/scheduler")
set_scheduler "$disk" cfq
tap_diag "$disk is $(cat "/sys/block/$disk/dev"), under $disk_scheduler, cfq for the examples"
(cd "$BLKIO" && find . -mindepth 1 -type d) | sort >$work/groups.before
[ ! -s $work/groups.before ] ||
	tap_diag "groups left by earlier tests (examples may differ): $(cat $work/groups.before)"

# The values an example may change beyond its own groups, as
# "FILE VALUE" lines: the root group's and each disk's scheduler.
system_state() {
	for f in "$BLKIO/blkio.weight" "$BLKIO/blkio.use_hierarchy"; do
		[ ! -f "$f" ] || echo "$f $(cat "$f")"
	done
	for f in /sys/block/*/queue/scheduler; do
		echo "$f $(sed 's/.*\[\(.*\)\].*/\1/' "$f")"
	done
}
system_state >$work/state.before

# replay TRANSCRIPT: run its commands in one sh from an empty folder,
# each echoed as the page shows it (keeping $? for the next command);
# prints what that sh printed, blanks at line ends cut.
replay() {
	rm -rf $work/cwd
	mkdir $work/cwd
	awk 'BEGIN { print "t57_page_line() { t57_status=$?; cat; return $t57_status; }" }
		/^\$ / {
			print "t57_page_line <<\047T57_PAGE_LINE\047"
			print
			print "T57_PAGE_LINE"
			print substr($0, 3)
		}' "$1" >$work/replay.sh
	(cd $work/cwd && sh $work/replay.sh </dev/null 2>&1) | sed 's/[[:blank:]]*$//'
}

# Delete the groups the example made, children first, with their tasks
# moved to the root group, and put back what system_state saw before.
undo_example() {
	(cd "$BLKIO" && find . -mindepth 1 -type d) | sort -r |
		while read -r group; do
			grep -qxF "$group" $work/groups.before ||
				blkio_group_remove "${group#./}"
		done
	while read -r f value; do
		echo "$value" >"$f"
	done <$work/state.before
	rm -rf $work/cwd
}

while read -r page i; do
	block=$work/blocks/$page.$i
	sed 's/[[:blank:]]*$//' "$block" >"$block.want"
	replay "$block" >"$block.got"
	if cmp -s "$block.want" "$block.got"; then
		tap_ok "$page(8) example $i replays as the page shows it"
	else
		tap_fail "$page(8) example $i replays as the page shows it"
		diff -u "$block.want" "$block.got" | sed 's/^/#   /'
	fi
	undo_example
done <$work/transcripts

set_scheduler "$disk" "$disk_scheduler"
rm -rf $work
