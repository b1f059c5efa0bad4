#!/usr/bin/env bash
# tests/bench/report.sh RESULTS ABOUT OUT: the benchmark report, made
# whole from one benchmark run: OUT/BENCHMARKS.md and its plots in
# OUT/bench/.  RESULTS is the run's results.log (qemu/run.sh); ABOUT a
# file of lines that say when, on what and how long it ran (./lab bench
# --report writes it).  A benchmark gives the report its figures as
# "# row" lines (tests/bench/30-fairness.sh says theirs); what else it
# prints as TAP diagnostics goes in as it is, under its name.
#
# Every figure is the median over the rounds of a case, with the least
# and the most beside it.
set -euo pipefail
results=$1 about=$2 out=$3
plots=$out/bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$plots"
rm -f "$plots"/*.png

# awk's median(LIST): the median of the numbers in the string LIST
# (space-separated, a space first), which it sorts into MEDIAN_OF[1..n];
# prepended to the awk programs below that need it
AWK_MEDIAN='
function median(list,  n, i, j, t) {
	delete MEDIAN_OF
	n = split(substr(list, 2), MEDIAN_OF, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && MEDIAN_OF[j - 1] + 0 > MEDIAN_OF[j] + 0; j--) {
			t = MEDIAN_OF[j]; MEDIAN_OF[j] = MEDIAN_OF[j - 1]; MEDIAN_OF[j - 1] = t
		}
	MEDIAN_N = n
	return n % 2 ? MEDIAN_OF[(n + 1) / 2] : (MEDIAN_OF[n / 2] + MEDIAN_OF[n / 2 + 1]) / 2
}'

# median_range: of the numbers on stdin, "MEDIAN (LEAST-MOST)", or
# "MEDIAN" alone when all are the same
median_range() {
	awk "$AWK_MEDIAN"'
		# four significant digits, and whole numbers from 1000 on
		function fmt(x) { return sprintf(x >= 1000 ? "%.0f" : "%.4g", x) }
		{ list = list " " $1 }
		END {
			if (list == "") { print "-"; exit }
			m = median(list)
			if (MEDIAN_OF[1] == MEDIAN_OF[MEDIAN_N])
				print fmt(m)
			else
				print fmt(m) " (" fmt(MEDIAN_OF[1]) "-" fmt(MEDIAN_OF[MEDIAN_N]) ")"
		}'
}

# plot_panels PNG WIDTH HEIGHT LAYOUT TITLE SETTINGS PANELS: a PNG of
# gnuplot panels in a multiplot LAYOUT ("ROWS,COLUMNS"), each of PANELS a
# "set title ..." and a "plot ..." line, under SETTINGS
plot_panels() {
	gnuplot <<GNUPLOT
set terminal pngcairo size $2,$3 noenhanced
set output '$1'
set multiplot layout $4 title '$5'
$6
$7
unset multiplot
GNUPLOT
}

# ---- fairness (30-fairness) ----------------------------------------------

# share rows: TREE CASE MODE DEPTH NR ROUND KIND ENTITY EXPECTED MEASURED
sed -n 's/^# row share //p' "$results" >"$tmp/share"
sed -n 's/^# row iops //p' "$results" >"$tmp/iops"

# worst errors of each run: TREE CASE MODE DEPTH ROUND ABS REL, REL over
# the entities expected at 1 % or more (DESIGN.md section 6)
awk '{
		k = $1 " " $2 " " $3 " " $4 " " $6
		d = $10 - $9
		if (d < 0)
			d = -d
		if (!(k in abs) || d > abs[k])
			abs[k] = d
		r = $9 >= 1 ? 100 * d / $9 : 0
		if (!(k in rel) || r > rel[k])
			rel[k] = r
	}
	END { for (k in abs) print k, abs[k], rel[k] }' "$tmp/share" | sort >"$tmp/worst"

# fairness_table DEPTH: the markdown table of the cases run at DEPTH
fairness_table() {
	local depth=$1 tree case mode nr
	echo "| tree | case | mode | nr_requests | worst error, points | worst relative error, % | IOPS |"
	echo "|---|---|---|---|---|---|---|"
	awk -v depth="$depth" '$4 == depth { print $1, $2, $3, $5 }' "$tmp/iops" | sort -u |
		while read -r tree case mode nr; do
			printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$tree" "$case" "$mode" "$nr" \
				"$(awk -v k="$tree $case $mode $depth" '$1 " " $2 " " $3 " " $4 == k { print $6 }' "$tmp/worst" | median_range)" \
				"$(awk -v k="$tree $case $mode $depth" '$1 " " $2 " " $3 " " $4 == k { print $7 }' "$tmp/worst" | median_range)" \
				"$(awk -v k="$tree $case $mode $depth" '$1 " " $2 " " $3 " " $4 == k { print $7 }' "$tmp/iops" | median_range)"
		done
}

# fairness_plot DEPTH PNG: each entity's median measured share against
# its expected one, a panel per case (every tree and mode in it)
fairness_plot() {
	local depth=$1 png=$2 case panels=''
	for case in cfq-flat cfq-mixed cfq-hier bfq mq-deadline none; do
		awk -v depth="$depth" -v case="$case" "$AWK_MEDIAN"'
			$4 == depth && $2 == case {
				k = $1 " " $3 " " $8
				e[k] = $9
				m[k] = m[k] " " $10
			}
			END { for (k in e) print e[k], median(m[k]) }' "$tmp/share" >"$tmp/plot-$depth-$case"
		[ -s "$tmp/plot-$depth-$case" ] || continue
		panels="$panels
set title '$case'
plot x with lines lc rgb 'gray' notitle, '$tmp/plot-$depth-$case' using 1:2 with points pt 7 ps 0.6 notitle"
	done
	[ -n "$panels" ] || return 0
	plot_panels "$png" 1200 800 2,3 \
		"Measured (y) against expected (x) share of every entity, %, nr_requests $depth" \
		"set grid; set xrange [0:100]; set yrange [0:100]" "$panels"
}

# ---- overhead (40-overhead) -----------------------------------------------

# overhead rows: SCHED GROUPS DEPTH JOBS IODEPTH ROUND IOPS CPU_US
sed -n 's/^# row overhead //p' "$results" >"$tmp/overhead"

# the medians over the rounds, one line per case:
# GROUPS DEPTH JOBS IODEPTH SCHED IOPS CPU_US
awk "$AWK_MEDIAN"'
	{ k = $2 " " $3 " " $4 " " $5 " " $1; iops[k] = iops[k] " " $7; cpu[k] = cpu[k] " " $8 }
	END {
		# the schedulers in the order the text reads them
		split("none mq-deadline bfq cfq-flat cfq-hier", names, " ")
		for (i in names)
			order[names[i]] = i
		for (k in iops) {
			split(k, f, " ")
			print order[f[5]] + 0, k, median(iops[k]), median(cpu[k])
		}
	}' "$tmp/overhead" | sort -k2,2n -k3,3n -k4,4n -k5,5n -k1,1n |
	cut -d' ' -f2- >"$tmp/overhead-medians"

# overhead_table: IOPS per case and scheduler, with the ratios to none's
# IOPS and to mq-deadline's CPU time per request
overhead_table() {
	echo "| groups | depth | jobs x iodepth | scheduler | IOPS (median, range) | IOPS / none's | CPU per request, us | CPU / mq-deadline's |"
	echo "|---|---|---|---|---|---|---|---|"
	awk '{ k = $1 " " $2 " " $3 " " $4 }
		$5 == "none" { none[k] = $6 }
		$5 == "mq-deadline" { dl[k] = $7 }
		{ line[NR] = $0; key[NR] = k }
		END {
			for (i = 1; i <= NR; i++) {
				split(line[i], f, " ")
				printf "%s %s %s %s %s %s %s\n", f[1], f[2], f[3] "x" f[4], f[5],
					(key[i] in none) && none[key[i]] ? sprintf("%.3f", f[6] / none[key[i]]) : "-",
					f[7], (key[i] in dl) && dl[key[i]] ? sprintf("%.3f", f[7] / dl[key[i]]) : "-"
			}
		}' "$tmp/overhead-medians" |
		while read -r groups depth shape sched ratio cpu cpu_ratio; do
			printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$groups" "$depth" "$shape" "$sched" \
				"$(awk -v k="$sched $groups $depth ${shape%x*} ${shape#*x}" \
					'$1 " " $2 " " $3 " " $4 " " $5 == k { print $7 }' "$tmp/overhead" | median_range)" \
				"$ratio" "$cpu" "$cpu_ratio"
		done
}

# hier_flat_table: cfq's IOPS with the groups nested against flat, per
# case (the seed's "no drop")
hier_flat_table() {
	echo "| groups | depth | jobs x iodepth | cfq nested / flat IOPS |"
	echo "|---|---|---|---|"
	awk '{ k = $1 " | " $2 " | " $3 "x" $4 }
		$5 == "cfq-flat" { flat[k] = $6 }
		$5 == "cfq-hier" { hier[k] = $6; order[++n] = k }
		END {
			for (i = 1; i <= n; i++)
				if (flat[order[i]])
					printf "| %s | %.3f |\n", order[i], hier[order[i]] / flat[order[i]]
		}' "$tmp/overhead-medians"
}

# overhead_plot PNG: IOPS as a ratio to none's against the number of busy
# groups (fio's 2 jobs of depth 16), a panel per chain depth
overhead_plot() {
	local png=$1 depth sched panels=''
	for depth in 1 4; do
		local plot='' sep=''
		for sched in mq-deadline bfq cfq-flat cfq-hier; do
			# the one-group case is the same for both depths
			awk -v depth="$depth" -v sched="$sched" '
				$3 == 2 && $4 == 16 && ($2 == depth || $1 == 1) { k = $1; if ($5 == "none") none[k] = $6; if ($5 == sched) v[k] = $6 }
				END { for (k in v) if (none[k]) print k, v[k] / none[k] }' \
				"$tmp/overhead-medians" | sort -n >"$tmp/plot-ov-$depth-$sched"
			[ -s "$tmp/plot-ov-$depth-$sched" ] || continue
			plot="$plot$sep'$tmp/plot-ov-$depth-$sched' using 1:2 with linespoints title '$sched'"
			sep=", "
		done
		[ -z "$plot" ] || panels="$panels
set title 'chains of depth $depth'
plot $plot"
	done
	[ -n "$panels" ] || return 0
	plot_panels "$png" 1200 500 1,2 \
		"IOPS as a ratio to none, against busy groups (fio: 2 jobs, depth 16)" \
		"set logscale x; set xlabel 'busy groups'; set ylabel 'IOPS / none'; set grid; set key bottom left" \
		"$panels"
}

# ---- latency under load (50-latency) ---------------------------------------

# latency rows: SCHED ROUND IDLE_SECONDS LOADED_SECONDS
sed -n 's/^# row latency //p' "$results" >"$tmp/latency"

latency_table() {
	local sched
	echo "| scheduler | idle disk, s | under the copy, s | ratio |"
	echo "|---|---|---|---|"
	for sched in none mq-deadline bfq cfq; do
		grep -q "^$sched " "$tmp/latency" || continue
		printf '| %s | %s | %s | %s |\n' "$sched" \
			"$(awk -v s="$sched" '$1 == s { print $3 }' "$tmp/latency" | median_range)" \
			"$(awk -v s="$sched" '$1 == s { print $4 }' "$tmp/latency" | median_range)" \
			"$(awk -v s="$sched" '$1 == s && $3 > 0 { print $4 / $3 }' "$tmp/latency" | median_range)"
	done
}

# latency_plot PNG: the ratio per scheduler, median with its range
latency_plot() {
	local sched i=0
	for sched in none mq-deadline bfq cfq; do
		awk -v i=$i -v s="$sched" "$AWK_MEDIAN"'
			$1 == s && $3 > 0 { list = list " " $4 / $3 }
			END { if (list != "") print i, s, median(list), MEDIAN_OF[1], MEDIAN_OF[MEDIAN_N] }' "$tmp/latency"
		i=$((i + 1))
	done >"$tmp/plot-latency"
	[ -s "$tmp/plot-latency" ] || return 0
	gnuplot <<GNUPLOT
set terminal pngcairo size 800,500 noenhanced
set output '$1'
set title 'Reading 200 small files under a copy, as a ratio to the idle disk'
set ylabel 'time under the copy / time idle'
set style fill solid 0.5
set boxwidth 0.6
set yrange [0:*]
set grid ytics
set xtics rotate by 0
plot '$tmp/plot-latency' using 1:3:xtic(2) with boxes notitle, \
	'' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0 notitle
GNUPLOT
}

# ---- the summary ---------------------------------------------------------

# fairness_summary: per case and nr_requests, the largest of the
# medians in the fairness tables (over every tree and mode) and where
fairness_summary() {
	echo "| case | nr_requests | worst error, points | where | worst relative error, % | where |"
	echo "|---|---|---|---|---|---|"
	awk "$AWK_MEDIAN"'
		{ k = $2 " " $4 " " $1 " " $3; a[k] = a[k] " " $6; r[k] = r[k] " " $7 }
		END {
			for (k in a) {
				split(k, f, " ")
				c = f[1] " " f[2]
				ma = median(a[k]); mr = median(r[k])
				where = f[3] (f[4] == "-" ? "" : " " f[4])
				if (!(c in wa) || ma > wa[c]) { wa[c] = ma; wha[c] = where }
				if (!(c in wr) || mr > wr[c]) { wr[c] = mr; whr[c] = where }
			}
			split("cfq-flat cfq-mixed cfq-hier bfq mq-deadline none", names, " ")
			for (i = 1; i <= 6; i++)
				for (d = 1; d <= 2; d++) {
					c = names[i] " " (d == 1 ? "default" : "128")
					if (c in wa)
						printf "| %s | %s | %.2f | %s | %.1f | %s |\n", names[i],
							d == 1 ? "default" : "128", wa[c], wha[c], wr[c], whr[c]
				}
		}' "$tmp/worst"
}

# overhead_ratio NUM DEN GROUPS: NUM's IOPS as a ratio to DEN's (two
# schedulers of the overhead table), median and range over the cases
# with one busy group (GROUPS "one") or more ("many")
overhead_ratio() {
	awk -v num="$1" -v den="$2" -v groups="$3" '
		(groups == "one") != ($1 == 1) { next }
		{ k = $1 " " $2 " " $3 " " $4 }
		$5 == num { n[k] = $6 }
		$5 == den { d[k] = $6 }
		END { for (k in n) if (d[k]) print n[k] / d[k] }' "$tmp/overhead-medians" | median_range
}

# overhead_summary: cfq's IOPS against mq-deadline's and bfq's
overhead_summary() {
	local groups
	echo "| busy groups | cfq flat / mq-deadline | cfq nested / mq-deadline | cfq flat / bfq | cfq nested / bfq | cfq nested / flat |"
	echo "|---|---|---|---|---|---|"
	for groups in one many; do
		printf '| %s | %s | %s | %s | %s | %s |\n' \
			"$([ $groups = one ] && echo "1 (fio's four shapes)" || echo "more than 1 (the busy-group cases)")" \
			"$(overhead_ratio cfq-flat mq-deadline $groups)" \
			"$(overhead_ratio cfq-hier mq-deadline $groups)" \
			"$(overhead_ratio cfq-flat bfq $groups)" \
			"$(overhead_ratio cfq-hier bfq $groups)" \
			"$(overhead_ratio cfq-hier cfq-flat $groups)"
	done
}

# ---- the report ----------------------------------------------------------

{
	echo "# Benchmarks"
	echo
	echo "Made whole by \`./lab bench --report\` from one run of the"
	echo "benchmarks in \`tests/bench/\`; do not edit by hand."
	echo
	sed 's/^/- /' "$about"
	echo
	if [ -s "$tmp/share" ] || [ -s "$tmp/overhead" ]; then
		echo "## Summary"
		echo
		echo "The headline figures of the sections below, each a median of"
		echo "the rounds."
	fi
	if [ -s "$tmp/share" ]; then
		echo
		echo "Fairness: the largest of each case's errors in the tables"
		echo "below, over every tree and mode, and where it was."
		echo
		fairness_summary
	fi
	if [ -s "$tmp/overhead" ]; then
		echo
		echo "Overhead: cfq's IOPS as a ratio to its peers' on the"
		echo "zero-latency disk, the median over the cases of the overhead"
		echo "table with the least and the most in brackets."
		echo
		overhead_summary
	fi
	[ ! -s "$tmp/share" ] && [ ! -s "$tmp/overhead" ] || echo
	if [ -s "$tmp/share" ]; then
		echo "## Fairness"
		echo
		echo "How close each scheduler comes to the shares a tree asks for"
		echo "(\`tests/bench/30-fairness.sh\` says how it runs and what its"
		echo "cases are).  Worst error: the largest distance, in percentage"
		echo "points, between an entity's measured and expected share in a"
		echo "run; relative: that distance as a share of the expected one,"
		echo "over the entities expected at 1 % or more.  mq-deadline and"
		echo "none have no policy: their errors say how far from the tree's"
		echo "shares the disk goes by itself."
		for depth in default 128; do
			grep -q " $depth " "$tmp/iops" || continue
			echo
			echo "### nr_requests: $depth"
			echo
			fairness_table "$depth"
			fairness_plot "$depth" "$plots/fairness-$depth.png"
			[ ! -f "$plots/fairness-$depth.png" ] ||
				printf '\n![measured against expected share, nr_requests %s](bench/fairness-%s.png)\n' \
					"$depth" "$depth"
		done
		echo
	fi
	if [ -s "$tmp/overhead" ]; then
		echo "## Overhead"
		echo
		echo "What each scheduler costs on a disk that costs nothing"
		echo "(\`tests/bench/40-overhead.sh\`): IOPS, and the guest CPU's"
		echo "busy time per request, medians of the rounds."
		echo
		overhead_table
		overhead_plot "$plots/overhead.png"
		[ ! -f "$plots/overhead.png" ] ||
			printf '\n![IOPS as a ratio to none against busy groups](bench/overhead.png)\n'
		echo
		echo "### Nested against flat"
		echo
		echo "cfq's IOPS with every group nested (the root's use_hierarchy 1)"
		echo "as a ratio to the same groups flat, from the table above."
		echo
		hier_flat_table
		echo
	fi
	if [ -s "$tmp/latency" ]; then
		echo "## Latency under load"
		echo
		echo "Starting an application while a copy runs"
		echo "(\`tests/bench/50-latency.sh\`): the time to read 200 small"
		echo "files cold from one group while another group reads and writes"
		echo "large files, against the same read on the idle disk."
		echo
		latency_table
		latency_plot "$plots/latency.png"
		[ ! -f "$plots/latency.png" ] ||
			printf '\n![small-file read under a copy, ratio to idle](bench/latency.png)\n'
		echo
	fi
	# what the benchmarks print besides their rows, under their names
	awk '/^=== test / { name = $3; n = 0; next }
		/^=== / {
			if (name != "" && n) {
				printf "## %s\n\n```\n", name
				for (i = 1; i <= n; i++)
					print l[i]
				print "```\n"
			}
			name = ""
			next
		}
		name != "" && /^# / && !/^# row / { l[++n] = substr($0, 3) }' "$results"
} >"$out/BENCHMARKS.md"
