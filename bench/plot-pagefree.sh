#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn the page-free benchmark's raw lines (bench/guest/bench-pagefree.sh,
# collected by bench/bench.sh) into a markdown report and a PNG plot of
# munmap time against size.
#
#   bench/plot-pagefree.sh DATA REPORT.md [PLOT.png]
#
# DATA holds "PF test config size rep seconds", "PFSTAT config test size
# stat delta", "PFINFO key value..." and "PFHOST key value..." lines.
# Times are medians over the repetitions, with the spread (max - min) /
# 2 / median.  Without gnuplot (scripts/setup.sh installs gnuplot-nox) the
# plot is skipped.
set -euo pipefail

# shellcheck source=../scripts/help.sh
. "$(dirname "$0")/../scripts/help.sh"
help_if_asked "$@"

data=${1:?usage: $0 DATA REPORT.md [PLOT.png]}
md=${2:?usage: $0 DATA REPORT.md [PLOT.png]}
png=${3:-}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk -v plotdata="$tmp/sizes.dat" '
function add(k, v) { n[k]++; val[k, n[k]] = v }
# Median, min and max of series k (insertion sort: a few values).
function stats(k,   i, j, m, a, t) {
	m = n[k] + 0
	if (!m)
		return 0
	for (i = 1; i <= m; i++)
		a[i] = val[k, i]
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	MED = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	MIN = a[1]
	MAX = a[m]
	return m
}
function med(k) { return stats(k) ? MED : "" }
function cell(k,   m) {
	m = stats(k)
	if (!m)
		return "–"
	if (m == 1 || MED == 0)
		return sprintf("%.3f s", MED)
	return sprintf("%.3f s ±%.0f%%", MED, 100 * (MAX - MIN) / 2 / MED)
}
function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "–" : sprintf("%.2fx", a / b) }
# The slowdown of b against stock a, in percent.
function slower(a, b) { return (a == "" || b == "") ? "" : 100 * (b / a - 1) }
function pct(x) { return x == "" ? "–" : sprintf("%+.1f%%", x) }
# Median over repetitions of stock / cfg within each repetition: the
# headline series alternate, so repetition r of each ran back to back.
function paired(test, size, cfg,   r, m) {
	m = 0
	for (r = 1; (test, "stock", size, r) in byrep; r++)
		if ((test, cfg, size, r) in byrep && byrep[test, cfg, size, r] > 0)
			val["p", ++m] = byrep[test, "stock", size, r] / byrep[test, cfg, size, r]
	n["p"] = m
	return stats("p") ? sprintf("%.2fx", MED) : "–"
}
function st(cfg, test, size, name,   k) {
	k = cfg SUBSEP test SUBSEP size
	if (!((k, name) in stat) || !n[test SUBSEP cfg SUBSEP size])
		return ""
	return stat[k, name] / n[test SUBSEP cfg SUBSEP size]
}
function num(x, scale, fmt) { return x == "" ? "–" : sprintf(fmt, x / scale) }

