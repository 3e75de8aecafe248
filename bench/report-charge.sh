#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The report of bench/bench.sh --charge-only, from its data file (each
# line "boot N " and a line of bench/guest/bench-charge.sh): markdown on
# stdout.
#
#   bench/report-charge.sh DATA...
#
# Several files (boots run in different sessions, say) count as one run
# of all their boots, numbered on from one file to the next.
#
# Ratios are stock's time over a configuration's, paired by repetition
# (the configurations alternate run by run); "charged/uncharged" is the
# uncharged run's time over the charged one's, the charged ratio over the
# uncharged ratio: issue 25's target is that it stays above 0.95.  Each
# cell is the median of the boots' medians, then the range of every
# repetition.  The workers' time per item is worker_ns over work_items,
# all runs of a configuration together.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=report-lib.sh
. "$top/bench/report-lib.sh"

report_awk '
function cell(test, what,    b, m, list) {
	list = ""
	for (b = 1; b <= boots; b++)
		if ((b, test, what) in per)
			list = list " " median(per[b, test, what])
	if (list == "")
		return "-"
	m = median(list)
	median(all_of[test, what])
	return sprintf("%.2f (%.2f-%.2f)", m, LO, HI)
}
function add(b, test, what, r) {
	per[b, test, what] = per[b, test, what] " " r
	all_of[test, what] = all_of[test, what] " " r
}
$1 == "boot" && $3 == "PF" {
	b = $2; t[b, $4, $5, $7] = $8; size[$4] = $6
	if (b > boots) boots = b
	tests[$4] = 1
	next
}
$1 == "boot" && $3 == "PFSTAT" && ($7 == "worker_ns" || $7 == "work_items") {
	st[$4, $7] += $8
	next
}
$1 == "boot" && $3 == "PFINFO" && $4 == "kernel" { kernel = $5; next }
$1 == "boot" && $3 == "PFINFO" && $4 == "charge" {
	# Files of runs before and after a change of REPS may be pooled.
	if (!minreps || $6 < minreps) minreps = $6
	if ($6 > maxreps) maxreps = $6
	mb = $8
	if ($11 == "control" && $12 == 1)
		control = 1
	next
}
$1 == "boot" && $3 == "PFHOST" && $4 == "other_vms" && $5 > others { others = $5 }
END {
	for (k in t) {
		split(k, f, SUBSEP)
		b = f[1]; test = f[2]; cfg = f[3]; rep = f[4]
		if (cfg == "stock" || !((b, test, "stock", rep) in t) || t[k] <= 0)
			continue
		add(b, test, cfg, t[b, test, "stock", rep] / t[k])
		if (cfg ~ /-nc$/ || !((b, test, cfg "-nc", rep) in t))
			continue
		add(b, test, cfg "/nc", t[b, test, cfg "-nc", rep] / t[k])
	}
	printf "## Charging the workers'\'' time, %s\n\n", kernel
	reps = minreps == maxreps ? minreps : minreps "-" maxreps
	printf "%d boots x %s repetitions of %d MiB, by a task in a cgroup of its own; ", boots, reps, mb
	printf "stock'\''s time over each configuration'\''s, paired by repetition: median of the boots'\'' medians (range of every repetition).  "
	printf "charged/uncharged: the uncharged time over the charged; the target is 0.95 or more.\n\n"
	if (control)
		printf "**A/A control (--charge-control): the configurations called uncharged here were charged too; their ratios are the bench'\''s noise, not the charge'\''s cost.**\n\n"
	printf "| test | stock/sync | stock/sync, uncharged | sync charged/uncharged | stock/async | stock/async, uncharged | async charged/uncharged |\n"
	printf "|---|---|---|---|---|---|---|\n"
	for (test in tests)
		printf "| %s %d MiB | %s | %s | %s | %s | %s | %s |\n", test, size[test],
			cell(test, "sync"), cell(test, "sync-nc"), cell(test, "sync/nc"),
			cell(test, "async"), cell(test, "async-nc"), cell(test, "async/nc")
	printf "\nThe workers'\'' time per work item (worker_ns / work_items, every run):\n\n"
	printf "| mode | charged | uncharged | difference |\n|---|---|---|---|\n"
	split("sync async", modes, " ")
	for (i = 1; i <= 2; i++) {
		m = modes[i]
		if (!st[m, "work_items"] || !st[m "-nc", "work_items"])
			continue
		c = st[m, "worker_ns"] / st[m, "work_items"] / 1000
		u = st[m "-nc", "worker_ns"] / st[m "-nc", "work_items"] / 1000
		printf "| %s | %.1f us (%d items) | %.1f us (%d items) | %+.1f us |\n", m,
			c, st[m, "work_items"], u, st[m "-nc", "work_items"], c - u
	}
	printf "\nOther VMs on the host during the boots: %d at most.\n", others
}' "$@"
