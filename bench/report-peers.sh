#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue 23's targets across the boots of bench/bench.sh's peers part,
# from its boots file (each line "boot N " and a line of
# bench/guest/bench-peers.sh): markdown on stdout.  Each boot's own
# report (curve, model, statistics) is bench/plot-peers.sh's.
#
#   bench/report-peers.sh DATA...
#
# Several files (boots run in different sessions, say) count as one run
# of all their boots, numbered on from one file to the next.
# A ratio is A's time over B's in the same repetition (the
# configurations alternate run by run); each cell is the median of the
# boots' medians, then every boot's median, then the range of every
# repetition.  A target is met when the median of the boots' medians
# meets it.  A run that never got its memory back within pfbench's 20 s
# (-1) enters no ratio and is counted.  The over-kill target is met only
# when the daemon that waits killed no more processes than needed in
# every repetition of every boot.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=report-lib.sh
. "$top/bench/report-lib.sh"

report_awk '
# Ratios test1/cfg1 over test2/cfg2 at size s: sets MED (median of the
# boots medians, "" without data), BOOTS (each boot median), LO and HI
# (every repetition), LOST (runs left out for -1).
function ratios(t1, c1, t2, c2, s,    b, r, list, all, bl, n, x, i) {
	all = ""; bl = ""; LOST = 0
	for (b = 1; b <= boots; b++) {
		list = ""
		for (r = 1; r <= reps[b]; r++) {
			if (!((b, t1, c1, s, r) in v) || !((b, t2, c2, s, r) in v))
				continue
			if (v[b, t1, c1, s, r] <= 0 || v[b, t2, c2, s, r] <= 0) {
				LOST++
				continue
			}
			list = list " " v[b, t1, c1, s, r] / v[b, t2, c2, s, r]
		}
		if (list != "") {
			all = all list
			bl = bl " " median(list)
		}
	}
	BOOTS = ""
	MED = ""
	if (bl == "")
		return ""
	n = split(bl, x, " ")
	for (i = 1; i <= n; i++)
		BOOTS = BOOTS (i > 1 ? ", " : "") sprintf("%.2f", x[i])
	MED = median(bl)
	median(all)
	return MED
}
function row(label, goal, t1, c1, t2, c2, s,    verdict, lost) {
	ratios(t1, c1, t2, c2, s)
	if (MED == "") {
		printf "| %s | no data | - |\n", label
		return
	}
	verdict = "met"
	if (MED < goal)
		verdict = sprintf("**missed** by %.1f%%", 100 * (goal - MED) / goal)
	lost = LOST ? sprintf("; %d runs not back in 20 s", LOST) : ""
	printf "| %s | %.3f (boots %s; runs %.2f-%.2f)%s | %s |\n", label, MED, BOOTS,
		LO, HI, lost, verdict
}
# Median (range) of test/cfg at size s over every boot and repetition
# (-1, not back in 20 s, left out).
function plain(t, c, s, fmt,    b, r, list, m) {
	list = ""
	for (b = 1; b <= boots; b++)
		for (r = 1; r <= reps[b]; r++)
			if ((b, t, c, s, r) in v && v[b, t, c, s, r] >= 0)
				list = list " " v[b, t, c, s, r]
	if (list == "")
		return "-"
	m = median(list)
	return sprintf(fmt " (" fmt "-" fmt ")", m, LO, HI)
}
$1 == "boot" && $3 == "PF" {
	b = $2
	v[b, $4, $5, $6, $7] = $8
	if ($7 > reps[b]) reps[b] = $7
	if (b > boots) boots = b
	next
}
$1 == "boot" && $3 == "PFINFO" && $4 == "kernel" { kernel = $5; next }
$1 == "boot" && $3 == "PFINFO" && $4 == "peer" { peer = $5; next }
$1 == "boot" && $3 == "PFINFO" && $4 == "redis" { redis = $5; next }
$1 == "boot" && $3 == "PFINFO" && $4 == "overkill_interval_ms" { interval = $5; next }
$1 == "boot" && $3 == "PFINFO" && $4 == "overkill_hog" {
	need = $NF; hog = $7
	next
}
$1 == "boot" && $3 == "PFHOST" && $4 == "other_vms" && $5 > others { others = $5 }
END {
	n = 0
	for (b = 1; b <= boots; b++)
		n += reps[b]
	printf "## Memory back: issue 23'\''s targets, %s\n\n", kernel
	printf "%d boots, %d repetitions in all; process_mrelease and the exit at %d MiB, redis-server at %d MiB. ", boots, n, peer, redis
	printf "Memory back: until MemAvailable plus the per-CPU lists regained 95%% of what the process took. "
	printf "Each cell: the median of the boots'\'' medians of the per-repetition ratios, each boot'\''s median, and the range of every repetition.\n\n"
	printf "| target | measured | verdict |\n|---|---|---|\n"
	row("process_mrelease against sync, memory back: mrelease/sync >= 1.0", 1, "avail", "mrelease", "avail", "sync", peer)
	row("process_mrelease against async, memory back: mrelease/async >= 1.0", 1, "avail", "mrelease", "avail", "async", peer)
	row("redis-server shutdown, memory back: stock/async >= 1.5", 1.5, "redisavail", "stock", "redisavail", "async", redis)
	row("redis-server shutdown, memory back: stock/sync >= 1.5", 1.5, "redisavail", "stock", "redisavail", "sync", redis)
	row(peer " MiB exit, memory back: stock/async >= 1.5", 1.5, "avail", "stock", "avail", "async", peer)
	# Over-kill: the daemon that waits, every repetition.
	worst = -1; runs = 0
	for (b = 1; b <= boots; b++)
		for (r = 1; r <= reps[b]; r++)
			if ((b, "overkill", "async-wait", 4, r) in v) {
				runs++
				if (v[b, "overkill", "async-wait", 4, r] > worst)
					worst = v[b, "overkill", "async-wait", 4, r]
			}
	if (runs) {
		verdict = worst <= need ? "met" : "**missed**"
		printf "| over-kill: async with the wait kills no more than needed (%d), every repetition | at most %d in %d runs | %s |\n",
			need, worst, runs, verdict
	} else
		print "| over-kill: async with the wait kills no more than needed | no data | - |"
	printf "\nOver-kill scenario: 4 hogs of %s MiB, the daemon looks every %s ms; processes killed and seconds until memory is back, median (range) of every repetition:\n\n", hog, interval
	printf "| config | killed | memory back (s) |\n|---|---|---|\n"
	split("stock sync async async-wait", cf, " ")
	for (i = 1; i <= 4; i++)
		printf "| %s | %s | %s |\n", cf[i], plain("overkill", cf[i], 4, "%d"),
			plain("overkillback", cf[i], 4, "%.2f")
	printf "\nMemory back, seconds, median (range) of every repetition:\n\n"
	printf "| config | exit %d MiB | redis-server %d MiB |\n|---|---|---|\n", peer, redis
	split("stock mrelease sync async", cf, " ")
	for (i = 1; i <= 4; i++)
		printf "| %s | %s | %s |\n", cf[i], plain("avail", cf[i], peer, "%.2f"),
			cf[i] == "mrelease" ? "-" : plain("redisavail", cf[i], redis, "%.2f")
	printf "\nOther VMs on the host during the boots: %d at most.\n", others
}' "$@"