$1 == "PF" { add($2 SUBSEP $3 SUBSEP $4, $6); byrep[$2, $3, $4, $5] = $6; next }
$1 == "PFSTAT" { stat[$2 SUBSEP $3 SUBSEP $4, $5] += $6; statkeys[$2 SUBSEP $3 SUBSEP $4] = 1; next }
$1 == "PFINFO" || $1 == "PFHOST" {
	k = $2
	$1 = $2 = ""
	sub(/^ +/, "")
	info[k] = $0
	next
}
END {
	big = info["big"]
	nsizes = split(info["sizes"], sizes, " ")
	haspf = !("nopagefree" in info)

	print "## Page freeing, " info["kernel"]
	print ""
	printf "%s vCPUs, %d MiB, THP %s; medians of %s repetitions, stock, sync and async alternating run by run (small ops: %s; busy: twice as many, stock and sync),", \
		info["cpus"], info["memtotal_kb"] / 1024, \
		(info["thp"] ~ /\[never\]/) ? "off" : info["thp"], info["reps"], info["small_reps"]
	print " spread ±(max − min)/2 as a share of the median."
	print "Stock: mmfree not loaded (small ops and busy: loaded with pagefree/enabled=0, hooks detached). sync, async: pagefree/mode, other knobs at their defaults" \
		(("defaults" in info) ? " (" info["defaults"] ")" : "") "."
	if ("seconds" in info)
		print "The guest ran the series in " info["seconds"] " s."
	if (!haspf)
		print "\n**This mmfree has no pagefree feature: stock only.**"
	if ("other_vms" in info) {
		if (info["other_vms"] > 0)
			print "\n**Development run: up to " info["other_vms"] " other VMs ran on this " \
				info["host_cpus"] "-CPU host meanwhile (host load average up to " \
				info["max_load"] "); the times are not representative.**"
		else
			print "\nNo other VM ran on this " info["host_cpus"] "-CPU host meanwhile " \
				"(host load average up to " info["max_load"] ")."
	}
	print ""

	# 1. Headline.
	print "| series | stock | sync | async | stock/sync | stock/async | target |"
	print "|---|---|---|---|---|---|---|"
	a = med("munmap" SUBSEP "stock" SUBSEP big); b = med("munmap" SUBSEP "sync" SUBSEP big)
	c = med("munmap" SUBSEP "async" SUBSEP big)
	tgt = "sync ≥ 1.5x faster"
	if (a != "" && b != "")
		tgt = tgt ": " ((a / b >= 1.5) ? "**met**" : "**missed**") sprintf(" (%.2fx)", a / b)
	printf "| munmap %s MiB | %s | %s | %s | %s | %s | %s |\n", big, \
		cell("munmap" SUBSEP "stock" SUBSEP big), cell("munmap" SUBSEP "sync" SUBSEP big), \
		cell("munmap" SUBSEP "async" SUBSEP big), ratio(a, b), ratio(a, c), tgt
	a = med("exit" SUBSEP "stock" SUBSEP big); b = med("exit" SUBSEP "sync" SUBSEP big)
	c = med("exit" SUBSEP "async" SUBSEP big)
	printf "| exit of a %s MiB process | %s | %s | %s | %s | %s | – |\n", big, \
		cell("exit" SUBSEP "stock" SUBSEP big), cell("exit" SUBSEP "sync" SUBSEP big), \
		cell("exit" SUBSEP "async" SUBSEP big), ratio(a, b), ratio(a, c)
	split(info["small"], sm, " ")
	small_rows["small"] = sprintf("%s x mmap, touch, munmap of %s KiB, one CPU", sm[1], sm[2])
	small_rows["forkexit"] = sprintf("%s x fork and exit of a small process, one CPU", info["forkexit"])
	small_key["small"] = sm[1] "x" sm[2]
	small_key["forkexit"] = info["forkexit"]
	for (t = 1; t <= 2; t++) {
		test = (t == 1) ? "small" : "forkexit"
		k = small_key[test]
		a = med(test SUBSEP "stock" SUBSEP k); b = med(test SUBSEP "sync" SUBSEP k)
		c = med(test SUBSEP "async" SUBSEP k)
		tgt = "≤ 3% slower"
		if (a != "" && b != "") {
			w = slower(a, b); w2 = slower(a, c)
			tgt = tgt ": sync " pct(w) ((w <= 3) ? " met" : " **missed**")
			if (c != "")
				tgt = tgt ", async " pct(w2) ((w2 <= 3) ? " met" : " **missed**")
		}
		printf "| %s | %s | %s | %s | %s | %s | %s |\n", small_rows[test], \
			cell(test SUBSEP "stock" SUBSEP k), cell(test SUBSEP "sync" SUBSEP k), \
			cell(test SUBSEP "async" SUBSEP k), ratio(a, b), ratio(a, c), tgt
	}
	bm = info["busy"]
	a = med("busy" SUBSEP "stock" SUBSEP bm); b = med("busy" SUBSEP "sync" SUBSEP bm)
	tgt = "sync ≤ 5% slower"
	if (a != "" && b != "") {
		w = slower(a, b)
		tgt = tgt ": " pct(w) ((w <= 5) ? " met" : " **missed**")
	}
	printf "| munmap %s MiB, 2 CPU hogs running (idle_only=1; stock: pagefree disabled, runs alternating) | %s | %s | – | %s | – | %s |\n", bm, \
		cell("busy" SUBSEP "stock" SUBSEP bm), cell("busy" SUBSEP "sync" SUBSEP bm), ratio(a, b), tgt
	# The CPU time of the munmap itself: what the hooks cost while every page is
	# freed inline, without the share of the CPUs the hogs take.
	a = med("busycpu" SUBSEP "stock" SUBSEP bm); b = med("busycpu" SUBSEP "sync" SUBSEP bm)
	if (a != "" && b != "")
		printf "| the same, CPU time of the munmap | %s | %s | – | %s | – | sync %s |\n", \
			cell("busycpu" SUBSEP "stock" SUBSEP bm), \
			cell("busycpu" SUBSEP "sync" SUBSEP bm), ratio(a, b), pct(slower(a, b))
	print ""
	printf "Per-run ratios (the %s MiB munmap and exit alternate stock, sync, async; the median of" \
		" each repetition'"'"'s stock/sync and stock/async): munmap %s and %s, exit %s and %s.\n", big, \
		paired("munmap", big, "sync"), paired("munmap", big, "async"), \
		paired("exit", big, "sync"), paired("exit", big, "async")
	print ""

	# 2. Zap and free.
	print "### Zap and free, " big " MiB"
	print ""
	print "zap: the same operation, untraced, on pages pinned by an io_uring fixed buffer:" \
		" the kernel zaps and unmaps them as usual, accounting included, and drops the" \
		" same references, but frees nothing. free = stock − zap. With 2 CPUs and the free work split" \
		" perfectly, the best possible time is limit = max(zap, (zap + free)/2)." \
		" traced: a separate stock run with function_graph on free_pages_and_swap_cache" \
		" (that function only), free = time inside it, zap = the rest; tracing slows the" \
		" run, so these are for comparison (and stand in when the untraced zap is missing)." \
		" worker_ns: the pool'"'"'s freeing time per repetition in async mode."
	print ""
	print "| series | stock | zap | free | limit | sync | sync/limit | async | async/zap (target ≤ 1.2) | traced: total, free, zap | worker_ns (async) |"
	print "|---|---|---|---|---|---|---|---|---|---|---|"
	for (t = 1; t <= 2; t++) {
		test = (t == 1) ? "munmap" : "exit"
		kt = test SUBSEP "traced" SUBSEP big
		kf = test SUBSEP "free" SUBSEP big
		ktz = test SUBSEP "tracedzap" SUBSEP big
		m = n[kt] + 0
		for (i = 1; i <= m; i++)
			add(ktz, val[kt, i] - val[kf, i])
		a = med(test SUBSEP "stock" SUBSEP big)
		kz = test SUBSEP "zaponly" SUBSEP big
		zap = med(kz); fr = ""
		if (zap != "" && a != "")
			fr = a - zap
		if (zap == "") {
			kz = ktz
			zap = med(ktz); fr = med(kf)
		}
		lim = ""
		if (zap != "" && fr != "")
			lim = (zap > (zap + fr) / 2) ? zap : (zap + fr) / 2
		b = med(test SUBSEP "sync" SUBSEP big); c = med(test SUBSEP "async" SUBSEP big)
		az = "–"
		if (zap != "" && c != "")
			az = sprintf("%.2fx %s", c / zap, (c / zap <= 1.2) ? "met" : "**missed**")
		wns = st("async", test, big, "worker_ns")
		tr = "–"
		if (n[kt])
			tr = cell(kt) ", " cell(kf) ", " cell(ktz)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", test, \
			cell(test SUBSEP "stock" SUBSEP big), cell(kz), \
			(fr == "") ? "–" : sprintf("%.3f s", fr), \
			(lim == "") ? "–" : sprintf("%.3f s", lim), \
			cell(test SUBSEP "sync" SUBSEP big), ratio(b, lim), \
			cell(test SUBSEP "async" SUBSEP big), az, tr, num(wns, 1e9, "%.3f s")
	}
	print ""

	# 3. Sizes (the plot).
	print "### munmap time against size"
	print ""
	print "| MiB | stock | sync | async | stock/sync | stock/async |"
	print "|---|---|---|---|---|---|"
	for (i = 1; i <= nsizes; i++) {
		s = sizes[i]
		a = med("munmap" SUBSEP "stock" SUBSEP s); b = med("munmap" SUBSEP "sync" SUBSEP s)
		c = med("munmap" SUBSEP "async" SUBSEP s)
		printf "| %s | %s | %s | %s | %s | %s |\n", s, cell("munmap" SUBSEP "stock" SUBSEP s), \
			cell("munmap" SUBSEP "sync" SUBSEP s), cell("munmap" SUBSEP "async" SUBSEP s), \
			ratio(a, b), ratio(a, c)
		line = s
		for (j = 1; j <= 3; j++) {
			cfg = (j == 1) ? "stock" : (j == 2) ? "sync" : "async"
			if (stats("munmap" SUBSEP cfg SUBSEP s))
				line = line sprintf(" %.6f %.6f %.6f", MED, MIN, MAX)
			else
				line = line " ? ? ?"
		}
		print line > plotdata
	}
	print ""

	# 4. Workers.
	sw = info["sweep"]
	if (haspf) {
		print "### pagefree/workers, munmap of " sw " MiB"
		print ""
		print "Sync: the munmap returns when every page is free. Async: it returns" \
			" after the zap; workers that compete with the zapping task for its" \
			" CPU show here."
		print ""
		print "| workers | sync | stock/sync | offloaded pages/rep | helped pages/rep | work items/rep | async | stock/async |"
		print "|---|---|---|---|---|---|---|---|"
		a = med("munmap" SUBSEP "stock" SUBSEP sw)
		if (a != "")
			printf "| stock | %s | 1.00x | – | – | – | %s | 1.00x |\n", \
				cell("munmap" SUBSEP "stock" SUBSEP sw), cell("munmap" SUBSEP "stock" SUBSEP sw)
		for (w = 1; w <= 512; w++) {
			k = "sweep" SUBSEP "w" w SUBSEP sw
			ka = "sweep" SUBSEP "aw" w SUBSEP sw
			if (!n[k] && !n[ka])
				continue
			printf "| %d | %s | %s | %s | %s | %s | %s | %s |\n", w, cell(k), ratio(a, med(k)), \
				num(st("w" w, "sweep", sw, "offloaded_pages"), 1, "%.0f"), \
				num(st("w" w, "sweep", sw, "helped_pages"), 1, "%.0f"), \
				num(st("w" w, "sweep", sw, "work_items"), 1, "%.0f"), \
				cell(ka), ratio(a, med(ka))
		}
		print ""

		# 5. Statistics.
		print "### mmfree statistics, per repetition"
		print ""
		print "| config | series | offloaded | helped | inline small | inline busy | inline other | work items | wait_ns | worker_ns |"
		print "|---|---|---|---|---|---|---|---|---|---|"
		# In run order: sync, async, then the sweep; series as run.
		nk = 0
		for (k in statkeys) {
			split(k, p, SUBSEP)
			r = (p[1] == "sync") ? 1 : (p[1] == "async") ? 2 : 3
			if (p[1] ~ /^w[0-9]+$/)
				r += substr(p[1], 2)
			r = r * 10 + index("munmap exit   small  forkexbusy   sweep", substr(p[2], 1, 6)) / 7
			keys[++nk] = k
			rank[k] = sprintf("%04d%012d", r, p[3] + 0)
		}
		for (i = 2; i <= nk; i++)
			for (j = i; j > 1 && rank[keys[j - 1]] > rank[keys[j]]; j--) {
				t = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = t
			}
		for (i = 1; i <= nk; i++) {
			split(keys[i], p, SUBSEP)
			if (!n[p[2] SUBSEP p[1] SUBSEP p[3]])
				continue
			other = 0
			split("nomem oom pressure disabled", o, " ")
			for (j = 1; j <= 4; j++)
				other += st(p[1], p[2], p[3], "inline_" o[j] "_pages")
			printf "| %s | %s %s | %s | %s | %s | %s | %.0f | %s | %s | %s |\n", p[1], p[2], p[3], \
				num(st(p[1], p[2], p[3], "offloaded_pages"), 1, "%.0f"), \
				num(st(p[1], p[2], p[3], "helped_pages"), 1, "%.0f"), \
				num(st(p[1], p[2], p[3], "inline_small_pages"), 1, "%.0f"), \
				num(st(p[1], p[2], p[3], "inline_busy_pages"), 1, "%.0f"), other, \
				num(st(p[1], p[2], p[3], "work_items"), 1, "%.0f"), \
				num(st(p[1], p[2], p[3], "wait_ns"), 1e6, "%.1f ms"), \
				num(st(p[1], p[2], p[3], "worker_ns"), 1e6, "%.1f ms")
		}
		print ""
	}
	close(plotdata)
}' "$data" >"$md"

if [[ -n $png ]]; then
	if ! command -v gnuplot >/dev/null; then
		echo "plot-pagefree.sh: no gnuplot (scripts/setup.sh installs gnuplot-nox): no plot" >&2
	elif [[ ! -s $tmp/sizes.dat ]]; then
		echo "plot-pagefree.sh: no munmap series: no plot" >&2
	else
		kernel=$(awk '$1 == "PFINFO" && $2 == "kernel" { print $3 }' "$data")
		gnuplot <<EOF
set terminal pngcairo size 900,600 font ",11"
set output "$png"
set title "munmap of touched anonymous memory, $kernel, 2 vCPUs (medians, bars: min-max)"
set xlabel "region size (MiB)"
set ylabel "munmap time (s)"
set datafile missing "?"
set key top left
set grid
set xrange [0:*]
set yrange [0:*]
plot "$tmp/sizes.dat" using 1:2:3:4 with yerrorlines lw 2 pt 7 title "stock", \
     "" using 1:5:6:7 with yerrorlines lw 2 pt 5 title "mmfree sync", \
     "" using 1:8:9:10 with yerrorlines lw 2 pt 9 title "mmfree async"
EOF
	fi
fi
