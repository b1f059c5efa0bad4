#!/bin/sh
# Man pages: they render without warnings, each has examples and SEE ALSO,
# every option of every "--help" is in the command's page and the other
# way round, and so is every column of "show --help".
set -u
n=0
fails=0
result() { # ok|not ok, description
	n=$((n + 1))
	echo "$1 $n - $2"
	[ "$1" = ok ] || fails=$((fails + 1))
}
mandir="$SRCDIR/man"
for page in "$mandir"/*.8; do
	name=$(basename "$page")
	if [ -n "$MANDOC" ]; then
		out=$($MANDOC -T lint -W warning "$page" 2>&1)
		[ -z "$out" ] && result ok "mandoc lint $name" ||
			{ result "not ok" "mandoc lint $name"; echo "$out" | sed 's/^/# /'; }
	fi
	for section in EXAMPLES "SEE ALSO"; do
		grep -q "^\.SH $section\$" "$page" && result ok "$name has $section" ||
			result "not ok" "$name has $section"
	done
	if [ -n "$GROFF" ]; then
		out=$($GROFF -ww -z -man "$page" 2>&1)
		[ -z "$out" ] && result ok "groff -ww $name" ||
			{ result "not ok" "groff -ww $name"; echo "$out" | sed 's/^/# /'; }
	fi
done

# long options as "--name" in --help, as "\-\-name" in the page
help_options() { "$BLKIOTREE" "$@" --help | sed -n '/^Options:/,$p' | grep -o -- '--[a-z][a-z-]*' | sort -u; }
page_options() { sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$1" |
	grep -o -- '\\-\\-[a-z][a-z\\-]*' | sed 's/\\//g' | sort -u; }
check_pair() { # page, command words...
	page=$1; shift
	h=$(help_options "$@"); p=$(page_options "$page")
	if [ "$h" = "$p" ]; then
		result ok "options of 'blkiotree $*' match $(basename "$page")"
	else
		result "not ok" "options of 'blkiotree $*' match $(basename "$page")"
		echo "# help: $(echo $h)"; echo "# page: $(echo $p)"
	fi
}
check_pair "$mandir/blkiotree.8"
for cmd in create set get show top delete attach exec apply export; do
	check_pair "$mandir/blkiotree-$cmd.8" "$cmd"
	# every command is in the main page and in --help
	grep -q "^\.B[R]* $cmd\b" "$mandir/blkiotree.8" &&
		"$BLKIOTREE" --help | grep -q "^ $cmd " &&
		result ok "$cmd in blkiotree.8 and --help" ||
		result "not ok" "$cmd in blkiotree.8 and --help"
done
# show's columns: those --help lists, in the order of the page's Columns
help_columns() { "$BLKIOTREE" show --help |
	sed -n '/^Available output columns:/,/^$/{ /^ /p; }' | awk '{ print $1 }'; }
page_columns() { sed -n '/^\.SS Columns/,/^\.S[SH] /p' "$mandir/blkiotree-show.8" |
	awk 'prev == ".TP" && $1 == ".B" { print $2 } { prev = $1 }'; }
h=$(help_columns | tr '\n' ' '); p=$(page_columns | tr '\n' ' ')
if [ -n "$h" ] && [ "$h" = "$p" ]; then
	result ok "columns of 'blkiotree show --help' match blkiotree-show.8"
else
	result "not ok" "columns of 'blkiotree show --help' match blkiotree-show.8"
	echo "# help: $h"; echo "# page: $p"
fi
echo "1..$n"
[ "$fails" -eq 0 ]
